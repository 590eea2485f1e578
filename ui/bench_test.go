package ui

import (
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/conflictlab/conflictlab/lessons"
	"github.com/conflictlab/conflictlab/quiz"
	"github.com/conflictlab/conflictlab/ui/nav"
	"github.com/conflictlab/conflictlab/ui/uitest"
)

// BenchmarkFirstFrame is the work between the program starting and its
// first frame: building the app, the window size, and View. The course
// and the races are not loaded yet (they load in commands after it).
func BenchmarkFirstFrame(b *testing.B) {
	cfg := testConfig(b)
	for b.Loop() {
		m := New(cfg)
		_ = m.Init()
		next, _ := m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
		_ = next.View()
	}
}

// busiest opens the busiest screen of the built-in course at 120×40 with
// colour on: the player side by side with the longest race of the course
// (lesson 5's "contended", 106 steps, finished), its verdict and the
// object's YAML, after a wrong answer, the hint and the right answer.
// (Colour here means the styles' full colours, as View always writes
// them; the terminal's profile is applied after View, by Bubble Tea.)
func busiest(b *testing.B) tea.Model {
	cfg := testConfig(b)
	cfg.LoadCourse, cfg.NoColor = lessons.Course, false
	d := start(b, cfg, 120, 40)
	d.Send(nav.Open{LessonID: "bounded-retries", Step: 0})
	d.Press("2", "h", "1")
	d.PlayAll()
	return d.Model
}

// BenchmarkViewBusiest draws the busiest screen (see busiest): the frame
// whose View must stay under 0.5 ms (BENCHMARKS.md, "Startup and frame").
func BenchmarkViewBusiest(b *testing.B) {
	m := busiest(b)
	if v := m.View().Content; len(v) == 0 {
		b.Fatal("empty frame")
	}
	for b.Loop() {
		_ = m.View()
	}
}

// BenchmarkStepKeyToFrame is key-press-to-frame on the busiest screen: a
// step key of the race view (← and → in turn, so the race stays near its
// end) through the whole app's Update, and the View that follows.
func BenchmarkStepKeyToFrame(b *testing.B) {
	m := busiest(b)
	keys := []tea.KeyPressMsg{uitest.Key("left"), uitest.Key("right")}
	if back, _ := m.Update(keys[0]); back.View().Content == m.View().Content {
		b.Fatal("← did not step the race back")
	}
	for i := 0; b.Loop(); i++ {
		m, _ = m.Update(keys[i%2])
		_ = m.View()
	}
}

// BenchmarkViewBusiestFixture draws the test course's lesson 2 with colour
// off (a lost field, feedback and hint).
func BenchmarkViewBusiestFixture(b *testing.B) {
	d := start(b, testConfig(b), 120, 40)
	d.Press("down", "down", "enter", "1", "h", "2")
	d.PlayAll()
	m := d.Model
	if v := m.View().Content; len(v) == 0 {
		b.Fatal("empty frame")
	}
	for b.Loop() {
		_ = m.View()
	}
}

// BenchmarkViewHome draws the home screen at 120×40.
func BenchmarkViewHome(b *testing.B) {
	m := start(b, testConfig(b), 120, 40).Model
	for b.Loop() {
		_ = m.View()
	}
}

// quizAt opens the fixture quiz at 120×40 with colour on and answers its
// questions rightly until one of kind k is on show, unanswered.
func quizAt(b *testing.B, k quiz.Kind) *uitest.Driver {
	cfg := testConfig(b)
	cfg.NoColor = false
	d := start(b, cfg, 120, 40)
	openQuizFromHome(b, d)
	d.Press("enter")
	for !quizScreenOf(d).Session().Done() {
		p, _ := quizScreenOf(d).Shown()
		if p.Question.Kind == k {
			return d
		}
		d.Press(fmt.Sprint(p.Correct()+1), "enter")
	}
	b.Fatalf("the fixture quiz asks no %s question", k)
	return nil
}

// BenchmarkViewQuizAsking draws a race question of the fixture quiz
// before its answer: the question beside its race's setup.
func BenchmarkViewQuizAsking(b *testing.B) {
	m := quizAt(b, quiz.Race).Model
	if v := m.View().Content; !strings.Contains(v, "Before the race") {
		b.Fatalf("not the race's setup:\n%s", v)
	}
	for b.Loop() {
		_ = m.View()
	}
}

// BenchmarkViewQuizAnswered draws the same question answered, its race
// played to its end beside the verdict and the explanation.
func BenchmarkViewQuizAnswered(b *testing.B) {
	d := quizAt(b, quiz.Race)
	p, _ := quizScreenOf(d).Shown()
	d.Press(fmt.Sprint(p.Correct() + 1))
	d.PlayAll()
	m := d.Model
	if v := m.View().Content; !strings.Contains(v, "Right.") {
		b.Fatalf("not answered:\n%s", v)
	}
	for b.Loop() {
		_ = m.View()
	}
}
