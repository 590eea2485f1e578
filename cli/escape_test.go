package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

// hostile is a name full of what a terminal obeys: a window title (OSC …
// BEL), clear screen (CSI 2J), an 8-bit CSI (U+009B), DEL, a C1 control
// and a carriage return. "pwned" shows that the text did reach the output.
const hostile = "\x1b]0;pwned\x07\x1b[2J\u009b31m\x7f\u0090\r"

// hostileYAML is hostile as a YAML double-quoted string.
const hostileYAML = `\e]0;pwned\a\e[2J\u009b31m\x7f\x90\r`

// terminalControl returns the first character of s a terminal would act on
// (a C0 control other than newline and tab, DEL, a C1 control, or a byte
// that is not UTF-8), or "" when there is none.
func terminalControl(s string) string {
	for i, r := range s {
		switch {
		case r == utf8.RuneError && !strings.HasPrefix(s[i:], string(utf8.RuneError)):
			return s[i : i+1]
		case r == '\n' || r == '\t':
		case r < 0x20 || (r >= 0x7f && r <= 0x9f):
			return string(r)
		}
	}
	return ""
}

// runHostile runs the command with state as XDG_STATE_HOME and stdin as
// standard input, and fails if anything a terminal would act on reaches
// stdout or stderr, or if the hostile text did not reach them at all.
func runHostile(t *testing.T, state, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	env := Env{Stdin: strings.NewReader(stdin), Stdout: &out, Stderr: &errb, IsTerminal: func() bool { return false },
		Getenv: func(k string) string {
			if k == "XDG_STATE_HOME" {
				return state
			}
			return ""
		}, Screen: refuseScreen(t)}
	code = Run(args, env)
	for _, o := range []struct{ name, text string }{{"stdout", out.String()}, {"stderr", errb.String()}} {
		if c := terminalControl(o.text); c != "" {
			t.Errorf("%q: %s holds the control character %q:\n%q", args, o.name, c, o.text)
		}
	}
	if !strings.Contains(out.String()+errb.String(), "pwned") {
		t.Errorf("%q: the hostile text is printed nowhere, so this checks nothing (exit %d):\n%s%s", args, code, out.String(), errb.String())
	}
	return code, out.String(), errb.String()
}

// hostileScenario is a valid race whose name, description, annotation and
// values are full of escape sequences.
func hostileScenario(t *testing.T) string {
	t.Helper()
	return hostileScenarioOn(t, "cm1")
}

