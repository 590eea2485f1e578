package cli

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/conflictlab/conflictlab/lessons"
	"github.com/conflictlab/conflictlab/progress"
	"github.com/conflictlab/conflictlab/ui"
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
		}, Screen: refuseScreen(t)}
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
		{[]string{"progress", "import", "/does/not/exist.json"}, ExitInvalid, "/does/not/exist.json: no such file"},
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
	called := false
	screen := func(o ui.Options) error {
		called = true
		if o.Pack != nil {
			t.Errorf("without --lessons the tutorial got pack %v, want the built-in course (nil)", o.Pack.Lessons)
		}
		return nil
	}
	if code, _, errs := runScreen(t, true, screen); code != ExitOK || !called {
		t.Fatalf("with a terminal: exit %d, started %v, %s", code, called, errs)
	}
	called = false
	if code, _, errs := runScreen(t, false, screen); code != ExitNoTTY || called || !strings.Contains(errs, "conflictlab sim --example lost-update-unconditional") {
		t.Fatalf("without a terminal: exit %d, started %v, %q", code, called, errs)
	}
}

// TestProgressImportChecksTheFile: an import that does not fit the course
// in use is refused with every problem named by field, and the progress
// on disk is left as it was.
func TestProgressImportChecksTheFile(t *testing.T) {
	course, err := lessons.Course()
	if err != nil {
		t.Fatal(err)
	}
	l := course.Lesson("versions")
	read, question := -1, -1
	for i, s := range l.Steps {
		if s.Kind == lessons.Read && read < 0 {
			read = i
		}
		if s.Kind != lessons.Read && question < 0 {
			question = i
		}
	}
	if read < 0 || question < 0 {
		t.Fatalf("lesson versions has no read step or no question: the test needs both")
	}
	state := t.TempDir()
	file := filepath.Join(state, "conflictlab", "progress.json")
	os.MkdirAll(filepath.Dir(file), 0o700)
	before := `{"version":1,"lessons":{"versions":{"step":0,"done":true}}}`
	os.WriteFile(file, []byte(before), 0o600)
	for _, c := range []struct{ name, body, want string }{
		{"unknown lesson", `{"version":1,"lessons":{"nope":{"step":0}}}`, `lessons.nope: "nope" is not a lesson of this course`},
		{"unknown last", `{"version":1,"last":"nope","lessons":{}}`, `last: "nope" is not a lesson`},
		{"step past the end", fmt.Sprintf(`{"version":1,"lessons":{"versions":{"step":%d}}}`, len(l.Steps)), "lessons.versions.step"},
		{"answer to a read step", fmt.Sprintf(`{"version":1,"lessons":{"versions":{"step":0,"answers":{"%d":{"attempts":1,"correct":true}}}}}`, read), fmt.Sprintf("lessons.versions.answers.%d: step %d asks no question", read, read)},
		{"answer past the end", `{"version":1,"lessons":{"versions":{"step":0,"answers":{"99":{"attempts":1}}}}}`, "lessons.versions.answers.99"},
		{"attempts out of range", fmt.Sprintf(`{"version":1,"lessons":{"versions":{"step":0,"answers":{"%d":{"attempts":99999999}}}}}`, question), fmt.Sprintf("lessons.versions.answers.%d.attempts", question)},
		{"unknown quiz topic", `{"version":1,"lessons":{},"quiz":{"nope":{"right":1,"total":2,"taken":1}}}`, `quiz.nope: "nope" is not a quiz topic`},
		{"quiz larger than the bank", `{"version":1,"lessons":{},"quiz":{"all":{"right":1,"total":100000,"taken":1}}}`, "quiz.all.total"},
		{"unknown challenge", `{"version":1,"lessons":{},"challenges":{"nope":{"best":3}}}`, `challenges.nope: "nope" is not a sandbox challenge`},
		{"syntax error", "{\"version\":1,\n\"lessons\": {,}}", "line 2"},
		{"a key twice", `{"version":1,"version":1,"lessons":{}}`, `line 1: "version" is given twice`},
		{"lessons twice", `{"version":1,"lessons":{"versions":{"step":1}},"lessons":{}}`, `"lessons" is given twice`},
		{"unknown top-level field", `{"version":1,"lessons":{},"admin":true}`, `unknown field "admin"`},
		{"an answer nested in an answer", fmt.Sprintf(`{"version":1,"lessons":{"versions":{"step":0,"answers":{"%d":{"answers":{"1":{"attempts":1}}}}}}}`, question),
			fmt.Sprintf(`lessons.versions.answers.%d: unknown field "answers"`, question)},
		{"a right-to-left override", "{\"version\":1,\"lessons\":{\"a\u202egnol\":{\"step\":0}}}", `lessons.a\u202egnol: `}, // the path is escaped on the way out
	} {
		code, out, errs := runState(t, state, c.body, "progress", "import", "-")
		if code != ExitInvalid || !strings.Contains(errs, c.want) {
			t.Errorf("%s: exit %d, stderr %q, want exit 1 and %q (stdout %q)", c.name, code, errs, c.want, out)
		}
	}
	big := `{"version":1,"lessons":{},"last":"` + strings.Repeat("x", progress.MaxImportBytes) + `"}`
	if code, _, errs := runState(t, state, big, "progress", "import", "-"); code != ExitInvalid || !strings.Contains(errs, "1 MiB") {
		t.Errorf("a file over the size limit: exit %d %q", code, errs)
	}
	if data, _ := os.ReadFile(file); string(data) != before {
		t.Fatalf("a refused import changed the progress:\n%s", data)
	}
	if m, _ := filepath.Glob(file + ".bak-*"); len(m) != 0 {
		t.Errorf("a refused import left backups: %v", m)
	}
}

