package raceview

import (
	"strings"
	"testing"
)

// Withheld plans: the setup names each controller but not its plan, and
// the plans come back once the race is revealed.
func TestWithheldPlansShowAfterTheReveal(t *testing.T) {
	r := fixtureRace(t, "lost-update", 0, "")
	plan := r.Outcome.Controllers[0].Plan.String()
	if v := view(newView(r, true), 100, 30); !strings.Contains(v, plan) {
		t.Fatalf("the plan %q is not in the setup before it is withheld:\n%s", plan, v)
	}
	r.WithholdPlans()
	if !r.PlansWithheld() {
		t.Fatal("PlansWithheld is false after WithholdPlans")
	}
	m := newView(r, true)
	v := view(m, 100, 30)
	if strings.Contains(v, plan) || strings.Contains(v, "read lister") {
		t.Fatalf("the setup shows a withheld plan:\n%s", v)
	}
	if n, want := strings.Count(v, withheldPlan), len(r.Outcome.Controllers); n != want {
		t.Errorf("%q %d times, want once a controller (%d):\n%s", withheldPlan, n, want, v)
	}
	m.Reveal()
	if v := view(m, 100, 30); strings.Contains(v, withheldPlan) {
		t.Fatalf("the revealed race still withholds the plans:\n%s", v)
	}
	var none *Run
	if none.PlansWithheld() {
		t.Error("a nil run withholds plans")
	}
}
