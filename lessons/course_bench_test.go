package lessons_test

import (
	"os"
	"testing"

	"github.com/conflictlab/conflictlab/lessons"
)

// BenchmarkCourseFromYAML is BenchmarkCourse's anchor: the same course
// parsed from its YAML files (lessons/course), as it would be without
// course.bin. Run both in one go test invocation:
//
//	go test ./lessons -run '^$' -bench '^BenchmarkCourse' -benchmem
func BenchmarkCourseFromYAML(b *testing.B) {
	fsys := os.DirFS("course")
	for i := 0; i < b.N; i++ {
		if _, err := lessons.Load(fsys); err != nil {
			b.Fatal(err)
		}
	}
}
