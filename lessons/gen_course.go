//go:build ignore

// gen_course.go writes course.bin: the built-in course (lessons/course)
// compiled (Compile), so that the binary does not parse it at run time.
// Run it with `go generate ./lessons` after changing the course;
// TestBuiltinCourseUpToDate fails until then.
package main

import (
	"log"
	"os"

	"github.com/conflictlab/conflictlab/lessons"
)

func main() {
	data, err := lessons.Compile(os.DirFS("course"))
	if err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile("course.bin", data, 0o644); err != nil {
		log.Fatal(err)
	}
}
