package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"slices"
	"syscall"
	"testing"
	"time"
	"unsafe"
)

// openPTY opens a pseudo-terminal of cols×rows with the standard library
// alone (the module has no pty dependency): the master end to read what the
// program draws, the slave end to give it as its terminal.
func openPTY(cols, rows int) (master, slave *os.File, err error) {
	m, err := os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return nil, nil, err
	}
	ioctl := func(f *os.File, req uintptr, arg unsafe.Pointer) error {
		if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, f.Fd(), req, uintptr(arg)); e != 0 {
			return e
		}
		return nil
	}
	var unlock int32
	if err := ioctl(m, syscall.TIOCSPTLCK, unsafe.Pointer(&unlock)); err != nil {
		m.Close()
		return nil, nil, fmt.Errorf("unlocking the pty: %w", err)
	}
	var n uint32
	if err := ioctl(m, syscall.TIOCGPTN, unsafe.Pointer(&n)); err != nil {
		m.Close()
		return nil, nil, fmt.Errorf("numbering the pty: %w", err)
	}
	s, err := os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		m.Close()
		return nil, nil, err
	}
	ws := struct{ rows, cols, x, y uint16 }{uint16(rows), uint16(cols), 0, 0}
	if err := ioctl(s, syscall.TIOCSWINSZ, unsafe.Pointer(&ws)); err != nil {
		m.Close()
		s.Close()
		return nil, nil, fmt.Errorf("sizing the pty: %w", err)
	}
	return m, s, nil
}

// ptyChunk is what a program wrote to its terminal in one read, and when
// it was read.
type ptyChunk struct {
	at   time.Time
	data []byte
}

// ptyRun is a program running in a fresh pseudo-terminal: what it
// draws arrives on chunks, read on a goroutine; the channel closes when the
// terminal does. stop kills it.
type ptyRun struct {
	cmd    *exec.Cmd
	master *os.File
	chunks chan ptyChunk
}

// stop kills the program and closes its terminal.
func (r *ptyRun) stop() {
	r.cmd.Process.Kill()
	r.cmd.Wait()
	r.master.Close()
}

// startInPTY starts bin in a fresh 120×40 pseudo-terminal with TERM set
// and env added to this process's environment. before, when set, is given
// the two ends of the terminal before the program starts (to type ahead).
// started is when the program was started (for timing). The caller
// stops it.
func startInPTY(t *testing.T, bin string, env []string, before func(master, slave *os.File)) (run *ptyRun, started time.Time) {
	t.Helper()
	return startPTY(t, ptySpec{bin: bin, env: env, cols: 120, rows: 40, before: before})
}

// ptySpec is a program to start in a pseudo-terminal of cols×rows: its
// arguments, what to add to this process's environment, and what to do
// with the terminal's two ends before it starts.
type ptySpec struct {
	bin        string
	args, env  []string
	cols, rows int
	before     func(master, slave *os.File)
}

// startPTY starts a program as startInPTY does, in the terminal p says.
func startPTY(t *testing.T, p ptySpec) (run *ptyRun, started time.Time) {
	t.Helper()
	master, slave, err := openPTY(p.cols, p.rows)
	if err != nil {
		t.Fatalf("opening a pseudo-terminal: %v", err)
	}
	if p.before != nil {
		p.before(master, slave)
	}
	cmd := exec.Command(p.bin, p.args...)
	cmd.Env = append(append(os.Environ(), "TERM=xterm-256color"), p.env...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = slave, slave, slave
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: 0}
	started = time.Now()
	if err := cmd.Start(); err != nil {
		master.Close()
		t.Fatalf("starting %s: %v", p.bin, err)
	}
	slave.Close()
	run = &ptyRun{cmd: cmd, master: master, chunks: make(chan ptyChunk, 64)}
	go func() {
		defer close(run.chunks)
		buf := make([]byte, 64<<10)
		for {
			n, err := master.Read(buf)
			if n > 0 {
				run.chunks <- ptyChunk{time.Now(), slices.Clone(buf[:n])}
			}
			if err != nil {
				return
			}
		}
	}()
	return run, started
}
