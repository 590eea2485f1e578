package cli

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/conflictlab/conflictlab/lessons/earned"
)

// stemExcludedPack is the example pack with a wrong option its own text
// rules out (the patches carry no resourceVersion; the option says 409).
func stemExcludedPack(t *testing.T) string {
	return copyPack(t, func(s string) string {
		s = strings.Replace(s, "adds one and sends a merge patch\n      of the result.", "adds one and sends a merge patch\n      of the result, with no resourceVersion.", 1)
		return strings.Replace(s, `label: "2 — both increments are counted"`, `label: "2 — b's patch gets a 409 and is retried"`, 1)
	})
}

// lessons validate fails a pack on an earned-answer finding, FILE:LINE;
// with --enforce=false the finding is a warning and the pack passes.
func TestLessonsValidateEarnedAnswers(t *testing.T) {
	dir := stemExcludedPack(t)
	code, out, errs := runWithStdin(t, "", "lessons", "validate", "--enforce=false", dir)
	want := filepath.Join(dir, "01-counting.yaml") + ":26: steps[0].options[0]: warning: stem-excludes:"
	if code != ExitOK || !strings.Contains(errs, want) || !strings.Contains(out, "earned answers: ") || !strings.Contains(out, "every claim holds") {
		t.Fatalf("exit %d, want a warning %q:\n%s%s", code, want, out, errs)
	}
	code, out, errs = runWithStdin(t, "", "lessons", "validate", dir)
	want = filepath.Join(dir, "01-counting.yaml") + ":26: steps[0].options[0]: stem-excludes:"
	if code != ExitInvalid || !strings.Contains(errs, want) || strings.Contains(out, "every claim holds") {
		t.Fatalf("enforced: exit %d, want a problem %q:\n%s%s", code, want, out, errs)
	}
}

// lessons validate prints every play step's room, FILE:LINE.
func TestLessonsValidatePrintsPlaySteps(t *testing.T) {
	code, out, errs := runWithStdin(t, "", "lessons", "validate")
	if code != ExitOK {
		t.Fatalf("exit %d:\n%s%s", code, out, errs)
	}
	// The lines move as lessons are edited; the shape is what is checked.
	for _, want := range []string{
		`(?m)^02-lost-update\.yaml:\d+: steps\[\d+\]\.goal: break: par \d+, longest race \d+, random orders of ≤ \d+ moves breaking it \d+\.\d%`,
		`(?m)^05-bounded-retries\.yaml:\d+: steps\[\d+\]\.goal: fix: \d+ settings, \d+ combinations, \d+\.\d% of them fix it`,
	} {
		if !regexp.MustCompile(want).MatchString(out) {
			t.Errorf("output lacks a line matching %s:\n%s", want, out)
		}
	}
}

// lessons report writes the report between a page's markers, and leaves
// the rest of the page (and, with --sandbox=false, its sandbox part) as
// it was.
func TestLessonsReport(t *testing.T) {
	page := filepath.Join(t.TempDir(), "page.md")
	text := "# Page\n\n" + earned.Main.Begin + "\nold\n" + earned.Main.End + "\n\n" + earned.Sandbox.Begin + "\nkept\n" + earned.Sandbox.End + "\n"
	if err := os.WriteFile(page, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errs := runWithStdin(t, "", "lessons", "report", "--sandbox=false", "-w", page)
	if code != ExitOK || !strings.Contains(out, "open over") {
		t.Fatalf("exit %d:\n%s%s", code, out, errs)
	}
	data, _ := os.ReadFile(page)
	got := string(data)
	for _, want := range []string{"# Page\n\n", "### Surface cues", "| shortest |", "### Play steps", "\nkept\n"} {
		if !strings.Contains(got, want) {
			t.Errorf("page lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "\nold\n") {
		t.Errorf("the old report is still there:\n%s", got)
	}
	code, _, errs = runWithStdin(t, "", "lessons", "report", "--sandbox=false", "-w", filepath.Join(t.TempDir(), "none.md"))
	if code != ExitUsage || !strings.Contains(errs, "none.md") {
		t.Errorf("a missing page: exit %d, %s", code, errs)
	}
}
