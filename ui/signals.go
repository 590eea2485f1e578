package ui

import (
	"fmt"
	"os"
	"os/signal"
	"sync"
	"syscall"

	tea "charm.land/bubbletea/v2"

	"github.com/conflictlab/conflictlab/ui/chrome"
)

// endSignals end a terminal session (chrome.EndSignals says which, and
// why).
var endSignals = chrome.EndSignals

// SignalError is Run's answer when a signal ended the program (after the
// terminal was given back and the progress saved).
type SignalError struct{ Signal os.Signal }

func (e *SignalError) Error() string {
	return fmt.Sprintf("ended by %s (the terminal was restored and progress saved)", signalName(e.Signal))
}

// ExitCode is the shell's convention for a process a signal ended,
// 128 + the signal's number: 129 SIGHUP, 130 SIGINT, 131 SIGQUIT,
// 143 SIGTERM.
func (e *SignalError) ExitCode() int {
	if s, ok := e.Signal.(syscall.Signal); ok {
		return 128 + int(s)
	}
	return 128
}

func signalName(s os.Signal) string {
	switch s {
	case syscall.SIGHUP:
		return "SIGHUP"
	case syscall.SIGINT:
		return "SIGINT"
	case syscall.SIGQUIT:
		return "SIGQUIT"
	case syscall.SIGTERM:
		return "SIGTERM"
	}
	return s.String()
}

// signalEnd quits a program on the first end signal, the way q does, so
// Bubble Tea restores the terminal; a second signal kills it at once (it
// still restores the terminal). Signals stay caught until release, so
// that one arriving while the progress is saved does not cut the save.
type signalEnd struct {
	ch    chan os.Signal
	done  chan struct{}
	mu    sync.Mutex
	first os.Signal
}

// endOnSignals ends p on the end signals: those arriving on caught, a
// channel the process already catches them on (package boot's, since its
// first frame), or else on a channel of its own.
func endOnSignals(p *tea.Program, caught chan os.Signal) *signalEnd {
	e := &signalEnd{ch: caught, done: make(chan struct{})}
	if e.ch == nil {
		e.ch = make(chan os.Signal, len(endSignals))
		signal.Notify(e.ch, endSignals...)
	}
	go func() {
		for {
			select {
			case <-e.done:
				return
			case s := <-e.ch:
				e.mu.Lock()
				again := e.first != nil
				if !again {
					e.first = s
				}
				e.mu.Unlock()
				if again {
					p.Kill()
				} else {
					go p.Quit() // blocks until the loop reads it, or the program ends
				}
			}
		}
	}()
	return e
}

// signal is the first end signal received, or nil.
func (e *signalEnd) signal() os.Signal {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.first
}

// release gives the signals back to their default action.
func (e *signalEnd) release() {
	signal.Stop(e.ch)
	close(e.done)
}
