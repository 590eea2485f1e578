package cli

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/conflictlab/conflictlab/ui"
)

func run(t *testing.T, tty bool, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	return runScreen(t, tty, nil, args...)
}

// runScreen is run with the tutorial's screen replaced by screen, which
// gets the options the command built (nil: a screen that fails the test,
// so no test takes over the terminal by accident).
// refuseScreen is a screen that fails the test: the command was not
// meant to take over the terminal.
func refuseScreen(t *testing.T) func(ui.Options) error {
	return func(ui.Options) error {
		t.Errorf("the tutorial's screen was started")
		return nil
	}
}

func runScreen(t *testing.T, tty bool, screen func(ui.Options) error, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	if screen == nil {
		screen = refuseScreen(t)
	}
	var out, errb bytes.Buffer
	env := Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb,
		IsTerminal: func() bool { return tty }, Getenv: func(string) string { return "" }, Screen: screen}
	code = Run(args, env)
	return code, out.String(), errb.String()
}

const lostUpdate = "../lessons/course/scenarios/lost-update.yaml"

func TestSimText(t *testing.T) {
	code, out, errs := run(t, false, "sim", "-f", lostUpdate)
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{"UPDATE cm1 no rv", "✗ LOST data.owner", "erased by b", "outcome: lost"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

func TestSimJSONIsStable(t *testing.T) {
	code, out, errs := run(t, false, "sim", "-f", lostUpdate, "--schedule", "a,a,b,b", "-o", "json")
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var o struct {
		Verdict  string   `json:"verdict"`
		Schedule []string `json:"schedule"`
		Lost     []any    `json:"lost"`
		Steps    []struct {
			Actor string `json:"actor"`
			Code  int    `json:"code"`
		} `json:"steps"`
	}
	if err := json.Unmarshal([]byte(out), &o); err != nil {
		t.Fatal(err)
	}
	if o.Verdict != "no-loss" || len(o.Lost) != 0 || strings.Join(o.Schedule, ",") != "a,a,b,b" {
		t.Fatalf("%+v", o)
	}
	if len(o.Steps) == 0 || o.Steps[0].Actor != "a" {
		t.Fatalf("steps: %+v", o.Steps)
	}
}

func TestSimMarkdownHasMermaid(t *testing.T) {
	code, out, _ := run(t, false, "sim", "-f", lostUpdate, "-o", "markdown")
	if code != ExitOK || !strings.Contains(out, "```mermaid\nsequenceDiagram") || !strings.Contains(out, "a->>API: UPDATE cm1 no rv") {
		t.Fatalf("exit %d:\n%s", code, out)
	}
}

// -o svg is a picture of the race view, for slides (sim/report checks
// what it draws): a well-formed SVG document, steps numbered from 1.
func TestSimSVGIsAPicture(t *testing.T) {
	code, out, _ := run(t, false, "sim", "-f", lostUpdate, "-o", "svg")
	if code != ExitOK || !strings.HasPrefix(out, "<svg xmlns=\"http://www.w3.org/2000/svg\"") || !strings.HasSuffix(out, "</svg>\n") ||
		!strings.Contains(out, `class="num">1</text>`) || strings.Contains(out, `class="num">0</text>`) || !strings.Contains(out, "✗ LOST") {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	if err := xml.Unmarshal([]byte(out), new(struct{})); err != nil {
		t.Fatalf("not XML: %v", err)
	}
}

func TestSeedIsDeterministic(t *testing.T) {
	_, a, _ := run(t, false, "sim", "-f", lostUpdate, "--seed", "42", "-o", "json")
	_, b, _ := run(t, false, "sim", "-f", lostUpdate, "--seed", "42", "-o", "json")
	if a != b || a == "" {
		t.Fatal("the same seed gave two different runs")
	}
}

func TestExplore(t *testing.T) {
	code, out, _ := run(t, false, "explore", "-f", lostUpdate, "-o", "json")
	var r struct {
		Schedules int            `json:"schedules"`
		Tally     map[string]int `json:"tally"`
	}
	if code != ExitOK || json.Unmarshal([]byte(out), &r) != nil {
		t.Fatalf("exit %d: %s", code, out)
	}
	if r.Schedules != 6 || r.Tally["lost"] != 4 || r.Tally["no-loss"] != 2 {
		t.Fatalf("%+v", r)
	}
}

func TestExitCodes(t *testing.T) {
	bad := filepath.Join(t.TempDir(), "bad.yaml")
	if err := os.WriteFile(bad, []byte("name: x\ncontrollers:\n- name: a\n  wirte: update\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		args []string
		tty  bool
		code int
		msg  string
	}{
		{[]string{"sim"}, false, ExitUsage, "-f FILE"},
		{[]string{"sim", "-f", lostUpdate, "-o", "yaml"}, false, ExitUsage, "want one of text, json, markdown"},
		{[]string{"sim", "-f", lostUpdate, "--seed", "x"}, false, ExitUsage, "--seed"},
		{[]string{"sim", "-f", lostUpdate, "--seed", "1", "--schedule", "a"}, false, ExitUsage, "give one"},
		{[]string{"sim", "-f", lostUpdate, "--schedule", "a,zz"}, false, ExitUsage, `no controller "zz"`},
		{[]string{"sim", "--nope"}, false, ExitUsage, "unknown flag"},
		{[]string{"frobnicate"}, false, ExitUsage, "unknown command"},
		{[]string{"sim", "-f", bad}, false, ExitInvalid, "bad.yaml:4"},
		{[]string{"sim", "-f", "/does/not/exist.yaml"}, false, ExitInvalid, "exist.yaml"},
		{nil, false, ExitNoTTY, "needs a terminal"},
	}
	for _, c := range cases {
		code, _, errs := run(t, c.tty, c.args...)
		if code != c.code || !strings.Contains(errs, c.msg) {
			t.Errorf("%v: exit %d (want %d), stderr %q (want %q)", c.args, code, c.code, errs, c.msg)
		}
	}
}

func TestVersion(t *testing.T) {
	code, out, _ := run(t, false, "--version")
	if code != ExitOK || !strings.HasPrefix(out, "conflictlab version ") {
		t.Fatalf("exit %d: %q", code, out)
	}
}

// The examples ship in the binary: listed, printed, written out, and run
// with --example from any folder — the no-terminal hint's commands work
// outside a checkout (issue 10).
func TestExamplesWorkAnywhere(t *testing.T) {
	t.Chdir(t.TempDir())
	code, out, errs := run(t, false, "examples")
	if code != ExitOK || !strings.Contains(out, "lost-update-unconditional") || !strings.Contains(out, "sim --example NAME") {
		t.Fatalf("examples: exit %d\n%s%s", code, out, errs)
	}
	code, out, _ = run(t, false, "examples", "lost-update-unconditional")
	if code != ExitOK || !strings.Contains(out, "name: lost-update-unconditional") {
		t.Fatalf("examples NAME: exit %d\n%s", code, out)
	}
	if code, _, _ := run(t, false, "examples", "lost-update-unconditional", "-o", "race.yaml"); code != ExitOK {
		t.Fatalf("examples -o: exit %d", code)
	}
	if code, _, errs := run(t, false, "examples", "lost-update-unconditional", "-o", "race.yaml"); code != ExitInvalid || !strings.Contains(errs, "not overwritten") {
		t.Fatalf("examples -o over a file: exit %d %s", code, errs)
	}
	if code, out, errs := run(t, false, "sim", "-f", "race.yaml"); code != ExitOK || !strings.Contains(out, "outcome: lost") {
		t.Fatalf("sim -f the written example: exit %d\n%s%s", code, out, errs)
	}
	for _, args := range [][]string{
		{"sim", "--example", "lost-update-unconditional"},
		{"explore", "--example", "lost-update-unconditional"},
	} {
		if code, out, errs := run(t, false, args...); code != ExitOK || out == "" {
			t.Errorf("%v: exit %d\n%s%s", args, code, out, errs)
		}
	}
	if code, _, errs := run(t, false, "sim", "--example", "nope"); code != ExitUsage || !strings.Contains(errs, "lost-update-unconditional") {
		t.Errorf("unknown example: exit %d %s", code, errs)
	}
	if code, _, _ := run(t, false, "sim", "--example", "requeue", "-f", "race.yaml"); code != ExitUsage {
		t.Errorf("-f with --example: exit %d", code)
	}
	// The hint printed without a terminal names only commands that work here.
	_, _, errs = run(t, false)
	for _, line := range strings.Split(errs, "\n") {
		if f := strings.Fields(line); len(f) > 2 && f[0] == "conflictlab" && (f[1] == "sim" || f[1] == "explore") {
			if code, _, e := run(t, false, f[1:4]...); code != ExitOK {
				t.Errorf("the hint's %q fails here: exit %d %s", strings.Join(f[:4], " "), code, e)
			}
		}
	}
}
