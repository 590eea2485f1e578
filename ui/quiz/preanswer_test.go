package quiz

import (
	"reflect"
	"strings"
	"testing"
	"testing/fstest"

	tea "charm.land/bubbletea/v2"

	"github.com/conflictlab/conflictlab/lessons"
	"github.com/conflictlab/conflictlab/lessons/racecache"
	"github.com/conflictlab/conflictlab/progress"
	qz "github.com/conflictlab/conflictlab/quiz"
	"github.com/conflictlab/conflictlab/sim/race"
	"github.com/conflictlab/conflictlab/ui/nav"
	"github.com/conflictlab/conflictlab/ui/stage"
	"github.com/conflictlab/conflictlab/ui/styles"
	"github.com/conflictlab/conflictlab/ui/uitest"
)

// liar plays every race as another: whatever a question asks for, the
// outcome is that of one race of the course, which ends otherwise. It
// gives the scenarios as they are.
type liar struct {
	*racecache.Races
	out *race.Outcome
}

func (l liar) Race(lessons.RaceSpec) (*race.Outcome, error)  { return l.out, nil }
func (l liar) Cached(lessons.RaceSpec) (*race.Outcome, bool) { return l.out, true }

// courseBank is the quiz's own bank about the built-in course, prepared
// on the course's races.
func courseBank(t *testing.T) (*qz.Bank, *lessons.Pack, *racecache.Races) {
	t.Helper()
	bank, err := qz.Default()
	if err != nil {
		t.Fatal(err)
	}
	course, err := lessons.Course()
	if err != nil {
		t.Fatal(err)
	}
	races := racecache.New(course)
	if err := qz.Prepare(bank, races); err != nil {
		t.Fatal(err)
	}
	return bank, course, races
}

// sizes are the terminal sizes the README promises and two larger ones,
// less what the root keeps (a column of margin, the header, the key bar).
var sizes = [][2]int{{80, 24}, {100, 30}, {120, 40}}

// TestPreAnswerViewIsTheSameWhateverTheOutcome: for every question of
// the bank, what the learner sees before answering is drawn from the
// question and its scenario alone. The whole bank is taken as one quiz
// twice, once on the real races and once on races that lie about every
// outcome, at each size; every question's screens before its answer —
// opened, scrolled, its race pane scrolled, zoomed — must be the same,
// and a race or method question's stage must hold the race's setup.
func TestPreAnswerViewIsTheSameWhateverTheOutcome(t *testing.T) {
	bank, course, truth := courseBank(t)
	other, err := truth.Race(course.Lessons[1].Steps[0].Spec(nil))
	if err != nil {
		t.Fatal(err)
	}
	lie := liar{Races: truth, out: other}
	// take answers every question of the bank, rightly, and returns
	// each one's screens before its answer.
	take := func(races Races, w, h int) []string {
		m := New(Config{
			Load:     func() (Data, error) { return Data{Bank: bank, Races: races, Lessons: course.Lessons}, nil },
			Today:    today,
			Ticker:   uitest.Ticker,
			Snippets: func(n string) (string, error) { return "// snippet " + n + "\nfunc F() {}", nil },
		}, styles.New(true, true))
		m.SetSize(w, h)
		d := &uitest.Driver{T: t, Model: wrap{m, &[]tea.Msg{}, progress.New()}}
		d.Run(d.Model.Init())
		quiz := func() Model { return d.Model.(wrap).m }
		d.Press("down", "right", "right", "enter") // every question
		if n := quiz().Session().Len(); n != len(bank.Questions) {
			t.Fatalf("the quiz asks %d questions of %d", n, len(bank.Questions))
		}
		var out []string
		for !quiz().Session().Done() {
			p, res := quiz().Shown()
			if res != nil {
				t.Fatalf("question %d opened answered", p.Number)
			}
			q := p.Question
			var v strings.Builder
			v.WriteString(d.View())
			for _, k := range []string{"pgdown", "pgdown", "J", "J", "J", "down", "tab", "pgdown", "tab", "pgup"} {
				d.Press(k)
				v.WriteString("\n" + d.View())
			}
			if r := quiz().Race().Run(); (q.Kind == qz.Race || q.Kind == qz.Method) && (r == nil || !r.Setup()) {
				t.Errorf("%s (%s:%d): before the answer the stage holds %v, not the race's setup", q.ID, q.File, q.Line, r)
			}
			out = append(out, v.String())
			for range 20 {
				if _, res := quiz().Shown(); res != nil {
					break
				}
				d.Press(string(rune('1' + p.Correct())))
			}
			if _, res := quiz().Shown(); res == nil {
				t.Fatalf("%s: the answer key never answered", q.ID)
			}
			d.Press("enter")
		}
		return out
	}
	for _, size := range sizes {
		w, h := size[0]-1, size[1]-2
		real, lied := take(truth, w, h), take(lie, w, h)
		for i := range real {
			if real[i] != lied[i] {
				t.Errorf("question %d at %dx%d: the screen before the answer changes with the outcome:\n--- real\n%s\n--- lied\n%s", i+1, size[0], size[1], real[i], lied[i])
			}
		}
	}
}

