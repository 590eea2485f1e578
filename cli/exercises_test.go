package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/conflictlab/conflictlab/ui"
)

// TestExercisesCommands: init writes a workspace (and refuses a folder of
// someone's files); the bare command opens the exercises' screen on it,
// and needs a terminal; check names what it checks, says where to start
// outside a workspace, rejects an unknown exercise, and in JSON says
// what failed, with exit 1.
func TestExercisesCommands(t *testing.T) {
	ws := filepath.Join(t.TempDir(), "ws")
	code, out, errs := run(t, false, "exercises", "init", ws)
	if code != ExitOK || !strings.Contains(out, "wrote 8 exercises") {
		t.Fatalf("init: exit %d\n%s%s", code, out, errs)
	}
	other := t.TempDir()
	if err := os.WriteFile(filepath.Join(other, "notes.txt"), []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, errs := run(t, false, "exercises", "init", other); code != ExitInvalid || !strings.Contains(errs, "not empty") {
		t.Errorf("init into a folder of files: exit %d, %s", code, errs)
	}

	var opened ui.Options
	code, _, errs = runScreen(t, true, func(o ui.Options) error { opened = o; return nil }, "exercises", "--dir", filepath.Join(ws, "01-retry-fresh-read"))
	if code != ExitOK || !opened.OpenExercises || opened.ExercisesDir != ws {
		t.Errorf("exercises: exit %d (%s), opened %v on %q, want the screen on %s", code, errs, opened.OpenExercises, opened.ExercisesDir, ws)
	}
	if code, _, _ := run(t, false, "exercises", "--dir", ws); code != ExitNoTTY {
		t.Errorf("exercises without a terminal: exit %d, want %d", code, ExitNoTTY)
	}
	if code, _, errs := run(t, false, "exercises", "check", "--dir", other); code != ExitInvalid || !strings.Contains(errs, "exercises init") {
		t.Errorf("check outside a workspace: exit %d, %s", code, errs)
	}
	if code, _, errs := run(t, false, "exercises", "check", "99", "--dir", ws); code != ExitUsage || !strings.Contains(errs, "no exercise") {
		t.Errorf("check 99: exit %d, %s", code, errs)
	}

	code, out, errs = run(t, false, "exercises", "check", "add-finalizer", "--dir", ws, "-o", "json")
	if code != ExitInvalid {
		t.Fatalf("check of the start code: exit %d, want %d\n%s", code, ExitInvalid, errs)
	}
	var rep struct {
		Pass    bool `json:"pass"`
		Results []struct {
			Exercise string `json:"exercise"`
			Verdict  *struct {
				Pass    bool            `json:"pass"`
				Outcome json.RawMessage `json:"outcome"`
			} `json:"verdict"`
		} `json:"results"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("-o json: %v\n%s", err, out)
	}
	if rep.Pass || len(rep.Results) != 1 || rep.Results[0].Exercise != "03-add-finalizer" || rep.Results[0].Verdict == nil || len(rep.Results[0].Verdict.Outcome) == 0 {
		t.Errorf("-o json of a failing check: %s", out)
	}
}
