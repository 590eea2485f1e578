package lessons

import (
	"embed"
	"io/fs"
)

//go:embed course
var course embed.FS

// Course returns the built-in course. It is written in the same format as
// any lesson pack an instructor writes.
func Course() (*Pack, error) {
	sub, err := fs.Sub(course, "course")
	if err != nil {
		return nil, err
	}
	return Load(sub)
}
