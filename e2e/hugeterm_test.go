package e2e

import (
	"bytes"
	"syscall"
	"testing"
	"unsafe"
)

// TestHugeTerminal: the tutorial in a terminal of 65535×65535 (the most a
// pty holds) draws at most 320×100 and says so, its memory small; a
// resize to an ordinary size and back to a huge one follows; a terminal
// that gives no size (0×0) is drawn at 80×24. Issue 25: a terminal's size
// used to size the cell buffer as given (65535×65535: 4.3 GB).
func TestHugeTerminal(t *testing.T) {
	bin := build(t)
	run, _ := startPTY(t, ptySpec{bin: bin, env: []string{"XDG_STATE_HOME=" + t.TempDir()}, cols: 65535, rows: 65535})
	defer run.stop()
	var out bytes.Buffer
	run.readUntil(t, &out, "This terminal is 65535×65535: Conflict Lab draws at most 320×100")
	run.readUntil(t, &out, "Other modes")
	pid := run.cmd.Process.Pid
	if peak := procStatusKB(pid, "VmHWM"); peak > 150<<10 {
		t.Fatalf("the tutorial reached %d MiB in a 65535×65535 terminal", peak>>10)
	}
	resize(t, run, 100, 30)
	out.Reset()
	run.readUntil(t, &out, "Other modes")
	resize(t, run, 200, 65535)
	run.readUntil(t, &out, "This terminal is 200×65535")
	if peak := procStatusKB(pid, "VmHWM"); peak > 150<<10 {
		t.Fatalf("the tutorial reached %d MiB after the resizes", peak>>10)
	}
	t.Logf("peak RSS %d MiB", procStatusKB(pid, "VmHWM")>>10)

	none, _ := startPTY(t, ptySpec{bin: bin, env: []string{"XDG_STATE_HOME=" + t.TempDir()}, cols: 0, rows: 0})
	defer none.stop()
	out.Reset()
	none.readUntil(t, &out, "Other modes")
}

// resize sets the pty's size, which sends the program SIGWINCH.
func resize(t *testing.T, run *ptyRun, cols, rows int) {
	t.Helper()
	ws := struct{ rows, cols, x, y uint16 }{uint16(rows), uint16(cols), 0, 0}
	if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, run.master.Fd(), syscall.TIOCSWINSZ, uintptr(unsafe.Pointer(&ws))); e != 0 {
		t.Fatalf("resizing the pty: %v", e)
	}
}
