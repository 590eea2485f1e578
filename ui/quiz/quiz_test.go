package quiz

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/conflictlab/conflictlab/lessons"
	"github.com/conflictlab/conflictlab/lessons/racecache"
	"github.com/conflictlab/conflictlab/progress"
	qz "github.com/conflictlab/conflictlab/quiz"
	"github.com/conflictlab/conflictlab/ui/nav"
	"github.com/conflictlab/conflictlab/ui/stage"
	"github.com/conflictlab/conflictlab/ui/styles"
	"github.com/conflictlab/conflictlab/ui/uitest"
)

// wrap makes the screen a tea.Model for the driver, and keeps the
// messages meant for the app (navigation, progress), applying the
// progress as the app does.
type wrap struct {
	m    Model
	msgs *[]tea.Msg
	prog *progress.Progress
}

func (w wrap) Init() tea.Cmd { return w.m.Load() }
func (w wrap) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case progress.Change:
		w.prog.Apply(msg)
		*w.msgs = append(*w.msgs, msg)
		return w, nil
	case nav.Open, nav.Pop, nav.Note:
		*w.msgs = append(*w.msgs, msg)
		return w, nil
	}
	m, cmd := w.m.Update(msg)
	return wrap{m, w.msgs, w.prog}, cmd
}
func (w wrap) View() tea.View { return tea.NewView(w.m.View()) }

type fixture struct {
	*uitest.Driver
	prog *progress.Progress
	msgs *[]tea.Msg
	bank *qz.Bank
}

func (f *fixture) quiz() Model { return f.Model.(wrap).m }

// back presses esc the way the app does: the quiz has it when it takes
// it, else the app pops the quiz.
func (f *fixture) back() {
	if esc := uitest.Key("esc"); f.quiz().TakesKey(esc) {
		f.Send(esc)
		return
	}
	*f.msgs = append(*f.msgs, nav.Pop{})
}

var today = time.Date(2026, 1, 15, 9, 30, 0, 0, time.UTC)

func loadFixture(t testing.TB) (*qz.Bank, *racecache.Races) {
	t.Helper()
	bank, err := qz.Load(os.DirFS("../testdata/quizbank"))
	if err != nil {
		t.Fatal(err)
	}
	pack, err := lessons.Load(os.DirFS("../testdata/course"))
	if err != nil {
		t.Fatal(err)
	}
	races := racecache.New(pack)
	if err := qz.Prepare(bank, races); err != nil {
		t.Fatal(err)
	}
	return bank, races
}

func open(t *testing.T, w, h int) *fixture {
	t.Helper()
	bank, races := loadFixture(t)
	pack := races.Pack()
	prog := progress.New()
	msgs := &[]tea.Msg{}
	m := New(Config{
		Load: func() (Data, error) {
			return Data{Bank: bank, Races: races, Lessons: pack.Lessons}, nil
		},
		Prog:    prog,
		CanOpen: func(id string) bool { return pack.Lesson(id) != nil },
		Today:   today,
		Ticker:  uitest.Ticker,
		Snippets: func(name string) (string, error) {
			return "// snippet " + name + "\nfunc ForceOwner() {\n\tcm.ResourceVersion = \"\" // DEFECT: no precondition\n}", nil
		},
	}, styles.New(true, true))
	m.SetSize(w, h)
	f := &fixture{Driver: &uitest.Driver{T: t, Model: wrap{m, msgs, prog}}, prog: prog, msgs: msgs, bank: bank}
	f.Run(f.Model.Init())
	return f
}

func mustContain(t *testing.T, view string, want ...string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(view, w) {
			t.Fatalf("screen lacks %q:\n%s", w, view)
		}
	}
}

func mustNotContain(t *testing.T, view string, bad ...string) {
	t.Helper()
	for _, b := range bad {
		if strings.Contains(view, b) {
			t.Fatalf("screen shows %q:\n%s", b, view)
		}
	}
}

// The fixture bank is right about the fixture course: every claim holds.
func TestFixtureBankVerifies(t *testing.T) {
	bank, races := loadFixture(t)
	if err := qz.Verify(bank, races.Pack()); err != nil {
		t.Fatal(err)
	}
}

