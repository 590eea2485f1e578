package raceview

import (
	"os"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/conflictlab/conflictlab/lessons"
	"github.com/conflictlab/conflictlab/sim/race"
	"github.com/conflictlab/conflictlab/sim/scenario"
	"github.com/conflictlab/conflictlab/ui/styles"
	"github.com/conflictlab/conflictlab/ui/uitest"
)

// race runs a step of the fixture course (the first two lessons).
func fixtureRace(t *testing.T, lesson string, step int, opt string) *Run {
	t.Helper()
	p, err := lessons.Load(os.DirFS("../testdata/course"))
	if err != nil {
		t.Fatal(err)
	}
	s := p.Lesson(lesson).Steps[step]
	var o *lessons.Option
	for i := range s.Options {
		if s.Options[i].ID == opt {
			o = &s.Options[i]
		}
	}
	out, err := p.Run(s, o)
	if err != nil {
		t.Fatal(err)
	}
	return &Run{Outcome: out}
}

func view(m Model, w, h int) string {
	m.SetSize(w, h)
	return ansi.Strip(m.View())
}

func newView(r *Run, hidden bool) Model {
	m := New(styles.New(true, true))
	m.Tick = uitest.Ticker
	m.SetRun(r, hidden)
	return m
}

func press(m Model, keys ...string) (Model, tea.Cmd) {
	var cmd tea.Cmd
	for _, k := range keys {
		m, cmd = m.Update(uitest.Key(k))
	}
	return m, cmd
}

func TestStepForwardBackAndRestart(t *testing.T) {
	m := newView(fixtureRace(t, "lost-update", 0, ""), false)
	last := len(m.Run().Outcome.Steps) - 1
	m, _ = press(m, "right", "right", ".")
	if m.Index() != 2 || m.Playing() {
		t.Fatalf("after three steps: index %d playing %v", m.Index(), m.Playing())
	}
	m, _ = press(m, "left", ",")
	if m.Index() != 0 {
		t.Fatalf("after two steps back: index %d", m.Index())
	}
	m, _ = press(m, "left", "left")
	if m.Index() != -1 {
		t.Fatalf("stepping back past the start: index %d", m.Index())
	}
	for i := 0; i < last+5; i++ {
		m, _ = press(m, "right")
	}
	if m.Index() != last || !m.Finished() {
		t.Fatalf("stepping past the end: index %d of %d", m.Index(), last)
	}
	m, cmd := press(m, "r")
	if m.Index() != -1 || !m.Playing() || cmd == nil {
		t.Fatalf("restart: index %d playing %v", m.Index(), m.Playing())
	}
}

func TestPlayPauseAndStaleTicks(t *testing.T) {
	m := newView(fixtureRace(t, "lost-update", 0, ""), false)
	m, cmd := press(m, "space")
	if !m.Playing() || cmd == nil {
		t.Fatal("space did not start playback")
	}
	tick := cmd()
	m, cmd = m.Update(tick)
	if m.Index() != 0 || cmd == nil {
		t.Fatalf("a tick should show step 0 and schedule the next: %d", m.Index())
	}
	next := cmd()
	m, _ = press(m, "space")
	if m.Playing() {
		t.Fatal("space did not pause")
	}
	m, _ = m.Update(next)
	if m.Index() != 0 {
		t.Fatal("a tick scheduled before the pause advanced the race")
	}
	// A tick from another view (another race on screen) is ignored too.
	other := newView(m.Run(), false)
	_, c := press(other, "space")
	m, _ = press(m, "space")
	m, _ = m.Update(c())
	if m.Index() != 0 {
		t.Fatal("another view's tick advanced this race")
	}
	// Playing to the end stops by itself.
	for m.Playing() {
		var c tea.Cmd
		m, c = m.Update(TickMsg{id: m.id, gen: m.gen})
		_ = c
	}
	if !m.Finished() {
		t.Fatal("playback stopped before the end")
	}
	m, _ = press(m, "space")
	if m.Index() != -1 || !m.Playing() {
		t.Fatal("play at the end should start again from the beginning")
	}
}

func TestSpeedKeys(t *testing.T) {
	m := newView(fixtureRace(t, "lost-update", 0, ""), false)
	if m.Speed() != "1x" {
		t.Fatalf("default speed %s", m.Speed())
	}
	m, _ = press(m, "+", "+")
	if m.Speed() != "4x" {
		t.Fatalf("after ++: %s", m.Speed())
	}
	m, _ = press(m, "+", "+", "+")
	if m.Speed() != Speeds[len(Speeds)-1].Label {
		t.Fatalf("speed ran past the fastest: %s", m.Speed())
	}
	for i := 0; i < 10; i++ {
		m, _ = press(m, "-")
	}
	if m.Speed() != Speeds[0].Label {
		t.Fatalf("speed ran past the slowest: %s", m.Speed())
	}
	if !strings.Contains(view(m, 80, 20), Speeds[0].Label) {
		t.Fatal("the speed is not shown")
	}
}

