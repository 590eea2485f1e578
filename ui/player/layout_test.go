package player

import (
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/conflictlab/conflictlab/lessons"
	"github.com/conflictlab/conflictlab/lessons/racecache"
	"github.com/conflictlab/conflictlab/progress"
	"github.com/conflictlab/conflictlab/ui/nav"
	"github.com/conflictlab/conflictlab/ui/styles"
	"github.com/conflictlab/conflictlab/ui/uitest"
)

// longOptions gives the choose step of the lost-update lesson a long text
// and four options whose labels wrap to two lines each at 80 columns.
func longOptions(l *lessons.Lesson) { nLongOptions(l, 4) }

// nLongOptions gives it n such options.
func nLongOptions(l *lessons.Lesson, n int) {
	s := &l.Steps[1]
	s.Text = "Prose line one says who writes what.\n\n" +
		"Prose line two adds the detail that matters to the race that follows on the stage below, " +
		"and it goes on long enough to wrap at eighty columns more than once, so that the text " +
		"needs more room than a short step would, which is the point of this test of the layout."
	for len(s.Options) < n {
		o := s.Options[0]
		o.ID = fmt.Sprintf("copy%d", len(s.Options))
		s.Options = append(s.Options, o)
	}
	for i := range s.Options {
		s.Options[i].Label = []string{"First", "Second", "Third", "Fourth", "Fifth"}[i] +
			" option, a label long enough to wrap onto a second line of the text pane when the window is eighty columns wide"
	}
}

// Four options of two lines each at 80×24 (the player's 79×22) leave
// proseMin lines of the prose in view above the question, not one.
func TestTwoLineOptionsLeaveTheProseInView(t *testing.T) {
	f := openSized(t, "lost-update", 1, 79, 22, longOptions)
	uitest.CheckFrame(t, f.View(), 79, 22)
	f.see("› 1. First option", "4. Fourth option")
	proseAboveQuestion(t, f)
}

// proseAboveQuestion fails unless proseMin lines (the step's title
// counted) are above the question.
func proseAboveQuestion(t *testing.T, f *fixture) {
	t.Helper()
	lines := strings.Split(f.View(), "\n")
	q := -1
	for i, l := range lines {
		if strings.Contains(l, "Which write turns") {
			q = i
			break
		}
	}
	// The prose, then the "↓ more" mark.
	if q < proseMin+1 {
		t.Fatalf("the question is on line %d: fewer than %d lines of prose above it:\n%s", q+1, proseMin, f.View())
	}
	f.see("Make the race visible", "Prose line one", "Prose line two adds")
}

// A question whose options need more rows than the text pane has left
// under proseMin lines of prose scrolls them with the cursor.
func TestOptionsScrollWithTheCursorUnderTheProse(t *testing.T) {
	f := openSized(t, "lost-update", 1, 79, 22, func(l *lessons.Lesson) { nLongOptions(l, 5) })
	uitest.CheckFrame(t, f.View(), 79, 22)
	f.see("› 1. First option", "↓ 2 options below")
	f.notSee("5. Fifth option")
	proseAboveQuestion(t, f)
	f.Press("down", "down", "down", "down")
	f.see("› 5. Fifth option", "options above")
	f.notSee("1. First option")
	proseAboveQuestion(t, f)
	// Going back up scrolls no further than the cursor needs.
	f.Press("up")
	f.see("› 4. Fourth option", "5. Fifth option")
	f.Press("up", "up", "up")
	f.see("› 1. First option")
	proseAboveQuestion(t, f)
	uitest.CheckFrame(t, f.View(), 79, 22)
	// Answering shows every option again, the text scrolling as a whole.
	f.readQuestion()
	f.Press("enter")
	f.PlayAll()
	f.notSee("options above", "options below", "option above", "option below")
}

// The options that fit are not scrolled: the same step with its short
// labels shows every option and all its text, as before.
func TestShortOptionsAreNotScrolled(t *testing.T) {
	f := openSized(t, "lost-update", 1, 79, 22, nil)
	f.notSee("option below", "options below")
	for i, o := range f.player().Lesson().Steps[1].Options {
		f.see(string(rune('1'+i)) + ". " + o.Label)
	}
}

// At 80 columns a chosen strategy is too long for the race's title rule:
// the rule names the race and the strategy reads in full under it.
func TestChosenStrategyReadsInFullAtEightyColumns(t *testing.T) {
	f := openSized(t, "lost-update", 1, 79, 22, longOptions)
	f.readQuestion()
	f.Press("2")
	f.PlayAll()
	label := f.player().Lesson().Steps[1].Options[1].Label
	flat := strings.Join(strings.Fields(f.View()), " ")
	if !strings.Contains(flat, "strategy: "+label) {
		t.Fatalf("the strategy %q is not on screen in full:\n%s", label, f.View())
	}
	f.notSee("…")
	uitest.CheckFrame(t, f.View(), 79, 22)
}