func TestFormDefaultsAndFields(t *testing.T) {
	f := open(t, 100, 30)
	if f.quiz().Phase() != "setup" {
		t.Fatalf("phase %s", f.quiz().Phase())
	}
	v := f.View()
	mustContain(t, v, "New quiz", "Topic", "‹ all topics ›", "6 questions", "Questions", "‹ 10 ›", "only 6 match",
		"Seed", "20260115", "today's date", "Start: 6 questions",
		"conflictlab quiz --count 10 --seed 20260115")
	// Topics: all, then the lessons in course order, then concepts.
	f.Press("right")
	mustContain(t, f.View(), "‹ lesson 1 · Versions, not locks ›", "2 questions", "--topic versions")
	f.Press("right")
	mustContain(t, f.View(), "‹ lesson 2 · The lost update ›", "4 questions")
	f.Press("right")
	mustContain(t, f.View(), "‹ concept · ", "Concept: ")
	f.Press("left", "left", "left", "left") // wraps around to the last
	mustNotContain(t, f.View(), "‹ all topics ›")
	f.Press("right")
	mustContain(t, f.View(), "‹ all topics ›")
	// The count: 5, 10, 20, all.
	f.Press("down", "left")
	mustContain(t, f.View(), "‹ 5 ›", "Start: 5 questions", "--count 5")
	f.Press("left")
	mustContain(t, f.View(), "‹ all ›", "Start: 6 questions")
	f.Press("right", "right")
	mustContain(t, f.View(), "‹ 10 ›")
	// The seed: the first digit replaces the date's seed, then digits add.
	f.Press("down", "4", "2")
	mustContain(t, f.View(), "42▏", "--seed 42")
	mustNotContain(t, f.View(), "today's date")
	f.Press("x", "backspace", "7")
	if f.quiz().Seed() != "47" {
		t.Fatalf("seed %q, want 47 (x is not a digit; backspace erases)", f.quiz().Seed())
	}
	f.Press("backspace", "backspace")
	mustContain(t, f.View(), "empty: today's date, 20260115")
	for i := 0; i < 25; i++ {
		f.Press("9")
	}
	if got := f.quiz().Seed(); got != strings.Repeat("9", maxSeedDigits) {
		t.Fatalf("seed %q: want at most %d digits", got, maxSeedDigits)
	}
	// Digits typed elsewhere do not reach the seed.
	f.Press("up", "1")
	if got := f.quiz().Seed(); got != strings.Repeat("9", maxSeedDigits) {
		t.Fatalf("a digit on the count field changed the seed: %q", got)
	}
	// Up and down stop at the ends.
	f.Press("up", "up", "up")
	mustContain(t, f.View(), "› Topic")
	f.Press("down", "down", "down", "down", "down")
	mustContain(t, f.View(), "› ▶ Start")
}

// The screen asks what `conflictlab quiz` would with the same settings:
// the same questions, in the same order, options in the same order.
func TestSameSeedSameQuiz(t *testing.T) {
	f := open(t, 100, 30)
	f.Press("down", "left", "down", "7", "enter")
	q := f.quiz()
	if q.Phase() != "question" {
		t.Fatalf("enter did not start: %s\n%s", q.Phase(), f.View())
	}
	want, err := qz.NewSession(f.bank, qz.Filter{}, 5, 7)
	if err != nil {
		t.Fatal(err)
	}
	got := q.Session().Questions()
	if q.Session().Seed() != 7 || len(got) != 5 {
		t.Fatalf("seed %d, %d questions", q.Session().Seed(), len(got))
	}
	for i, p := range want.Questions() {
		if got[i].Question.ID != p.Question.ID || got[i].Correct() != p.Correct() {
			t.Fatalf("question %d: %s (answer %d), want %s (answer %d)", i+1, got[i].Question.ID, got[i].Correct(), p.Question.ID, p.Correct())
		}
	}
	if title := q.Title(); title != "quiz · question 1/5 · seed 7" {
		t.Fatalf("title %q", title)
	}
}

