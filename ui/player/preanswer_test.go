package player

import (
	"fmt"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/conflictlab/conflictlab/lessons"
	"github.com/conflictlab/conflictlab/lessons/racecache"
	"github.com/conflictlab/conflictlab/progress"
	"github.com/conflictlab/conflictlab/sim/race"
	"github.com/conflictlab/conflictlab/ui/styles"
	"github.com/conflictlab/conflictlab/ui/uitest"
)

// liar plays every race as another: whatever a step asks for, the
// outcome is that of one other race of the course, which ends otherwise.
type liar struct {
	*racecache.Races
	out   *race.Outcome
	asked int
}

func (l *liar) Race(lessons.RaceSpec) (*race.Outcome, error) {
	l.asked++
	return l.out, nil
}

func (l *liar) Cached(lessons.RaceSpec) (*race.Outcome, bool) { return l.out, true }

// TestPreAnswerViewIsTheSameWhateverTheOutcome: for every predict and
// choose step of the course, what the learner sees before answering is
// drawn from the step and its scenario alone. The step is opened twice,
// once on the real races and once on races that lie about every outcome,
// at each size the walk reads; the frames must be the same, and the race
// view must hold the race's setup, never an outcome.
func TestPreAnswerViewIsTheSameWhateverTheOutcome(t *testing.T) {
	p, err := lessons.Course()
	if err != nil {
		t.Fatal(err)
	}
	truth := racecache.New(p)
	// The lie: lesson 2's first race (a change lost), for every race.
	other, err := truth.Race(p.Lessons[1].Steps[0].Spec(nil))
	if err != nil {
		t.Fatal(err)
	}
	lie := &liar{Races: racecache.New(p), out: other}
	st := styles.New(true, true)
	frames := func(races Races, l *lessons.Lesson, i, w, h int) (string, Model) {
		m, cmd := New(l, nil, progress.New(), races, st, i)
		m.SetTicker(uitest.Ticker)
		m.SetSnippets(func(n string) (string, error) { return "// snippet " + n, nil })
		m.SetSize(w, h)
		d := &uitest.Driver{T: t, Model: wrap{m}}
		d.Run(cmd)
		d.PlayAll()
		// Scrolling reads all of it: the text, and the setup below it.
		v := ansi.Strip(d.Model.(wrap).m.View())
		for _, k := range []string{"pgdown", "pgdown", "J", "J", "J", "c", "tab"} {
			d.Press(k)
			v += "\n" + ansi.Strip(d.Model.(wrap).m.View())
		}
		return v, d.Model.(wrap).m
	}
	checked := 0
	for li, l := range p.Lessons {
		for i, s := range l.Steps {
			if s.Kind != lessons.Predict && s.Kind != lessons.Choose {
				continue
			}
			for _, size := range walkSizes {
				w, h := size[0]-1, size[1]-2
				real, m := frames(truth, l, i, w, h)
				lied, _ := frames(lie, l, i, w, h)
				if real != lied {
					t.Errorf("lesson %d step %d at %dx%d: the pre-answer screen changes with the outcome:\n--- real\n%s\n--- lied\n%s", li+1, i+1, size[0], size[1], real, lied)
				}
				if r := m.Race().Run(); s.Race != nil && (r == nil || !r.Setup()) {
					t.Errorf("lesson %d step %d: before the answer the stage holds %v, not the race's setup", li+1, i+1, r)
				}
				checked++
			}
		}
	}
	if checked == 0 {
		t.Fatal("the course has no question: this test checks nothing")
	}
}

// The pre-answer model has no way to play a race: none of its fields,
// however deep, is a race runtime, a replay or a count of interleavings.
func TestAskingHoldsNoWayToTheOutcome(t *testing.T) {
	races := reflect.TypeFor[Races]()
	live := reflect.TypeFor[Live]()
	uitest.WalkTypes(reflect.TypeFor[asking](), func(path string, ty reflect.Type) {
		if ty.Kind() != reflect.Interface && (ty.Implements(races) || ty.Implements(live)) ||
			ty == races || ty == live || ty == reflect.TypeFor[*tallies]() || ty == reflect.TypeFor[shown]() {
			t.Errorf("asking%s is a %s: the question before its answer can reach the outcome", path, ty)
		}
	})
}

// TestTheRowTheFeedbackNamesIsOnScreen: at 80×24, once a question is
// answered and its race has played out, the row the feedback names ("Row
// 6 decides it") is in the race pane, however long the race.
func TestTheRowTheFeedbackNamesIsOnScreen(t *testing.T) {
	p, err := lessons.Course()
	if err != nil {
		t.Fatal(err)
	}
	races := racecache.New(p)
	st := styles.New(true, true)
	named := regexp.MustCompile(`Row (\d+) decides it`)
	checked := 0
	for li, l := range p.Lessons {
		for i, s := range l.Steps {
			if s.Kind != lessons.Predict && s.Kind != lessons.Choose || s.Race == nil {
				continue
			}
			for o := range s.Options {
				m, cmd := New(l, nil, progress.New(), races, st, i)
				m.SetTicker(uitest.Ticker)
				m.SetSize(79, 22)
				d := &uitest.Driver{T: t, Model: wrap{m}}
				d.Run(cmd)
				d.Press(fmt.Sprint(o + 1))
				d.PlayAll()
				v := ansi.Strip(d.Model.(wrap).m.View())
				words := strings.Join(strings.Fields(strings.Join(d.Model.(wrap).m.TextLines(), " ")), " ")
				n := named.FindStringSubmatch(ansi.Strip(words))
				if n == nil {
					continue
				}
				stage := v[strings.LastIndex(v, "─ race"):]
				row := regexp.MustCompile(`(?m)^\s*(▶\s*)?` + n[1] + `\s`)
				if !row.MatchString(stage) {
					t.Errorf("lesson %d step %d option %d: the text names row %s; the race pane shows:\n%s", li+1, i+1, o+1, n[1], stage)
				}
				checked++
			}
		}
	}
	if checked == 0 {
		t.Fatal("no feedback names a row: this test checks nothing")
	}
}
