package sandbox

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/conflictlab/conflictlab/sim/controller"
	"github.com/conflictlab/conflictlab/sim/scenario"
	"github.com/conflictlab/conflictlab/ui/styles"
)

// TestHintSaysWhyOutsideAChallenge: h does nothing outside a challenge;
// the status line says so instead of nothing happening.
func TestHintSaysWhyOutsideAChallenge(t *testing.T) {
	d := newDriver(t, nil)
	d.Press("h")
	must(t, d.View(), "h shows a hint: it works in a challenge")
	d.Press("tab", "h")
	must(t, d.View(), "h shows a hint: it works in a challenge")
}

// TestLoadOverUnsavedWorkAsks: l over a race with changes no file holds
// asks y/n in the status line; n keeps the race, y opens the load prompt.
// A race just saved or loaded loads over without asking.
func TestLoadOverUnsavedWorkAsks(t *testing.T) {
	d := newDriver(t, nil)
	if sb(d).Unsaved() {
		t.Fatal("the starting race counts as unsaved work")
	}
	d.Press("l")
	must(t, d.View(), "Load a scenario or level file")
	d.Press("esc")

	rowOf(t, d, "a", "write")
	d.Press("right")
	if !sb(d).Unsaved() {
		t.Fatal("a changed write method does not count as unsaved work")
	}
	d.Press("l")
	must(t, d.View(), "not saved to a file", "load anyway? y loads · n keeps it")
	if !sb(d).CapturesKeys() {
		t.Fatal("the question does not take the keys (q would quit)")
	}
	d.Press("n")
	must(t, d.View(), "kept the race you are building")
	if strings.Contains(d.View(), "Load a scenario or level file") {
		t.Fatal("n opened the load prompt")
	}
	d.Press("l", "y")
	must(t, d.View(), "Load a scenario or level file")
	d.Press("esc")

	// Saved to a file, the race is no longer unsaved work.
	d.Press("s", "ctrl+u")
	typeText(d, filepath.Join(t.TempDir(), "mine.yaml"))
	d.Press("enter")
	if sb(d).Unsaved() {
		t.Fatal("a race saved to a file still counts as unsaved")
	}
	d.Press("l")
	must(t, d.View(), "Load a scenario or level file")
}

// TestDraftRestores: the kept draft is the race with its steps; restored
// in a new sandbox it is the same race, replayed, said in the status
// line, and still unsaved work (no file holds it).
func TestDraftRestores(t *testing.T) {
	d := newDriver(t, nil)
	open(t, d, testRace(t, "a.write=update-clear-rv", "b.write=update-clear-rv"))
	d.Press("a", "b")
	data, err := sb(d).Draft()
	if err != nil {
		t.Fatal(err)
	}
	sc, err := scenario.Parse("draft.yaml", data)
	if err != nil {
		t.Fatalf("the draft does not parse: %v\n%s", err, data)
	}
	m := NewIn(stopped, styles.New(true, true), nil)
	m.SetSize(100, 30)
	if err := m.Restore(sc); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(scenario.Tokens(m.Taken()), " "); got != "a b" {
		t.Fatalf("restored schedule %q, want a b", got)
	}
	if w := m.Scenario().Controllers[0].Write; w != controller.UpdateClearRV {
		t.Fatalf("restored write %s", w)
	}
	if !m.Unsaved() {
		t.Fatal("a restored draft does not count as unsaved work")
	}
	must(t, m.View(), "restored the race you were building")

	// During a challenge the draft is the learner's own race, set aside.
	d.Press("tab", "tab", "down", "enter")
	data2, err := sb(d).Draft()
	if err != nil {
		t.Fatal(err)
	}
	if sc2, err := scenario.Parse("draft.yaml", data2); err != nil || sc2.Controllers[0].Write != controller.UpdateClearRV {
		t.Fatalf("draft during a challenge: %v\n%s", err, data2)
	}
}
