package simcluster

import (
	"fmt"
	"strings"

	"github.com/conflictlab/conflictlab/sim/scenario"
)

// ErrorKind says what stopped a run.
type ErrorKind string

const (
	// ErrPanic: the code panicked (Value, Stack).
	ErrPanic ErrorKind = "panic"
	// ErrNondeterministic: a replay of the same schedule prefix made
	// another call than the first run did (Call names where).
	ErrNondeterministic ErrorKind = "nondeterministic"
	// ErrTimeout: a reconcile neither called nor returned within
	// Options.CallTimeout on the wall clock (Stack holds every goroutine).
	ErrTimeout ErrorKind = "timeout"
	// ErrForeignGoroutine: a call came from a goroutine the scheduler
	// does not run (one the code started), or through another
	// controller's clients.
	ErrForeignGoroutine ErrorKind = "foreign-goroutine"
	// ErrCancelled: the context was cancelled.
	ErrCancelled ErrorKind = "cancelled"
	// ErrInternal: the harness broke a rule of its own.
	ErrInternal ErrorKind = "internal"
)

// Error is a run that could not be carried out: the code did something
// the harness cannot schedule or judge. It names the controller, the
// schedule so far and, where there is one, the call.
type Error struct {
	Kind       ErrorKind `json:"kind"`
	Controller string    `json:"controller"`
	// Schedule is the steps taken before it happened.
	Schedule []scenario.Move `json:"schedule"`
	// Call is where the code made the call concerned ("reconcile.go:42").
	Call string `json:"call,omitempty"`
	// Value is what a panic panicked with.
	Value string `json:"value,omitempty"`
	Stack string `json:"stack,omitempty"`
	Msg   string `json:"message"`
}

func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.Msg)
	if e.Schedule != nil {
		fmt.Fprintf(&b, "\nschedule so far: [%s]", joinMoves(e.Schedule))
	}
	if e.Stack != "" {
		fmt.Fprintf(&b, "\n%s", e.Stack)
	}
	return b.String()
}
