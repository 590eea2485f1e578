package player

import (
	"testing"

	"github.com/conflictlab/conflictlab/lessons"
	"github.com/conflictlab/conflictlab/lessons/racecache"
	"github.com/conflictlab/conflictlab/progress"
	"github.com/conflictlab/conflictlab/ui/styles"
	"github.com/conflictlab/conflictlab/ui/uitest"
)

// TestEveryQuestionCanBeAnswered opens every question of the built-in
// course at 80×24 and answers it the way an impatient learner does: the
// answer key first, then, after the refusal that scrolls the question
// on, PgUp back to the top and the answer key again and again. The
// refusal must lead somewhere: each press shows a line of the question
// not yet seen, so a few presses answer it. (A refusal that scrolls to
// the end while a line under the "↑ more" mark was never on screen
// would refuse for ever.)
func TestEveryQuestionCanBeAnswered(t *testing.T) {
	course, err := lessons.Course()
	if err != nil {
		t.Fatal(err)
	}
	races := racecache.New(course)
	st := styles.New(true, true)
	for li, l := range course.Lessons {
		for si, s := range l.Steps {
			if len(s.Options) == 0 {
				continue
			}
			for _, first := range [][]string{{"1"}, {"1", "pgup"}, {"pgdown", "pgup"}} {
				prog := progress.New()
				m, cmd := New(l, nil, prog, races, st, si)
				m.SetTicker(uitest.Ticker)
				m.SetSnippets(func(n string) (string, error) { return "// snippet " + n, nil })
				m.SetSize(79, 22)
				d := &uitest.Driver{T: t, Model: wrap{m}}
				d.Run(cmd)
				d.Press(first...)
				presses := len(first)
				for ; presses < 40; presses++ {
					if _, ok := prog.Lesson(l.ID).Answers[si]; ok {
						break
					}
					d.Press("1")
				}
				if _, ok := prog.Lesson(l.ID).Answers[si]; !ok {
					t.Errorf("L%d s%d (%s), keys %v then 1…: still not answered after %d presses:\n%s",
						li+1, si+1, s.Title, first, presses, d.View())
				} else if presses > 12 {
					t.Errorf("L%d s%d (%s), keys %v then 1…: %d presses to answer", li+1, si+1, s.Title, first, presses)
				}
			}
		}
	}
}