// answerAll answers every question with the correct option, except the
// question numbers in wrong, and returns the session's questions.
func answerAll(t *testing.T, f *fixture, wrong map[int]bool) []qz.Presented {
	t.Helper()
	items := f.quiz().Session().Questions()
	for _, p := range items {
		cur, res := f.quiz().Shown()
		if cur.Question.ID != p.Question.ID || res != nil {
			t.Fatalf("question %d: on show %s (answered %v)", p.Number, cur.Question.ID, res != nil)
		}
		pick := p.Correct()
		if wrong[p.Number] {
			pick = (pick + 1) % len(p.Options)
		}
		f.Press(string(rune('1' + pick)))
		_, res = f.quiz().Shown()
		if res == nil || res.Right == wrong[p.Number] {
			t.Fatalf("question %d: result %+v", p.Number, res)
		}
		f.Press("enter")
	}
	return items
}

func TestAnswersScoreAndReview(t *testing.T) {
	f := open(t, 100, 30)
	f.Press("enter") // the defaults: every question, 10 (so all 6), today's seed
	items := answerAll(t, f, map[int]bool{2: true, 5: true})
	q := f.quiz()
	if q.Phase() != "results" {
		t.Fatalf("after the last answer and enter: %s", q.Phase())
	}
	v := f.View()
	mustContain(t, v, "Quiz complete", "all topics · 6 questions · seed 20260115", "Score: 4 of 6 right (66%)",
		"Your first score on all topics", "Missed: 2 to review", "✗ 2. ", "✗ 5. ", "n: new quiz")
	// The best is kept with the progress, and the app is asked to save.
	if b, ok := f.prog.QuizBestOf(""); !ok || b.Right != 4 || b.Total != 6 || b.Taken != 1 {
		t.Fatalf("best %+v %v", b, ok)
	}
	saves := 0
	for _, m := range *f.msgs {
		if _, ok := m.(progress.Change); ok {
			saves++
		}
	}
	if saves != 1 {
		t.Fatalf("%d saves asked, want 1 (at the end)", saves)
	}
	// Enter on a missed question shows it again, answered.
	f.Press("down", "enter")
	q = f.quiz()
	p, res := q.Shown()
	if q.Phase() != "review" || p.Number != 5 || res == nil || res.Right || p.Question.ID != items[4].Question.ID {
		t.Fatalf("review: phase %s, question %d %+v", q.Phase(), p.Number, res)
	}
	v = f.View()
	mustContain(t, v, "✗ Missed", "You answered", "The answer is", "Lesson to review: lesson ")
	f.Press("p")
	if p, _ := f.quiz().Shown(); p.Number != 2 {
		t.Fatalf("p went to question %d, want 2", p.Number)
	}
	f.Press("p") // stays on the first
	f.Press("n", "n")
	if p, _ := f.quiz().Shown(); p.Number != 5 {
		t.Fatalf("n went to question %d, want 5", p.Number)
	}
	// esc goes back to the score, then to the lessons.
	f.back()
	if f.quiz().Phase() != "results" {
		t.Fatalf("esc in review: %s", f.quiz().Phase())
	}
	f.back()
	if last := (*f.msgs)[len(*f.msgs)-1]; last != (nav.Pop{}) {
		t.Fatalf("esc on the score: %#v", last)
	}
	// n starts a new quiz from the form, settings kept; a better score is
	// a new best.
	f.Press("n")
	mustContain(t, f.View(), "New quiz", "› ▶ Start", "Your best on all topics: 4/6 (66%), 1 quiz taken.")
	f.Press("enter")
	answerAll(t, f, nil)
	mustContain(t, f.View(), "✓ Score: 6 of 6 right (100%)", "New best on all topics (was 4/6)", "✓ Nothing missed.")
	f.Press("enter") // nothing to review: nothing happens
	if f.quiz().Phase() != "results" {
		t.Fatalf("enter with nothing missed: %s", f.quiz().Phase())
	}
}

