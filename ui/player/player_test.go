package player

import (
	"os"
	"strings"
	"testing"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/conflictlab/conflictlab/lessons"
	"github.com/conflictlab/conflictlab/lessons/racecache"
	"github.com/conflictlab/conflictlab/progress"
	"github.com/conflictlab/conflictlab/sim/race"
	"github.com/conflictlab/conflictlab/sim/scenario"
	"github.com/conflictlab/conflictlab/ui/nav"
	"github.com/conflictlab/conflictlab/ui/raceview"
	"github.com/conflictlab/conflictlab/ui/styles"
	"github.com/conflictlab/conflictlab/ui/uitest"
)

// wrap makes the player a tea.Model for the driver; it applies the
// progress the player sends, as the root does.
type wrap struct{ m Model }

func (w wrap) Init() tea.Cmd { return nil }
func (w wrap) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if c, ok := msg.(progress.Change); ok {
		w.m.env.prog.Apply(c) // then the player hears it, as every screen does
	}
	m, cmd := w.m.Update(msg)
	return wrap{m}, cmd
}
func (w wrap) View() tea.View { return tea.NewView(w.m.View()) }

type fixture struct {
	*uitest.Driver
	prog *progress.Progress
}

func (f *fixture) player() Model { return f.Model.(wrap).m }

// open starts the player on a lesson of the fixture course, at 100×30.
func open(t *testing.T, lesson string, step int) *fixture {
	t.Helper()
	return openSized(t, lesson, step, 100, 30, nil)
}

// openSized starts the player on a lesson of the fixture course, at w×h,
// after edit (when not nil) has changed the lesson.
func openSized(t *testing.T, lesson string, step, w, h int, edit func(*lessons.Lesson)) *fixture {
	t.Helper()
	p, err := lessons.Load(os.DirFS("../testdata/course"))
	if err != nil {
		t.Fatal(err)
	}
	l := p.Lesson(lesson)
	if edit != nil {
		edit(l)
	}
	var next *lessons.Lesson
	if l.Next != "" {
		next = p.Lesson(l.Next)
	}
	prog := progress.New()
	m, cmd := New(l, next, prog, racecache.New(p), styles.New(true, true), step)
	m.SetTicker(uitest.Ticker)
	m.SetSnippets(func(name string) (string, error) { return "// snippet " + name + "\nfunc F() {}", nil })
	m.SetSize(w, h)
	f := &fixture{Driver: &uitest.Driver{T: t, Model: wrap{m}}, prog: prog}
	f.Run(cmd)
	return f
}

// readQuestion reads the step's text to its end and back to its top, as
// a learner does before answering a question taller than the window
// (the options answer only once the question has been on screen whole).
func (f *fixture) readQuestion() { readQuestion(f.Driver) }

