package sandbox

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/conflictlab/conflictlab/progress"
	"github.com/conflictlab/conflictlab/sandbox/draft"
	"github.com/conflictlab/conflictlab/sim/api"
	"github.com/conflictlab/conflictlab/sim/controller"
	"github.com/conflictlab/conflictlab/sim/race"
	"github.com/conflictlab/conflictlab/sim/scenario"
	"github.com/conflictlab/conflictlab/ui/styles"
	"github.com/conflictlab/conflictlab/ui/uitest"
)

// harness makes the sandbox a tea.Model for the test driver; it applies
// the progress the sandbox sends, as the root does.
type harness struct{ m Model }

func (h harness) Init() tea.Cmd { return nil }
func (h harness) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		h.m.SetSize(msg.Width, msg.Height)
		return h, nil
	case progress.Change:
		h.m.prog.Apply(msg)
		return h, nil
	}
	m, cmd := h.m.Update(msg)
	return harness{m}, cmd
}
func (h harness) View() tea.View { return tea.NewView(h.m.View()) }

// stopped is the tests' environment: elapsed times show on the explore
// tab, so the clock stands still.
var stopped = Env{Clock: func() time.Time { return time.Time{} }}

func newDriver(t testing.TB, prog *progress.Progress) *uitest.Driver {
	m := NewIn(stopped, styles.New(true, true), prog)
	m.SetTicker(uitest.Ticker)
	return uitest.New(t, harness{m}, 100, 30)
}

func sb(d *uitest.Driver) Model { return d.Model.(harness).m }

func schedule(d *uitest.Driver) string { return strings.Join(scenario.Tokens(sb(d).Taken()), " ") }

func must(t *testing.T, v string, want ...string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(v, w) {
			t.Fatalf("screen lacks %q:\n%s", w, v)
		}
	}
}

func open(t *testing.T, d *uitest.Driver, sc *scenario.Scenario) {
	t.Helper()
	h := d.Model.(harness)
	if err := h.m.Open(sc, ""); err != nil {
		t.Fatal(err)
	}
	d.Model = h
}

// race builds a two-controller race on cm1 from settings.
func testRace(t *testing.T, settings ...string) *scenario.Scenario {
	t.Helper()
	sc := draft.New()
	for _, s := range settings {
		if err := draft.Apply(sc, s); err != nil {
			t.Fatal(err)
		}
	}
	return sc
}

func TestSchedulerKeysUndoAndRestart(t *testing.T) {
	d := newDriver(t, nil)
	d.Press("tab")
	if sb(d).Tab() != "race" {
		t.Fatalf("tab went to %s", sb(d).Tab())
	}
	d.Press("1", "b", "a")
	if got := schedule(d); got != "a b a" {
		t.Fatalf("after 1, b, a: %q", got)
	}
	must(t, d.View(), "UPDATE cm1 rv 101", "✓ 200 → RV 102", "next: UPDATE cm1 rv 101")
	d.Press("u")
	if got := schedule(d); got != "a b" {
		t.Fatalf("undo: %q", got)
	}
	if strings.Contains(d.View(), "RV 102") {
		t.Fatalf("the undone write still shows:\n%s", d.View())
	}
	d.Press("a", "2", "2")
	must(t, d.View(), "✗ 409 Conflict", "b got 1 × 409 Conflict", "race over after 4 turns")
	d.Press("1")
	must(t, d.View(), "a has finished")
	d.Press("r")
	if got := schedule(d); got != "" {
		t.Fatalf("restart left %q", got)
	}
	d.Press("u")
	must(t, d.View(), "nothing to undo")
}

func TestManualLagIsStepByShift(t *testing.T) {
	d := newDriver(t, nil)
	open(t, d, testRace(t, "a.lag=manual", "a.write=update-clear-rv", "b.write=update-clear-rv"))
	d.Press("!")
	must(t, d.View(), "cache has seen every write")
	d.Press("2", "2") // b reads and writes: a's cache is now behind
	must(t, d.View(), "MODIFIED 102 waiting")
	d.Press("A")
	if got := schedule(d); got != "b b a.cache" {
		t.Fatalf("A should deliver a's watch event: %q", got)
	}
	d.Press("2")
	must(t, d.View(), "b has finished")
	d.Press("@")
	must(t, d.View(), "b's informer lag is not manual")
}

