package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/conflictlab/conflictlab/sim/scenario"
	"github.com/conflictlab/conflictlab/ui"
)

// TestSandboxOpensAFileOrRefusesIt: -f loads the race before the screen
// is taken; a malformed file gives FILE:LINE and exit 1 and never starts
// the TUI; without a terminal it is exit 3.
func TestSandboxOpensAFileOrRefusesIt(t *testing.T) {
	var started *scenario.Scenario
	calls := 0
	screen := func(o ui.Options) error {
		calls++
		started = o.Sandbox
		if !o.OpenSandbox {
			t.Error("the tutorial was started, not the sandbox")
		}
		return nil
	}
	run := func(t *testing.T, tty bool, args ...string) (int, string, string) {
		return runScreen(t, tty, screen, args...)
	}
	if code, _, errs := run(t, true, "sandbox", "-f", "../examples/lost-update-unconditional.yaml"); code != ExitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if calls != 1 || started == nil || started.Name != "lost-update-unconditional" {
		t.Fatalf("the TUI got %+v", started)
	}
	if code, _, _ := run(t, true, "sandbox"); code != ExitOK || calls != 2 || started != nil {
		t.Fatalf("without -f: exit %d, %d calls, race %v", code, calls, started)
	}
	bad := filepath.Join(t.TempDir(), "race.yaml")
	os.WriteFile(bad, []byte("name: x\nobjects: []\ncontrollers:\n- name: a\n  target: ConfigMap/cm1\n  wirte: update\n"), 0o644)
	code, out, errs := run(t, true, "sandbox", "-f", bad)
	if code != ExitInvalid || calls != 2 || out != "" || !strings.Contains(errs, bad+":6: controllers[0]: unknown field \"wirte\"") {
		t.Fatalf("a malformed file: exit %d, %d calls, stdout %q, stderr:\n%s", code, calls, out, errs)
	}
	if code, _, errs := run(t, false, "sandbox"); code != ExitNoTTY || !strings.Contains(errs, "needs a terminal") {
		t.Fatalf("no terminal: exit %d: %s", code, errs)
	}
}
