package home

import (
	"fmt"
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

// openQuiz is what the test's quiz mode sends.
type openQuiz struct{}

// Modes are the root's two other modes, as far as the home screen sees
// them: a label, what each is about, a note from the progress, and the
// message that opens it.
var Modes = []Mode{
	{Label: "Quiz — test what you have learnt", Open: openQuiz{}, About: "Questions on the course. Pick a topic; the best per topic is kept.",
		Note: func(p *progress.Progress) string {
			if b, ok := p.QuizBestOf(""); ok {
				return fmt.Sprintf("best %d/%d on all topics", b.Right, b.Total)
			}
			return "not taken yet"
		}},
	{Label: "Sandbox — build a race of your own", Open: struct{}{}, About: "Build a race of two to four controllers and take the challenges."},
}

func fixture(t *testing.T, prog *progress.Progress, notice string) Model {
	t.Helper()
	p, err := lessons.Load(os.DirFS("../testdata/course"))
	if err != nil {
		t.Fatal(err)
	}
	m := New(p.Lessons, Modes, prog, notice, styles.New(true, true))
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

func TestCursorStopsAtTheEnds(t *testing.T) {
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
	m := New(many, Modes, progress.New(), "", styles.New(true, true))
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
		if _, ok := md.Open.(openQuiz); ok {
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
	if _, msg := press(m, "enter"); msg != (openQuiz{}) {
		t.Fatalf("enter on the quiz: %#v", msg)
	}
	prog.RecordQuiz("", 7, 10)
	prog.RecordQuiz("patches", 3, 3)
	if v := ansi.Strip(m.View()); !strings.Contains(v, "best 7/10 on all topics") {
		t.Fatalf("the best score is not shown:\n%s", v)
	}
}

// TestEveryEntryKeepsTheTitleAt80x24: with the built-in course in the
// home screen's room at 80×24, whichever entry is selected the screen
// starts with the course's one-line summary, the continue line is whole
// (its step is the point), every entry is listed, and a selected mode's
// description ends a sentence rather than being cut.
func TestEveryEntryKeepsTheTitleAt80x24(t *testing.T) {
	p, err := lessons.Course()
	if err != nil {
		t.Fatal(err)
	}
	prog := progress.New()
	// Far into a lesson with a long title: the longest continue line.
	long := p.Lessons[0]
	for _, l := range p.Lessons {
		if len(l.Title) > len(long.Title) {
			long = l
		}
	}
	for _, l := range p.Lessons {
		if l == long {
			break
		}
		prog.Lesson(l.ID).Done = true
	}
	prog.Lesson(long.ID).Step = len(long.Steps) - 1
	prog.Last = long.ID
	m := New(p.Lessons, Modes, prog, "", styles.New(true, true))
	m.SetSize(80, 22) // the window less the header and the key bar
	cont := fmt.Sprintf("step %d of %d", len(long.Steps), len(long.Steps))
	for i := 0; i < len(p.Lessons)+len(Modes)+1; i++ {
		uitest.CheckFrame(t, m.View(), 80, 22)
		v := ansi.Strip(m.View())
		if first := strings.SplitN(v, "\n", 2)[0]; !strings.Contains(first, "How Kubernetes controllers") {
			t.Fatalf("entry %d: the first line is %q:\n%s", m.Cursor(), first, v)
		}
		if !strings.Contains(strings.Join(strings.Fields(v), " "), "Continue where you left off: "+long.Title+", "+cont) {
			t.Fatalf("entry %d: the continue line is cut:\n%s", m.Cursor(), v)
		}
		for _, md := range Modes {
			if !strings.Contains(v, md.Label) {
				t.Fatalf("entry %d: %q is not listed:\n%s", m.Cursor(), md.Label, v)
			}
		}
		if md := m.selectedMode(); md != nil {
			name := strings.SplitN(md.Label, " — ", 2)[0]
			words := strings.Join(strings.Fields(v), " ")
			if !strings.Contains(v, "─ "+name+" ─") || !strings.Contains(words, md.About) {
				t.Fatalf("entry %d: %s's description is missing or cut:\n%s", m.Cursor(), name, v)
			}
		}
		m, _ = press(m, "down")
	}
}

// Each lesson shows its score: questions right on the first try once it
// is done, questions answered while it is not — whole, at 80×24, for the
// built-in course (its longest titles).
func TestScoresFitAt80x24(t *testing.T) {
	course, err := lessons.Course()
	if err != nil {
		t.Fatal(err)
	}
	prog := progress.New()
	var want []string
	for i, l := range course.Lessons {
		rec := prog.Lesson(l.ID)
		var qs []int
		for k, s := range l.Steps {
			if s.Kind != lessons.Read {
				qs = append(qs, k)
			}
		}
		if len(qs) == 0 {
			continue
		}
		switch i % 3 {
		case 0: // done: every question answered, the first one wrong
			for j, k := range qs {
				rec.Record(k, j > 0)
			}
			rec.Done = true
			want = append(want, fmt.Sprintf("%d. %s", i+1, l.Title), fmt.Sprintf("✓ done · %d/%d right first time", len(qs)-1, len(qs)))
		case 1: // in progress, one answered
			rec.Record(qs[0], true)
			rec.Step = len(l.Steps) - 1
			want = append(want, fmt.Sprintf("%d. %s", i+1, l.Title), fmt.Sprintf("step %d/%d · 1/%d answered", len(l.Steps), len(l.Steps), len(qs)))
		case 2: // skipped through: started, nothing answered
			want = append(want, fmt.Sprintf("%d. %s", i+1, l.Title), fmt.Sprintf("· 0/%d answered", len(qs)))
		}
	}
	m := New(course.Lessons, Modes, prog, "", styles.New(true, true))
	m.SetSize(80, 22)
	// The course is longer than the window: walk the cursor down the list
	// and read each lesson's line where it scrolled into view.
	seen := map[string]string{}
	var plain string
	for i := 0; i < len(course.Lessons)+1; i++ {
		v := m.View()
		uitest.CheckFrame(t, v, 80, 22)
		plain = ansi.Strip(v)
		for _, l := range strings.Split(plain, "\n") {
			for j := 0; j < len(want); j += 2 {
				if strings.Contains(l, want[j]) {
					seen[want[j]] = l
				}
			}
		}
		m, _ = press(m, "down")
	}
	for i := 0; i < len(want); i += 2 {
		if !strings.Contains(seen[want[i]], want[i+1]) {
			t.Errorf("the line of %q lacks %q: %q", want[i], want[i+1], seen[want[i]])
		}
	}
}

// At 80×24 the course (17 lessons) is longer than the list's room: the
// lessons scroll with the cursor, saying how many are hidden above and
// below, while the introduction, the continue line and the other modes
// stay on screen.
func TestLessonListScrollsWithTheCursor(t *testing.T) {
	course, err := lessons.Course()
	if err != nil {
		t.Fatal(err)
	}
	m := New(course.Lessons, Modes, progress.New(), "", styles.New(true, true))
	m.SetSize(80, 22)
	n := len(course.Lessons)
	for i := 0; i <= n; i++ { // the continue line, then each lesson
		v := ansi.Strip(m.View())
		uitest.CheckFrame(t, m.View(), 80, 22)
		for _, want := range []string{"How Kubernetes controllers", "Start the course", "Other modes", "Quiz"} {
			if !strings.Contains(v, want) {
				t.Fatalf("cursor %d: %q is gone:\n%s", i, want, v)
			}
		}
		if i > 0 {
			cur := fmt.Sprintf("%s %2d. %s", styles.Cursor, i, course.Lessons[i-1].Title)
			if !strings.Contains(v, cur) {
				t.Fatalf("cursor on lesson %d, not on screen:\n%s", i, v)
			}
		}
		if i == 0 && (!strings.Contains(v, "↓ ") || strings.Contains(v, "↑ ")) {
			t.Fatalf("at the top: want only a ↓ more line:\n%s", v)
		}
		if i == n && (strings.Contains(v, "↓ ") || !strings.Contains(v, "↑ ")) {
			t.Fatalf("at the last lesson: want only a ↑ more line:\n%s", v)
		}
		m, _ = press(m, "down")
	}
}

// A lesson marked done without its answers (skipped through by an older
// build) says how many it has, not that it is scored.
func TestDoneWithoutAnswersSaysSo(t *testing.T) {
	prog := progress.New()
	prog.Lesson("lost-update").Done = true
	v := ansi.Strip(fixture(t, prog, "").View())
	if !strings.Contains(v, "✓ done · 0/2 answered") || strings.Contains(v, "right first time") {
		t.Fatalf("a lesson done with nothing answered:\n%s", v)
	}
}

// The selected lesson's panel says how its play steps went: each one's
// best against par, or that it is not solved yet.
func TestPanelShowsPlayBestAgainstPar(t *testing.T) {
	p, err := lessons.Course()
	if err != nil {
		t.Fatal(err)
	}
	for li, l := range p.Lessons {
		var play []int
		for i, s := range l.Steps {
			if s.Kind == lessons.Play {
				play = append(play, i)
			}
		}
		if len(play) == 0 {
			continue
		}
		prog := progress.New()
		prog.Apply(progress.Played{Lesson: l.ID, Step: play[0], Moves: l.Steps[play[0]].Goal.Par + 1, Par: l.Steps[play[0]].Goal.Par})
		m := New(p.Lessons, Modes, prog, "", styles.New(true, true))
		m.SetSize(100, 40)
		for range li + 1 { // past "continue" to the lesson
			m, _ = press(m, "down")
		}
		v := strings.Join(strings.Fields(ansi.Strip(m.View())), " ")
		want := fmt.Sprintf("step %d best %d", play[0]+1, l.Steps[play[0]].Goal.Par+1)
		if !strings.Contains(v, "Play: "+want) || !strings.Contains(v, fmt.Sprintf("(par %d)", l.Steps[play[0]].Goal.Par)) {
			t.Fatalf("lesson %d's panel lacks %q:\n%s", li+1, want, ansi.Strip(m.View()))
		}
		return
	}
	t.Fatal("the course has no play step: this test checks nothing")
}

// After a lesson is done, continue goes on to the next lesson not done,
// not back to the first: lesson 1 left with a play step unsolved waits
// until the lessons after the last one are done.
func TestContinueGoesOnAfterTheLastLesson(t *testing.T) {
	ls := []*lessons.Lesson{{ID: "a", Steps: make([]lessons.Step, 2)}, {ID: "b", Steps: make([]lessons.Step, 2)}, {ID: "c", Steps: make([]lessons.Step, 2)}, {ID: "d", Steps: make([]lessons.Step, 2)}}
	prog := progress.New()
	prog.Lesson("a").Step = 1 // opened, not done
	prog.Lesson("b").Done = true
	prog.Last = "b"
	if id, step, ok := Continue(ls, prog); !ok || id != "c" || step != 0 {
		t.Fatalf("after b: %s step %d ok %v, want c step 0", id, step, ok)
	}
	prog.Lesson("c").Done = true
	prog.Lesson("d").Done = true
	prog.Last = "d"
	if id, step, ok := Continue(ls, prog); !ok || id != "a" || step != 1 {
		t.Fatalf("after the last lesson: %s step %d ok %v, want a step 1 (wrapping round)", id, step, ok)
	}
	prog.Last = "a"
	if id, _, ok := Continue(ls, prog); !ok || id != "a" {
		t.Fatalf("the last lesson not done: %s ok %v, want a", id, ok)
	}
}

// The continue line says "Go on with" when it leads past the lesson last
// opened (done), and "Continue where you left off" when it goes back to it.
func TestContinueLineNamesWhereItGoes(t *testing.T) {
	prog := progress.New()
	prog.Lesson("versions").Done = true
	prog.Last = "versions"
	if v := ansi.Strip(fixture(t, prog, "").View()); !strings.Contains(v, "Go on with: The lost update") {
		t.Fatalf("after a done lesson:\n%s", v)
	}
	prog.Lesson("lost-update").Step = 1
	prog.Last = "lost-update"
	if v := ansi.Strip(fixture(t, prog, "").View()); !strings.Contains(v, "Continue where you left off: The lost update") {
		t.Fatalf("back to the lesson last opened:\n%s", v)
	}
}
