//go:build unix

package cli

import (
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestFIFOIsRefused: a FIFO blocked every command until a writer came (the
// sandbox's screen with it, in the alternate screen); now each refuses it
// at once, exit 1.
func TestFIFOIsRefused(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "race.yaml")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	// A pack whose lesson file is a FIFO.
	pack := filepath.Join(dir, "pack")
	if err := mkdirFIFO(pack); err != nil {
		t.Skip(err)
	}
	args := inputCommands(fifo)[:4] // the files; the pack commands take a folder:
	args = append(args, []string{"lessons", "validate", pack}, []string{"lessons", "list", pack}, []string{"--lessons", pack})
	for _, a := range args {
		type result struct {
			code int
			errs string
		}
		done := make(chan result, 1)
		go func() {
			code, _, errs := runState(t, t.TempDir(), "", a...)
			done <- result{code, errs}
		}()
		select {
		case r := <-done:
			if r.code != ExitInvalid || !strings.Contains(r.errs, "not a regular file (a named pipe (FIFO))") {
				t.Errorf("%s: exit %d: %s", strings.Join(a, " "), r.code, r.errs)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("%s: blocked on the FIFO", strings.Join(a, " "))
		}
	}
}

func mkdirFIFO(pack string) error {
	if err := syscallMkdir(pack); err != nil {
		return err
	}
	return syscall.Mkfifo(filepath.Join(pack, "01-lesson.yaml"), 0o644)
}

func syscallMkdir(dir string) error { return syscall.Mkdir(dir, 0o755) }