// TestHiddenRaceRevealsNothing: a predict step must not give the answer
// away before the learner commits, not even by keys.
func TestHiddenRaceRevealsNothing(t *testing.T) {
	m := newView(fixtureRace(t, "lost-update", 0, ""), true)
	m, cmd := press(m, "space", "right", "right", "o", "r")
	if cmd != nil || m.Index() != -1 || m.Playing() {
		t.Fatal("keys moved a hidden race")
	}
	for _, size := range [][2]int{{80, 12}, {74, 36}, {200, 60}} {
		v := view(m, size[0], size[1])
		for _, bad := range []string{"LOST", "200", "409", "RV 102", "RV 103", "finished", "replicas: \"3\""} {
			if strings.Contains(v, bad) {
				t.Fatalf("hidden race at %v shows %q:\n%s", size, bad, v)
			}
		}
		if !strings.Contains(v, "Before the race") || !strings.Contains(v, "read lister · set data.owner=a") {
			t.Fatalf("the setup is not shown:\n%s", v)
		}
	}
	if cmd := m.Reveal(); cmd == nil || m.Hidden() || !m.Playing() {
		t.Fatal("Reveal should show and play the race")
	}
}

// TestHiddenRaceScrolls: the setup shown before the answer can be taller
// than the pane, and its "↓ more (J)" must mean what it says: J scrolls it
// (reaching the object at its foot) and K scrolls back.
func TestHiddenRaceScrolls(t *testing.T) {
	m := newView(fixtureRace(t, "lost-update", 0, ""), true)
	top := view(m, 80, 8)
	if !strings.Contains(top, "↓ more (J)") {
		t.Fatalf("the setup fits in 8 lines; the test needs it taller:\n%s", top)
	}
	for i := 0; i < 40; i++ {
		m, _ = press(m, "J")
	}
	bottom := view(m, 80, 8)
	if bottom == top || strings.Contains(bottom, "↓ more (J)") {
		t.Fatalf("J did not scroll the setup to its end:\n%s", bottom)
	}
	if m.Index() != -1 || m.Playing() {
		t.Fatal("scrolling moved the hidden race")
	}
	for i := 0; i < 40; i++ {
		m, _ = press(m, "K")
	}
	if v := view(m, 80, 8); v != top {
		t.Fatalf("K did not scroll back to the top:\n%s", v)
	}
}

func TestLostFieldIsMarkedInWordsAndSymbols(t *testing.T) {
	m := newView(fixtureRace(t, "lost-update", 0, ""), false)
	m.SetIndex(5) // b's write, which erases a's key
	v := view(m, 74, 36)
	for _, want := range []string{
		"UPDATE cm1 no rv", "✓ 200 → RV 103", // the request, the RV it sent, the answer
		"└ ✗ LOST data.owner: a's change erased by this write", // on the timeline
		"✗   owner: a   LOST", // the ghost line in the YAML
		"set by a at step 3 (set data.owner=a); erased by b's UPDATE cm1 at", // who set it, which write erased it
		"+   replicas: \"3\"", "~   resourceVersion: \"103\"",
	} {
		if !strings.Contains(v, want) {
			t.Fatalf("missing %q:\n%s", want, v)
		}
	}
	m.SetIndex(2)
	v = view(m, 74, 36)
	if strings.Contains(v, "LOST") {
		t.Fatalf("the loss shows before the write that causes it:\n%s", v)
	}
	if !strings.Contains(v, "+   owner: a") {
		t.Fatalf("a's write not marked as added:\n%s", v)
	}
}

func TestStaleCachesAreMarked(t *testing.T) {
	m := newView(fixtureRace(t, "lost-update", 0, ""), false)
	m.SetIndex(2)
	v := view(m, 80, 20)
	if !strings.Contains(v, "101*/101*") || !strings.Contains(v, "* cache behind server") {
		t.Fatalf("stale caches not marked:\n%s", v)
	}
}

func TestConflictAndVerdict(t *testing.T) {
	m := newView(fixtureRace(t, "lost-update", 1, "update"), false)
	m.SetIndex(len(m.Run().Outcome.Steps) - 1)
	v := view(m, 80, 30)
	for _, want := range []string{"UPDATE cm1 rv 101", "✗ 409 Conflict", "b got 1 × 409 Conflict", "nothing was lost"} {
		if !strings.Contains(v, want) {
			t.Fatalf("missing %q:\n%s", want, v)
		}
	}
}

