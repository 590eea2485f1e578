//go:build unix

package sandbox

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/conflictlab/conflictlab/ui/uitest"
)

// within runs f and fails the test if it has not returned in 10 s: what it
// guards against is a screen frozen for good on a FIFO.
func within(t *testing.T, what string, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() { defer close(done); f() }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatalf("%s blocked", what)
	}
}

// TestFilePromptsNeverBlock: the load prompt read a FIFO (and froze the
// screen until SIGKILL) or /dev/zero (until memory ran out); the save
// prompt's overwrite wrote into a FIFO with no reader. Each is refused
// with a message.
func TestFilePromptsNeverBlock(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "race.yaml")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	d := newDriver(t, nil)
	for _, path := range []string{fifo, "/dev/zero"} {
		within(t, "loading "+path, func() {
			d.Press("l", "ctrl+u")
			typeText(d, path)
			d.Press("enter")
		})
		must(t, d.View(), "not a regular file")
		d.Press("esc")
	}
	within(t, "saving over a FIFO", func() {
		d.Press("s", "ctrl+u")
		typeText(d, fifo)
		d.Press("enter")
		must(t, d.View(), "exists: overwrite it?")
		d.Press("y")
	})
	must(t, d.View(), "not a regular file (a named pipe (FIFO))")
	if st, err := os.Lstat(fifo); err != nil || st.Mode()&os.ModeNamedPipe == 0 {
		t.Fatalf("the FIFO was replaced: %v %v", st, err)
	}
	if v := d.View(); strings.Contains(v, "saved to") {
		t.Fatalf("said saved:\n%s", v)
	}
}

// Update never writes a file: a save is a command, carried out off the UI
// loop (a path may be a FIFO that waits for a reader), and its answer comes
// back as a message (issue 16).
func TestSaveWritesInACommandNotInUpdate(t *testing.T) {
	path := filepath.Join(t.TempDir(), "race.yaml")
	d := newDriver(t, nil)
	d.Press("s", "ctrl+u")
	typeText(d, path)
	m, cmd := sb(d).Update(uitest.Key("enter"))
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Fatalf("Update wrote the file itself (stat: %v)", err)
	}
	if cmd == nil {
		t.Fatal("no command to write the file")
	}
	msg := cmd()
	if _, err := os.Stat(path); err != nil {
		t.Fatalf("the command did not write the file: %v", err)
	}
	m, _ = m.Update(msg)
	if !strings.Contains(m.View(), "saved to "+path) {
		t.Fatalf("the save was not reported:\n%s", m.View())
	}
}
