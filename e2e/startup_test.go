package e2e

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
	"unsafe"

	"github.com/charmbracelet/x/ansi"

	"github.com/conflictlab/conflictlab/lessons"
	"github.com/conflictlab/conflictlab/procstatus"
)

// TestStartup times the first frame of conflictlab against the first frame
// of bench/hello, a bare Bubble Tea v2 program, started alternately in a
// 120×40 pseudo-terminal in the same run (BENCHMARKS.md, "Startup and
// frame"). A frame counts when its text has reached the terminal: the
// clock runs from just before the process is started, so it includes
// exec, the runtime, every package's initialisation and the first render.
// conflictlab's first frame is its splash (the header, which package boot
// draws before the simulator's libraries are initialised); its home
// screen is the first frame with the course.
//
// By default it does 3 rounds and checks only that both programs draw.
// CONFLICTLAB_STARTUP_RUNS=N does N rounds and also holds the ratios of
// the medians to issue 17's bounds (first frame ≤ 1.3×, home screen with
// the course ≤ 1.6×); timing bounds are checked only when asked for, on a
// machine quiet enough to measure. CONFLICTLAB_STARTUP_BEFORE=BINARY times
// another build of conflictlab (an older revision) in the same rounds.
func TestStartup(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the pseudo-terminal is opened the Linux way")
	}
	runs, strict := 3, false
	if v := os.Getenv("CONFLICTLAB_STARTUP_RUNS"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			t.Fatalf("CONFLICTLAB_STARTUP_RUNS=%q: want a positive number of rounds", v)
		}
		runs, strict = n, true
	}
	app := build(t)
	hello := filepath.Join(t.TempDir(), "hello")
	cmd := exec.Command("go", "build", "-o", hello, "./bench/hello")
	cmd.Dir = ".."
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build ./bench/hello: %v\n%s", err, out)
	}

	before := os.Getenv("CONFLICTLAB_STARTUP_BEFORE")
	var helloFirst, appFirst, appHome, beforeFirst, beforeHome []time.Duration
	var helloCPU, appFirstCPU, appHomeCPU, beforeFirstCPU, beforeHomeCPU []time.Duration
	var helloHWM, appHWM, beforeHWM []int
	for i := 0; i < runs; i++ {
		runHello := func() {
			f := startTimed(t, hello, nil, []string{"hello from Bubble Tea"}, "hello from Bubble Tea")
			helloFirst = append(helloFirst, f.first)
			helloCPU = append(helloCPU, f.firstCPU)
			helloHWM = append(helloHWM, f.hwmKB)
		}
		runApp := func() {
			env := []string{"XDG_STATE_HOME=" + t.TempDir()}
			f := startTimed(t, app, env, appFirstMarks, "Other modes")
			appFirst = append(appFirst, f.first)
			appHome = append(appHome, f.home)
			appFirstCPU = append(appFirstCPU, f.firstCPU)
			appHomeCPU = append(appHomeCPU, f.homeCPU)
			appHWM = append(appHWM, f.hwmKB)
		}
		runBefore := func() {
			if before == "" {
				return
			}
			env := []string{"XDG_STATE_HOME=" + t.TempDir()}
			f := startTimed(t, before, env, appFirstMarks, "Other modes")
			beforeFirst = append(beforeFirst, f.first)
			beforeHome = append(beforeHome, f.home)
			beforeFirstCPU = append(beforeFirstCPU, f.firstCPU)
			beforeHomeCPU = append(beforeHomeCPU, f.homeCPU)
			beforeHWM = append(beforeHWM, f.hwmKB)
		}
		// Alternate which goes first, so that a drift in the machine's
		// load weighs on both alike.
		if i%2 == 0 {
			runHello()
			runApp()
			runBefore()
		} else {
			runBefore()
			runApp()
			runHello()
		}
	}
	h, a, home := median(helloFirst), median(appFirst), median(appHome)
	t.Logf("%d rounds, medians [min–max]", runs)
	t.Logf("hello first frame      %7.1f ms [%s]  VmHWM %d kB", ms(h), spread(helloFirst), medianInt(helloHWM))
	t.Logf("conflictlab first frame %6.1f ms [%s]  ratio %.2f", ms(a), spread(appFirst), ms(a)/ms(h))
	t.Logf("conflictlab home screen %6.1f ms [%s]  ratio %.2f  VmHWM %d kB", ms(home), spread(appHome), ms(home)/ms(h), medianInt(appHWM))
	hc := median(helloCPU)
	t.Logf("CPU time used by then: hello %.1f ms; conflictlab first frame %.1f ms (%.2f×), home screen %.1f ms (%.2f×)",
		ms(hc), ms(median(appFirstCPU)), ms(median(appFirstCPU))/ms(hc), ms(median(appHomeCPU)), ms(median(appHomeCPU))/ms(hc))
	if before != "" {
		t.Logf("before: CPU time: first frame %.1f ms (%.2f×), home screen %.1f ms (%.2f×)",
			ms(median(beforeFirstCPU)), ms(median(beforeFirstCPU))/ms(hc), ms(median(beforeHomeCPU)), ms(median(beforeHomeCPU))/ms(hc))
	}
	if before != "" {
		bf, bh := median(beforeFirst), median(beforeHome)
		t.Logf("before: first frame    %6.1f ms [%s]  ratio %.2f", ms(bf), spread(beforeFirst), ms(bf)/ms(h))
		t.Logf("before: home screen    %6.1f ms [%s]  ratio %.2f  VmHWM %d kB", ms(bh), spread(beforeHome), ms(bh)/ms(h), medianInt(beforeHWM))
	}
	if strict {
		if r := ms(a) / ms(h); r > 1.3 {
			t.Errorf("first frame %.2f× the bare Bubble Tea program's, want ≤ 1.3×", r)
		}
		if r := ms(home) / ms(h); r > 1.6 {
			t.Errorf("home screen %.2f× the bare Bubble Tea program's first frame, want ≤ 1.6×", r)
		}
	}
}

