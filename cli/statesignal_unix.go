//go:build unix

package cli

import (
	"os"
	"syscall"
)

// stateSignals ask a running conflictlab serve to log the room's state.
func stateSignals() []os.Signal { return []os.Signal{syscall.SIGUSR1} }
