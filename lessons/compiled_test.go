package lessons_test

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"reflect"
	"testing"

	"github.com/conflictlab/conflictlab/lessons"
)

// TestBuiltinCourseUpToDate: course.bin is what `go generate ./lessons`
// writes from the course's files as they are now.
func TestBuiltinCourseUpToDate(t *testing.T) {
	want, err := lessons.Compile(os.DirFS("course"))
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile("course.bin")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatal("lessons/course.bin is not what lessons/course gives: run `go generate ./lessons`")
	}
}

// TestBuiltinCourseIsTheParsedCourse: the compiled course is, value for
// value, the course Load reads from its files, and each call gives a copy
// of its own (a caller that edits its pack never edits another's). The
// files no lesson parses are still files of the pack, and the files it
// parses are not kept a second time.
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
	// A scenario only the quiz races is a file of the pack.
	const quizOnly = "scenarios/gen-deploy-annotate.yaml"
	if _, raced := parsed.Scenarios[quizOnly]; raced {
		t.Fatalf("%s is raced by a lesson: pick another file for this test", quizOnly)
	}
	want, err := os.ReadFile("course/" + quizOnly)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := built.Snippet(quizOnly); err != nil || !bytes.Equal(got, want) {
		t.Errorf("the compiled course's %s: %v", quizOnly, err)
	}
	raced := built.Lessons[0].Steps[0].Race.Scenario
	if _, err := built.Snippet(raced); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the compiled course keeps %s as a file too (or fails otherwise: %v)", raced, err)
	}
	if _, err := built.Snippet("../course.go"); err == nil {
		t.Error("the compiled course reads a file outside itself")
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
