package lessons

import (
	"strings"
	"testing"

	yaml "go.yaml.in/yaml/v3"

	"github.com/conflictlab/conflictlab/sim/race"
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

func TestCheckInvariantClaim(t *testing.T) {
	yes, no := true, false
	met := &InvariantClaim{Met: &yes}
	broken := &InvariantClaim{Met: &no}
	two := race.InvariantResult{Kind: "ConfigMap", Namespace: "default", Selector: "app=web", Want: 1, Got: 2, Why: "one child"}
	one := two
	one.Got, one.Met = 1, true
	for _, tc := range []struct {
		name  string
		o     *race.Outcome
		claim *InvariantClaim
		want  string // "" when it holds
	}{
		{"broken, claimed broken", &race.Outcome{Invariants: []race.InvariantResult{one, two}}, broken, ""},
		{"broken, claimed met", &race.Outcome{Invariants: []race.InvariantResult{one, two}}, met, "an invariant is broken: 2 ConfigMap app=web counted where 1 are wanted (one child)"},
		{"met, claimed met", &race.Outcome{Invariants: []race.InvariantResult{one}}, met, ""},
		{"met, claimed broken", &race.Outcome{Invariants: []race.InvariantResult{one}}, broken, "every invariant holds (1 ConfigMap app=web)"},
		{"none declared", &race.Outcome{}, met, "the scenario declares no invariants"},
		{"none declared, claimed broken", &race.Outcome{}, broken, "the scenario declares no invariants"},
	} {
		err := checkClaim(nil, tc.o, Claim{Invariant: tc.claim})
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: %v", tc.name, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%s: error %v, want %q", tc.name, err, tc.want)
		}
	}
}

// The course's two races that lose nothing and still go wrong say so to
// the claim checker: met: false holds, met: true is refuted.
func TestCourseInvariantClaims(t *testing.T) {
	p, err := Course()
	if err != nil {
		t.Fatal(err)
	}
	yes, no := true, false
	for _, at := range [][2]int{{12, 1}, {13, 6}} {
		s := p.Lessons[at[0]-1].Steps[at[1]-1]
		o, err := p.Run(s, nil)
		if err != nil {
			t.Fatal(err)
		}
		if err := p.CheckClaim(s, nil, o, Claim{Invariant: &InvariantClaim{Met: &no}}); err != nil {
			t.Errorf("lesson %d step %d: met: false fails: %v", at[0], at[1], err)
		}
		if err := p.CheckClaim(s, nil, o, Claim{Invariant: &InvariantClaim{Met: &yes}}); err == nil {
			t.Errorf("lesson %d step %d: met: true holds too", at[0], at[1])
		}
		claimed := false
		for _, c := range s.Claims {
			claimed = claimed || (c.Invariant != nil && !*c.Invariant.Met)
		}
		if !claimed {
			t.Errorf("lesson %d step %d does not claim its broken invariant", at[0], at[1])
		}
	}
}
