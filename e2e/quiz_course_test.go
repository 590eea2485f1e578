package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/conflictlab/conflictlab/lessons"
	"github.com/conflictlab/conflictlab/progress"
	"github.com/conflictlab/conflictlab/quiz"
)

// takeQuiz goes from the home screen to the quiz as a learner would: the
// Quiz entry, the form (5 questions, seed 7 typed in), every question
// answered by its number key — the first one wrong, the others right — the
// score, and the missed question seen again. It returns on the review.
func takeQuiz(t *testing.T, tm *term) {
	t.Helper()
	bank, err := quiz.Default()
	if err != nil {
		t.Fatal(err)
	}
	sess, err := quiz.NewSession(bank, quiz.Filter{}, 5, 7)
	if err != nil {
		t.Fatal(err)
	}
	tm.waitFor(5*time.Second, "Other modes", "• Quiz — test what you have learnt")
	// One Down at a time, each after the screen showed the last one: the
	// cursor never runs past the entry, however slow the machine.
	for i := 0; !strings.Contains(tm.screen(), "› • Quiz"); i++ {
		if i > 30 {
			t.Fatalf("the cursor never reached the Quiz entry:\n%s", tm.screen())
		}
		before := tm.screen()
		tm.send("Down")
		tm.waitChange(5*time.Second, before)
	}
	tm.send("Enter")
	tm.waitFor(10*time.Second, "New quiz", "› Topic", "‹ all topics ›", "‹ 10 ›")
	tm.send("Down", "Left")
	tm.waitFor(5*time.Second, "‹ 5 ›", "Start: 5 questions")
	tm.send("Down", "7")
	tm.waitFor(5*time.Second, "› Seed", "conflictlab quiz --count 5 --seed 7")
	tm.send("Enter")
	for _, p := range sess.Questions() {
		tm.waitFor(10*time.Second, fmt.Sprintf("quiz · question %d/5 · seed 7", p.Number), fmt.Sprintf("question %d of 5", p.Number))
		pick := p.Correct()
		verdict := "✓ Right."
		if p.Number == 1 {
			pick = (pick + 1) % len(p.Options)
			verdict = fmt.Sprintf("✗ Not quite. The answer is %d", p.Correct()+1)
		}
		tm.send(fmt.Sprint(pick + 1))
		tm.waitFor(10*time.Second, verdict, "Lesson to review:")
		tm.send("Enter")
	}
	first := sess.Questions()[0]
	s := tm.waitFor(10*time.Second, "Quiz complete", "all topics · 5 questions · seed 7", "Score: 4 of 5 right (80%)", "Missed: 1 to review", "✗ 1. ")
	if strings.Contains(s, "✗ 2. ") {
		t.Fatalf("a right answer is listed as missed:\n%s", s)
	}
	tm.send("Enter")
	tm.waitFor(10*time.Second, "quiz · review question 1/5", "✗ Missed · "+kindWords[first.Question.Kind], "You answered")
}

// kindWords is how the screen names each kind of question.
var kindWords = map[quiz.Kind]string{quiz.Choice: "Multiple choice", quiz.Race: "Predict the race", quiz.Bug: "Spot the bug", quiz.Method: "Pick the write method"}

