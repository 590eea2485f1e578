package exercises

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/conflictlab/conflictlab/examples"
	"github.com/conflictlab/conflictlab/exercises"
	"github.com/conflictlab/conflictlab/exercises/verdict"
	"github.com/conflictlab/conflictlab/exercises/workspace"
	"github.com/conflictlab/conflictlab/progress"
	"github.com/conflictlab/conflictlab/sim/race"
	"github.com/conflictlab/conflictlab/ui/styles"
)

// fakeCheck answers each check with the next result, after telling the
// screen one step of a cold build.
type fakeCheck struct {
	results []*workspace.Result
	calls   int
}

func (f *fakeCheck) check(_ context.Context, _ string, x *exercises.Exercise, opts workspace.CheckOptions) (*workspace.Result, error) {
	if opts.Progress != nil {
		opts.Progress(10, 100)
	}
	r := f.results[min(f.calls, len(f.results)-1)]
	f.calls++
	r.Exercise = x.Dir
	return r, nil
}

// noTick holds the next look: the test sends pollMsg itself.
func noTick(time.Duration, func(time.Time) tea.Msg) tea.Cmd { return nil }

func losing(t *testing.T) *workspace.Result {
	t.Helper()
	sc, err := examples.Load("lost-update-unconditional")
	if err != nil {
		t.Fatal(err)
	}
	o, err := race.Run(sc, race.Schedule{Moves: sc.Schedule})
	if err != nil {
		t.Fatal(err)
	}
	return &workspace.Result{Verdict: &verdict.Verdict{Pass: false, Failed: 0, Outcome: o,
		Report: "✗ race.yaml: 3 lost of 6 interleavings (lost 3, no-loss 3)\n\nthe timeline…\n"}}
}