// TestAutoplayMatchesTheCLI: round-robin and seeded random autoplay take
// the steps race.Play takes, so a race found here replays with
// conflictlab sim --seed.
func TestAutoplayMatchesTheCLI(t *testing.T) {
	sc := testRace(t, "a.lag=manual", "b.retry=default")
	for _, random := range []bool{false, true} {
		d := newDriver(t, nil)
		open(t, d, sc)
		sched := race.Schedule{Moves: scenario.MustMoves()}
		if random {
			d.Press("n", "n") // random, seed 3
			seed := uint64(3)
			sched = race.Schedule{Seed: &seed}
		}
		d.Press("space")
		d.PlayAll()
		want, err := race.Run(draft.Clone(sc), sched)
		if err != nil {
			t.Fatal(err)
		}
		if got := schedule(d); got != strings.Join(scenario.Tokens(want.Schedule), " ") {
			t.Fatalf("random=%v: autoplay took %q, the CLI %q", random, got, strings.Join(scenario.Tokens(want.Schedule), " "))
		}
		must(t, d.View(), "race over after")
	}
}

func TestAutoplayStopsOnEscAndKeepsSpeed(t *testing.T) {
	d := newDriver(t, nil)
	d.Press("tab", "+", "+", "space")
	d.Tick(1)
	must(t, d.View(), "▶ running", "at 4x")
	d.Press("esc")
	n := len(sb(d).Taken())
	d.PlayAll()
	if len(sb(d).Taken()) != n || n != 1 {
		t.Fatalf("esc did not stop autoplay: %d then %d steps", n, len(sb(d).Taken()))
	}
}

func TestBreakChallengeKeepsTheBest(t *testing.T) {
	prog := progress.New()
	d := newDriver(t, prog)
	d.Press("shift+tab", "enter") // the first challenge: a merge patch's finalizers
	if sb(d).Tab() != "race" {
		t.Fatalf("a challenge opens on the race tab, not %s", sb(d).Tab())
	}
	must(t, d.View(), "Goal: Find an order of steps after which a finalizer someone added is gone", "moves 0 · par 4")
	d.Press("1", "1", "2", "2")
	if _, ok := prog.Challenges["break-merge-patch"]; ok {
		t.Fatal("an order that lost nothing was scored")
	}
	d.Press("r", "a", "b", "b", "a")
	must(t, d.View(), "Solved with 4 moves (par 4) · a new best")
	if got := prog.Challenges["break-merge-patch"]; got == nil || got.Best != 4 {
		t.Fatalf("best: %+v", got)
	}
	d.Press("r", "a", "b", "b", "a")
	if strings.Contains(d.View(), "a new best") {
		t.Fatal("an equal score was called a new best")
	}
	d.Press("e")
	must(t, d.View(), "no explorer during a challenge")
	d.Press("shift+tab", "right")
	must(t, d.View(), "locked: the race is the challenge's")
	d.Press("esc")
	if sb(d).Tab() != "challenges" || strings.Contains(d.View(), "◆") {
		t.Fatalf("esc should leave the challenge:\n%s", d.View())
	}
	must(t, d.View(), "✓ best 4 moves · par")
	if sb(d).Scenario().Name != "sandbox" {
		t.Fatalf("leaving the challenge did not give back the learner's race: %s", sb(d).Scenario().Name)
	}
}

// rowOf moves the build cursor to the row whose text has both parts.
func rowOf(t *testing.T, d *uitest.Driver, ctl, label string) {
	t.Helper()
	h := d.Model.(harness)
	for i, r := range h.m.rows() {
		section, l, _, _ := h.m.describeRow(r)
		owned := r.kind == rowController || r.kind == rowSetting || r.kind == rowMutation || r.kind == rowAddMutation
		if l == label && (!owned && section == ctl || owned && h.m.sc.Controllers[r.ctl].Name == ctl) {
			h.m.build.cursor = i
			d.Model = h
			return
		}
	}
	t.Fatalf("no row %s %s", ctl, label)
}

