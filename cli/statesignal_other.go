//go:build !unix

package cli

import "os"

// stateSignals: this system has no SIGUSR1; the room's state is in the
// instructor's room view.
func stateSignals() []os.Signal { return nil }
