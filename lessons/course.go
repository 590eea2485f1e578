package lessons

import (
	_ "embed"
	"fmt"
	"io/fs"
	"path"
	"strings"

	"github.com/conflictlab/conflictlab/lessons/internal/coursecodec"
	"github.com/conflictlab/conflictlab/sim/scenario"
	"github.com/conflictlab/conflictlab/userfile"
)

//go:generate go run gen_fakes.go
//go:generate go run gen_course.go

// courseBin is the built-in course, lessons/course, compiled: its lessons
// and the scenarios they race as parsed, and the rest of its files as
// they are (compiled, written by `go generate ./lessons`; a test fails
// while it is not what the course's files give). The course's YAML is not
// in the binary: parsing it took 30–50 ms, longer than the whole wait for
// the home screen; decoding this takes about a millisecond.
//
//go:embed course.bin
var courseBin string

// compiled is what course.bin holds.
type compiled struct {
	Lessons   []*Lesson
	Scenarios map[string]*scenario.Scenario
	// Files are the pack's files that are neither a lesson nor a scenario
	// a lesson races (a scenario only the quiz races; code a lesson
	// shows), by path: the pack reads them as files.
	Files map[string][]byte
}

// Course returns the built-in course: a new copy at each call. It is
// written in the same format as any lesson pack an instructor writes, and
// was read and checked when course.bin was made: here it is only decoded
// (under a millisecond).
func Course() (*Pack, error) {
	var c compiled
	if err := coursecodec.Decode(courseBin, &c); err != nil {
		return nil, fmt.Errorf("the built-in course (lessons/course.bin) does not decode, run `go generate ./lessons`: %w", err)
	}
	return &Pack{Lessons: c.Lessons, Scenarios: c.Scenarios, fsys: filesFS(c.Files)}, nil
}

// Compile reads the pack in fsys and returns it as course.bin holds it.
func Compile(fsys fs.FS) ([]byte, error) {
	p, err := Load(fsys)
	if err != nil {
		return nil, err
	}
	c := compiled{Lessons: p.Lessons, Scenarios: p.Scenarios, Files: map[string][]byte{}}
	parsed := map[string]bool{}
	for name := range p.Scenarios {
		parsed[path.Clean(name)] = true
	}
	err = fs.WalkDir(fsys, ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		lesson := !strings.Contains(name, "/") && (strings.HasSuffix(name, ".yaml") || strings.HasSuffix(name, ".yml"))
		if lesson || parsed[name] {
			return nil
		}
		data, err := userfile.ReadFS(fsys, name, MaxFileSize)
		if err != nil {
			return err
		}
		c.Files[name] = data
		return nil
	})
	if err != nil {
		return nil, err
	}
	return coursecodec.Encode(&c)
}