// appFirstMarks are the texts of conflictlab's possible first frames: the
// splash (package boot: the header alone, drawn before the simulator's
// libraries are initialised), the course loading (a pack read at run
// time) or the home screen itself (builds without the splash).
var appFirstMarks = []string{"Conflict Lab", "loading the course", "Other modes"}

type timed struct {
	first, home time.Duration
	hwmKB       int // VmHWM when the home frame arrived
	// firstCPU and homeCPU are the CPU time the process had used by then
	// (all its threads): on a machine busy with other work the clock
	// also counts the time spent waiting for a core, this does not.
	firstCPU, homeCPU time.Duration
}

// cpuTime is the CPU time all threads of process pid have run
// (/proc/PID/task/*/schedstat, whose first field is nanoseconds on a CPU).
func cpuTime(pid int) time.Duration {
	dir := "/proc/" + strconv.Itoa(pid) + "/task"
	tasks, err := os.ReadDir(dir)
	if err != nil {
		return 0
	}
	var total time.Duration
	for _, task := range tasks {
		b, err := os.ReadFile(filepath.Join(dir, task.Name(), "schedstat"))
		if err != nil {
			continue
		}
		if f := strings.Fields(string(b)); len(f) > 0 {
			n, _ := strconv.ParseInt(f[0], 10, 64)
			total += time.Duration(n)
		}
	}
	return total
}

// startTimed starts bin in a fresh 120×40 pseudo-terminal and returns when
// the text of its first frame (any of firstMarks) and of home have
// appeared, then kills it.
func startTimed(t *testing.T, bin string, env, firstMarks []string, home string) timed {
	t.Helper()
	run, t0 := startInPTY(t, bin, env, nil)
	defer run.stop()
	cmd, chunks := run.cmd, run.chunks
	var out bytes.Buffer
	var res timed
	deadline := time.After(20 * time.Second)
	for {
		select {
		case c, ok := <-chunks:
			if !ok {
				t.Fatalf("%s ended before its home frame; it drew:\n%s", bin, ansi.Strip(out.String()))
			}
			out.Write(c.data)
			text := ansi.Strip(out.String())
			if res.first == 0 && slices.ContainsFunc(firstMarks, func(m string) bool { return strings.Contains(text, m) }) {
				res.first = c.at.Sub(t0)
				res.firstCPU = cpuTime(cmd.Process.Pid)
			}
			if strings.Contains(text, home) {
				res.home = c.at.Sub(t0)
				res.homeCPU = cpuTime(cmd.Process.Pid)
				res.hwmKB = procStatusKB(cmd.Process.Pid, "VmHWM")
				return res
			}
		case <-deadline:
			t.Fatalf("after 20 s %s has not drawn %q; it drew:\n%s", bin, home, ansi.Strip(out.String()))
		}
	}
}

