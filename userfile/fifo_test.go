//go:build unix

package userfile

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestReadNeverBlocksOnAFIFO: opening a FIFO for reading blocks until a
// writer comes, so the file is opened non-blocking and refused. The FIFO
// has no writer: a blocking open would never return.
func TestReadNeverBlocksOnAFIFO(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "race.yaml")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	done := make(chan error, 2)
	go func() { _, err := Read(fifo, 1<<20); done <- err }()
	go func() {
		root, err := os.OpenRoot(dir)
		if err != nil {
			done <- err
			return
		}
		defer root.Close()
		_, err = ReadIn(root, "race.yaml", 1<<20)
		done <- err
	}()
	for i := 0; i < 2; i++ {
		select {
		case err := <-done:
			wantErr(t, err, ErrNotRegular, "race.yaml: not a regular file (a named pipe (FIFO))")
		case <-time.After(10 * time.Second):
			t.Fatal("reading a FIFO blocked")
		}
	}
}

// TestOverwriteNeverBlocksOnAFIFO: writing to a FIFO with no reader blocks
// for ever; a device would swallow the data. Both are refused.
func TestOverwriteNeverBlocksOnAFIFO(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "race.yaml")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	done := make(chan error, 1)
	go func() { done <- Overwrite(fifo, []byte("x")) }()
	select {
	case err := <-done:
		wantErr(t, err, ErrNotRegular, "race.yaml: not a regular file (a named pipe (FIFO))")
	case <-time.After(10 * time.Second):
		t.Fatal("overwriting a FIFO blocked")
	}
	wantErr(t, Overwrite("/dev/null", []byte("x")), ErrNotRegular, "/dev/null: not a regular file (a character device)")
	file := filepath.Join(dir, "ok.yaml")
	os.WriteFile(file, []byte("a much longer text"), 0o644)
	if err := Overwrite(file, []byte("short")); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(file); string(b) != "short" {
		t.Fatalf("got %q", b)
	}
}
