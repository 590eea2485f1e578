package raceview

import (
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/conflictlab/conflictlab/sim/race"
	"github.com/conflictlab/conflictlab/sim/scenario"
	"github.com/conflictlab/conflictlab/ui/styles"
	"github.com/conflictlab/conflictlab/ui/uitest"
)

// scenarioRace runs a scenario file with its own schedule.
func scenarioRace(t testing.TB, path string) *Run {
	t.Helper()
	sc, err := scenario.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	o, err := race.Run(sc, race.Schedule{})
	if err != nil {
		t.Fatal(err)
	}
	return &Run{Outcome: o}
}

func must(t *testing.T, v string, want ...string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(v, w) {
			t.Fatalf("missing %q:\n%s", w, v)
		}
	}
}

func mustNot(t *testing.T, v string, bad ...string) {
	t.Helper()
	for _, b := range bad {
		if strings.Contains(v, b) {
			t.Fatalf("shows %q:\n%s", b, v)
		}
	}
}

// TestInspectPanelKeys: i opens the selected row's details, ←/→ move to
// other rows with the panel open, ↓ scrolls, i closes.
func TestInspectPanelKeys(t *testing.T) {
	m := newView(fixtureRace(t, "lost-update", 1, "update"), false)
	last := len(m.Run().Outcome.Steps) - 1
	m.SetIndex(last)
	m, _ = press(m, "i")
	if !m.Inspecting() || m.Playing() {
		t.Fatalf("i did not open the panel (inspecting %v)", m.Inspecting())
	}
	v := view(m, 80, 24)
	must(t, v, fmt.Sprintf("step %d/%d · b · UPDATE cm1 rv 101", last+1, last+1),
		"precondition   rv 101", "field manager  b", "code           409 Conflict",
		`Operation cannot be fulfilled on configmaps "cm1"`)
	uitest.CheckFrame(t, m.View(), 80, 24)
	if !m.HandlesKey(uitest.Key("down")) || !m.HandlesKey(uitest.Key("esc")) {
		t.Fatal("with the panel open, ↓ and esc belong to it")
	}
	m, _ = press(m, "down", "down")
	if scrolled := view(m, 80, 24); scrolled == v {
		t.Fatal("↓ did not scroll the panel")
	}
	m, _ = press(m, "left")
	if m.Index() != last-1 || !m.Inspecting() {
		t.Fatalf("← should select the row before with the panel open: %d %v", m.Index(), m.Inspecting())
	}
	must(t, view(m, 80, 24), fmt.Sprintf("step %d/%d · b · ↓ MODIFIED 102", last, last+1), "watch event")
	m, _ = press(m, "i")
	if m.Inspecting() {
		t.Fatal("i did not close the panel")
	}
	if m.HandlesKey(uitest.Key("down")) {
		t.Fatal("with the panel closed, ↓ is not the race view's")
	}
	m, _ = press(m, "i", "esc")
	if m.Inspecting() {
		t.Fatal("esc did not close the panel")
	}
}

// TestInspectApplyConflictNamesFieldAndOwner: the 409 of an apply shows
// its causes, and the version a forced apply made lists its owners.
func TestInspectApplyConflictNamesFieldAndOwner(t *testing.T) {
	m := newView(scenarioRace(t, "../../examples/apply-conflict.yaml"), false)
	m.SetIndex(3) // b's apply: 409
	m, _ = press(m, "i")
	v := view(m, 100, 40)
	must(t, v, "APPLY", "cause", `conflict with "a"`, ".data.x", "force          false", "field manager  b")
	m, _ = press(m, "right", "right")
	v = view(m, 100, 40)
	must(t, v, "APPLY force", "force          true", "version it produced: RV 103", `~ data.x: "a" → "c"`, "managedFields:", "c (Apply): data.x")
}

