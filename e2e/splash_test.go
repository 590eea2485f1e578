package e2e

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"
	"unsafe"

	"github.com/charmbracelet/x/ansi"
)

// splashModes begin the splash (package boot): the alternate screen, the
// cursor hidden, the screen cleared.
const splashModes = ansi.SetModeAltScreenSaveCursor + ansi.HideCursor + ansi.CursorHomePosition + ansi.EraseEntireScreen

// termios reads the terminal's settings through its master end (Linux
// answers with the slave's, the ones the program changes).
func termios(t *testing.T, master *os.File) syscall.Termios {
	t.Helper()
	var tio syscall.Termios
	if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, master.Fd(), syscall.TCGETS, uintptr(unsafe.Pointer(&tio))); e != 0 {
		t.Fatalf("reading the terminal's settings: %v", e)
	}
	return tio
}

// readUntil gathers what run draws until its text (escapes stripped)
// holds want; it fails after 20 s or if the terminal closes first.
func (run *ptyRun) readUntil(t *testing.T, out *bytes.Buffer, want string) time.Time {
	t.Helper()
	deadline := time.After(20 * time.Second)
	for !strings.Contains(ansi.Strip(out.String()), want) {
		select {
		case c, ok := <-run.chunks:
			if !ok {
				t.Fatalf("the program ended before drawing %q; it drew:\n%q", want, out.String())
			}
			out.Write(c.data)
			if strings.Contains(ansi.Strip(out.String()), want) {
				return c.at
			}
		case <-deadline:
			t.Fatalf("after 20 s the program has not drawn %q; it drew:\n%q", want, out.String())
		}
	}
	return time.Now()
}

// wait waits for run to end, gathering what it draws meanwhile (a
// terminal nobody reads would block the program's writes), and gives the
// exit code (-1 when a signal killed it). A program still running after
// 20 s is sent SIGABRT, so that the failure shows every goroutine's stack
// (the tests run it with GOTRACEBACK=all).
func (run *ptyRun) wait(t *testing.T, out *bytes.Buffer) int {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- run.cmd.Wait() }()
	chunks := run.chunks
	deadline := time.After(20 * time.Second)
	var err error
	for waiting := true; waiting; {
		select {
		case c, ok := <-chunks:
			if !ok {
				chunks = nil // closed: wait for the exit alone
				continue
			}
			out.Write(c.data)
		case err = <-done:
			waiting = false
		case <-deadline:
			run.cmd.Process.Signal(syscall.SIGABRT)
			<-done
			for c := range run.chunks {
				out.Write(c.data)
			}
			t.Fatalf("the program had not ended after 20 s; it drew, and said when aborted:\n%s", out.String())
		}
	}
	if chunks != nil {
		for c := range chunks { // closes once the terminal has no writer left
			out.Write(c.data)
		}
	}
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return ee.ExitCode()
	}
	if err != nil {
		t.Fatal(err)
	}
	return 0
}

// givenBack checks that the program left the terminal as it found it: the
// last alternate screen left and the cursor shown after it, the tty's
// settings those from before it started.
func givenBack(t *testing.T, out []byte, before, after syscall.Termios) {
	t.Helper()
	last := bytes.LastIndex(out, []byte(ansi.SetModeAltScreenSaveCursor))
	if last < 0 {
		t.Fatalf("the program never took the alternate screen:\n%q", out)
	}
	tail := out[last:]
	if !bytes.Contains(tail, []byte(ansi.ResetModeAltScreenSaveCursor)) || !bytes.Contains(tail, []byte(ansi.ShowCursor)) {
		t.Errorf("the terminal is left in the alternate screen or without its cursor; the last bytes:\n%q", tail)
	}
	if before != after {
		t.Errorf("the tty's settings changed:\nbefore %+v\nafter  %+v", before, after)
	}
}

