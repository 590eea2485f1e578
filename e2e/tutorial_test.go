// Package e2e runs the real binary in a real terminal (tmux) and reads the
// screen the way a person would.
package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/conflictlab/conflictlab/lessons"
	"github.com/conflictlab/conflictlab/progress"
)

// term is one tmux server of our own (its own socket, so nothing else
// running tmux is touched) with one session running the binary.
type term struct {
	t      *testing.T
	socket string
}

func (tm *term) tmux(args ...string) (string, error) {
	out, err := exec.Command("tmux", append([]string{"-L", tm.socket}, args...)...).CombinedOutput()
	return string(out), err
}

func (tm *term) screen() string {
	out, err := tm.tmux("capture-pane", "-p", "-t", "e2e")
	if err != nil {
		tm.t.Fatalf("capture-pane: %v: %s", err, out)
	}
	return out
}

func (tm *term) send(keys ...string) {
	if out, err := tm.tmux(append([]string{"send-keys", "-t", "e2e"}, keys...)...); err != nil {
		tm.t.Fatalf("send-keys %v: %v: %s", keys, err, out)
	}
}

// next leaves an answered step as a learner does: enter while the key bar
// says "enter read on" (the feedback goes on below the pane), then enter
// on "enter continue".
func (tm *term) next() {
	tm.t.Helper()
	// Until the key bar says continue: a screen caught mid-redraw (the
	// change waitChange saw) may show neither label yet.
	deadline := time.Now().Add(20 * time.Second)
	for k := 0; ; {
		s := tm.screen()
		if strings.Contains(s, "enter continue") {
			break
		}
		if k == 20 || time.Now().After(deadline) {
			tm.t.Fatalf("enter never read the step to its end:\n%s", s)
		}
		if strings.Contains(s, "enter read on") {
			k++
			tm.send("Enter")
			tm.waitChange(5*time.Second, s)
			continue
		}
		time.Sleep(40 * time.Millisecond) // as waitFor polls
	}
	tm.send("Enter")
}

// waitChange waits until the screen differs from before (a key was drawn).
func (tm *term) waitChange(d time.Duration, before string) string {
	tm.t.Helper()
	deadline := time.Now().Add(d)
	for {
		s := tm.screen()
		if s != before {
			return s
		}
		if time.Now().After(deadline) {
			tm.t.Fatalf("the screen did not change in %v:\n%s", d, s)
		}
		time.Sleep(10 * time.Millisecond) // polling the terminal, another process
	}
}

// waitFor polls the screen until every text is on it, or fails with the
// screen as it was: no blind sleeps.
func (tm *term) waitFor(d time.Duration, texts ...string) string {
	tm.t.Helper()
	deadline := time.Now().Add(d)
	for {
		s := tm.screen()
		missing := ""
		for _, x := range texts {
			if !strings.Contains(s, x) {
				missing = x
				break
			}
		}
		if missing == "" {
			return s
		}
		if time.Now().After(deadline) {
			tm.t.Fatalf("after %v the screen still lacks %q:\n%s", d, missing, s)
		}
		time.Sleep(40 * time.Millisecond)
	}
}

// option finds the number of the option whose label contains text.
func option(t *testing.T, screen, text string) string {
	t.Helper()
	re := regexp.MustCompile(`(\d)\. [^\n]*` + regexp.QuoteMeta(text))
	m := re.FindStringSubmatch(screen)
	if m == nil {
		t.Fatalf("no option %q on screen:\n%s", text, screen)
	}
	return m[1]
}

// needTmux skips a test that drives the real binary in tmux on a machine
// without it.
func needTmux(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed: this test drives the real binary in a tmux terminal")
	}
}