// A fix challenge is a settings table with the change count and par, and
// the explorer's proof; a solution is kept as the best.
func TestFixChallengeIsProvenByTheExplorer(t *testing.T) {
	prog := progress.New()
	d := newDriver(t, prog)
	d.Press("shift+tab", "down", "enter") // finalizers, three ways
	if sb(d).Tab() != "race" {
		t.Fatalf("a challenge opens on the race tab, not %s", sb(d).Tab())
	}
	must(t, d.View(), "changes: 0 · par 2")
	d.Press("enter")
	must(t, d.View(), "lost")
	d.Press("right") // a.write: merge-patch → strategic-patch
	must(t, d.View(), "changes: 1 · par 2")
	d.Press("down", "down", "right", "enter") // b.write too, and prove
	must(t, d.View(), "Solved with 2 changes (par 2) · a new best")
	if got := prog.Challenges["fix-finalizers"]; got == nil || got.Best != 2 {
		t.Fatalf("best: %+v", got)
	}
}

func typeText(d *uitest.Driver, s string) {
	for _, r := range s {
		if r == ' ' {
			d.Press("space")
			continue
		}
		d.Press(string(r))
	}
}

func TestEditorForms(t *testing.T) {
	d := newDriver(t, nil)
	d.Press("enter", "ctrl+u")
	typeText(d, "my race")
	d.Press("enter")
	if sb(d).Scenario().Name != "my race" {
		t.Fatalf("name: %q", sb(d).Scenario().Name)
	}
	rowOf(t, d, "a", "change 1")
	d.Press("enter", "ctrl+u")
	typeText(d, "upsert data.x = 1")
	d.Press("enter")
	must(t, d.View(), `✗ "upsert": start with one of set,`)
	if !sb(d).CapturesKeys() {
		t.Fatal("a refused edit closed the field")
	}
	d.Press("ctrl+u")
	typeText(d, "set data.count = 7")
	d.Press("enter")
	if got := draft.FormatMutation(sb(d).Scenario().Controllers[0].Mutations[0]); got != `set data.count = "7"` {
		t.Fatalf("mutation: %s", got)
	}
	rowOf(t, d, "a", "write")
	d.Press("right", "right", "right")
	must(t, d.View(), "‹ merge-patch ›", "with RV", "JSON merge patch of what it changed")
	d.Press("down", "right")
	if !sb(d).Scenario().Controllers[0].WithRV {
		t.Fatal("→ on with RV did not set it")
	}
	rowOf(t, d, "object", "kind")
	d.Press("right")
	if k := draft.Kind(sb(d).Scenario()); k != api.Deployment {
		t.Fatalf("kind: %s", k)
	}
	rowOf(t, d, "", "content")
	d.Press("enter")
	must(t, d.View(), "Object before the race", "kind: Deployment", "ctrl+s keeps it")
	d.Press("esc")
	rowOf(t, d, "+ controller", "")
	d.Press("enter")
	if n := len(sb(d).Scenario().Controllers); n != 3 {
		t.Fatalf("controllers: %d", n)
	}
	// A new controller's name is never one of the sandbox's keys: its
	// initial steps it.
	rowOf(t, d, "c", "name")
	must(t, d.View(), "in the race tab 3/c steps it")
	d.Press("d")
	if n := len(sb(d).Scenario().Controllers); n != 2 {
		t.Fatalf("d did not remove c: %d", n)
	}
	rowOf(t, d, "b", "name")
	d.Press("d")
	must(t, d.View(), "a race needs at least 2 controllers")
}

