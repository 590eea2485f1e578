package lessons_test

import (
	"bytes"
	"os"
	"reflect"
	"testing"

	"github.com/conflictlab/conflictlab/lessons"
	"github.com/conflictlab/conflictlab/lessons/internal/coursegen"
)

// TestBuiltinCourseUpToDate: course_gen.go is what `go generate
// ./lessons` writes from the course's files as they are now.
func TestBuiltinCourseUpToDate(t *testing.T) {
	p, err := lessons.Load(os.DirFS("course"))
	if err != nil {
		t.Fatal(err)
	}
	want, err := coursegen.Generate(p, "lessons/course")
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile("course_gen.go")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatal("lessons/course_gen.go is stale: run `go generate ./lessons`")
	}
}

// TestBuiltinCourseIsTheParsedCourse: the compiled course is, value for
// value, the course Load reads from its files, and each call gives a copy
// of its own (a caller that edits its pack never edits another's).
func TestBuiltinCourseIsTheParsedCourse(t *testing.T) {
	parsed, err := lessons.Load(os.DirFS("course"))
	if err != nil {
		t.Fatal(err)
	}
	built, err := lessons.Course()
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(built.Lessons, parsed.Lessons) {
		t.Error("the compiled course's lessons differ from the parsed ones")
	}
	if !reflect.DeepEqual(built.Scenarios, parsed.Scenarios) {
		t.Error("the compiled course's scenarios differ from the parsed ones")
	}
	// Snippets are still read from the embedded files.
	if _, err := built.Snippet(built.Lessons[0].Steps[0].Race.Scenario); err != nil {
		t.Errorf("the compiled course cannot read its files: %v", err)
	}
	built.Lessons[0].Title = "changed"
	built.Scenarios["extra"] = nil
	again, err := lessons.Course()
	if err != nil {
		t.Fatal(err)
	}
	if again.Lessons[0].Title == "changed" || len(again.Scenarios) != len(parsed.Scenarios) {
		t.Error("a change to one copy of the course shows in the next")
	}
}

func BenchmarkCourse(b *testing.B) {
	for i := 0; i < b.N; i++ {
		if _, err := lessons.Course(); err != nil {
			b.Fatal(err)
		}
	}
}
