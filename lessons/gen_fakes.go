//go:build ignore

// gen_fakes.go records what the fake clients make of the races lesson 15
// shows them on: every fenced block in lessons/course whose info string is
// "text fakes SCENARIO" gets, as its body, what the simulator and the
// three fakes answer on that race (fakes.RecordLesson). The tutorial does
// not link the fake libraries (-tags fakes does), so the lesson carries
// their answers as recorded here, and fakes.TestTestsLieRecordsTheFakes
// fails when they are out of date. `go generate ./lessons` runs it before
// gen_course.go, which compiles the course.
package main

import (
	"log"
	"os"
	"path/filepath"

	"github.com/conflictlab/conflictlab/fakes"
	"github.com/conflictlab/conflictlab/sim/scenario"
)

func main() {
	files, err := filepath.Glob("course/*.yaml")
	if err != nil {
		log.Fatal(err)
	}
	load := func(path string) (*scenario.Scenario, error) { return scenario.Load(filepath.Join("course", path)) }
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			log.Fatal(err)
		}
		out, err := fakes.RecordLesson(string(data), load)
		if err != nil {
			log.Fatalf("%s: %v", f, err)
		}
		if out != string(data) {
			if err := os.WriteFile(f, []byte(out), 0o644); err != nil {
				log.Fatal(err)
			}
		}
	}
}