// findKind starts a quiz and answers (rightly) until a question of kind
// is on show.
func findKind(t *testing.T, f *fixture, kind qz.Kind) qz.Presented {
	t.Helper()
	if f.quiz().Phase() == "setup" {
		f.Press("enter")
	}
	for {
		p, res := f.quiz().Shown()
		if res == nil && p.Question.Kind == kind {
			return p
		}
		if res == nil {
			f.Press(string(rune('1' + p.Correct())))
		}
		if f.quiz().Session().Done() {
			t.Fatalf("no %s question in the quiz", kind)
		}
		f.Press("enter")
	}
}

func TestRaceQuestionHidesTheRaceUntilAnswered(t *testing.T) {
	f := open(t, 120, 40)
	p := findKind(t, f, qz.Race)
	r := f.quiz().Race()
	if r.Run() == nil || !r.Hidden() {
		t.Fatalf("the race is not shown at its setup before the answer")
	}
	v := f.View()
	mustContain(t, v, "Predict the race", "Before the race", "waits at its start", "race scenarios/")
	mustNotContain(t, v, "✓ 200", "finished:")
	f.Press("space", "right") // race keys do nothing while hidden
	if f.quiz().Race().Index() != -1 {
		t.Fatal("the race moved before the answer")
	}
	wrong := (p.Correct() + 1) % len(p.Options)
	f.Press(string(rune('1' + wrong)))
	if f.quiz().Race().Hidden() || !f.quiz().Race().Playing() {
		t.Fatal("the race does not play once answered (right or wrong)")
	}
	f.PlayAll()
	v = f.View()
	mustContain(t, v, "✗ Not quite.", "The answer is", "finished:", "Lesson to review: lesson ", "(l opens it)")
	// The race is playable: step back, and forward.
	last := f.quiz().Race().Index()
	f.Press("left")
	if f.quiz().Race().Index() != last-1 {
		t.Fatal("← did not step back")
	}
	// l opens the lesson the question points to.
	f.Press("l")
	if got, ok := (*f.msgs)[len(*f.msgs)-1].(nav.Open); !ok || got.LessonID != p.Question.Lesson {
		t.Fatalf("l: %#v", (*f.msgs)[len(*f.msgs)-1])
	}
}

func TestBugQuestionShowsTheSnippet(t *testing.T) {
	f := open(t, 80, 22)
	findKind(t, f, qz.Bug)
	v := f.View()
	mustContain(t, v, "Spot the bug", "─ code ─", "func ForceOwner() {", `cm.ResourceVersion = ""`)
	// Nor its name, which the course picks for the defect.
	mustNotContain(t, v, "// snippet update-clear-rv", "update-clear-rv")
	if f.quiz().Race().Run() != nil {
		t.Fatal("a bug question has a race")
	}
	// The course marks the defect in its snippets; the question must not.
	mustNotContain(t, v, "DEFECT")
	p, _ := f.quiz().Shown()
	f.Press(fmt.Sprint(p.Correct() + 1))
	mustContain(t, f.View(), `cm.ResourceVersion = "" // DEFECT: no precondition`, "// snippet update-clear-rv", "code: update-clear-rv")
}

func TestHideDefects(t *testing.T) {
	in := "// F forgets the RV:\n// an unconditional write.\nfunc F() {\na := 1 // DEFECT: why\n\tb = \"\"\t// DEFECT\n// DEFECTIVE is a word\nc := 3 // fine"
	want := "func F() {\na := 1\n\tb = \"\"\n// DEFECTIVE is a word\nc := 3 // fine"
	if got := HideDefects(in); got != want {
		t.Fatalf("got %q\nwant %q", got, want)
	}
}

func TestMethodQuestionRacesEachAnswer(t *testing.T) {
	f := open(t, 120, 40)
	p := findKind(t, f, qz.Method)
	if r := f.quiz().Race(); r.Run() == nil || !r.Hidden() {
		t.Fatal("before the answer the race is at its setup")
	}
	// The setup says what each controller reads and changes, but not how
	// it writes: the scenario's own write method could be the answer.
	mustContain(t, f.View(), "answer to run it with your choice", "Once you answer, the race runs",
		"write, retry: your choice · read lister · set data.owner=a")
	mustNotContain(t, f.View(), "update-clear-rv")
	f.Press(string(rune('1' + p.Correct())))
	f.PlayAll()
	mustContain(t, f.View(), "✓ Right.", fmt.Sprintf("with %d, your answer ✓", p.Correct()+1))
	chosen := f.quiz().Race().Run()
	other := (p.Correct() + 1) % len(p.Options)
	for f.quiz().frame().cursor != other {
		if f.quiz().frame().cursor < other {
			f.Press("down")
		} else {
			f.Press("up")
		}
	}
	f.PlayAll()
	if f.quiz().Race().Run().Outcome == chosen.Outcome {
		t.Fatal("moving the cursor after the answer did not race the other option")
	}
	mustContain(t, f.View(), fmt.Sprintf("with %d, a wrong answer ✗", other+1))
}

