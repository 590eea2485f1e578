package cli

import (
	"os"
	"path/filepath"
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
	if o.ProgressPath != "/state/conflictlab/progress.json" || o.Notice != "" || o.NoSignals || o.SandboxEnv.NoFiles || o.NoColor || o.Trace != nil {
		t.Fatalf("options: %+v", o)
	}
	// No kubeconfig where client-go looks (HOME and KUBECONFIG unset): no
	// replays offered.
	if o.Replays != nil {
		t.Fatalf("replays offered without a kubeconfig: %+v", o)
	}
	// The environment decides, not the process's: a kubeconfig named by
	// KUBECONFIG, NO_COLOR with any value, a trace file, the state folder.
	kc := filepath.Join(t.TempDir(), "kubeconfig")
	if err := os.WriteFile(kc, []byte("apiVersion: v1\nkind: Config\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	o = terminalOptions(Env{Getenv: func(k string) string {
		return map[string]string{"KUBECONFIG": kc, "NO_COLOR": "yes please", TraceEnv: filepath.Join(t.TempDir(), "trace"), "XDG_STATE_HOME": "/elsewhere"}[k]
	}})
	if o.Replays == nil || !o.NoColor || o.Trace == nil || o.ProgressPath != "/elsewhere/conflictlab/progress.json" {
		t.Fatalf("options: %+v", o)
	}
	var _ ui.Replays = o.Replays
}
