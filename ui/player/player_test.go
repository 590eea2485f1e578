package player

import (
	"os"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/conflictlab/conflictlab/lessons"
	"github.com/conflictlab/conflictlab/progress"
	"github.com/conflictlab/conflictlab/ui/nav"
	"github.com/conflictlab/conflictlab/ui/raceview"
	"github.com/conflictlab/conflictlab/ui/styles"
	"github.com/conflictlab/conflictlab/ui/uitest"
)

type packRaces struct{ p *lessons.Pack }

func (r packRaces) Race(s lessons.Step, opt *lessons.Option) (*raceview.Run, error) {
	o, err := r.p.Run(s, opt)
	return &raceview.Run{Outcome: o, Plans: map[string]string{}}, err
}

// wrap makes the player a tea.Model for the driver.
type wrap struct{ m Model }

func (w wrap) Init() tea.Cmd { return nil }
func (w wrap) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	m, cmd := w.m.Update(msg)
	return wrap{m}, cmd
}
func (w wrap) View() tea.View { return tea.NewView(w.m.View()) }

type fixture struct {
	*uitest.Driver
	prog *progress.Progress
	msgs []tea.Msg
}

func (f *fixture) player() Model { return f.Model.(wrap).m }

// open starts the player on a lesson of the fixture course, at 100×30.
func open(t *testing.T, lesson string, step int) *fixture {
	t.Helper()
	p, err := lessons.Load(os.DirFS("../testdata/course"))
	if err != nil {
		t.Fatal(err)
	}
	l := p.Lesson(lesson)
	var next *lessons.Lesson
	if l.Next != "" {
		next = p.Lesson(l.Next)
	}
	prog := progress.New()
	m, cmd := New(l, next, prog, packRaces{p}, styles.New(true, true), step)
	m.SetTicker(uitest.Ticker)
	m.SetSnippets(func(name string) (string, error) { return "// snippet " + name + "\nfunc F() {}", nil })
	m.SetSize(100, 30)
	f := &fixture{Driver: &uitest.Driver{T: t, Model: wrap{m}}, prog: prog}
	f.Run(cmd)
	return f
}

func (f *fixture) see(want ...string) {
	f.T.Helper()
	v := f.View()
	for _, w := range want {
		if !strings.Contains(v, w) {
			f.T.Fatalf("screen lacks %q:\n%s", w, v)
		}
	}
}

func (f *fixture) notSee(bad ...string) {
	f.T.Helper()
	v := f.View()
	for _, b := range bad {
		if strings.Contains(v, b) {
			f.T.Fatalf("screen shows %q:\n%s", b, v)
		}
	}
}

func TestPredictWrongThenRight(t *testing.T) {
	f := open(t, "lost-update", 0)
	f.see("Before the race", "1. Both data.owner and data.replicas")
	f.Press("1")
	if !f.player().Race().Hidden() {
		t.Fatal("a wrong prediction revealed the race")
	}
	f.see("✗ Not quite", "s: show the solution")
	f.notSee("LOST", "409")
	a := f.prog.Lessons["lost-update"].Answers[0]
	if a.Attempts != 1 || a.Correct || a.FirstTry {
		t.Fatalf("after a wrong answer: %+v", a)
	}
	f.Press("h")
	f.see("Hint: Each controller sends the whole object")
	f.Press("down", "enter")
	r := f.player().Race()
	if r.Hidden() || !r.Playing() {
		t.Fatal("the right prediction did not play the race")
	}
	f.PlayAll()
	f.see("✓ Correct", "✗ LOST data.owner", "enter: continue")
	a = f.prog.Lessons["lost-update"].Answers[0]
	if a.Attempts != 2 || !a.Correct || a.FirstTry {
		t.Fatalf("after the right answer: %+v", a)
	}
}

func TestSolutionOnlyAfterAWrongAnswer(t *testing.T) {
	f := open(t, "lost-update", 0)
	f.Press("s")
	f.notSee("Solution")
	f.Press("1", "s")
	f.see("Solution", "unconditional overwrite")
	if f.player().Race().Hidden() {
		t.Fatal("the solution gives the answer away, so the race should show")
	}
}