// TestSplashComesFirst: on a terminal the tutorial's first frame is the
// header alone, drawn before the program starts (package boot); the home
// screen follows, and q gives the terminal back as it was.
func TestSplashComesFirst(t *testing.T) {
	bin := build(t)
	var tio syscall.Termios
	run, t0 := startPTY(t, ptySpec{bin: bin, env: []string{"XDG_STATE_HOME=" + t.TempDir(), "GOTRACEBACK=all"}, cols: 80, rows: 24,
		before: func(master, _ *os.File) { tio = termios(t, master) }})
	defer run.stop()
	var out bytes.Buffer
	first := run.readUntil(t, &out, "Conflict Lab")
	home := run.readUntil(t, &out, "Other modes")
	t.Logf("the splash after %.1f ms, the home screen after %.1f ms", ms(first.Sub(t0)), ms(home.Sub(t0)))

	drawn := out.Bytes()
	if !bytes.HasPrefix(drawn, []byte(splashModes)) {
		t.Fatalf("the first bytes are not the splash's:\n%q", drawn[:min(len(drawn), 200)])
	}
	// The splash ends where the program takes the alternate screen again.
	end := bytes.Index(drawn[len(splashModes):], []byte(ansi.SetModeAltScreenSaveCursor))
	if end < 0 {
		t.Fatalf("the program never took the screen over from the splash:\n%q", drawn)
	}
	splash := ansi.Strip(string(drawn[:len(splashModes)+end]))
	if want := " Conflict Lab" + strings.Repeat(" ", 80-13-7) + "? keys "; splash != want {
		t.Errorf("the splash shows\n%q\nwant the header alone, 80 cells wide:\n%q", splash, want)
	}

	if _, err := run.master.Write([]byte("q")); err != nil {
		t.Fatal(err)
	}
	if code := run.wait(t, &out); code != 0 {
		t.Errorf("q: exit code %d, want 0", code)
	}
	givenBack(t, out.Bytes(), tio, termios(t, run.master))
}

// TestNoSplash: a subcommand, or a window smaller than the screens, draws
// no splash.
func TestNoSplash(t *testing.T) {
	bin := build(t)
	for _, c := range []struct {
		name       string
		args       []string
		cols, rows int
		want       string
	}{
		{"examples", []string{"examples"}, 80, 24, "lost-update-unconditional"},
		{"79×24", nil, 79, 24, "needs a terminal of at least 80×24"},
	} {
		t.Run(c.name, func(t *testing.T) {
			run, _ := startPTY(t, ptySpec{bin: bin, args: c.args, env: []string{"XDG_STATE_HOME=" + t.TempDir()}, cols: c.cols, rows: c.rows})
			defer run.stop()
			var out bytes.Buffer
			run.readUntil(t, &out, c.want)
			if bytes.Contains(out.Bytes(), []byte(splashModes)) {
				t.Errorf("a splash was drawn:\n%q", out.String())
			}
		})
	}
}

// TestSignalDuringTheSplash sends a signal as soon as the splash is up,
// before the home screen: the terminal is given back as it was and the
// exit code is 128 + the signal's number. The signal lands before the
// program has taken the terminal (boot handles it) on almost every run,
// after it on a slow one (the program does); both must give this result,
// and the test says which it saw.
func TestSignalDuringTheSplash(t *testing.T) {
	bin := build(t)
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP} {
		t.Run(sig.String(), func(t *testing.T) {
			var tio syscall.Termios
			run, _ := startPTY(t, ptySpec{bin: bin, env: []string{"XDG_STATE_HOME=" + t.TempDir(), "GOTRACEBACK=all"}, cols: 80, rows: 24,
				before: func(master, _ *os.File) { tio = termios(t, master) }})
			defer run.stop()
			var out bytes.Buffer
			run.readUntil(t, &out, "Conflict Lab")
			if err := run.cmd.Process.Signal(sig); err != nil {
				t.Fatal(err)
			}
			code := run.wait(t, &out)
			if want := 128 + int(sig); code != want {
				t.Errorf("exit code %d, want %d", code, want)
			}
			givenBack(t, out.Bytes(), tio, termios(t, run.master))
			if strings.Contains(ansi.Strip(out.String()), "Other modes") {
				t.Log("the signal came after the program had taken the terminal")
			} else {
				t.Log("the signal came while the splash was boot's")
			}
		})
	}
}
