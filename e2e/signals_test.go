package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/conflictlab/conflictlab/progress"
)

// shellTerm is a tmux pane running an interactive shell, so that what the
// binary leaves of the terminal after it ends can be looked at: the
// alternate screen, the cursor, the tty's mode.
func shellTerm(t *testing.T) *term {
	t.Helper()
	needTmux(t)
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("bash is not installed: this test runs the binary from a shell in tmux")
	}
	tm := &term{t: t, socket: fmt.Sprintf("conflictlab-sig-%d-%d", os.Getpid(), time.Now().UnixNano())}
	t.Cleanup(func() { tm.tmux("kill-server") })
	if out, err := tm.tmux("new-session", "-d", "-s", "e2e", "-x", "100", "-y", "30",
		"env", "PS1=READY$ ", "bash", "--norc", "--noprofile", "-i"); err != nil {
		t.Fatalf("tmux new-session: %v: %s", err, out)
	}
	tm.waitFor(5*time.Second, "READY$")
	return tm
}

// childOf finds the process whose parent is pid (the binary the pane's
// shell runs in the foreground).
func childOf(t *testing.T, pid string) int {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		entries, _ := os.ReadDir("/proc")
		for _, e := range entries {
			n, err := strconv.Atoi(e.Name())
			if err != nil {
				continue
			}
			stat, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
			if err != nil {
				continue
			}
			// pid (comm) state ppid ...: comm may hold spaces, so split after ")".
			s := string(stat)
			fields := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
			if len(fields) > 1 && fields[1] == pid && strings.Contains(s, "(conflictlab)") {
				return n
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("no conflictlab process under the shell %s", pid)
		}
		time.Sleep(40 * time.Millisecond)
	}
}

// TestSignalsRestoreTheTerminalAndSaveProgress: for every signal that ends
// a terminal session, sent with kill while a lesson is open and an answer
// was just given, the binary gives the terminal back (main screen, cursor
// shown, the tty in the mode the shell had) and the answer is on disk, and
// it exits with 128 + the signal's number.
func TestSignalsRestoreTheTerminalAndSaveProgress(t *testing.T) {
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		t.Skip("no /proc: the test finds the binary's pid there")
	}
	bin := build(t)
	tm := shellTerm(t)
	shell, err := tm.tmux("display-message", "-p", "-t", "e2e", "#{pane_pid}")
	if err != nil {
		t.Fatal(err)
	}
	shell = strings.TrimSpace(shell)
	// The tty's settings as the shell left them, to compare with after.
	saved := filepath.Join(t.TempDir(), "stty")
	tm.send("stty -g > "+saved+"; clear", "Enter")
	tm.waitFor(5*time.Second, "READY$")

	for _, c := range []struct {
		sig  syscall.Signal
		code int
	}{
		{syscall.SIGHUP, 129},
		{syscall.SIGQUIT, 131},
		{syscall.SIGTERM, 143},
		{syscall.SIGINT, 130},
	} {
		t.Run(c.sig.String(), func(t *testing.T) {
			tm.t = t
			state := t.TempDir()
			path := filepath.Join(state, progress.AppDir, progress.FileName)
			seed := progress.New()
			seed.Lesson("versions").Done = true
			if err := progress.Open(path).Save(seed); err != nil {
				t.Fatal(err)
			}
			tm.send(fmt.Sprintf("clear; XDG_STATE_HOME=%s %s; echo \"exit=$?\"; stty -g | cmp -s - %s && echo TTY-RESTORED", state, bin, saved), "Enter")
			tm.waitFor(10*time.Second, "Continue where you left off: The lost update")
			tm.send("c")
			s := tm.waitFor(10*time.Second, "Two writers, one version", "Before the race")
			tm.send(option(t, s, "Both keys")) // a wrong answer is an answer too
			tm.waitFor(5*time.Second, "✗ Not quite")
			if on, _ := tm.tmux("display-message", "-p", "-t", "e2e", "#{alternate_on}"); strings.TrimSpace(on) != "1" {
				t.Fatalf("the tutorial is not in the alternate screen (%q): the check below would prove nothing", on)
			}

			pid := childOf(t, shell)
			if err := syscall.Kill(pid, c.sig); err != nil {
				t.Fatal(err)
			}
			after := tm.waitFor(10*time.Second, "exit=", "READY$")
			if !strings.Contains(after, fmt.Sprintf("exit=%d", c.code)) {
				t.Errorf("exit code: want %d:\n%s", c.code, after)
			}
			if !strings.Contains(after, "TTY-RESTORED") {
				t.Errorf("the tty is not in the mode the shell had (stty -g differs):\n%s", after)
			}
			flags, _ := tm.tmux("display-message", "-p", "-t", "e2e", "alt=#{alternate_on} cursor=#{cursor_flag}")
			if strings.TrimSpace(flags) != "alt=0 cursor=1" {
				t.Errorf("after %v the terminal is left %s, want alt=0 cursor=1:\n%s", c.sig, strings.TrimSpace(flags), after)
			}
			got, notice := progress.Open(path).Load()
			if notice != "" {
				t.Fatal(notice)
			}
			l := got.Lessons["lost-update"]
			if l == nil || l.Answers[0].Attempts != 1 || l.Answers[0].FirstTry {
				t.Errorf("the answer given before %v is not on disk: %+v", c.sig, l)
			}
			if got.StateOf("versions") != progress.Done {
				t.Errorf("the progress from before the session is gone")
			}
			if t.Failed() {
				// Give the pane back as it was, for the next signal.
				tm.send(`stty "$(cat `+saved+`)"; printf '\033[?1049l\033[?25h'; clear`, "Enter")
				tm.waitFor(5*time.Second, "READY$")
			}
		})
	}
}