// A quiz on one topic only asks about it, and its best is kept apart.
func TestTopicFilter(t *testing.T) {
	f := open(t, 100, 30)
	f.Press("right", "enter") // lesson 1
	for _, p := range f.quiz().Session().Questions() {
		if p.Question.Lesson != "versions" {
			t.Fatalf("a lesson-1 quiz asks %s (lesson %s)", p.Question.ID, p.Question.Lesson)
		}
	}
	answerAll(t, f, nil)
	if b, ok := f.prog.QuizBestOf("versions"); !ok || b.Right != 2 {
		t.Fatalf("best on versions: %+v %v", b, ok)
	}
	if _, ok := f.prog.QuizBestOf(""); ok {
		t.Fatal("a one-topic quiz counted as all topics")
	}
}

func TestLoadFailureIsShown(t *testing.T) {
	m := New(Config{Load: func() (Data, error) { return Data{}, os.ErrNotExist }}, styles.New(true, true))
	m.SetSize(80, 20)
	d := &uitest.Driver{T: t, Model: wrap{m, &[]tea.Msg{}, progress.New()}}
	d.Run(d.Model.Init())
	mustContain(t, d.View(), "the quiz could not be loaded", "file does not exist")
}

// Asked for twice before it arrives, a race is computed once; a late
// duplicate never replaces the race on the stage (issue 17, as in the
// player).
func TestARaceAskedForTwiceIsComputedOnce(t *testing.T) {
	f := open(t, 120, 40)
	p := findKind(t, f, qz.Race)
	f.Press(string(rune('1' + p.Correct())))
	m := f.quiz()
	d := *m.data
	d.Races = racecache.New(d.Races.(*racecache.Races).Pack()) // as if it had not been computed yet
	m.data = &d
	m.req.Clear()
	m.req.Shown = ""
	first := m.show(-1)
	if first == nil {
		t.Fatal("the race was not asked for")
	}
	if again := m.show(-1); again != nil {
		t.Fatal("asked for again while it was being computed")
	}
	msg := first().(raceReady)
	m, _ = m.Update(msg)
	on := m.Race().Run()
	if on == nil || on.Outcome != msg.Out {
		t.Fatal("the race did not arrive on the stage")
	}
	again := *msg.Out
	late := raceReady{stage.Ready{Key: msg.Key, Out: &again}}
	m, _ = m.Update(late)
	if m.Race().Run() != on {
		t.Fatal("a late duplicate replaced the race on the stage")
	}
}

// tab zooms a question's race (or code) to the whole screen and back,
// as in a lesson; a new question opens unzoomed.
func TestZoomGivesTheStageTheScreen(t *testing.T) {
	f := open(t, 80, 24)
	p := findKind(t, f, qz.Race)
	cursor := f.quiz().frame().cursor
	f.Press("tab")
	v := f.View()
	if first := strings.SplitN(v, "\n", 2)[0]; !strings.Contains(first, "─ race ") {
		t.Fatalf("zoomed, the screen does not start with the race:\n%s", v)
	}
	mustNotContain(t, v, "Predict the race")
	if f.quiz().frame().cursor != cursor {
		t.Fatal("tab moved the cursor on a question with a race")
	}
	f.Press("tab")
	mustContain(t, f.View(), "Predict the race", "Before the race")
	f.Press("tab", string(rune('1'+p.Correct())), "enter")
	if f.quiz().frame().zoom {
		t.Fatal("the next question opened zoomed")
	}
}