// TestWholeCourseInATerminal walks every lesson of the built-in course,
// every step, by keys, answering each question with its correct option
// (read from the lesson files), from "Start the course" to "Course
// complete", and logs how long the walk took.
func TestWholeCourseInATerminal(t *testing.T) {
	needTmux(t)
	pack, err := lessons.Course()
	if err != nil {
		t.Fatal(err)
	}
	bin := build(t)
	state := t.TempDir()
	// Wide and tall enough that no header or key bar is cut.
	tm := start(t, bin, state, filepath.Join(t.TempDir(), "trace"), 160, 50)
	tm.waitFor(10*time.Second, "Start the course: "+pack.Lessons[0].Title)

	began := time.Now()
	tm.send("Enter")
	steps, questions := 0, 0
	for l := pack.Lessons[0]; l != nil; l = nextLesson(pack, l) {
		lessonBegan := time.Now()
		for i, s := range l.Steps {
			tm.waitFor(10*time.Second, fmt.Sprintf("%s · step %d/%d · %s", l.Title, i+1, len(l.Steps), s.Kind))
			steps++
			if s.Kind == lessons.Read {
				// A read step taller than the pane (lesson 15's recorded
				// runs) reads on with enter before it continues.
				tm.next()
				continue
			}
			questions++
			if s.Kind == lessons.Play {
				solvePlay(t, tm, pack, s)
				tm.send("Enter")
				continue
			}
			right := -1
			for k, o := range s.Options {
				if o.Correct {
					right = k
					break
				}
			}
			if right < 0 || right > 8 {
				t.Fatalf("%s step %d: no correct option a number key can pick", l.ID, i+1)
			}
			tm.waitFor(5*time.Second, "enter answer")
			tm.send(fmt.Sprint(right + 1))
			// The key bar turns "enter answer" into "enter continue" once
			// the answer is right, after "enter read on" while the
			// feedback goes on below the pane.
			if s := tm.waitFor(10*time.Second, "✓ Correct"); strings.Contains(s, "✗ Not quite") {
				t.Fatalf("%s step %d: option %d was not right:\n%s", l.ID, i+1, right+1, s)
			}
			tm.next()
		}
		tm.waitFor(10*time.Second, "Lesson complete: "+l.Title, "Take-away")
		t.Logf("%-20s %d steps in %v", l.ID, len(l.Steps), time.Since(lessonBegan).Round(time.Millisecond))
		tm.send("Enter")
	}
	tm.waitFor(10*time.Second, "Course complete")
	took := time.Since(began)
	t.Logf("the whole course, %d lessons, %d steps, %d questions, by keys: %v (from the first key on the home screen to \"Course complete\")",
		len(pack.Lessons), steps, questions, took.Round(time.Millisecond))

	tm.send("q")
	waitGone(t, tm)
	got, notice := progress.Open(filepath.Join(state, progress.AppDir, progress.FileName)).Load()
	if notice != "" {
		t.Fatal(notice)
	}
	for _, l := range pack.Lessons {
		r := got.Lessons[l.ID]
		if r == nil || !r.Done {
			t.Fatalf("%s is not done in the saved progress: %+v", l.ID, r)
		}
		n := 0
		for _, s := range l.Steps {
			if s.Kind != lessons.Read {
				n++
			}
		}
		if right, answered := r.Score(); right != n || answered != n {
			t.Errorf("%s: %d/%d right first time, want %d/%d", l.ID, right, answered, n, n)
		}
	}
}

// nextLesson is the lesson the summary's enter opens: the one named by
// next, else the one after it in the pack (nil at the end).
func nextLesson(p *lessons.Pack, l *lessons.Lesson) *lessons.Lesson {
	if l.Next != "" {
		return p.Lesson(l.Next)
	}
	for i, x := range p.Lessons {
		if x == l && i+1 < len(p.Lessons) {
			return p.Lessons[i+1]
		}
	}
	return nil
}

// waitGone waits for the program to quit and its tmux session to close.
func waitGone(t *testing.T, tm *term) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		if _, err := tm.tmux("has-session", "-t", "e2e"); err != nil {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("q did not quit:\n%s", tm.screen())
		}
		time.Sleep(40 * time.Millisecond)
	}
}

// TestLessonsFlagInATerminal: --lessons DIR teaches that pack; a broken
// pack is reported FILE:LINE on the terminal, exit code 1, before the
// screen is taken over.
func TestLessonsFlagInATerminal(t *testing.T) {
	needTmux(t)
	bin := build(t)
	pack, err := filepath.Abs("../examples/pack")
	if err != nil {
		t.Fatal(err)
	}
	tm := start(t, bin+" --lessons "+pack, t.TempDir(), filepath.Join(t.TempDir(), "trace"), 100, 30)
	s := tm.waitFor(10*time.Second, "Start the course: Counting under concurrency", "1. Counting under concurrency")
	if strings.Contains(s, "Versions, not locks") {
		t.Fatalf("the built-in course is shown with --lessons:\n%s", s)
	}
	tm.send("Enter")
	tm.waitFor(10*time.Second, "Counting under concurrency · step 1/")
	tm.send("q")
	waitGone(t, tm)

	broken := t.TempDir()
	if out, err := exec.Command("cp", "-r", pack+"/.", broken).CombinedOutput(); err != nil {
		t.Fatalf("cp: %v %s", err, out)
	}
	lesson := filepath.Join(broken, "01-counting.yaml")
	if out, err := exec.Command("sed", "-i", "s/^title: Counting under concurrency/title: Counting: under: concurrency/", lesson).CombinedOutput(); err != nil {
		t.Fatalf("sed: %v %s", err, out)
	}
	tm = start(t, "sh -c '"+bin+" --lessons "+broken+"; echo exit=$?; sleep 30'", t.TempDir(), filepath.Join(t.TempDir(), "trace"), 120, 30)
	data, err := os.ReadFile(lesson)
	if err != nil {
		t.Fatal(err)
	}
	line := strings.Count(string(data[:strings.Index(string(data), "title: Counting: under")]), "\n") + 1
	tm.waitFor(10*time.Second, fmt.Sprintf("%s:%d: ", lesson, line), "mapping values are not allowed", "exit=1")
}
