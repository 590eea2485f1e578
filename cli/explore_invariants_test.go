package cli

import (
	"encoding/json"
	"strings"
	"testing"
)

// explore counts the interleavings that break the scenario's invariants
// beside the verdicts: c creates a second child in two of its three
// interleavings, all no-loss.
func TestExploreCountsBrokenInvariants(t *testing.T) {
	const ryw = "../lessons/course/scenarios/ryw-double-create.yaml"
	code, out, _ := run(t, false, "explore", "-f", ryw)
	want := "  ⚠ 2 of 3 interleavings (66.7%) break an invariant: exactly 1 ConfigMap must match app=web: the parent needs exactly one child\n"
	if code != ExitOK || !strings.Contains(out, want) || !strings.Contains(out, "  no-loss          3 100.0%") || !strings.Contains(out, "\n  ⚠ broken   c,") {
		t.Fatalf("exit %d:\n%s\nwant it to hold\n%s", code, out, want)
	}
	code, out, _ = run(t, false, "explore", "-f", ryw, "-o", "json")
	var r struct {
		Tally      map[string]int `json:"tally"`
		Invariants struct {
			Broken    int            `json:"broken"`
			ByVerdict map[string]int `json:"byVerdict"`
			Example   []string       `json:"example"`
			Each      []struct {
				Selector string `json:"selector"`
				Broken   int    `json:"broken"`
			} `json:"each"`
		} `json:"invariants"`
	}
	if code != ExitOK || json.Unmarshal([]byte(out), &r) != nil {
		t.Fatalf("exit %d: %s", code, out)
	}
	inv := r.Invariants
	if r.Tally["no-loss"] != 3 || inv.Broken != 2 || inv.ByVerdict["no-loss"] != 2 || len(inv.Example) == 0 ||
		len(inv.Each) != 1 || inv.Each[0].Selector != "app=web" || inv.Each[0].Broken != 2 {
		t.Fatalf("%+v", r)
	}
	// A scenario without invariants: not a word of them.
	_, out, _ = run(t, false, "explore", "-f", lostUpdate)
	_, js, _ := run(t, false, "explore", "-f", lostUpdate, "-o", "json")
	if strings.Contains(out, "invariant") || strings.Contains(out, "⚠") || strings.Contains(js, `"invariants"`) {
		t.Fatalf("text:\n%s\njson:\n%s", out, js)
	}
}
