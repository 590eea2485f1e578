package home

import (
	"os"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/conflictlab/conflictlab/lessons"
	"github.com/conflictlab/conflictlab/progress"
	"github.com/conflictlab/conflictlab/ui/nav"
	"github.com/conflictlab/conflictlab/ui/styles"
	"github.com/conflictlab/conflictlab/ui/uitest"
)

func fixture(t *testing.T, prog *progress.Progress, notice string) Model {
	t.Helper()
	p, err := lessons.Load(os.DirFS("../testdata/course"))
	if err != nil {
		t.Fatal(err)
	}
	m := New(p.Lessons, prog, notice, styles.New(true, true))
	m.SetSize(100, 30)
	return m
}

func press(m Model, keys ...string) (Model, tea.Msg) {
	var msg tea.Msg
	for _, k := range keys {
		var cmd tea.Cmd
		m, cmd = m.Update(uitest.Key(k))
		msg = nil
		if cmd != nil {
			msg = cmd()
		}
	}
	return m, msg
}

func TestFreshCourseStartsAtTheFirstLesson(t *testing.T) {
	m := fixture(t, progress.New(), "")
	v := ansi.Strip(m.View())
	for _, want := range []string{"Start the course: Versions, not locks", "1. Versions, not locks", "· not started", "Sandbox — build a race of your own"} {
		if !strings.Contains(v, want) {
			t.Fatalf("missing %q:\n%s", want, v)
		}
	}
	_, msg := press(m, "enter")
	if got, ok := msg.(nav.Open); !ok || got.LessonID != "versions" || got.Step != 0 {
		t.Fatalf("enter on start: %#v", msg)
	}
}

func TestCursorSkipsComingSoonAndStopsAtTheEnds(t *testing.T) {
	m := fixture(t, progress.New(), "")
	m, _ = press(m, "up", "up")
	if m.Cursor() != 0 {
		t.Fatalf("cursor went above the first entry: %d", m.Cursor())
	}
	for i := 0; i < 10; i++ {
		m, _ = press(m, "down")
	}
	// Continue, two lessons, then the modes; coming-soon entries are not
	// selectable.
	if last := 2 + len(Modes); m.Cursor() != last {
		t.Fatalf("cursor went past the last mode: %d, want %d", m.Cursor(), last)
	}
	for range Modes {
		m, _ = press(m, "up")
	}
	_, msg := press(m, "enter")
	if got, ok := msg.(nav.Open); !ok || got.LessonID != "lost-update" {
		t.Fatalf("enter on lesson 2: %#v", msg)
	}
	m, _ = press(m, "k")
	_, msg = press(m, "enter")
	if got, ok := msg.(nav.Open); !ok || got.LessonID != "versions" {
		t.Fatalf("enter on lesson 1: %#v", msg)
	}
}

func TestStatesScoresAndContinue(t *testing.T) {
	prog := progress.New()
	v1 := prog.Lesson("versions")
	v1.Done = true
	v1.Record(1, false)
	v1.Record(1, true)
	lu := prog.Lesson("lost-update")
	lu.Step = 1
	prog.Last = "lost-update"
	m := fixture(t, prog, "")
	v := ansi.Strip(m.View())
	for _, want := range []string{"Continue where you left off: The lost update, step 2 of 2", "✓ done · 0/1 right first time", "… in progress · step 2/2"} {
		if !strings.Contains(v, want) {
			t.Fatalf("missing %q:\n%s", want, v)
		}
	}
	_, msg := press(m, "c")
	if got, ok := msg.(nav.Open); !ok || got.LessonID != "lost-update" || got.Step != 1 {
		t.Fatalf("c: %#v", msg)
	}
	// A done lesson reopens at its start.
	m, _ = press(m, "down")
	_, msg = press(m, "enter")
	if got, ok := msg.(nav.Open); !ok || got.LessonID != "versions" || got.Step != 0 {
		t.Fatalf("reopening a done lesson: %#v", msg)
	}
	// Everything done: no continue entry; the cursor starts on lesson 1.
	lu.Done = true
	m = fixture(t, prog, "")
	if v := ansi.Strip(m.View()); !strings.Contains(v, "Course complete") {
		t.Fatalf("all done:\n%s", v)
	}
	if _, msg := press(m, "c"); msg != nil {
		t.Fatalf("c with nothing to continue: %#v", msg)
	}
}

