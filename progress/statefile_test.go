//go:build unix

package progress

import (
	"bytes"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestStateFileIsNeverWaitedOn: a FIFO at progress.json's path blocked
// Load (the tutorial's first frame) and export for good.
func TestStateFileIsNeverWaitedOn(t *testing.T) {
	path := filepath.Join(t.TempDir(), "progress.json")
	if err := syscall.Mkfifo(path, 0o644); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	done := make(chan string, 2)
	go func() {
		err := Open(path).Export(&bytes.Buffer{})
		done <- "export: " + errString(err)
	}()
	got := waitFor(t, done)
	if !strings.Contains(got, "not a regular file (a named pipe (FIFO))") {
		t.Fatalf("export: %s", got)
	}
	go func() {
		_, notice := Open(path).Load()
		done <- notice
	}()
	if notice := waitFor(t, done); !strings.Contains(notice, "not a regular file") {
		t.Fatalf("load's notice: %q", notice)
	}
}

func errString(err error) string {
	if err == nil {
		return "<nil>"
	}
	return err.Error()
}

func waitFor(t *testing.T, ch chan string) string {
	t.Helper()
	select {
	case s := <-ch:
		return s
	case <-time.After(10 * time.Second):
		t.Fatal("reading progress.json blocked")
	}
	return ""
}