// hostileScenarioOn is hostileScenario racing on the object named obj (a
// YAML double-quoted string).
func hostileScenarioOn(t *testing.T, obj string) string {
	t.Helper()
	src := `name: "lost` + hostileYAML + `"
description: "desc` + hostileYAML + `"
lag: 0
objects:
- apiVersion: v1
  kind: ConfigMap
  metadata: {name: "` + obj + `", namespace: default, annotations: {app: "v` + hostileYAML + `"}}
  data: {mode: "blue` + hostileYAML + `"}
controllers:
- name: a
  target: "ConfigMap/` + obj + `"
  read: lister
  mutations:
  - set: {path: data.owner, value: "x` + hostileYAML + `"}
  write: update-clear-rv
- name: b
  target: "ConfigMap/` + obj + `"
  read: lister
  mutations:
  - set: {path: data.replicas, value: "3"}
  write: update-clear-rv
`
	f := filepath.Join(t.TempDir(), "hostile.yaml")
	if err := os.WriteFile(f, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return f
}

func TestSimAndExploreEscapeControlCharacters(t *testing.T) {
	f := hostileScenario(t)
	for _, args := range [][]string{
		{"sim", "-f", f},
		{"sim", "-f", f, "-o", "markdown"},
		{"sim", "-f", f, "-o", "svg"},
		{"sim", "-f", f, "--schedule", "a,b,a,b"},
		{"explore", "-f", f},
	} {
		if code, _, errs := runHostile(t, t.TempDir(), "", args...); code != ExitOK {
			t.Errorf("%q: exit %d: %s", args, code, errs)
		}
	}
	// JSON stays valid and lossless: U+009B and DEL, which encoding/json
	// passes raw, are written as \u escapes that decode to themselves.
	for _, cmd := range []string{"sim", "explore"} {
		code, out, errs := runHostile(t, t.TempDir(), "", cmd, "-f", f, "-o", "json")
		if code != ExitOK {
			t.Fatalf("%s -o json: exit %d: %s", cmd, code, errs)
		}
		var r struct {
			Scenario string `json:"scenario"`
		}
		if err := json.Unmarshal([]byte(out), &r); err != nil {
			t.Fatalf("%s -o json does not parse: %v\n%s", cmd, err, out)
		}
		if want := "lost" + strings.TrimSuffix(hostile, "\r") + "\r"; r.Scenario != want {
			t.Errorf("%s -o json: scenario %q, want %q", cmd, r.Scenario, want)
		}
	}
}

func TestErrorMessagesEscapeControlCharacters(t *testing.T) {
	dir := t.TempDir()
	// An object name the server refuses: the refusal quotes it.
	badName := hostileScenarioOn(t, "cm"+hostileYAML)
	// Each is refused; the exit codes are checked elsewhere (TestExitCodes).
	for _, args := range [][]string{
		{"sim", "-f", badName},
		{"explore", "-f", badName},
		{"sim", "-f", filepath.Join(dir, "missing"+hostile+".yaml")},
		{"sim", "-f", hostileScenario(t), "--schedule", "a,b" + hostile},
		{"frobnicate" + hostile},
		{"sim", "--" + hostile},
		{"lessons", "list", filepath.Join(dir, "nope"+hostile)},
	} {
		if code, _, errs := runHostile(t, t.TempDir(), "", args...); code == ExitOK {
			t.Errorf("%q: exit 0, want a refusal: %s", args, errs)
		}
	}
}

// hostilePack copies the example pack into a folder whose name is hostile,
// with hostile text in the lesson's title, a step's title and an option's
// label; edit changes the lesson file further.
func hostilePack(t *testing.T, edit func(string) string) string {
	t.Helper()
	src := copyPack(t, func(s string) string {
		for from, to := range map[string]string{
			"title: Counting under concurrency":        `title: "Counting` + hostileYAML + `"`,
			"title: Two events, one counter":           `title: "Two events` + hostileYAML + `"`,
			`label: "2 — both increments are counted"`: `label: "2` + hostileYAML + `"`,
		} {
			if !strings.Contains(s, from) {
				t.Fatalf("the example pack no longer contains %q", from)
			}
			s = strings.Replace(s, from, to, 1)
		}
		return edit(s)
	})
	dir := filepath.Join(t.TempDir(), "pack"+hostile)
	if err := os.Rename(src, dir); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestLessonsEscapeControlCharacters(t *testing.T) {
	pack := hostilePack(t, func(s string) string { return s })
	if code, _, errs := runHostile(t, t.TempDir(), "", "lessons", "list", pack); code != ExitOK {
		t.Errorf("lessons list: exit %d: %s", code, errs)
	}
	// Whether the pack's claims hold or not, what validate says is escaped
	// (-v prints every race's title before the claims are checked).
	for _, args := range [][]string{{"lessons", "validate", pack}, {"lessons", "validate", "-v", pack}} {
		if code, _, errs := runHostile(t, t.TempDir(), "", args...); code != ExitOK && code != ExitInvalid {
			t.Errorf("%q: exit %d: %s", args, code, errs)
		}
	}
	// A claim the simulator refutes: the problem quotes the claim.
	broken := hostilePack(t, func(s string) string {
		return strings.Replace(s, `equals: "1"}`, `equals: "1`+hostileYAML+`"}`, 1)
	})
	if code, _, errs := runHostile(t, t.TempDir(), "", "lessons", "validate", broken); code != ExitInvalid {
		t.Errorf("lessons validate on a refuted claim: exit %d: %s", code, errs)
	}
	// The tutorial refuses a broken pack before it takes the screen.
	if code, _, errs := runHostile(t, t.TempDir(), "", "--lessons", broken+"x"); code != ExitInvalid {
		t.Errorf("--lessons on a missing pack: exit %d: %s", code, errs)
	}
}

func TestProgressEscapesControlCharacters(t *testing.T) {
	state := t.TempDir()
	data, err := json.Marshal(map[string]any{"version": 1, "last": "x" + hostile,
		"lessons": map[string]any{"lost" + hostile: map[string]any{"step": 1, "done": false}}})
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "progress"+hostile+".json")
	if err := os.WriteFile(file, data, 0o600); err != nil {
		t.Fatal(err)
	}
	// Whether the import is accepted or refused, what it says is escaped.
	code, _, errs := runHostile(t, state, "", "progress", "import", file)
	if code != ExitOK && code != ExitInvalid {
		t.Fatalf("progress import: exit %d: %s", code, errs)
	}
	runHostile(t, state, string(data), "progress", "import", "-")
	if code == ExitOK {
		code, out, errs := runHostile(t, state, "", "progress", "export")
		var p struct {
			Last string `json:"last"`
		}
		if code != ExitOK || json.Unmarshal([]byte(out), &p) != nil || p.Last != "x"+hostile {
			t.Errorf("progress export: exit %d, last %q: %s%s", code, p.Last, out, errs)
		}
	}
	runHostile(t, state, "", "progress", "import", file+"-missing")
}

func TestQuizEscapesControlCharacters(t *testing.T) {
	// Answers are echoed (and refused, quoted) when stdin is not a terminal.
	if code, _, errs := runHostile(t, t.TempDir(), "z"+hostile+"\nq\n", "quiz", "--count", "1", "--seed", "1"); code != ExitOK {
		t.Errorf("quiz: exit %d: %s", code, errs)
	}
	if code, _, errs := runHostile(t, t.TempDir(), "", "quiz", "--topic", "t"+hostile); code != ExitUsage {
		t.Errorf("quiz --topic: exit %d: %s", code, errs)
	}
}