func TestNoticeIsAlwaysVisible(t *testing.T) {
	m := fixture(t, progress.New(), "could not read your progress (boom); the file was kept as /x/progress.json.corrupt-1 and a fresh one started.")
	for _, h := range []int{8, 14, 30} {
		m.SetSize(80, h)
		v := ansi.Strip(m.View())
		if !strings.Contains(v, "⚠ could not read your progress") || !strings.Contains(v, "corrupt-1") {
			t.Fatalf("notice not visible at height %d:\n%s", h, v)
		}
		uitest.CheckFrame(t, m.View(), 80, h)
	}
}

// TestOddProgressFiles: a file edited by hand or imported from another
// version may name a lesson it has no record of, or one that no longer
// exists, or a step past the end; none of it may crash the home screen.
func TestOddProgressFiles(t *testing.T) {
	prog := progress.New()
	prog.Last = "lost-update" // no record for it
	m := fixture(t, prog, "")
	if id, step, ok := m.ContinueTarget(); !ok || id != "lost-update" || step != 0 {
		t.Fatalf("last without a record: %s %d %v", id, step, ok)
	}
	prog.Last = "no-such-lesson"
	prog.Lesson("versions").Step = 99
	m = fixture(t, prog, "")
	if id, step, ok := m.ContinueTarget(); !ok || id != "versions" || step != 1 {
		t.Fatalf("unknown last, step past the end: %s %d %v", id, step, ok)
	}
	v := ansi.Strip(m.View())
	if !strings.Contains(v, "step 2 of 2") {
		t.Fatalf("a step past the end should show as the last step:\n%s", v)
	}
}

// TestLongCourseKeepsTheCursorInView: with more lessons than rows, the
// list scrolls with the cursor.
func TestLongCourseKeepsTheCursorInView(t *testing.T) {
	p, err := lessons.Load(os.DirFS("../testdata/course"))
	if err != nil {
		t.Fatal(err)
	}
	var many []*lessons.Lesson
	for i := 0; i < 30; i++ {
		l := *p.Lessons[i%2]
		l.ID = l.ID + strings.Repeat("x", i)
		l.Title = "Lesson number " + strings.Repeat("I", i%5+1) + " " + string(rune('A'+i))
		many = append(many, &l)
	}
	m := New(many, progress.New(), "", styles.New(true, true))
	m.SetSize(80, 22)
	for i := 0; i < 30; i++ {
		v := ansi.Strip(m.View())
		var sel string
		for _, line := range strings.Split(v, "\n") {
			if strings.Contains(line, "› ") {
				sel = line
			}
		}
		if sel == "" {
			t.Fatalf("cursor %d is not on screen:\n%s", m.Cursor(), v)
		}
		uitest.CheckFrame(t, m.View(), 80, 22)
		m, _ = press(m, "down")
	}
}

// The quiz is a mode of its own: selectable after the lessons, it says
// what it is and shows the best score kept with the progress.
func TestQuizEntryOpensTheQuiz(t *testing.T) {
	prog := progress.New()
	m := fixture(t, prog, "")
	v := ansi.Strip(m.View())
	if !strings.Contains(v, "Quiz — test what you have learnt") || !strings.Contains(v, "not taken yet") {
		t.Fatalf("no quiz entry:\n%s", v)
	}
	quiz := -1
	for i, md := range Modes {
		if _, ok := md.Open.(nav.OpenQuiz); ok {
			quiz = i
		}
	}
	if quiz < 0 {
		t.Fatal("no mode opens the quiz")
	}
	for i := 0; i < 3+quiz; i++ { // continue, two lessons, the modes before it
		m, _ = press(m, "down")
	}
	v = ansi.Strip(m.View())
	if !strings.Contains(v, "› • Quiz") || !strings.Contains(v, "─ Quiz ─") || !strings.Contains(v, "per topic is kept") {
		t.Fatalf("the quiz entry is not selected, or says nothing:\n%s", v)
	}
	if _, msg := press(m, "enter"); msg != (nav.OpenQuiz{}) {
		t.Fatalf("enter on the quiz: %#v", msg)
	}
	prog.RecordQuiz("", 7, 10)
	prog.RecordQuiz("patches", 3, 3)
	if v := ansi.Strip(m.View()); !strings.Contains(v, "best 7/10 on all topics") {
		t.Fatalf("the best score is not shown:\n%s", v)
	}
}
