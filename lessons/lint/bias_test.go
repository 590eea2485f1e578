package lint

import (
	"fmt"
	"strings"
	"testing"

	"github.com/conflictlab/conflictlab/lessons"
	"github.com/conflictlab/conflictlab/lessons/answerbias"
)

// The pack-wide rules: right answers longest, or at one position, in too
// many of at least answerbias.MinItems questions; and per question, a right
// option far longer than every wrong one, or a wrong one that is a stub.
func TestWarningsPackWide(t *testing.T) {
	var l []*lessons.Lesson
	for i := 0; i < answerbias.MinItems; i++ {
		l = append(l, &lessons.Lesson{ID: fmt.Sprint("l", i), File: "x.yaml", Steps: []lessons.Step{{Kind: lessons.Predict, Line: 10 + i, Options: []lessons.Option{
			{Label: "short"}, {Label: "the long, reasoned right answer", Correct: true}, {Label: "short too"}}}}})
	}
	ws := Bias(&lessons.Pack{Lessons: l})
	var all []string
	for _, w := range ws {
		all = append(all, w.Error())
	}
	joined := strings.Join(all, "\n")
	for _, want := range []string{"longest in 6 of 6 questions", "written b in 6 of 6 questions",
		"x.yaml:10: warning: the right option is more than 1.25 times as long", "x.yaml:15: warning: a wrong option is under half"} {
		if !strings.Contains(joined, want) {
			t.Errorf("want %q in:\n%s", want, joined)
		}
	}
	// Right answers at a, b and c, longest in two of six, every wrong option
	// with its reason: nothing to spot.
	for i := range l {
		right := "the right answer, with its reason"
		wrong := []string{"a wrong answer, with a reason too", "another wrong one, reasoned as well"}
		if i < 2 {
			wrong = []string{"wrong, short", "also wrong, short"}
			right = "right, a bit longer"
		}
		opts := []lessons.Option{{Label: wrong[0]}, {Label: wrong[1]}}
		opts = append(opts[:i%3], append([]lessons.Option{{Label: right, Correct: true}}, opts[i%3:]...)...)
		l[i].Steps[0].Options = opts
	}
	if ws := Bias(&lessons.Pack{Lessons: l}); len(ws) != 0 {
		t.Fatalf("warnings for a balanced pack: %v", ws)
	}
}