// Zoom is a step's: the next step opens with its question in view.
func TestZoomEndsWithTheStep(t *testing.T) {
	f := open(t, "lost-update", 0)
	f.Press("tab")
	f.notSee("Once both writes are done")
	f.Press("n")
	f.see("Which write turns the silent loss")
	f.Press("p")
	f.see("Once both writes are done")
}

// With the inspect panel open, ↑/↓ scroll it (as the panel says), not the
// options under the question, and the player takes esc to close it.
func TestInspectPanelTakesArrowsAndEsc(t *testing.T) {
	f := open(t, "lost-update", 0)
	f.Press("2")
	f.PlayAll()
	f.Press("i")
	if !f.player().Race().Inspecting() {
		t.Fatal("i did not open the inspect panel")
	}
	f.Press("up")
	if got := f.player().cursor(); got != 1 {
		t.Fatalf("↑ with the panel open moved the option cursor to %d", got)
	}
	if !f.player().TakesKey(uitest.Key("esc")) {
		t.Fatal("the player leaves esc to the app with the panel open")
	}
	f.Press("esc")
	if f.player().Race().Inspecting() {
		t.Fatal("esc did not close the inspect panel")
	}
	if f.player().TakesKey(uitest.Key("esc")) {
		t.Fatal("the player keeps esc with the panel closed")
	}
	f.Press("up")
	if got := f.player().cursor(); got != 0 {
		t.Fatalf("↑ with the panel closed left the option cursor at %d", got)
	}
}

// A question taller than its pane keeps its options pinned under the
// prose: they answer only once the whole question has been on screen;
// until then an answer key reads on, and says why.
func TestOptionsAnswerOnlyOnceTheQuestionWasShownWhole(t *testing.T) {
	long := func(l *lessons.Lesson) {
		var b strings.Builder
		for i := range 30 {
			fmt.Fprintf(&b, "Line %d of a long question's prose.\n\n", i+1)
		}
		b.WriteString("The sentence that decides it comes last.")
		l.Steps[0].Text = b.String()
	}
	f := openSized(t, "lost-update", 0, 79, 22, long)
	f.see("1. ")
	f.notSee("The sentence that decides it comes last.")
	var msgs []string
	m, cmd := f.player().Update(uitest.Key("1"))
	for _, msg := range runAll(cmd) {
		if n, ok := msg.(nav.Note); ok {
			msgs = append(msgs, n.Text)
		}
		if _, ok := msg.(progress.Change); ok && f.prog.Lessons["lost-update"] != nil && len(f.prog.Lessons["lost-update"].Answers) > 0 {
			t.Fatal("an answer was recorded before the question was read")
		}
	}
	f.Model = wrap{m}
	if len(msgs) != 1 || !strings.Contains(msgs[0], "read it whole first") {
		t.Fatalf("the early answer said %q", msgs)
	}
	if _, ok := m.cur.(asking); !ok {
		t.Fatal("the early answer answered the question")
	}
	f.readQuestion()
	f.Press("2")
	if a, ok := f.prog.Lessons["lost-update"].Answers[0]; !ok || a.Picked != "replicas" {
		t.Fatalf("after reading it, the answer was not taken: %+v", f.prog.Lessons["lost-update"])
	}
}

// runAll runs cmd and what it batches, and returns the messages.
func runAll(cmd tea.Cmd) []tea.Msg {
	if cmd == nil {
		return nil
	}
	switch msg := cmd().(type) {
	case tea.BatchMsg:
		var out []tea.Msg
		for _, c := range msg {
			out = append(out, runAll(c)...)
		}
		return out
	case nil:
		return nil
	default:
		return []tea.Msg{msg}
	}
}

// A learner who presses the answer key, again and again, before reading
// on is shown the question a part at a time and then answered, on every
// question of the built-in course at 80×24: no press jumps over a line
// the learner would have to go back up for (with the options pinned, the
// window over the prose is shorter than the pane).
func TestAnswerKeyReadsOnToTheAnswer(t *testing.T) {
	course, err := lessons.Course()
	if err != nil {
		t.Fatal(err)
	}
	races := racecache.New(course)
	st := styles.New(true, true)
	for li, l := range course.Lessons {
		for si, s := range l.Steps {
			if s.Kind != lessons.Predict && s.Kind != lessons.Choose {
				continue
			}
			m, cmd := New(l, nil, progress.New(), races, st, si)
			m.SetTicker(uitest.Ticker)
			m.SetSnippets(func(n string) (string, error) { return "// snippet " + n, nil })
			m.SetSize(79, 22)
			d := &uitest.Driver{T: t, Model: wrap{m}}
			d.Run(cmd)
			presses := 0
			for ; presses < 20; presses++ {
				if _, ok := d.Model.(wrap).m.cur.(asking); !ok {
					break
				}
				d.Press("1")
			}
			if _, ok := d.Model.(wrap).m.cur.(asking); ok {
				t.Errorf("lesson %d step %d (%s): 20 presses of 1 did not answer it:\n%s", li+1, si+1, s.Title, d.View())
			}
		}
	}
}
