package controller

import (
	"os"
	"strings"
	"testing"
)

// One table names the retry policies for lessons, the sandbox and the
// docs: every preset is found by its name and named back, and the lesson
// format's doc lists exactly these names, in this order (issue 16).
func TestRetryPresetsAreOneTable(t *testing.T) {
	var names []string
	for _, p := range RetryPresets {
		got, err := RetryPresetNamed(p.Name)
		if err != nil || got != p.Policy {
			t.Errorf("%s: %+v %v", p.Name, got, err)
		}
		if n, ok := RetryPresetOf(p.Policy); !ok || n != p.Name {
			t.Errorf("%+v is named %q, want %q (two presets with one policy?)", p.Policy, n, p.Name)
		}
		names = append(names, p.Name)
	}
	if _, err := RetryPresetNamed("forever"); err == nil || !strings.Contains(err.Error(), "none, default") {
		t.Errorf("unknown name: %v", err)
	}
	doc, err := os.ReadFile("../../docs/lessons-format.md")
	if err != nil {
		t.Fatal(err)
	}
	if want := "retry: default           # " + strings.Join(names, " | "); !strings.Contains(string(doc), want) {
		t.Errorf("docs/lessons-format.md does not list the presets as %q", want)
	}
}
