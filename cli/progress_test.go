package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/conflictlab/conflictlab/lessons"
)

func runState(t *testing.T, state, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	env := Env{Stdin: strings.NewReader(stdin), Stdout: &out, Stderr: &errb, IsTerminal: func() bool { return false },
		Getenv: func(k string) string {
			if k == "XDG_STATE_HOME" {
				return state
			}
			return ""
		}}
	return Run(args, env), out.String(), errb.String()
}

func TestProgressExportImportReset(t *testing.T) {
	state := t.TempDir()
	file := filepath.Join(state, "conflictlab", "progress.json")
	code, out, errs := runState(t, state, "", "progress", "export")
	if code != ExitOK || !strings.Contains(out, `"version": 1`) {
		t.Fatalf("export with no progress: exit %d %q %q", code, out, errs)
	}
	backup := filepath.Join(t.TempDir(), "backup.json")
	os.WriteFile(backup, []byte(`{"version":1,"last":"lost-update","lessons":{"versions":{"step":0,"done":true},"lost-update":{"step":1,"done":false}}}`), 0o600)
	code, out, errs = runState(t, state, "", "progress", "import", backup)
	if code != ExitOK || !strings.Contains(out, "imported 2 lesson(s)") || !strings.Contains(out, "lost-update: in progress, at step 2") {
		t.Fatalf("import: exit %d %q %q", code, out, errs)
	}
	code, out, _ = runState(t, state, "", "progress", "export")
	if code != ExitOK || !strings.Contains(out, `"last": "lost-update"`) {
		t.Fatalf("export after import: %q", out)
	}
	code, out, _ = runState(t, state, "", "progress", "reset")
	if code != ExitOK || !strings.Contains(out, "progress reset") {
		t.Fatalf("reset: %q", out)
	}
	if _, err := os.Stat(file); !os.IsNotExist(err) {
		t.Fatal("reset left the file")
	}
	code, out, _ = runState(t, state, "", "progress", "reset")
	if code != ExitOK || !strings.Contains(out, "no progress to reset") {
		t.Fatalf("second reset: %q", out)
	}
	// import - reads standard input.
	code, _, errs = runState(t, state, `{"version":1,"lessons":{}}`, "progress", "import", "-")
	if code != ExitOK {
		t.Fatalf("import from stdin: %s", errs)
	}
}

func TestProgressErrors(t *testing.T) {
	state := t.TempDir()
	garbage := filepath.Join(t.TempDir(), "g.json")
	os.WriteFile(garbage, []byte("not json"), 0o600)
	for _, c := range []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"progress"}, ExitUsage, "reset, export or import"},
		{[]string{"progress", "import"}, ExitUsage, "accepts 1 arg"},
		{[]string{"progress", "import", "/does/not/exist.json"}, ExitUsage, "exist.json"},
		{[]string{"progress", "import", garbage}, ExitInvalid, "not a progress file"},
	} {
		code, _, errs := runState(t, state, "", c.args...)
		if code != c.code || !strings.Contains(errs, c.msg) {
			t.Errorf("%v: exit %d (want %d), stderr %q (want %q)", c.args, code, c.code, errs, c.msg)
		}
	}
	// A corrupt file on disk: export says so instead of printing it.
	os.MkdirAll(filepath.Join(state, "conflictlab"), 0o700)
	os.WriteFile(filepath.Join(state, "conflictlab", "progress.json"), []byte("{"), 0o600)
	if code, _, errs := runState(t, state, "", "progress", "export"); code != ExitInvalid || !strings.Contains(errs, "not a progress file") {
		t.Errorf("export of a corrupt file: exit %d %q", code, errs)
	}
}

// TestTutorialStartsWithATerminal checks the wiring: with a terminal the
// root command hands over to the TUI (replaced here; the TUI itself is
// tested in package ui), without one it refuses with exit 3.
func TestTutorialStartsWithATerminal(t *testing.T) {
	saved := startTUI
	defer func() { startTUI = saved }()
	called := false
	startTUI = func(_ *cobra.Command, _ Env, pack *lessons.Pack) error {
		called = true
		if pack != nil {
			t.Errorf("without --lessons the tutorial got pack %v, want the built-in course (nil)", pack.Lessons)
		}
		return nil
	}
	if code, _, errs := run(t, true); code != ExitOK || !called {
		t.Fatalf("with a terminal: exit %d, started %v, %s", code, called, errs)
	}
	called = false
	if code, _, errs := run(t, false); code != ExitNoTTY || called || !strings.Contains(errs, "conflictlab sim -f") {
		t.Fatalf("without a terminal: exit %d, started %v, %q", code, called, errs)
	}
}
