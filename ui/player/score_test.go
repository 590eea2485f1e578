package player

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/conflictlab/conflictlab/lessons"
	"github.com/conflictlab/conflictlab/lessons/racecache"
	"github.com/conflictlab/conflictlab/progress"
	"github.com/conflictlab/conflictlab/ui/styles"
	"github.com/conflictlab/conflictlab/ui/uitest"
)

// An unsolved play step is "still to solve", an unanswered question
// "still to answer": the summary does not ask for an answer to a step
// that takes moves.
func TestScoreLinesTellPlayFromQuestion(t *testing.T) {
	l := &lessons.Lesson{ID: "l", Steps: []lessons.Step{{Kind: lessons.Predict}, {Kind: lessons.Play}, {Kind: lessons.Choose}, {Kind: lessons.Play}}}
	prog := progress.New()
	prog.Apply(progress.Answered{Lesson: "l", Step: 0, Option: "a", Correct: true})
	env := &lessonEnv{lesson: l, prog: prog}
	got := ansi.Strip(strings.Join(scoreLines(env, styles.New(true, true), 200), " "))
	want := "Step 3 still to answer; Steps 2 and 4 still to solve: the lesson is done when every question is answered and every play step solved."
	if !strings.Contains(got, want) {
		t.Fatalf("score lines:\n%s\nwant %q", got, want)
	}
}

// After the answer, enter reads the feedback on while it goes on below
// the pane, and continues once it has been read to its end.
func TestEnterReadsTheFeedbackOn(t *testing.T) {
	course, err := lessons.Course()
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, l := range course.Lessons {
		for si, s := range l.Steps {
			if s.Kind != lessons.Predict || found {
				continue
			}
			prog := progress.New()
			m, cmd := New(l, nil, prog, racecache.New(course), styles.New(true, true), si)
			m.SetTicker(uitest.Ticker)
			m.SetSize(79, 22)
			d := &uitest.Driver{T: t, Model: wrap{m}}
			d.Run(cmd)
			readQuestion(d)
			d.Press("1")
			if !strings.Contains(d.View(), "more below") {
				continue // the feedback fits: nothing to read on
			}
			found = true
			for i := 0; strings.Contains(d.View(), "more below"); i++ {
				if i == 20 {
					t.Fatalf("%s step %d: enter never reached the end of the feedback:\n%s", l.ID, si+1, d.View())
				}
				before := d.View()
				d.Press("enter")
				if got := d.Model.(wrap).m.Step(); got != si {
					t.Fatalf("%s step %d: enter with feedback below left for step %d:\n%s", l.ID, si+1, got+1, before)
				}
			}
			d.Press("enter")
			if got := d.Model.(wrap).m.Step(); got != si+1 {
				t.Fatalf("%s step %d: enter at the end of the feedback is step %d, want the next", l.ID, si+1, got+1)
			}
		}
	}
	if !found {
		t.Fatal("no predict step of the course has feedback taller than its pane at 80×24: the test checks nothing")
	}
}