// TestOwnershipStripInApplyRaces: an apply race shows who owns which
// field without a key press; an update race does not.
func TestOwnershipStripInApplyRaces(t *testing.T) {
	m := newView(scenarioRace(t, "../../examples/apply-conflict.yaml"), false)
	m.SetIndex(5)
	must(t, view(m, 80, 40), "owners at RV 103 (managedFields):", "c (Apply): data.x", "setup (Update): data.other")
	u := newView(fixtureRace(t, "lost-update", 0, ""), false)
	u.SetIndex(5)
	mustNot(t, view(u, 80, 40), "owners at RV")
}

// TestWriteLabelsAreWhatALearnerSays: patch kinds by name, not by media
// type; a /status write and its precondition.
func TestWriteLabelsAreWhatALearnerSays(t *testing.T) {
	m := newView(scenarioRace(t, "testdata/four-writers.yaml"), false)
	m.SetIndex(len(m.Run().Outcome.Steps) - 1)
	for _, size := range [][2]int{{80, 24}, {120, 40}} {
		v := view(m, size[0], size[1])
		must(t, v, "PATCH merge web no rv", "PATCH json web no rv", "UPDATE /status web rv 101", "c: UPDATE web rv 101", "→ ✗ 409 Conflict")
		mustNot(t, v, "application/", "…")
	}
	s := newView(scenarioRace(t, "../../examples/crd-strategic-415.yaml"), false)
	s.SetIndex(1)
	mustNot(t, view(s, 80, 24), "application/")
	must(t, view(s, 80, 24), "PATCH smp", "✗ 415 Unsupported")
	must(t, view(s, 120, 24), "✗ 415 UnsupportedMediaType")
}

// TestRowsNumberedLikeTheStatusLine: the current row carries the number
// the status line counts, and LOST notes use it too.
func TestRowsNumberedLikeTheStatusLine(t *testing.T) {
	m := newView(fixtureRace(t, "lost-update", 0, ""), false)
	m.SetIndex(5)
	v := view(m, 80, 40)
	must(t, v, "▶  6 ", "step 6/8", "written by b at step 6")
	m.SetIndex(len(m.Run().Outcome.Steps) - 1)
	must(t, view(m, 80, 40), "erased by b at step 6 (RV 103)")
	// GET answers are not drawn as writes.
	g := newView(scenarioRace(t, "../../examples/apply-conflict.yaml"), false)
	g.SetIndex(0)
	v = view(g, 120, 40)
	must(t, v, "✓ 200 · RV 101")
	mustNot(t, v, "200 → RV 101")
}

// TestLostNoteNeverWithoutItsRow: however short the window, the note
// under a write is shown with the write or not at all.
func TestLostNoteNeverWithoutItsRow(t *testing.T) {
	m := newView(fixtureRace(t, "lost-update", 0, ""), false)
	m.SetIndex(5)
	for h := 1; h <= 10; h++ {
		header, blocks := m.timelineLines(80)
		lines := windowBlocks(header, blocks, h)
		for i, l := range lines {
			if strings.Contains(ansi.Strip(l), "└ ✗ LOST") && (i == 0 || !strings.Contains(ansi.Strip(lines[i-1]), "UPDATE")) {
				t.Fatalf("h=%d: the LOST note shows without its write:\n%s", h, strings.Join(lines, "\n"))
			}
		}
	}
}

// TestRequeueIsARow: lesson 5's requeue shows as a row with its time.
func TestRequeueIsARow(t *testing.T) {
	m := newView(scenarioRace(t, "../../examples/requeue.yaml"), false)
	m.SetIndex(len(m.Run().Outcome.Steps) - 1)
	m, _ = press(m, "tab")
	v := view(m, 120, 80)
	must(t, v, "↻ ", "requeued, next try at", "backs off before its retry")
}