func TestSaveLoadAndExportNeverOverwriteUnasked(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "race.yaml")
	d := newDriver(t, nil)
	open(t, d, testRace(t, "a.write=update-clear-rv", "b.write=update-clear-rv"))
	d.Press("a", "b", "a", "b", "s", "ctrl+u")
	typeText(d, path)
	d.Press("enter")
	must(t, d.View(), "saved to "+path)
	sc, err := scenario.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(scenario.Tokens(sc.Schedule), " ") != "a b a b" || sc.Controllers[0].Write != controller.UpdateClearRV {
		t.Fatalf("saved: %v %s", sc.Schedule, sc.Controllers[0].Write)
	}
	// A second save to the same name asks first; n keeps the file.
	os.WriteFile(path, []byte("keep me"), 0o644)
	d.Press("s", "enter")
	must(t, d.View(), "exists: overwrite it?")
	d.Press("n")
	if b, _ := os.ReadFile(path); string(b) != "keep me" {
		t.Fatal("n overwrote the file")
	}
	d.Press("enter", "y")
	if b, _ := os.ReadFile(path); string(b) == "keep me" {
		t.Fatal("y did not overwrite the file")
	}
	// Load it into a fresh sandbox: the schedule replays.
	d2 := newDriver(t, nil)
	d2.Press("l")
	typeText(d2, path)
	d2.Press("enter")
	if schedule(d2) != "a b a b" || sb(d2).Tab() != "race" {
		t.Fatalf("loaded: %q on %s", schedule(d2), sb(d2).Tab())
	}
	must(t, d2.View(), "LOST data.owner")
	bad := filepath.Join(dir, "bad.yaml")
	os.WriteFile(bad, []byte("name: x\nobjects: []\ncontrollers:\n- name: a\n  wirte: update\n"), 0o644)
	d2.Press("l", "ctrl+u")
	typeText(d2, bad)
	d2.Press("enter")
	must(t, d2.View(), bad+":5:")
	d2.Press("esc")
	for _, c := range []struct{ name, want string }{{"run.md", "```mermaid"}, {"run.txt", "LOST data.owner"}} {
		out := filepath.Join(dir, c.name)
		d2.Press("x", "ctrl+u")
		typeText(d2, out)
		d2.Press("enter")
		b, err := os.ReadFile(out)
		if err != nil || !strings.Contains(string(b), c.want) {
			t.Fatalf("%s: %v\n%s", c.name, err, b)
		}
	}
	d2.Press("x", "ctrl+u")
	typeText(d2, filepath.Join(dir, "run.md"))
	d2.Press("enter")
	must(t, d2.View(), "exists: overwrite it?")
}

// TestExploreCancelWithEsc: esc stops the search (Progress returns
// false) and the tally says it covers only what was seen.
func TestExploreCancelWithEsc(t *testing.T) {
	m := NewIn(stopped, styles.New(true, true), nil)
	m.SetSize(100, 30)
	if err := m.Open(benchScenario(), ""); err != nil {
		t.Fatal(err)
	}
	m, _ = m.Update(uitest.Key("tab"))
	m, _ = m.Update(uitest.Key("e"))
	run := m.ex.running
	if run == nil {
		t.Fatal("e did not start the explorer")
	}
	m, _ = m.Update(uitest.Key("esc"))
	for m.ex.running != nil {
		m, _ = m.Update(run.wait()())
	}
	r := m.ex.result
	if r == nil || !r.Cancelled || r.Schedules >= 34650 {
		t.Fatalf("after esc: %+v", r)
	}
	if v := ansi.Strip(m.View()); !strings.Contains(v, "cancelled: the tally covers only these") {
		t.Fatalf("cancel not shown:\n%s", v)
	}
}

// benchScenario is sim/explore's benchScenario(3, 2): three controllers
// each incrementing a counter twice by merge patch from its Lister, four
// atomic steps each: 12!/(4!4!4!) = 34,650 interleavings.
func benchScenario() *scenario.Scenario {
	sc := draft.New()
	draft.AddController(sc)
	inc, _ := draft.ParseMutation("increment data.count", api.ConfigMap)
	for i := range sc.Controllers {
		p := &sc.Controllers[i].Program
		p.Mutations = []controller.Mutation{inc}
		p.Write = controller.MergePatch
		p.Reconciles = 2
	}
	sc.Name = "bench-3x4"
	return sc
}
