package cli

import (
	"testing"

	"github.com/conflictlab/conflictlab/ui"
)

// TestTerminalOptions: the terminal tutorial's composition root resolves
// the progress file from the environment it is given (not the process's)
// and keeps today's behaviour: live replays offered when a kubeconfig is
// found, signals handled, the files of the working directory.
func TestTerminalOptions(t *testing.T) {
	env := Env{Getenv: func(k string) string {
		if k == "XDG_STATE_HOME" {
			return "/state"
		}
		return ""
	}}
	o := terminalOptions(env)
	if o.ProgressPath != "/state/conflictlab/progress.json" || o.Live != ui.LiveAuto || o.NoSignals || o.SandboxEnv.NoFiles || o.Getenv == nil {
		t.Fatalf("options: %+v", o)
	}
}
