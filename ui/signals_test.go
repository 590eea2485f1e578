package ui

import (
	"testing"

	"github.com/conflictlab/conflictlab/progress"
)

// TestSaveOnExitWritesWhatNoCommandSaved: the program may end (q, or a
// signal) before the command writing the last answer has run; the save
// after the program ends writes it.
func TestSaveOnExitWritesWhatNoCommandSaved(t *testing.T) {
	cfg := testConfig(t)
	d := start(t, cfg, 100, 30)
	app(d).Progress().Lesson("lost-update").Record(0, true) // no save command ran
	if got, _ := progress.Open(cfg.ProgressPath).Load(); got.Lessons["lost-update"] != nil {
		t.Fatal("the answer is on disk before the exit save: the test proves nothing")
	}
	if err := saveOnExit(d.Model); err != nil {
		t.Fatal(err)
	}
	got, _ := progress.Open(cfg.ProgressPath).Load()
	if l := got.Lessons["lost-update"]; l == nil || l.Answers[0].Attempts != 1 {
		t.Fatalf("the last answer was not saved on exit: %+v", l)
	}
}