// The question before its answer has no way to the outcome: none of its
// fields, however deep, nor what any function it holds returns, is the
// races, the session (which knows the answer's explanation), a result
// or the quiz's data.
func TestAskingHoldsNoWayToTheOutcome(t *testing.T) {
	races := reflect.TypeFor[Races]()
	banned := map[reflect.Type]bool{
		races: true, reflect.TypeFor[*qz.Session](): true, reflect.TypeFor[qz.Result](): true,
		reflect.TypeFor[Data](): true, reflect.TypeFor[Config](): true, reflect.TypeFor[stage.Requests](): true,
	}
	uitest.WalkTypes(reflect.TypeFor[asking](), func(path string, ty reflect.Type) {
		if banned[ty] || ty.Kind() != reflect.Interface && ty.Implements(races) {
			t.Errorf("asking%s is a %s: the question before its answer can reach the outcome", path, ty)
		}
	})
	// The walk itself must see what it bans: the Model holds them all.
	found := 0
	uitest.WalkTypes(reflect.TypeFor[Model](), func(_ string, ty reflect.Type) {
		if banned[ty] {
			found++
		}
	})
	if found < len(banned)-1 { // the Model holds no bare Result, only a pointer
		t.Fatalf("the walk finds %d of the %d banned types in the Model: it cannot be trusted", found, len(banned))
	}
}

// A bank of one question whose text is taller than the window at 80×24:
// its options are pinned under the top of it.
func longQuestion(t *testing.T, extra string) *qz.Bank {
	t.Helper()
	text := "  question: |\n"
	for i := range 24 {
		text += "    Line " + string(rune('a'+i)) + " of a long question about cm1 and its two writers.\n"
	}
	text += "    The last line asks it: which write keeps data.owner?\n"
	src := "- id: long\n  kind: race\n  lesson: lost-update\n  concepts: [lost-update]\n" + text + extra +
		"  scenario: scenarios/lost-update.yaml\n  schedule: [a, b, a, b]\n  options:\n" +
		"    - text: \"a's change is lost\"\n      correct: true\n      claims: [{lost: data.owner}]\n" +
		"    - text: \"nothing is lost\"\n      claims: [{verdict: no-loss}]\n" +
		"  explanation: b's update carries a copy read before a's write.\n"
	bank, err := qz.Load(fstest.MapFS{"long.yaml": {Data: []byte(src)}})
	if err != nil {
		t.Fatal(err)
	}
	return bank
}

func openBank(t *testing.T, bank *qz.Bank, w, h int) *fixture {
	t.Helper()
	_, races := loadFixture(t)
	if err := qz.Prepare(bank, races); err != nil {
		t.Fatal(err)
	}
	pack := races.Pack()
	prog, msgs := progress.New(), &[]tea.Msg{}
	m := New(Config{
		Load:   func() (Data, error) { return Data{Bank: bank, Races: races, Lessons: pack.Lessons}, nil },
		Prog:   prog,
		Today:  today,
		Ticker: uitest.Ticker,
	}, styles.New(true, true))
	m.SetSize(w, h)
	f := &fixture{Driver: &uitest.Driver{T: t, Model: wrap{m, msgs, prog}}, prog: prog, msgs: msgs, bank: bank}
	f.Run(f.Model.Init())
	f.Press("enter")
	return f
}

// At 80×24 a question taller than its pane cannot be answered before it
// has been on screen whole: an answer key scrolls it on instead and says
// why; once read to its end, the same key answers.
func TestAnEarlyAnswerReadsOn(t *testing.T) {
	f := openBank(t, longQuestion(t, ""), 79, 22)
	v := f.View()
	mustContain(t, v, "Line a of a long question", "1. a's change is lost")
	mustNotContain(t, v, "The last line asks it")
	f.Press("1")
	if _, res := f.quiz().Shown(); res != nil {
		t.Fatal("answered before the question was read whole")
	}
	notes := 0
	for _, m := range *f.msgs {
		if n, ok := m.(nav.Note); ok && strings.Contains(n.Text, "read it whole first") {
			notes++
		}
	}
	if notes != 1 {
		t.Fatalf("the early answer says nothing of why (%d notes): %v", notes, *f.msgs)
	}
	mustNotContain(t, f.View(), "Line a of a long question")
	for range 10 {
		if _, res := f.quiz().Shown(); res != nil {
			break
		}
		f.Press("1")
	}
	if _, res := f.quiz().Shown(); res == nil || !res.Right {
		t.Fatalf("read to its end, the question does not answer: %+v\n%s", res, f.View())
	}
	if f.quiz().Race().Hidden() || !f.quiz().Race().Playing() {
		t.Fatal("the answered race does not play")
	}
}

// A question that fits answers at once, and so does one on a wide
// window, where the question has the whole height.
func TestAQuestionReadWholeAnswersAtOnce(t *testing.T) {
	f := openBank(t, longQuestion(t, ""), 139, 46)
	f.Press("1")
	if _, res := f.quiz().Shown(); res == nil {
		t.Fatalf("a question on screen whole did not answer:\n%s", f.View())
	}
}

// plans: after-answer keeps every plan off the setup until the answer.
func TestPlansAfterAnswer(t *testing.T) {
	f := openBank(t, longQuestion(t, "  plans: after-answer\n"), 139, 46)
	v := f.View()
	mustContain(t, v, "plan: not shown before you answer")
	mustNotContain(t, v, "update-clear-rv", "read lister")
	f.Press("1")
	f.PlayAll()
	mustContain(t, f.View(), "✓ Right.", "finished:")
}
