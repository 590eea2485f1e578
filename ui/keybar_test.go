package ui

import (
	"fmt"
	"strings"
	"testing"

	"github.com/conflictlab/conflictlab/lessons"
	"github.com/conflictlab/conflictlab/ui/nav"
)

// TestKeyBarKeepsTheKeysTheStepNeeds: at 80×24, on every step of the
// course before and after its answer, the key bar is never cut ("…"),
// keeps the key list (?), and shows the two keys the step lists first —
// the ones it needs (answer, continue, step a controller, pick a
// setting).
func TestKeyBarKeepsTheKeysTheStepNeeds(t *testing.T) {
	cfg := testConfig(t)
	cfg.LoadCourse = lessons.Course
	pack, err := lessons.Course()
	if err != nil {
		t.Fatal(err)
	}
	check := func(d interface{ View() string }, where string, need []string) {
		t.Helper()
		lines := strings.Split(d.View(), "\n")
		bar := lines[len(lines)-1]
		if strings.Contains(bar, "…") || !strings.Contains(bar, "? all keys") {
			t.Errorf("%s: the key bar is cut: %q", where, bar)
		}
		for _, k := range need {
			if !strings.Contains(bar, k) {
				t.Errorf("%s: the key bar lacks %q: %q", where, k, bar)
			}
		}
	}
	for _, l := range pack.Lessons {
		for si := range l.Steps {
			d := start(t, cfg, 80, 24)
			d.Send(nav.Open{LessonID: l.ID, Step: si})
			where := l.ID + " step " + string(rune('1'+si))
			needed := func() []string {
				var out []string
				for _, b := range playerOf(d).ShortHelp()[:2] {
					out = append(out, b.Help().Key+" "+b.Help().Desc)
				}
				return out
			}
			check(d, where, needed())
			if s := l.Steps[si]; s.Kind == lessons.Predict || s.Kind == lessons.Choose {
				// The question read to its end, then answered.
				for prev := ""; d.View() != prev; {
					prev = d.View()
					d.Press("pgdown")
				}
				d.Press("home", "1")
				d.PlayAll()
				check(d, where+" answered", needed())
			}
		}
	}
}

// TestQuizKeyBarKeepsTheKeysItNeeds: at 80×24, on every question of the
// fixture quiz before and after its answer, the key bar is never cut,
// keeps the key list (?), and shows the first two keys the quiz lists —
// the ones the question needs (answer and choose, or next and what the
// race on the stage does).
func TestQuizKeyBarKeepsTheKeysItNeeds(t *testing.T) {
	d := start(t, testConfig(t), 80, 24)
	openQuizFromHome(t, d)
	d.Press("enter")
	check := func(where string) {
		t.Helper()
		lines := strings.Split(d.View(), "\n")
		bar := lines[len(lines)-1]
		if strings.Contains(bar, "…") || !strings.Contains(bar, "? all keys") {
			t.Errorf("%s: the key bar is cut: %q", where, bar)
		}
		for _, b := range quizScreenOf(d).ShortHelp()[:2] {
			if k := b.Help().Key + " " + b.Help().Desc; !strings.Contains(bar, k) {
				t.Errorf("%s: the key bar lacks %q: %q", where, k, bar)
			}
		}
	}
	for n := 1; !quizScreenOf(d).Session().Done(); n++ {
		p, _ := quizScreenOf(d).Shown()
		where := fmt.Sprintf("question %d (%s)", n, p.Question.Kind)
		check(where)
		d.Press(fmt.Sprint(p.Correct() + 1))
		d.PlayAll()
		check(where + " answered")
		d.Press("enter")
	}
}