func TestHintOnlyOnQuestions(t *testing.T) {
	f := open(t, "versions", 0) // a read step
	f.Press("h")
	f.notSee("Hint:")
	f.Press("enter")
	f.Press("h")
	f.see("Hint: Every successful write")
	f.Press("h")
	f.notSee("Hint:")
}

func TestChooseRunsTheChosenStrategy(t *testing.T) {
	f := open(t, "lost-update", 1)
	f.see("pick a strategy to run it")
	f.Press("1")
	f.PlayAll()
	f.see("✗ Not quite", "strategy: Update with the resourceVersion cleared", "LOST data.owner")
	f.Press("2")
	f.PlayAll()
	f.see("✓ Correct", "✗ 409 Conflict")
	f.notSee("LOST data.owner")
	// Trying the other strategy again after the right answer still plays
	// its race, without changing the score.
	f.Press("up", "enter")
	f.PlayAll()
	f.see("LOST data.owner")
	if a := f.prog.Lessons["lost-update"].Answers[1]; a.Attempts != 2 || !a.Correct {
		t.Fatalf("exploring after the answer changed the record: %+v", a)
	}
}

func TestCodePaneFollowsTheStrategyUnderTheCursor(t *testing.T) {
	f := open(t, "lost-update", 1)
	f.Press("c")
	f.see("code: update-clear-rv", "// snippet update-clear-rv")
	f.Press("down")
	f.see("code: update-with-rv")
	f.Press("c")
	f.notSee("code: update-with-rv")
}

func TestZoomGivesTheStageTheWholeScreen(t *testing.T) {
	f := open(t, "lost-update", 0)
	f.Press("tab")
	f.notSee("Once both writes are done")
	f.see("race lost-update")
	f.Press("tab")
	f.see("Once both writes are done")
}

func TestStepNavigationAndSummary(t *testing.T) {
	f := open(t, "versions", 0)
	f.Press("p")
	if f.player().Step() != 0 {
		t.Fatal("p on the first step moved")
	}
	f.Press("enter")
	if f.player().Step() != 1 {
		t.Fatal("enter on a read step did not continue")
	}
	f.Press("n")
	if f.player().Step() != 2 {
		t.Fatal("n did not skip to the summary")
	}
	f.see("Lesson complete: Versions, not locks", "Take-away", "enter: next lesson — The lost update")
	if !f.prog.Lessons["versions"].Done {
		t.Fatal("reaching the summary did not mark the lesson done")
	}
	f.Press("p")
	if f.player().Step() != 1 {
		t.Fatal("p on the summary did not go back")
	}
	f.Press("n")
	var opened tea.Msg
	f.Model, opened = pressMsg(f, "enter")
	if o, ok := opened.(nav.Open); !ok || o.LessonID != "lost-update" {
		t.Fatalf("enter on the summary: %#v", opened)
	}
}

func pressMsg(f *fixture, k string) (tea.Model, tea.Msg) {
	m, cmd := f.Model.Update(uitest.Key(k))
	if cmd == nil {
		return m, nil
	}
	return m, cmd()
}

func TestReturningToAnAnsweredStep(t *testing.T) {
	f := open(t, "lost-update", 0)
	f.Press("2")
	f.PlayAll()
	f.Press("enter", "p")
	if f.player().Step() != 0 {
		t.Fatal("did not go back")
	}
	f.see("✓ 2. Only data.replicas", "enter: continue")
	if f.player().Race().Hidden() {
		t.Fatal("an answered predict step hid its race again")
	}
}

func TestRaceKeysReachTheRaceView(t *testing.T) {
	f := open(t, "versions", 0)
	f.Press("space") // pause the autoplay
	f.Press("right", "right")
	if got := f.player().Race().Index(); got != 1 {
		// Autoplay started at -1 and the first tick is held: two steps
		// forward from -1 is 1.
		t.Fatalf("race index %d after two steps", got)
	}
	f.Press("left")
	if got := f.player().Race().Index(); got != 0 {
		t.Fatalf("race index %d after a step back", got)
	}
}