func readQuestion(d *uitest.Driver) {
	prev := ""
	for i := 0; i < 100 && d.View() != prev; i++ {
		prev = d.View()
		d.Press("pgdown")
	}
	d.Press("home")
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

// The first answer is the scored one: a wrong prediction is recorded as
// wrong, and the race plays at once, beside what was predicted, with the
// row that decides it named; a right answer after it is explored, not
// scored.
func TestWrongFirstAnswerIsScoredAndPlaysTheRace(t *testing.T) {
	f := open(t, "lost-update", 0)
	f.see("Before the race", "1. Both data.owner and data.replicas")
	f.Press("1")
	r := f.player().Race()
	if r.Hidden() || !r.Playing() {
		t.Fatalf("a wrong prediction did not play the race: hidden %v, playing %v", r.Hidden(), r.Playing())
	}
	a := f.prog.Lessons["lost-update"].Answers[0]
	if a.Attempts != 1 || a.Correct || a.FirstTry || a.Picked != "both" {
		t.Fatalf("after a wrong first answer: %+v", a)
	}
	f.PlayAll()
	f.see("✗ Not quite. You predicted: Both data.owner and data.replicas · what happened: Only data.replicas",
		"LOST data.owner")
	if !hasKey(f.player().ShortHelp(), "s") {
		t.Fatal("the key bar does not offer the solution after a wrong first answer")
	}
	// The deciding row is b's write, the one that erased a's change.
	f.see("Row 6 decides it", "b's UPDATE cm1 no rv erased a's change to data.owner")
	f.Press("g")
	if got := f.player().Race().Index(); got != 5 {
		t.Fatalf("g selected row index %d, want 5 (row 6)", got)
	}
	f.Press("h")
	f.see("Hint: Each controller sends the whole object")
	f.Press("down", "enter")
	f.see("✓ Correct. (The score keeps your first answer, 1.)")
	a = f.prog.Lessons["lost-update"].Answers[0]
	if a.Attempts != 2 || !a.Correct || a.FirstTry || a.Picked != "both" {
		t.Fatalf("the second (right) answer changed the score: %+v", a)
	}
	if tl := f.prog.Lessons["lost-update"].Tally([]bool{true, true}); tl.Right != 0 || tl.Answered != 1 {
		t.Fatalf("tally after a wrong then right answer: %+v", tl)
	}
	// Enter on the option last answered continues.
	f.Press("enter")
	if f.player().Step() != 1 {
		t.Fatal("enter after the answer did not continue")
	}
}

func TestRightFirstAnswerScoresRight(t *testing.T) {
	f := open(t, "lost-update", 0)
	f.Press("2")
	f.PlayAll()
	f.see("✓ Correct.", "✓ 2. Only data.replicas", "enter: continue")
	f.notSee("You predicted")
	if hasKey(f.player().ShortHelp(), "s") {
		t.Fatal("the key bar offers the solution after a right first answer")
	}
	a := f.prog.Lessons["lost-update"].Answers[0]
	if a.Attempts != 1 || !a.Correct || !a.FirstTry || a.Picked != "replicas" {
		t.Fatalf("after a right first answer: %+v", a)
	}
	// Exploring a wrong answer afterwards records nothing.
	f.Press("1")
	f.see("✗ Not quite")
	if b := f.prog.Lessons["lost-update"].Answers[0]; b != a {
		t.Fatalf("exploring after the right answer changed the record: %+v", b)
	}
}

func TestSolutionOnlyAfterAWrongAnswer(t *testing.T) {
	f := open(t, "lost-update", 0)
	f.Press("s")
	f.notSee("Solution")
	f.Press("1", "s")
	f.see("Solution", "unconditional overwrite")
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
	f.see("code: update-clear-rv", "func F() {}")
	f.Press("down")
	f.see("code: update-with-rv")
	f.Press("c")
	f.notSee("code: update-with-rv")
}

// Before the answer the code carries no comment (they name the defect);
// once answered, the same snippet shows whole.
func TestCodeHasNoCommentsUntilAnswered(t *testing.T) {
	f := open(t, "lost-update", 1)
	f.SetSnippets(t, map[string]string{
		"update-clear-rv": "// ForceOwner: DEFECT, an unconditional write.\nfunc ForceOwner() {\n\tcm.ResourceVersion = \"\" // DEFECT\n}",
		"update-with-rv":  "// UpdateOwner keeps the RV.\nfunc UpdateOwner() {}",
	})
	f.Press("c")
	f.see("code: update-clear-rv", "func ForceOwner() {", `cm.ResourceVersion = ""`)
	f.notSee("//", "DEFECT")
	f.Press("1")
	f.see("code: update-clear-rv", "// ForceOwner: DEFECT", "// DEFECT")
	// Answered: the other strategy's code is whole too.
	f.Press("down")
	f.see("code: update-with-rv", "// UpdateOwner keeps the RV.")
	// A step not answered yet strips them again.
	f.Press("p")
	f.see("code: update-clear-rv", "func ForceOwner() {")
	f.notSee("//", "DEFECT")
}

// setSnippets gives the player snippets from a map.
func (f *fixture) SetSnippets(t *testing.T, src map[string]string) {
	m := f.player()
	m.SetSnippets(func(n string) (string, error) {
		if s, ok := src[n]; ok {
			return s, nil
		}
		t.Fatalf("no snippet %q", n)
		return "", nil
	})
	f.Model = wrap{m}
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
	f.see("Take-away", "enter: next lesson — The lost update")
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

// countingRaces computes every race it is asked for, each time afresh (a
// new pointer), keeps none, and counts them.
type countingRaces struct {
	p *lessons.Pack
	n int
}

func (r *countingRaces) Race(sp lessons.RaceSpec) (*race.Outcome, error) {
	r.n++
	return racecache.New(r.p).Race(sp)
}

func (r *countingRaces) Cached(lessons.RaceSpec) (*race.Outcome, bool) { return nil, false }

// Scenario is the race's scenario, for the setup a question shows before
// its answer (it plays nothing).
func (r *countingRaces) Scenario(sp lessons.RaceSpec) (*scenario.Scenario, error) {
	return racecache.New(r.p).Scenario(sp)
}

// deliver runs cmd as the program would and gives m what it makes (the
// progress applied, as the app does), but what hold picks — by default
// the races computed — which it keeps, undelivered, for the test to
// deliver when it says; playback ticks wait.
func deliver(m Model, cmd tea.Cmd, hold ...func(tea.Msg) bool) (Model, []tea.Msg) {
	if len(hold) == 0 {
		hold = append(hold, func(msg tea.Msg) bool { _, ok := msg.(raceReady); return ok })
	}
	var held []tea.Msg
	var run func(tea.Cmd)
	run = func(cmd tea.Cmd) {
		if cmd == nil {
			return
		}
		switch msg := cmd().(type) {
		case nil, raceview.TickMsg:
		case tea.BatchMsg:
			for _, c := range msg {
				run(c)
			}
		default:
			if hold[0](msg) {
				held = append(held, msg)
				return
			}
			if c, ok := msg.(progress.Change); ok {
				m.env.prog.Apply(c)
			}
			var next tea.Cmd
			m, next = m.Update(msg)
			run(next)
		}
	}
	run(cmd)
	return m, held
}

// The learner answers a predict step before its race has been computed
// (lesson 7 opened right after the home screen): the race is computed
// once, and plays at the speed the learner set.
func TestARaceAskedForTwiceIsComputedOnce(t *testing.T) {
	p, err := lessons.Load(os.DirFS("../testdata/course"))
	if err != nil {
		t.Fatal(err)
	}
	races := &countingRaces{p: p}
	m, opening := New(p.Lesson("lost-update"), nil, progress.New(), races, styles.New(true, true), 0)
	m.SetTicker(uitest.Ticker)
	m.SetSize(100, 30)
	m, first := deliver(m, opening)
	// The right answer, while the race is still computing.
	m, answering := m.Update(uitest.Key("2"))
	m, second := deliver(m, answering)
	for _, msg := range first {
		m, _ = m.Update(msg)
	}
	if !m.Race().Playing() || m.Race().Hidden() {
		t.Fatal("the right answer did not play the race once it arrived")
	}
	m, _ = m.Update(uitest.Key("+"))
	speed, run := m.Race().Speed(), m.Race().Run()
	for _, msg := range second {
		m, _ = m.Update(msg)
	}
	if races.n != 1 {
		t.Errorf("the race was computed %d times", races.n)
	}
	if r := m.Race(); r.Run() != run || !r.Playing() || r.Hidden() || r.Speed() != speed {
		t.Errorf("a late duplicate reset the stage: playing %v, hidden %v, speed %s (was %s), same run %v",
			r.Playing(), r.Hidden(), r.Speed(), speed, r.Run() == run)
	}
}

// n past a question answers nothing: the lesson is not done, the summary
// says what is left, and "continue" goes back to it.
func TestSkippingQuestionsDoesNotCompleteTheLesson(t *testing.T) {
	f := open(t, "lost-update", 0)
	f.Press("n", "n")
	if f.player().Step() != 2 {
		t.Fatalf("n twice is step %d, want the summary", f.player().Step())
	}
	rec := f.prog.Lessons["lost-update"]
	if rec.Done || len(rec.Answers) != 0 {
		t.Fatalf("skipping every question: done %v, answers %v", rec.Done, rec.Answers)
	}
	if rec.Step != 0 {
		t.Fatalf("continue would go to step %d, not the first question skipped", rec.Step+1)
	}
	f.see("Not complete yet: The lost update", "Score so far: 0 of 2 questions answered, 0 right", "Steps 1 and 2 still to answer")
	f.notSee("Lesson complete")
	// Answering one and skipping the other is still not done.
	f.Press("p", "p", "2", "enter", "n")
	if rec.Done || rec.Step != 1 {
		t.Fatalf("one of two answered: done %v, step %d", rec.Done, rec.Step)
	}
	f.see("1 of 2 questions answered, 1 right", "Step 2 still to answer")
	// Both answered (the second wrong first): done, scored on first answers.
	f.Press("p", "1", "2", "enter")
	if !rec.Done {
		t.Fatal("every question answered, and the lesson is not done")
	}
	f.see("✓ Lesson complete: The lost update", "Score: 1 of 2 questions right on the first try.")
}

func hasKey(bs []key.Binding, k string) bool {
	for _, b := range bs {
		if b.Help().Key == k {
			return true
		}
	}
	return false
}

// A step answered wrong first, opened again (another session): it shows
// the first answer, what happened and the race, and it stays scored.
func TestRevisitedStepShowsTheScoredAnswer(t *testing.T) {
	f := open(t, "lost-update", 0)
	f.Press("1", "2")
	p, err := lessons.Load(os.DirFS("../testdata/course"))
	if err != nil {
		t.Fatal(err)
	}
	m, cmd := New(p.Lesson("lost-update"), nil, f.prog, racecache.New(p), styles.New(true, true), 0)
	m.SetTicker(uitest.Ticker)
	m.SetSize(100, 30)
	g := &fixture{Driver: &uitest.Driver{T: t, Model: wrap{m}}, prog: f.prog}
	g.Run(cmd)
	g.PlayAll()
	g.see("✗ 1. Both data.owner", "✓ 2. Only data.replicas", "You predicted: Both data.owner and data.replicas · what happened: Only data.replicas", "enter: continue")
	if g.player().Race().Hidden() {
		t.Fatal("an answered step hid its race")
	}
	g.Press("2")
	if a := f.prog.Lessons["lost-update"].Answers[0]; a.FirstTry || a.Picked != "both" || a.Attempts != 2 {
		t.Fatalf("revisiting changed the scored answer: %+v", a)
	}
}

// TestARaceComputedElsewhereIsOnStageAtOnce: the app warms a race while
// the home screen shows, through the one runtime the player asks too; the
// player puts it on the stage at once, once answered, instead of
// computing it again.
func TestARaceComputedElsewhereIsOnStageAtOnce(t *testing.T) {
	p, err := lessons.Load(os.DirFS("../testdata/course"))
	if err != nil {
		t.Fatal(err)
	}
	races := racecache.New(p)
	l := p.Lesson("lost-update")
	warmed, err := races.Race(l.Steps[0].Spec(nil))
	if err != nil {
		t.Fatal(err)
	}
	m, cmd := New(l, nil, progress.New(), races, styles.New(true, true), 0)
	m, computed := deliver(m, cmd)
	if r := m.Race().Run(); r == nil || !r.Setup() {
		t.Fatal("before the answer the stage is not the race's setup")
	}
	m, cmd = m.Update(uitest.Key("2"))
	m, again := deliver(m, cmd)
	if r := m.Race().Run(); r == nil || r.Outcome != warmed {
		t.Fatal("the warmed race is not on the stage once answered")
	}
	if len(computed)+len(again) != 0 {
		t.Fatalf("the player computed the warmed race again: %v %v", computed, again)
	}
}

// cursor is the option under the cursor of the question on show.
func (m Model) cursor() int {
	switch s := m.cur.(type) {
	case asking:
		return s.q.cursor
	case answered:
		return s.q.cursor
	}
	return -1
}