func setup(t *testing.T, f *fakeCheck, prog *progress.Progress) (Model, []*exercises.Exercise, string) {
	t.Helper()
	all, err := exercises.Course()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, x := range all {
		if err := os.MkdirAll(filepath.Join(dir, x.Dir), 0o755); err != nil {
			t.Fatal(err)
		}
		for name, b := range x.Start {
			if err := os.WriteFile(filepath.Join(dir, x.Dir, name), b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	m := New(Config{Dir: dir, All: all, Progress: prog, Check: f.check, Tick: noTick}, styles.New(true, true))
	m.SetSize(80, 24)
	return m, all, dir
}

// run delivers msg and every message its commands make, until none is
// left; it returns the messages that left the screen (for the root).
func run(m Model, msg tea.Msg) (Model, []tea.Msg) {
	var out []tea.Msg
	queue := []tea.Msg{msg}
	for len(queue) > 0 {
		msg, queue = queue[0], queue[1:]
		var cmd tea.Cmd
		m, cmd = m.Update(msg)
		queue = append(queue, flatten(cmd, &out)...)
	}
	return m, out
}

func flatten(cmd tea.Cmd, out *[]tea.Msg) []tea.Msg {
	if cmd == nil {
		return nil
	}
	msg := cmd()
	switch msg := msg.(type) {
	case tea.BatchMsg:
		var all []tea.Msg
		for _, c := range msg {
			all = append(all, flatten(c, out)...)
		}
		return all
	case progress.Change:
		*out = append(*out, msg)
		return nil
	case nil:
		return nil
	}
	return []tea.Msg{msg}
}

func view(m Model) string { return ansi.Strip(m.View()) }

func press(s string) tea.KeyPressMsg {
	return tea.KeyPressMsg{Code: rune(s[0]), Text: s}
}

// TestSaveRechecksAndShowsTheLosingRun: the first look checks the first
// exercise not passed; a failure shows its verdict and the losing run in
// the race view, the hint is one key away, the solution is not; a save
// (a newer modification time) checks again, and a pass is sent to the
// progress and lets the solution show.
func TestSaveRechecksAndShowsTheLosingRun(t *testing.T) {
	prog := progress.New()
	prog.RecordExercise("01-retry-fresh-read")
	f := &fakeCheck{results: []*workspace.Result{losing(t), {Pass: true, Verdict: &verdict.Verdict{Pass: true, Failed: -1, Report: "✓ race.yaml: all 6 interleavings end well (no-loss 6)\n"}}}}
	m, all, dir := setup(t, f, prog)
	if m.Current() != all[1] {
		t.Fatalf("the screen opens on %s, want the first not passed (%s)", m.Current().Dir, all[1].Dir)
	}
	m, _ = run(m, m.Init()())
	if f.calls != 1 {
		t.Fatalf("%d checks after the first look, want 1", f.calls)
	}
	v := view(m)
	for _, want := range []string{"Exercise 2 of 8", "✗ fails", "3 lost of 6", "UPDATE"} {
		if !strings.Contains(v, want) {
			t.Errorf("after a failing check the screen lacks %q:\n%s", want, v)
		}
	}
	if strings.Contains(v, "hint:") {
		t.Error("the hint shows before it is asked for")
	}
	m, _ = run(m, press("h"))
	if v := view(m); !strings.Contains(v, "hint:") || !strings.Contains(v, strings.Fields(all[1].Hint)[0]) {
		t.Errorf("h does not show the hint:\n%s", v)
	}
	m, _ = run(m, press("s"))
	if strings.Contains(view(m), "reference solution") {
		t.Error("s shows the solution of an exercise not passed")
	}

	// No change: the next look checks nothing.
	m, _ = run(m, pollMsg{gen: m.pollGen})
	if f.calls != 1 {
		t.Fatalf("a look at unchanged files checked again (%d checks)", f.calls)
	}
	code := filepath.Join(dir, all[1].Dir, "owner.go")
	later := time.Now().Add(time.Minute)
	if err := os.Chtimes(code, later, later); err != nil {
		t.Fatal(err)
	}
	m, sent := run(m, pollMsg{gen: m.pollGen})
	if f.calls != 2 {
		t.Fatalf("a save was not checked (%d checks)", f.calls)
	}
	if len(sent) != 1 || sent[0] != (progress.ExercisePassed{ID: all[1].Dir}) {
		t.Errorf("a pass sent %v to the progress, want ExercisePassed{%s}", sent, all[1].Dir)
	}
	if v := view(m); !strings.Contains(v, "✓ passes") {
		t.Errorf("after a passing check:\n%s", v)
	}
	m, _ = run(m, press("s"))
	if v := view(m); !strings.Contains(v, "reference solution") || !strings.Contains(v, "package owner") {
		t.Errorf("s after a pass does not show the solution:\n%s", v)
	}
	// n opens the next exercise and checks it at once.
	m, _ = run(m, press("n"))
	if m.Current() != all[2] || f.calls != 3 || m.Result() == nil || m.Result().Exercise != all[2].Dir {
		t.Errorf("n: on %s after %d checks, want %s checked", m.Current().Dir, f.calls, all[2].Dir)
	}
	if strings.Contains(view(m), "hint:") {
		t.Error("the hint stays open on the next exercise")
	}
}

// TestCompileErrorsAndColdBuild: compile errors show as FILE:LINE; the
// cold build's progress shows while it runs.
func TestCompileErrorsAndColdBuild(t *testing.T) {
	f := &fakeCheck{results: []*workspace.Result{{Compile: []workspace.Diagnostic{{File: "01-retry-fresh-read/members.go", Line: 23, Col: 5, Msg: "undefined: cm2"}}}}}
	m, _, _ := setup(t, f, nil)
	var cmd tea.Cmd
	m, cmd = m.Update(m.Init()())
	// The first message of the check is its build's progress.
	var first tea.Msg
	for _, msg := range flatten(cmd, new([]tea.Msg)) {
		if _, ok := msg.(progressMsg); ok {
			first = msg
		}
	}
	if first == nil {
		t.Fatal("the check sent no build progress")
	}
	m, cmd = m.Update(first)
	if v := view(m); !strings.Contains(v, "first build 10/100") || !strings.Contains(v, "10 of 100 packages") {
		t.Errorf("the cold build's progress is not on screen:\n%s", v)
	}
	m, _ = run(m, cmd())
	if v := view(m); !strings.Contains(v, "does not compile") || !strings.Contains(v, "01-retry-fresh-read/members.go:23: undefined: cm2") {
		t.Errorf("compile errors not shown as FILE:LINE:\n%s", v)
	}
}

// TestNoWorkspaceAndRemote: without a workspace the screen says how to
// make one; on a server it says the exercises run at home, and never
// checks anything.
func TestNoWorkspaceAndRemote(t *testing.T) {
	all, err := exercises.Course()
	if err != nil {
		t.Fatal(err)
	}
	f := &fakeCheck{results: []*workspace.Result{{Pass: true}}}
	for _, tc := range []struct {
		cfg  Config
		want string
	}{
		{Config{All: all, Check: f.check, Tick: noTick}, "conflictlab exercises init"},
		{Config{Dir: t.TempDir(), Remote: true, All: all, Check: f.check, Tick: noTick}, "run on your own machine"},
	} {
		m := New(tc.cfg, styles.New(true, true))
		m.SetSize(80, 24)
		if m.Init() != nil {
			t.Error("the screen looks at files it must not check")
		}
		m, _ = run(m, press("c"))
		if v := view(m); !strings.Contains(v, tc.want) || !strings.Contains(v, "conflictlab exercises init") {
			t.Errorf("want %q and the commands:\n%s", tc.want, v)
		}
	}
	if f.calls != 0 {
		t.Errorf("%d checks ran without a workspace or on a server", f.calls)
	}
}
