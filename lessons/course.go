package lessons

import (
	"embed"
	"io/fs"
)

//go:generate go run gen_course.go

//go:embed course
var course embed.FS

// builtinCourse returns the built-in course compiled into the binary
// (course_gen.go, written by `go generate` from lessons/course): a new
// copy at each call. Nil without course_gen.go, and then the course is
// parsed from its files.
var builtinCourse func() *Pack

// Course returns the built-in course. It is written in the same format as
// any lesson pack an instructor writes, and was read and checked when the
// program was built: here it is only put together (microseconds, where
// parsing its YAML took ~28 ms before the home screen could appear).
func Course() (*Pack, error) {
	sub, err := fs.Sub(course, "course")
	if err != nil {
		return nil, err
	}
	if builtinCourse != nil {
		p := builtinCourse()
		p.fsys = sub
		return p, nil
	}
	return Load(sub)
}
