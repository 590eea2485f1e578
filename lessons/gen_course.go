//go:build ignore

// gen_course.go writes course_gen.go: the built-in course (lessons/course)
// as Go values, so that the binary does not parse it at run time. Run it
// with `go generate ./lessons` after changing the course;
// TestBuiltinCourseUpToDate fails until then.
package main

import (
	"log"
	"os"

	"github.com/conflictlab/conflictlab/lessons"
	"github.com/conflictlab/conflictlab/lessons/internal/coursegen"
)

func main() {
	p, err := lessons.Load(os.DirFS("course"))
	if err != nil {
		log.Fatal(err)
	}
	src, err := coursegen.Generate(p, "lessons/course")
	if err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile("course_gen.go", src, 0o644); err != nil {
		log.Fatal(err)
	}
}
