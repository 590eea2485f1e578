package lessons

import (
	"strings"
	"testing"

	yaml "go.yaml.in/yaml/v3"
)

func parseClaimText(t *testing.T, text string) (Claim, error) {
	t.Helper()
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(text), &doc); err != nil {
		t.Fatal(err)
	}
	return ParseClaim("l.yaml", "steps[0].claims[0]", doc.Content[0])
}

func TestParseInvariantClaim(t *testing.T) {
	c, err := parseClaimText(t, "invariant: {met: false}")
	if err != nil || c.Invariant == nil || c.Invariant.Met == nil || *c.Invariant.Met {
		t.Fatalf("claim %+v, error %v", c.Invariant, err)
	}
	for _, tc := range []struct{ text, want string }{
		{"invariant: {}", "l.yaml:1: steps[0].claims[0].invariant: want met: true (every invariant of the scenario holds at the end) or met: false (one is broken)"},
		{"invariant: {met: nope}", "steps[0].claims[0]"},
		{"invariant: {met: true, why: x}", `l.yaml:1: steps[0].claims[0].invariant: unknown field "why"`},
		{"{invariant: {met: true}, verdict: no-loss}", "a claim states exactly one thing, this one states 2"},
	} {
		_, err := parseClaimText(t, tc.text)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want %q", tc.text, err, tc.want)
		}
	}
}
