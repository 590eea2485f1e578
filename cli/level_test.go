package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/conflictlab/conflictlab/ui"
)

// breakLevelFile is the level package's break-it level.
var breakLevelFile = func() string {
	b, err := os.ReadFile("../level/testdata/break-lost-update.yaml")
	if err != nil {
		panic(err)
	}
	return string(b)
}()

func writeLevel(t *testing.T, src string) string {
	t.Helper()
	f := filepath.Join(t.TempDir(), "level.yaml")
	if err := os.WriteFile(f, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return f
}

// level encode prints one line that level decode, lessons validate and
// sandbox --level read back; the sandbox opens its race.
func TestLevelEncodeDecodeValidateOpen(t *testing.T) {
	f := writeLevel(t, breakLevelFile)
	code, text, errs := run(t, false, "level", "encode", f)
	text = strings.TrimSpace(text)
	if code != ExitOK || !strings.HasPrefix(text, "clab1:") || strings.Contains(text, "\n") || !strings.Contains(errs, "break it, par 4") {
		t.Fatalf("encode: exit %d\n%s\n%s", code, text, errs)
	}
	code, out, errs := run(t, false, "level", "decode", text)
	if code != ExitOK || !strings.Contains(out, "title: Two writers, one version") || !strings.Contains(out, "schedule: [a, b, a, b]") {
		t.Fatalf("decode: exit %d\n%s\n%s", code, out, errs)
	}
	for _, args := range [][]string{{"lessons", "validate", f}, {"lessons", "validate", "--level", text}} {
		code, out, errs := run(t, false, args...)
		if code != ExitOK || !strings.Contains(out, "par proven: break it in 4 moves (a b a b), and no fewer do it") {
			t.Fatalf("%v: exit %d\n%s\n%s", args[:2], code, out, errs)
		}
	}
	var opened ui.Options
	code, _, errs = runScreen(t, true, func(o ui.Options) error { opened = o; return nil }, "sandbox", "--level", text)
	if code != ExitOK || !opened.OpenSandbox || opened.Sandbox == nil || opened.Sandbox.Name != "lost-update" {
		t.Fatalf("sandbox --level: exit %d %s: %+v", code, errs, opened.Sandbox)
	}
	code, _, errs = runScreen(t, true, func(o ui.Options) error { opened = o; return nil }, "sandbox", "-f", f)
	if code != ExitOK || opened.Sandbox == nil || len(opened.Sandbox.Controllers) != 2 {
		t.Fatalf("sandbox -f LEVEL: exit %d %s", code, errs)
	}
}

// A par that is not the fewest, or an order that does not break it, is a
// problem lessons validate reports, with exit code 1.
func TestLessonsValidateRefusesAWrongPar(t *testing.T) {
	f := writeLevel(t, strings.NewReplacer("par: 4", "par: 3", "schedule: [a, b, a, b]", "schedule: [a, b, a]").Replace(breakLevelFile))
	code, _, errs := run(t, false, "lessons", "validate", f)
	if code != ExitInvalid || !strings.Contains(errs, "goal.schedule: the order given does not meet the goal") {
		t.Fatalf("exit %d\n%s", code, errs)
	}
	f = writeLevel(t, strings.Replace(breakLevelFile, "par: 4", "par: 5", 1))
	code, _, errs = run(t, false, "lessons", "validate", f)
	if code != ExitInvalid || !strings.Contains(errs, "goal.par: par is 5 but the order given takes 4 moves") {
		t.Fatalf("exit %d\n%s", code, errs)
	}
}

// Hostile text is refused before the screen is taken, with a message
// that names what is wrong and carries no control character.
func TestSandboxLevelRefusesHostileText(t *testing.T) {
	for _, tc := range []struct{ text, want string }{
		{"clab1:abc\x1b[2Jdef", `character '\x1b' at position 10`},
		{"\x1b]52;c;aGk=\a", `a level starts with clab1:`},
		{"race.yaml", `this starts with "race.yaml"`},
		{"clab1:" + strings.Repeat("A", 20000), "at most 16384"},
		{"clab1:AAAAAAAAAAAAAAAAAAAAAAAAAAAA", "copy it again"},
	} {
		code, _, errs := run(t, true, "sandbox", "--level", tc.text)
		if code != ExitInvalid || !strings.Contains(errs, tc.want) || strings.ContainsAny(errs, "\x1b\a") {
			t.Errorf("%q: exit %d: %q", tc.text, code, errs)
		}
	}
	if code, _, errs := run(t, true, "sandbox", "--level", "x", "-f", "y"); code != ExitUsage {
		t.Errorf("--level with -f: exit %d %s", code, errs)
	}
	// A level whose race the sandbox cannot hold: two objects.
	f := writeLevel(t, strings.Replace(breakLevelFile, "  controllers:\n", "  - apiVersion: v1\n    kind: ConfigMap\n    metadata: {name: cm2}\n  controllers:\n", 1))
	if code, _, errs := run(t, false, "level", "encode", f); code != ExitInvalid || !strings.Contains(errs, "the sandbox races on one object") {
		t.Errorf("encode of a race the sandbox cannot open: exit %d %s", code, errs)
	}
}