// procStatusKB reads a "kB" field of /proc/PID/status (0 if absent).
func procStatusKB(pid int, field string) int {
	kb, _ := procstatus.KB(pid, field)
	return int(kb)
}

func median(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2]
}

func medianInt(ns []int) int {
	s := slices.Clone(ns)
	slices.Sort(s)
	return s[len(s)/2]
}

func spread(ds []time.Duration) string {
	return strconv.FormatFloat(ms(slices.Min(ds)), 'f', 1, 64) + "–" + strconv.FormatFloat(ms(slices.Max(ds)), 'f', 1, 64)
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// typedAhead runs bin in a fresh 120×40 pseudo-terminal whose input
// already holds keys when the program starts, as if typed the moment it
// was launched: they reach the program while the course is loading (the
// terminal is put in raw mode first, as the program would, so that enter
// stays a carriage return). It returns the terminal's text once every
// one of want has appeared on it.
func typedAhead(t *testing.T, bin, keys string, want ...string) string {
	t.Helper()
	run, _ := startInPTY(t, bin, []string{"XDG_STATE_HOME=" + t.TempDir()}, func(master, slave *os.File) {
		if err := makeRaw(slave); err != nil {
			t.Fatalf("raw mode: %v", err)
		}
		if _, err := master.Write([]byte(keys)); err != nil {
			t.Fatalf("typing ahead: %v", err)
		}
	})
	defer run.stop()
	chunks := run.chunks
	var out bytes.Buffer
	deadline := time.After(20 * time.Second)
	for {
		select {
		case c, ok := <-chunks:
			if !ok {
				t.Fatalf("%s ended; it drew:\n%s", bin, lastScreen(out.String()))
			}
			out.Write(c.data)
			// Only what was drawn since the last full redraw counts.
			text := lastScreen(out.String())
			if !slices.ContainsFunc(want, func(w string) bool { return !strings.Contains(text, w) }) {
				return text
			}
		case <-deadline:
			t.Fatalf("after 20 s the terminal lacks one of %q; it drew:\n%s", want, lastScreen(out.String()))
		}
	}
}

// lastScreen is the text drawn since the screen was last cleared.
func lastScreen(s string) string {
	if i := strings.LastIndex(s, "\x1b[2J"); i >= 0 {
		s = s[i:]
	}
	return ansi.Strip(s)
}

// makeRaw sets a terminal's input to raw mode (cfmakeraw's input flags).
func makeRaw(f *os.File) error {
	var tio syscall.Termios
	if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, f.Fd(), syscall.TCGETS, uintptr(unsafe.Pointer(&tio))); e != 0 {
		return e
	}
	tio.Iflag &^= syscall.IGNBRK | syscall.BRKINT | syscall.PARMRK | syscall.ISTRIP | syscall.INLCR | syscall.IGNCR | syscall.ICRNL | syscall.IXON
	tio.Lflag &^= syscall.ECHO | syscall.ECHONL | syscall.ICANON | syscall.ISIG | syscall.IEXTEN
	tio.Cflag &^= syscall.CSIZE | syscall.PARENB
	tio.Cflag |= syscall.CS8
	if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, f.Fd(), syscall.TCSETS, uintptr(unsafe.Pointer(&tio))); e != 0 {
		return e
	}
	return nil
}

// TestKeysTypedWhileTheCourseLoads (issue 17): keys pressed before the
// home screen is there are not lost. Down, down, enter, typed the moment
// the program starts, open the second lesson.
func TestKeysTypedWhileTheCourseLoads(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the pseudo-terminal is opened the Linux way")
	}
	typedAhead(t, build(t), "jj\r", "The lost update", "Two writers, one version")
}

// TestLessonSevenAnsweredAtOnce (issue 17): lesson 7 opened as soon as
// the home screen appears and its first question answered at once, while
// the race is still being computed, then sped up: the race plays (it used
// to stay at "paused · step 0/6", a second computation of the same race
// resetting the stage) at the speed asked for (the + was lost).
func TestLessonSevenAnsweredAtOnce(t *testing.T) {
	tm := start(t, build(t), t.TempDir(), filepath.Join(t.TempDir(), "trace"), 120, 40)
	tm.waitFor(10*time.Second, "Other modes")
	tm.send("j", "j", "j", "j", "j", "j", "j", "Enter")
	tm.waitFor(5*time.Second, "Three appliers")
	tm.send("1", "+")
	tm.waitFor(10*time.Second, "▶ playing · step", "· 2x")
}