// TestProgressImportKeepsABackupAndTheSymlink: the progress an import
// replaces is kept as progress.json.bak-N (and the output says where),
// and a symlinked progress.json is written through, staying a link.
func TestProgressImportKeepsABackupAndTheSymlink(t *testing.T) {
	state := t.TempDir()
	real := filepath.Join(t.TempDir(), "dotfiles", "progress.json")
	os.MkdirAll(filepath.Dir(real), 0o700)
	before := `{"version":1,"lessons":{"versions":{"step":0,"done":true}}}`
	os.WriteFile(real, []byte(before), 0o600)
	file := filepath.Join(state, "conflictlab", "progress.json")
	os.MkdirAll(filepath.Dir(file), 0o700)
	if err := os.Symlink(real, file); err != nil {
		t.Fatal(err)
	}
	code, out, errs := runState(t, state, `{"version":1,"last":"patches","lessons":{"patches":{"step":1}}}`, "progress", "import", "-")
	if code != ExitOK {
		t.Fatalf("import: exit %d %q", code, errs)
	}
	if !strings.Contains(out, "kept in "+file+".bak-1") {
		t.Errorf("the output does not say where the replaced progress is kept:\n%s", out)
	}
	if data, _ := os.ReadFile(file + ".bak-1"); string(data) != before {
		t.Errorf("backup holds %q, want the replaced file", data)
	}
	fi, err := os.Lstat(file)
	if err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("progress.json is no longer a symlink after the import (%v)", err)
	}
	if data, _ := os.ReadFile(real); !strings.Contains(string(data), `"patches"`) {
		t.Errorf("the import did not reach the link's target:\n%s", data)
	}
}

// TestTUIExitCodes: a TUI a signal ended exits 128 + the signal (SIGINT
// sent with kill is 130, not the usage error 2); any other failure of the
// screen is internal, not usage.
func TestTUIExitCodes(t *testing.T) {
	for _, c := range []struct {
		err  error
		code int
	}{
		{&ui.SignalError{Signal: syscall.SIGINT}, 130},
		{&ui.SignalError{Signal: syscall.SIGHUP}, 129},
		{&ui.SignalError{Signal: syscall.SIGQUIT}, 131},
		{&ui.SignalError{Signal: syscall.SIGTERM}, 143},
		{errors.New("the screen broke"), ExitInternal},
	} {
		screen := func(ui.Options) error { return c.err }
		if code, _, errs := runScreen(t, true, screen); code != c.code {
			t.Errorf("%v: exit %d, want %d (%s)", c.err, code, c.code, errs)
		}
	}
}
