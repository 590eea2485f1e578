package claims

import (
	"strings"
	"testing"

	"github.com/conflictlab/conflictlab/lessons"
	"github.com/conflictlab/conflictlab/sim/race"
)

func TestCheckInvariantClaim(t *testing.T) {
	yes, no := true, false
	met := &lessons.InvariantClaim{Met: &yes}
	broken := &lessons.InvariantClaim{Met: &no}
	two := race.InvariantResult{Kind: "ConfigMap", Namespace: "default", Selector: "app=web", Want: 1, Got: 2, Why: "one child"}
	one := two
	one.Got, one.Met = 1, true
	for _, tc := range []struct {
		name  string
		o     *race.Outcome
		claim *lessons.InvariantClaim
		want  string // "" when it holds
	}{
		{"broken, claimed broken", &race.Outcome{Invariants: []race.InvariantResult{one, two}}, broken, ""},
		{"broken, claimed met", &race.Outcome{Invariants: []race.InvariantResult{one, two}}, met, "an invariant is broken: 2 ConfigMap app=web counted where 1 are wanted (one child)"},
		{"met, claimed met", &race.Outcome{Invariants: []race.InvariantResult{one}}, met, ""},
		{"met, claimed broken", &race.Outcome{Invariants: []race.InvariantResult{one}}, broken, "every invariant holds (1 ConfigMap app=web)"},
		{"none declared", &race.Outcome{}, met, "the scenario declares no invariants"},
		{"none declared, claimed broken", &race.Outcome{}, broken, "the scenario declares no invariants"},
	} {
		err := Check(lessons.Claim{Invariant: tc.claim}, tc.o, nil)
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
	p, err := lessons.Course()
	if err != nil {
		t.Fatal(err)
	}
	yes, no := true, false
	for _, at := range [][2]int{{12, 1}, {13, 8}} {
		s := p.Lessons[at[0]-1].Steps[at[1]-1]
		claims := s.Claims
		if s.Kind == lessons.Play {
			// A break-it step claims it in its goal, and breaks it in the
			// order its solution gives.
			race := *s.Race
			race.Schedule = s.Goal.Schedule
			s.Race, claims = &race, s.Goal.Break
		}
		o, err := p.Run(s, nil)
		if err != nil {
			t.Fatal(err)
		}
		if err := CheckClaim(p, s, nil, o, lessons.Claim{Invariant: &lessons.InvariantClaim{Met: &no}}); err != nil {
			t.Errorf("lesson %d step %d: met: false fails: %v", at[0], at[1], err)
		}
		if err := CheckClaim(p, s, nil, o, lessons.Claim{Invariant: &lessons.InvariantClaim{Met: &yes}}); err == nil {
			t.Errorf("lesson %d step %d: met: true holds too", at[0], at[1])
		}
		claimed := false
		for _, c := range claims {
			claimed = claimed || (c.Invariant != nil && !*c.Invariant.Met)
		}
		if !claimed {
			t.Errorf("lesson %d step %d does not claim its broken invariant", at[0], at[1])
		}
	}
}