func TestObjectToggleAndShortWindows(t *testing.T) {
	m := newView(fixtureRace(t, "lost-update", 0, ""), false)
	m.SetIndex(5)
	short := view(m, 80, 12)
	if !strings.Contains(short, `- data.owner: "a" ✗ LOST (a's change)`) {
		t.Fatalf("a short window should list the changes:\n%s", short)
	}
	m, _ = press(m, "o")
	obj := view(m, 80, 12)
	if !m.ObjectOnly() || strings.Contains(obj, "API server") || !strings.Contains(obj, "kind: ConfigMap") {
		t.Fatalf("o should show the object alone:\n%s", obj)
	}
	m, _ = press(m, "J", "J")
	if scrolled := view(m, 80, 12); scrolled == obj {
		t.Fatal("J did not scroll the object")
	}
	for _, size := range [][2]int{{1, 1}, {8, 3}, {300, 100}} {
		m.SetSize(size[0], size[1])
		uitest.CheckFrame(t, m.View(), size[0], size[1])
	}
}

// TestOpenRunIsNotCalledFinished: the sandbox shows a race as far as it
// has been played; until it ends, nothing says "finished" or "stopped",
// but a loss is reported as soon as it happens.
func TestOpenRunIsNotCalledFinished(t *testing.T) {
	full := fixtureRace(t, "lost-update", 0, "")
	for _, c := range []struct {
		upTo int
		want string
		bad  []string
	}{
		{2, "", []string{"finished", "stopped", "LOST", "paused"}},
		{5, "✗ so far: a change was lost", []string{"finished"}},
	} {
		o := *full.Outcome
		o.Steps = o.Steps[:c.upTo+1]
		o.Verdict = race.VerdictUnfinished
		o.Controllers = append([]race.ControllerResult(nil), o.Controllers...)
		o.Controllers[1].Status = "running"
		if c.upTo < 5 {
			o.Lost = nil
		} else {
			o.Verdict = race.VerdictLost
		}
		m := newView(&Run{Outcome: &o}, false)
		m.SetOpen(true)
		m.SetIndex(c.upTo)
		v := view(m, 100, 40)
		if c.want != "" && !strings.Contains(v, c.want) {
			t.Fatalf("step %d lacks %q:\n%s", c.upTo, c.want, v)
		}
		for _, b := range c.bad {
			if strings.Contains(v, b) {
				t.Fatalf("step %d shows %q:\n%s", c.upTo, b, v)
			}
		}
	}
}

// A Lister list (a create looking for its child first) says what the
// cache held, as the CLI does: "none in cache", not an RV that was never
// read.
func TestListerListSaysWhatTheCacheHeld(t *testing.T) {
	const file = "../../lessons/course/scenarios/ryw-double-create.yaml"
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	sc, err := scenario.Parse(file, data)
	if err != nil {
		t.Fatal(err)
	}
	out, err := race.Run(sc, race.Schedule{Moves: sc.Schedule})
	if err != nil {
		t.Fatal(err)
	}
	m := newView(&Run{Outcome: out}, false)
	for range out.Steps {
		m, _ = press(m, "right")
	}
	v := view(m, 120, 40)
	if !strings.Contains(v, "lister: none in cache") {
		t.Fatalf("the create's Lister list does not say what it found:\n%s", v)
	}
	if strings.Contains(v, "lister → RV \n") || strings.Contains(v, "lister → RV  ") {
		t.Fatalf("a Lister list shows an empty RV:\n%s", v)
	}
}

// TestLongRacesStartFaster: a race that would take more than half a
// minute at 1x starts at the slowest speed that plays it within that
// (lesson 5's 106-step race: 4x, 19 s); a short one at 1x; a speed the
// learner chose is kept for the next race.
func TestLongRacesStartFaster(t *testing.T) {
	long := courseRace(t, 5, 1)
	if n := len(long.Outcome.Steps); n < 100 {
		t.Fatalf("lesson 5 step 1's race has %d steps; the test wants a long one", n)
	}
	short := fixtureRace(t, "lost-update", 0, "")
	m := newView(short, false)
	if m.Speed() != "1x" {
		t.Fatalf("a %d-step race starts at %s, want 1x", len(short.Outcome.Steps), m.Speed())
	}
	m.SetRun(long, false)
	if m.Speed() != "4x" {
		t.Fatalf("a %d-step race starts at %s, want 4x", len(long.Outcome.Steps), m.Speed())
	}
	m.SetRun(short, false)
	if m.Speed() != "1x" {
		t.Fatalf("back on a short race: %s, want 1x", m.Speed())
	}
	m, _ = press(m, "-")
	m.SetRun(long, false)
	if m.Speed() != "0.5x" {
		t.Fatalf("the learner's 0.5x became %s on the next race", m.Speed())
	}
}