func build(t *testing.T) string {
	t.Helper()
	// A binary built elsewhere (another revision, for a before/after
	// measurement in one run; BENCHMARKS.md).
	if bin := os.Getenv("CONFLICTLAB_E2E_BIN"); bin != "" {
		return bin
	}
	bin := filepath.Join(t.TempDir(), "conflictlab")
	cmd := exec.Command("go", "build", "-o", bin, ".")
	cmd.Dir = ".."
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

func start(t *testing.T, bin, state, trace string, w, h int) *term {
	t.Helper()
	needTmux(t)
	tm := &term{t: t, socket: fmt.Sprintf("conflictlab-e2e-%d-%d", os.Getpid(), time.Now().UnixNano())}
	cmdline := fmt.Sprintf("env XDG_STATE_HOME=%s CONFLICTLAB_TRACE_STARTUP=%s %s", state, trace, bin)
	if out, err := tm.tmux("new-session", "-d", "-s", "e2e", "-x", fmt.Sprint(w), "-y", fmt.Sprint(h), cmdline); err != nil {
		t.Fatalf("tmux new-session: %v: %s", err, out)
	}
	pid := 0
	if out, err := tm.tmux("display-message", "-p", "-t", "e2e", "#{pane_pid}"); err == nil {
		pid, _ = strconv.Atoi(strings.TrimSpace(out))
	}
	t.Cleanup(func() {
		tm.tmux("kill-server")
		// The closed terminal is a SIGHUP: the program saves the progress
		// and the sandbox draft into the state folder as it ends. Wait for
		// it to be gone, so the folder is not removed under its feet.
		waitExit(t, pid)
	})
	return tm
}

// waitExit waits (at most 10 s) until process pid has exited.
func waitExit(t *testing.T, pid int) {
	if pid <= 0 {
		return
	}
	deadline := time.Now().Add(10 * time.Second)
	for running(pid) {
		if time.Now().After(deadline) {
			t.Errorf("the program (pid %d) still runs 10 s after its terminal closed", pid)
			return
		}
		time.Sleep(20 * time.Millisecond) // polling another process's exit
	}
}

// running reports whether pid is alive: a zombie (ended, not yet reaped by
// whoever inherited it) has finished writing.
func running(pid int) bool {
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	// pid (comm) STATE …: the state follows the last ')'.
	if i := strings.LastIndexByte(string(stat), ')'); i >= 0 && i+2 < len(stat) {
		return stat[i+2] != 'Z'
	}
	return true
}

// TestLessonTwoInATerminal walks lesson 2 as a learner would at 100×30:
// a wrong prediction (scored; the race plays and marks the lost field),
// the hint, the right one (explored, not scored), a strategy that turns the loss
// into a 409, stepping through that race, and the summary. Progress must
// be on disk afterwards.
func TestLessonTwoInATerminal(t *testing.T) {
	needTmux(t)
	pack, err := lessons.Course()
	if err != nil {
		t.Fatal(err)
	}
	bin := build(t)
	state := t.TempDir()
	trace := filepath.Join(t.TempDir(), "trace")
	// Lesson 1 done: "continue" leads to lesson 2, whatever its position.
	seed := progress.New()
	seed.Lesson("versions").Done = true
	store := progress.Open(filepath.Join(state, progress.AppDir, progress.FileName))
	if err := store.Save(seed); err != nil {
		t.Fatal(err)
	}

	tm := start(t, bin, state, trace, 100, 30)
	home := tm.waitFor(10*time.Second, "Continue where you left off: The lost update", "✓ done")
	if !strings.Contains(home, "q quit") {
		t.Fatalf("no key bar on the home screen:\n%s", home)
	}

	tm.send("c")
	s := tm.waitFor(10*time.Second, "Two writers, one version", "Before the race")
	for _, bad := range []string{"LOST", "409", "200 →"} {
		if strings.Contains(s, bad) {
			t.Fatalf("the predict step shows %q before the answer:\n%s", bad, s)
		}
	}
	wrong, right := option(t, s, "Both keys"), option(t, s, "Only data.replicas")

	tm.send(wrong)
	// The first answer is the scored one, wrong or right: the race plays
	// beside what was predicted.
	tm.waitFor(5*time.Second, "✗ Not quite. You predicted", "s solution")
	tm.waitFor(20*time.Second, "LOST data.owner")
	tm.send("h")
	tm.waitFor(5*time.Second, "Hint: Each controller sends the whole object")

	tm.send(right)
	tm.send("+", "+", "+") // watch at 8x
	tm.waitFor(20*time.Second, "✓ Correct", "LOST data.owner", "erased by b at step 6", "UPDATE cm1 no rv", "✓ 200 → RV 103")

	// Step 2 is played: the learner is the scheduler and finds the order
	// that loses b's key and keeps the others', at par.
	tm.next()
	tm.waitFor(10*time.Second, "You are the scheduler")
	solvePlay(t, tm, pack, pack.Lesson("lost-update").Steps[1])
	tm.send("Enter")
	s = tm.waitFor(10*time.Second, "Make the race visible", "pick a strategy to run it")
	tm.send(option(t, s, "Send the RV each copy was read at"))
	s = tm.waitFor(20*time.Second, "✓ Correct", "✗ 409 Conflict", "b got 1 × 409 Conflict", "step 6/6")
	if strings.Contains(s, "LOST data.owner") {
		t.Fatalf("with the RV, nothing should be lost:\n%s", s)
	}
	// Watch the race step: back one request, then forward again.
	tm.send("Left")
	s = tm.waitFor(5*time.Second, "‖ paused · step 5/6")
	if strings.Contains(s, "✗ 409 Conflict") {
		t.Fatalf("stepping back still shows the 409 of the last step:\n%s", s)
	}
	tm.send("Right")
	tm.waitFor(5*time.Second, "‖ paused · step 6/6", "✗ 409 Conflict")
	tm.send("c")
	tm.waitFor(5*time.Second, "code: update-with-rv", "Update(ctx, cm, metav1.")
	tm.send("c")

	tm.next()
	tm.waitFor(10*time.Second, "Lesson complete: The lost update", "Take-away", "Score: 2 of 3 questions right on the first try")
	pid := panePID(t, tm)
	rss := procStatusKB(pid, "VmRSS")
	t.Logf("RSS after the whole lesson: %d kB (%.1f MiB)", rss, float64(rss)/1024)
	hwm := procStatusKB(pid, "VmHWM")
	t.Logf("peak RSS (VmHWM) after the whole lesson: %d kB (%.1f MiB); now %d kB anonymous, %d kB of files (the binary)",
		hwm, float64(hwm)/1024, procStatusKB(pid, "RssAnon"), procStatusKB(pid, "RssFile"))

	// Then the quiz, from the home screen: 5 questions, seed 7.
	tm.send("Escape")
	takeQuiz(t, tm)

	tm.send("q")
	deadline := time.Now().Add(5 * time.Second)
	for {
		if _, err := tm.tmux("has-session", "-t", "e2e"); err != nil {
			break // the program quit and its session closed
		}
		if time.Now().After(deadline) {
			t.Fatalf("q did not quit:\n%s", tm.screen())
		}
		time.Sleep(40 * time.Millisecond)
	}
	got, notice := store.Load()
	if notice != "" {
		t.Fatal(notice)
	}
	l := got.Lessons["lost-update"]
	if l == nil || !l.Done || l.Answers[0].Attempts != 2 || !l.Answers[1].FirstTry || l.Answers[1].Best != pack.Lesson("lost-update").Steps[1].Goal.Par || !l.Answers[2].FirstTry {
		t.Fatalf("progress after the lesson: %+v", l)
	}
	if b, ok := got.QuizBestOf(""); !ok || b.Right != 4 || b.Total != 5 || b.Taken != 1 {
		t.Fatalf("quiz best after the quiz: %+v %v", b, ok)
	}
	if data, err := os.ReadFile(trace); err == nil {
		t.Logf("startup trace:\n%s", data)
	}
}

// TestResizeAndTooSmall resizes the real terminal: below 80×24 the app
// says how large it needs to be; back above, it draws again.
func TestResizeAndTooSmall(t *testing.T) {
	needTmux(t)
	bin := build(t)
	tm := start(t, bin, t.TempDir(), filepath.Join(t.TempDir(), "trace"), 100, 30)
	tm.waitFor(10*time.Second, "Start the course")
	tm.tmux("resize-window", "-t", "e2e", "-x", "60", "-y", "20")
	tm.waitFor(5*time.Second, "needs a terminal of at least 80×24", "60×20")
	tm.tmux("resize-window", "-t", "e2e", "-x", "130", "-y", "40")
	s := tm.waitFor(5*time.Second, "Start the course", "Lessons")
	for i, l := range strings.Split(s, "\n") {
		if n := len([]rune(l)); n > 130 {
			t.Fatalf("line %d is %d wide in a 130-column terminal", i, n)
		}
	}
	tm.send("q")
}

// TestNoTerminal: piped, the binary refuses and points at the headless
// commands, with a non-zero exit code.
func TestNoTerminal(t *testing.T) {
	bin := build(t)
	cmd := exec.Command(bin)
	cmd.Stdin = strings.NewReader("")
	out, err := cmd.CombinedOutput()
	ee, ok := err.(*exec.ExitError)
	if !ok || ee.ExitCode() != 3 || !strings.Contains(string(out), "needs a terminal") || !strings.Contains(string(out), "conflictlab sim") {
		t.Fatalf("exit %v, output %q", err, out)
	}
}
