package player

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/conflictlab/conflictlab/lessons"
	"github.com/conflictlab/conflictlab/progress"
	"github.com/conflictlab/conflictlab/ui/styles"
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
