package ui

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/conflictlab/conflictlab/lessons"
	"github.com/conflictlab/conflictlab/lessons/racecache"
	"github.com/conflictlab/conflictlab/progress"
	"github.com/conflictlab/conflictlab/quiz"
	"github.com/conflictlab/conflictlab/ui/nav"
	quizui "github.com/conflictlab/conflictlab/ui/quiz"
	"github.com/conflictlab/conflictlab/ui/uitest"
)

// The quiz fixture is six questions of every kind about the fixture course
// (testdata/quizbank), so the goldens change only when the screen does.
func fixtureQuiz() (*quiz.Bank, *racecache.Races, error) {
	bank, err := quiz.Load(os.DirFS("testdata/quizbank"))
	if err != nil {
		return nil, nil, err
	}
	pack, err := fixtureCourse()
	if err != nil {
		return nil, nil, err
	}
	races := racecache.New(pack)
	return bank, races, quiz.Prepare(bank, races)
}

func fixtureToday() time.Time { return time.Date(2026, 1, 15, 9, 30, 0, 0, time.UTC) }

func quizScreenOf(d *uitest.Driver) quizui.Model {
	q, _ := nav.As[quizui.Model](find(d, "quiz"))
	return q
}

// openQuizFromHome walks to the home screen's Quiz entry and opens it.
func openQuizFromHome(t testing.TB, d *uitest.Driver) {
	t.Helper()
	for i := 0; i < 20 && !strings.Contains(d.View(), "› • Quiz"); i++ {
		d.Press("down")
	}
	d.Press("enter")
	if got := app(d).Screen(); got != "quiz" {
		t.Fatalf("enter on the Quiz entry opened %s:\n%s", got, d.View())
	}
}

// TestQuizGoldens renders the quiz at the two reference sizes: the form,
// a question of each kind before and after its answer (the race hidden,
// then played), the score and a missed question seen again.
func TestQuizGoldens(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {120, 40}} {
		w, h := size[0], size[1]
		t.Run(fmt.Sprintf("%dx%d", w, h), func(t *testing.T) {
			d := start(t, testConfig(t), w, h)
			shot := func(name string) {
				t.Helper()
				uitest.CheckFrame(t, d.Model.View().Content, w, h)
				uitest.Golden(t, fmt.Sprintf("quiz-%s-%dx%d", name, w, h), d.View())
			}
			openQuizFromHome(t, d)
			shot("setup")
			d.Press("down", "down", "4", "2")
			shot("setup-seed")
			d.Press("enter")
			seen := map[quiz.Kind]bool{}
			for n := 0; !quizScreenOf(d).Session().Done(); n++ {
				p, _ := quizScreenOf(d).Shown()
				kind := p.Question.Kind
				first := !seen[kind]
				seen[kind] = true
				if first {
					shot(string(kind))
				}
				// Miss every other question, so the score has some to review.
				pick := p.Correct()
				if n%2 == 0 {
					pick = (pick + 1) % len(p.Options)
				}
				d.Press(fmt.Sprint(pick + 1))
				d.PlayAll()
				if first {
					shot(string(kind) + "-answered")
				}
				d.Press("enter")
			}
			if len(seen) != len(quiz.Kinds) {
				t.Fatalf("the fixture quiz asks %v, want every kind", seen)
			}
			shot("score")
			d.Press("down", "enter")
			d.PlayAll()
			shot("review")
		})
	}
}

// TestQuizThroughTheApp takes a quiz from the home screen the way a
// learner does and checks that the best score is saved with the progress,
// that esc leaves and the home entry comes back to the quiz as it was,
// and that l opens the lesson a question points to.
func TestQuizThroughTheApp(t *testing.T) {
	cfg := testConfig(t)
	d := start(t, cfg, 100, 30)
	mustContain(t, d.View(), "Quiz — test what you have learnt", "not taken yet")
	mustNotContain(t, d.View(), "Quiz — test what you have learnt   coming soon")
	openQuizFromHome(t, d)
	mustContain(t, d.View(), "Conflict Lab › quiz · new quiz", "Seed", "20260115", "enter start")
	d.Press("down", "left", "down", "7", "enter") // 5 questions, seed 7
	mustContain(t, d.View(), "quiz · question 1/5 · seed 7", "1-")

	// esc leaves the quiz under way; the home entry comes back to it.
	d.Press("esc")
	if got := app(d).Screen(); got != "home" {
		t.Fatalf("esc in a question went to %s", got)
	}
	openQuizFromHome(t, d)
	mustContain(t, d.View(), "quiz · question 1/5 · seed 7")

	items := quizScreenOf(d).Session().Questions()
	for _, p := range items {
		pick := p.Correct()
		if p.Number == 1 {
			pick = (pick + 1) % len(p.Options)
		}
		d.Press(fmt.Sprint(pick + 1))
		d.Press("enter")
	}
	mustContain(t, d.View(), "quiz · score · seed 7", "Score: 4 of 5 right (80%)", "Missed: 1 to review", "✗ 1. ")
	got, notice := progress.Open(cfg.ProgressPath).Load()
	if notice != "" {
		t.Fatal(notice)
	}
	if b, ok := got.QuizBestOf(""); !ok || b.Right != 4 || b.Total != 5 {
		t.Fatalf("the best score on disk: %+v %v", b, ok)
	}
	d.Press("enter")
	mustContain(t, d.View(), "quiz · review question 1/5", "✗ Missed", "The answer is")
	// l opens the lesson the question points to.
	want := items[0].Question.Lesson
	d.Press("l")
	if app(d).Screen() != "player" || playerOf(d).Lesson().ID != want {
		t.Fatalf("l opened %s", app(d).Screen())
	}
	// esc from a lesson opened from the quiz goes back to the quiz, where
	// the learner was.
	d.Press("esc")
	if got := app(d).Screen(); got != "quiz" {
		t.Fatalf("esc in a lesson opened from the quiz went to %s", got)
	}
	mustContain(t, d.View(), "quiz · review question 1/5")
	d.Send(nav.Home{})
	mustContain(t, d.View(), "best 4/5 on all topics")
	// A lesson opened from home still goes back home.
	d.Send(nav.Open{LessonID: want})
	d.Press("esc")
	if got := app(d).Screen(); got != "home" {
		t.Fatalf("esc in a lesson opened from home went to %s", got)
	}
}

// TestRunOptionsPack: the pack given to Run (--lessons) is the one the
// app teaches, not the built-in course.
func TestRunOptionsPack(t *testing.T) {
	pack, err := lessons.Load(os.DirFS("../examples/pack"))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "progress.json")
	d := start(t, Options{ProgressPath: path, Pack: pack, NoColor: true, Ticker: uitest.Ticker}, 100, 30)
	mustContain(t, d.View(), "Start the course: Counting under concurrency", "1. Counting under concurrency")
	mustNotContain(t, d.View(), "Versions, not locks")
	d.Press("enter")
	if l := playerOf(d).Lesson(); l.ID != "counting" {
		t.Fatalf("opened %s", l.ID)
	}
}