// TestOnlyManagedFieldsMovedSaysWhy: a write that changes no field but
// moves the owners explains its new resourceVersion.
func TestOnlyManagedFieldsMovedSaysWhy(t *testing.T) {
	prev := map[string]any{"metadata": map[string]any{"managedFields": []any{
		map[string]any{"manager": "a", "operation": "Apply", "fieldsV1": map[string]any{"f:data": map[string]any{"f:x": map[string]any{}}}}}}}
	cur := map[string]any{"metadata": map[string]any{"managedFields": []any{
		map[string]any{"manager": "a", "operation": "Apply", "fieldsV1": map[string]any{"f:data": map[string]any{"f:x": map[string]any{}}}},
		map[string]any{"manager": "b", "operation": "Apply", "fieldsV1": map[string]any{"f:data": map[string]any{"f:x": map[string]any{}}}}}}}
	m := New(styles.New(true, true))
	v := ansi.Strip(strings.Join(m.unchangedLines(prev, cur, "102", "103", 80), "\n"))
	must(t, v, "yet the version moved 102 → 103", "managedFields", "b became a field manager (Apply): data.x")
	if v := ansi.Strip(strings.Join(m.unchangedLines(prev, prev, "102", "102", 80), "\n")); !strings.Contains(v, "no field changed since RV 102") {
		t.Fatalf("an unchanged version: %s", v)
	}
}

// TestTourBeforeTheRace: the tour covers the race, holds playback, and a
// race key ends it and starts the race.
func TestTourBeforeTheRace(t *testing.T) {
	m := newView(fixtureRace(t, "lost-update", 0, ""), false)
	cmd := m.Reveal()
	m.ShowTour()
	must(t, view(m, 80, 24), "How to read a race", "cache a/b")
	m, _ = m.Update(cmd())
	if m.Index() != -1 {
		t.Fatal("the race played behind the tour")
	}
	m, _ = press(m, "J")
	if !m.Touring() {
		t.Fatal("J should scroll the tour, not end it")
	}
	m, cmd = press(m, "space")
	if m.Touring() || !m.Playing() || cmd == nil {
		t.Fatal("space should end the tour and play the race")
	}
	m.ShowTour()
	if m.Touring() {
		t.Fatal("the tour showed twice")
	}
}

// TestRaceViewGoldens: 2, 3 and 4 controllers at 80×24 and 120×40,
// finished, with no line cut or wider than the window.
func TestRaceViewGoldens(t *testing.T) {
	for _, c := range []struct {
		name string
		run  func() *Run
	}{
		{"two", func() *Run { return fixtureRace(t, "lost-update", 0, "") }},
		{"three", func() *Run { return scenarioRace(t, "../../examples/apply-conflict.yaml") }},
		{"four", func() *Run { return scenarioRace(t, "testdata/four-writers.yaml") }},
	} {
		for _, size := range [][2]int{{80, 24}, {120, 40}} {
			m := newView(c.run(), false)
			m.SetIndex(len(m.Run().Outcome.Steps) - 1)
			m.SetSize(size[0], size[1])
			frame := m.View()
			uitest.CheckFrame(t, frame, size[0], size[1])
			uitest.Golden(t, fmt.Sprintf("race-%s-%dx%d", c.name, size[0], size[1]), ansi.Strip(frame))
		}
	}
}

// The tour's legend describes the timeline as it is drawn: lanes named
// after the controllers when they fit, one "who: request → answer"
// column when they do not (lesson 1 step 1 at 80×24).
func TestTourDescribesTheLayoutOnScreen(t *testing.T) {
	oneCol := newView(courseRace(t, 1, 1), false)
	oneCol.SetIndex(0)
	if oneCol.geometry(79).lanes {
		t.Fatal("lesson 1 step 1 is drawn in lanes at 79 columns; the test wants one column")
	}
	must(t, view(oneCol, 79, 12), "who: request → answer")
	oneCol.ShowTour()
	v := view(oneCol, 79, 60)
	must(t, v, "who: request → answer", "the controller, what it sent", "RV 102 wrote a new version", "cache a/b", "t          the step's time")
	mustNot(t, v, "one lane per controller", "API server the answer")

	lanes := newView(fixtureRace(t, "lost-update", 0, ""), false)
	if !lanes.geometry(80).lanes {
		t.Fatal("the lost update is drawn in one column at 80 columns; the test wants lanes")
	}
	lanes.ShowTour()
	v = view(lanes, 80, 60)
	must(t, v, "one lane per controller", "API server the answer", "cache a/b")
	mustNot(t, v, "who: request → answer")
}
