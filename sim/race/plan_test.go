package race

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/conflictlab/conflictlab/sim/controller"
	"github.com/conflictlab/conflictlab/sim/scenario"
)

// TestOutcomeCarriesEachPlan: whoever shows an outcome reads each
// controller's plan from it — after the run, in a clone, and in the JSON —
// and never needs the scenario again.
func TestOutcomeCarriesEachPlan(t *testing.T) {
	a := prog("a", controller.MergePatch, set("data.owner", "a"))
	a.Program.WithRV = true
	a.Program.Retry = controller.DefaultRetry()
	b := prog("b", controller.ServerSideApply, set("data.replicas", "3"))
	b.Program.Force = true
	w, err := New(twoWriters(configMap(map[string]any{"owner": "none"}), a, b))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"a": "read lister · set data.owner=a · merge-patch with RV · retry on Conflict up to 4×, re-read live",
		"b": "read lister (unused by the apply) · set data.replicas=3 · apply (force)",
	}
	c := w.Clone()
	if err := c.Play(Schedule{Moves: scenario.MustMoves("a", "b", "a", "b")}); err != nil {
		t.Fatal(err)
	}
	for _, o := range []*Outcome{w.Outcome(), c.Outcome()} {
		for _, r := range o.Controllers {
			if got := r.Plan.String(); got != want[r.Name] {
				t.Errorf("%s's plan = %q, want %q", r.Name, got, want[r.Name])
			}
		}
	}
	o := c.Outcome()
	o.Controllers[0].Plan.Changes[0] = "edited"
	if got := c.Outcome().Controllers[0].Plan.Changes[0]; got != "set data.owner=a" {
		t.Errorf("editing one outcome's plan edited the world's: %q", got)
	}
	b2, err := json.Marshal(c.Outcome().Controllers[1])
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b2), `"plan":{"read":"lister","readUnused":true,"changes":["set data.replicas=3"],"write":"apply","force":true}`) {
		t.Errorf("the plan is not in the JSON as documented: %s", b2)
	}
}

// TestPlanReadUnused: an apply of values it sets sends nothing of the copy
// it read; one that carries the resourceVersion, or computes a value from
// what it read, does.
func TestPlanReadUnused(t *testing.T) {
	inc := controller.Mutation{Op: controller.Increment, Path: controller.MustPath("data.n"), By: 1}
	for _, tc := range []struct {
		p    controller.Program
		want bool
	}{
		{controller.Program{Read: controller.FromLister, Write: controller.ServerSideApply, Mutations: []controller.Mutation{set("data.x", "1")}}, true},
		{controller.Program{Read: controller.FromLister, Write: controller.ServerSideApply, WithRV: true, Mutations: []controller.Mutation{set("data.x", "1")}}, false},
		{controller.Program{Read: controller.FromLister, Write: controller.ServerSideApply, Mutations: []controller.Mutation{inc}}, false},
		{controller.Program{Read: controller.FromLister, Write: controller.MergePatch, Mutations: []controller.Mutation{set("data.x", "1")}}, false},
	} {
		pl := PlanOf(tc.p)
		if pl.ReadUnused != tc.want || strings.Contains(pl.String(), "unused") != tc.want {
			t.Errorf("%+v: read unused %v (%q), want %v", tc.p, pl.ReadUnused, pl.String(), tc.want)
		}
	}
}

// TestPlanNamesWhatTheRetryRetries: each retry preset's plan says which
// errors it retries; the JSON patch preset retries a failed test (a 422),
// never a 409, so its plan must not say "409".
func TestPlanNamesWhatTheRetryRetries(t *testing.T) {
	for name, want := range map[string]string{
		"default":     "retry on Conflict up to 4×, re-read live",
		"any-error":   "retry on any error up to 4×, re-read live",
		"test-failed": "retry on a failed test (422) up to 4×, re-read live",
	} {
		r, err := controller.RetryPresetNamed(name)
		if err != nil {
			t.Fatal(err)
		}
		if got := PlanOf(controller.Program{Read: controller.FromLister, Write: controller.JSONPatch, Retry: r}).Retry; got != want {
			t.Errorf("%s: plan says %q, want %q", name, got, want)
		}
	}
}