// panePID is the pid of the program the tmux pane runs.
func panePID(t *testing.T, tm *term) int {
	t.Helper()
	out, err := tm.tmux("display-message", "-p", "-t", "e2e", "#{pane_pid}")
	if err != nil {
		t.Fatal(err)
	}
	pid, _ := strconv.Atoi(strings.TrimSpace(out))
	return pid
}

// playState is the race view's playback line.
var playState = regexp.MustCompile(`(playing|paused) · step (\d+)/(\d+)`)

// TestPeakMemoryPerLesson walks whole lessons in a 120×40 terminal, each
// in a fresh process: every step, its code pane shown, every question
// answered with its first option, every race played to its end at 8x,
// then the summary; the peak resident memory (VmHWM) at the summary must
// stay within issue 17's bound of 48 MiB. It walks lessons 3 and 6 (each
// step's tally of every interleaving: with the explorer's collector
// tuning on in the tutorial they peaked at 47.6 and 56.1 MiB) and the
// capstone (the most races); CONFLICTLAB_MEMORY_LESSONS=all walks every
// lesson, CONFLICTLAB_MEMORY_LESSONS=3,6 the ones named. The log has
// each step's peak.
func TestPeakMemoryPerLesson(t *testing.T) {
	course, err := lessons.Course()
	if err != nil {
		t.Fatal(err)
	}
	which := []int{3, 6, len(course.Lessons)}
	switch v := os.Getenv("CONFLICTLAB_MEMORY_LESSONS"); v {
	case "":
	case "all":
		which = nil
		for i := range course.Lessons {
			which = append(which, i+1)
		}
	default:
		which = nil
		for _, f := range strings.Split(v, ",") {
			n, err := strconv.Atoi(strings.TrimSpace(f))
			if err != nil || n < 1 || n > len(course.Lessons) {
				t.Fatalf("CONFLICTLAB_MEMORY_LESSONS=%q: want all or lesson numbers 1–%d, comma-separated", v, len(course.Lessons))
			}
			which = append(which, n)
		}
	}
	bin := build(t)
	for _, n := range which {
		l := course.Lessons[n-1]
		tm := start(t, bin, t.TempDir(), filepath.Join(t.TempDir(), "trace"), 120, 40)
		tm.waitFor(10*time.Second, "Other modes")
		for i := 0; i < n; i++ {
			tm.send("j")
		}
		tm.send("Enter")
		for si, s := range l.Steps {
			tm.waitFor(10*time.Second, fmt.Sprintf("step %d/%d", si+1, len(l.Steps)))
			tm.send("c")
			tm.send("c")
			if s.Kind != lessons.Read {
				tm.send("1")
			}
			// A play step's race is the learner's to play (e2e/play_test.go
			// plays them); the others play to their end.
			if s.Race != nil && s.Kind != lessons.Play {
				tm.send("+", "+", "+")
				waitRaceEnd(t, tm, fmt.Sprintf("lesson %d step %d", n, si+1))
			}
			t.Logf("lesson %d step %d: VmHWM %d kB", n, si+1, procStatusKB(panePID(t, tm), "VmHWM"))
			tm.send("n")
		}
		tm.waitFor(10*time.Second, "Take-away")
		hwm := procStatusKB(panePID(t, tm), "VmHWM")
		t.Logf("lesson %2d %-36s peak RSS %6d kB (%.1f MiB)", n, l.Title, hwm, float64(hwm)/1024)
		if hwm == 0 || hwm > 48<<10 {
			t.Errorf("lesson %d: peak RSS %d kB, want (0, 48 MiB]", n, hwm)
		}
		tm.tmux("kill-server")
	}
}

// waitRaceEnd waits until the race on screen has played to its last step.
func waitRaceEnd(t *testing.T, tm *term, where string) {
	t.Helper()
	deadline := time.Now().Add(90 * time.Second)
	for {
		s := tm.screen()
		if m := playState.FindStringSubmatch(s); m != nil && m[2] == m[3] {
			return
		}
		if m := playState.FindStringSubmatch(s); m == nil && strings.Contains(s, "LOST") || m == nil && strings.Contains(s, "→ RV") {
			return // the outcome replaced the playback line
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: the race did not play to its end:\n%s", where, s)
		}
		time.Sleep(50 * time.Millisecond) // polling another process's terminal
	}
}
