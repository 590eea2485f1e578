package cli

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/conflictlab/conflictlab/lessons"
	"github.com/conflictlab/conflictlab/ui"
)

func runWithStdin(t *testing.T, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	env := Env{Stdin: strings.NewReader(stdin), Stdout: &out, Stderr: &errb,
		IsTerminal: func() bool { return false }, Getenv: func(string) string { return "" }, Screen: refuseScreen(t)}
	code = Run(args, env)
	return code, out.String(), errb.String()
}

const (
	coursePack  = "../lessons/course"
	examplePack = "../examples/pack"
)

func TestLessonsValidate(t *testing.T) {
	for _, args := range [][]string{
		{"lessons", "validate", coursePack},
		{"lessons", "validate"}, // the built-in course
		{"lessons", "validate", examplePack},
		{"--lessons", examplePack, "lessons", "validate"},
	} {
		code, out, errs := runWithStdin(t, "", args...)
		if code != ExitOK || !strings.Contains(out, "every claim holds") {
			t.Errorf("%v: exit %d\n%s%s", args, code, out, errs)
		}
	}
}

func TestLessonsValidateVerbose(t *testing.T) {
	code, out, errs := runWithStdin(t, "", "lessons", "validate", "-v", examplePack)
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{"counting (01-counting.yaml)", "(+) update", "no-loss", "(-) merge", "lost data.count"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

// copyPack copies the example pack into a temporary folder and applies
// edit to its lesson file.
func copyPack(t *testing.T, edit func(string) string) string {
	t.Helper()
	dir := t.TempDir()
	err := filepath.WalkDir(examplePack, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(examplePack, path)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dir, rel), 0o755)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if rel == "01-counting.yaml" {
			data = []byte(edit(string(data)))
		}
		return os.WriteFile(filepath.Join(dir, rel), data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

func lineOfText(t *testing.T, text, needle string) int {
	t.Helper()
	i := strings.Index(text, needle)
	if i < 0 {
		t.Fatalf("%q not in the lesson", needle)
	}
	return strings.Count(text[:i], "\n") + 1
}

// A broken pack is reported file:line by file:line, with exit code 1.
func TestLessonsValidateBrokenPack(t *testing.T) {
	orig, err := os.ReadFile(filepath.Join(examplePack, "01-counting.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name, from, to string
		// at is the text whose line the report must name: the option, the
		// step or the line YAML choked on.
		at, msg string
	}{
		{"a correct answer the simulator refutes", `label: "2 — both increments are counted"` + "\n",
			`label: "2"` + "\n        correct: true\n", `- id: two`, "marked correct, but the simulator refutes it"},
		{"a wrong claim", `equals: "1"}` + "\n          - lost: data.count", `equals: "7"}` + "\n          - lost: data.count",
			`- id: one`, "data.count is 1, not 7"},
		{"a YAML syntax error", "title: Counting under concurrency", "title: Counting: under: concurrency",
			"title: Counting: under", "mapping values are not allowed"},
		{"an unknown snippet", "code: counter-conditional", "code: counter-conditionel",
			"- id: update", `code "counter-conditionel"`},
		{"a missing scenario", "race: {scenario: scenarios/two-counters.yaml}\n    code: counter-merge-patch",
			"race: {scenario: scenarios/nope.yaml}\n    code: counter-merge-patch", "- kind: predict", "nope.yaml"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if !strings.Contains(string(orig), tc.from) {
				t.Fatalf("the example pack no longer contains %q", tc.from)
			}
			edited := strings.Replace(string(orig), tc.from, tc.to, 1)
			dir := copyPack(t, func(string) string { return edited })
			code, _, errs := runWithStdin(t, "", "lessons", "validate", dir)
			if code != ExitInvalid {
				t.Fatalf("exit %d, want %d:\n%s", code, ExitInvalid, errs)
			}
			place := regexp.QuoteMeta(filepath.Join(dir, "01-counting.yaml")) + `:(\d+): `
			m := regexp.MustCompile(place + `.*` + regexp.QuoteMeta(tc.msg)).FindStringSubmatch(errs)
			if m == nil {
				t.Fatalf("no %s:LINE: …%s… in:\n%s", filepath.Join(dir, "01-counting.yaml"), tc.msg, errs)
			}
			if want := lineOfText(t, edited, tc.at); m[1] != strconv.Itoa(want) {
				t.Fatalf("reported line %s, want %d:\n%s", m[1], want, errs)
			}
		})
	}
}

func TestLessonsValidateUsage(t *testing.T) {
	code, _, errs := runWithStdin(t, "", "lessons", "validate", "/does/not/exist")
	if code != ExitInvalid || !strings.Contains(errs, "exist") {
		t.Fatalf("exit %d: %s", code, errs)
	}
	code, _, _ = runWithStdin(t, "", "lessons", "validate", "a", "b")
	if code != ExitUsage {
		t.Fatalf("two folders: exit %d", code)
	}
}

func TestLessonsFlag(t *testing.T) {
	code, out, errs := runWithStdin(t, "", "--lessons", examplePack, "lessons", "list")
	if code != ExitOK || !strings.Contains(out, "counting") || strings.Contains(out, "stale-cache") {
		t.Fatalf("exit %d:\n%s%s", code, out, errs)
	}
	code, out, _ = runWithStdin(t, "", "lessons", "list")
	if code != ExitOK || !strings.Contains(out, "stale-cache") || !strings.Contains(out, "capstone") {
		t.Fatalf("built-in list, exit %d:\n%s", code, out)
	}
	if LessonsDir(nil) != "" {
		t.Fatal("LessonsDir(nil)")
	}
	// What the tutorial screen will do: read the flag from any command.
	root := NewRoot(Env{Stdin: strings.NewReader(""), Stdout: &bytes.Buffer{}, Stderr: &bytes.Buffer{}})
	var seen string
	probe := &cobra.Command{Use: "probe", RunE: func(cmd *cobra.Command, _ []string) error {
		seen = LessonsDir(cmd)
		p, err := LoadPack(cmd)
		if err == nil && p.Lesson("counting") == nil {
			t.Error("LoadPack did not load the pack the flag names")
		}
		return err
	}}
	root.AddCommand(probe)
	root.SetArgs([]string{"--lessons", examplePack, "probe"})
	if err := root.Execute(); err != nil || seen != examplePack {
		t.Fatalf("LessonsDir = %q, err %v", seen, err)
	}
}

// --lessons DIR hands the tutorial that pack instead of the built-in
// course; a pack that does not load is reported FILE:LINE with exit code 1
// before the tutorial takes the terminal.
func TestLessonsFlagStartsTheTutorialOnThePack(t *testing.T) {
	var got *lessons.Pack
	calls := 0
	screen := func(o ui.Options) error {
		calls++
		got = o.Pack
		return nil
	}
	run := func(t *testing.T, tty bool, args ...string) (int, string, string) {
		return runScreen(t, tty, screen, args...)
	}
	code, _, errs := run(t, true, "--lessons", examplePack)
	if code != ExitOK || calls != 1 || got == nil || got.Lesson("counting") == nil || got.Lesson("stale-cache") != nil {
		t.Fatalf("exit %d, %d starts, pack %v: %s", code, calls, got, errs)
	}

	orig, err := os.ReadFile(filepath.Join(examplePack, "01-counting.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	edited := strings.Replace(string(orig), "title: Counting under concurrency", "title: Counting: under: concurrency", 1)
	dir := copyPack(t, func(string) string { return edited })
	for _, tty := range []bool{true, false} {
		calls = 0
		code, _, errs = run(t, tty, "--lessons", dir)
		if code != ExitInvalid || calls != 0 {
			t.Fatalf("broken pack (terminal %v): exit %d, %d starts:\n%s", tty, code, calls, errs)
		}
		want := fmt.Sprintf("%s:%d: ", filepath.Join(dir, "01-counting.yaml"), lineOfText(t, edited, "title: Counting: under"))
		if !strings.Contains(errs, want) || !strings.Contains(errs, "mapping values are not allowed") || !strings.Contains(errs, "lessons validate "+dir) {
			t.Fatalf("broken pack: stderr lacks %q:\n%s", want, errs)
		}
	}
	code, _, errs = run(t, true, "--lessons", filepath.Join(t.TempDir(), "nope"))
	if code != ExitInvalid || calls != 0 || !strings.Contains(errs, "nope: no such folder") {
		t.Fatalf("missing pack: exit %d, %d starts: %s", code, calls, errs)
	}
}
