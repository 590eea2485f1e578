package report

import (
	"testing"

	"github.com/conflictlab/conflictlab/sim/api"
	"github.com/conflictlab/conflictlab/sim/race"
)

// Every write method can go to /status, and every one names it; a
// hand-written body is labelled by what it carries, like a computed one.
func TestLabelsOfStatusWritesAndBodies(t *testing.T) {
	for _, tc := range []struct {
		step race.Step
		call string
	}{
		{race.Step{Kind: race.StepRequest, Verb: api.Update, Request: "UPDATE w1/status", Subresource: "status", SentRV: "101"}, "UPDATE /status w1 rv 101"},
		{race.Step{Kind: race.StepRequest, Verb: api.Patch, PatchType: string(api.MergePatch), Request: "PATCH merge w1/status", Subresource: "status"}, "PATCH merge /status w1 no rv"},
		{race.Step{Kind: race.StepRequest, Verb: api.Patch, PatchType: string(api.StrategicPatch), Request: "PATCH smp d1/status", Subresource: "status", SentRV: "7"}, "PATCH smp /status d1 rv 7"},
		{race.Step{Kind: race.StepRequest, Verb: api.Patch, PatchType: string(api.JSONPatch), Request: "PATCH json w1/status", Subresource: "status",
			Body: []byte(`[{"op":"test","path":"/status/phase","value":"Pending"},{"op":"replace","path":"/status/phase","value":"Ready"}]`)}, "PATCH json /status w1 test"},
		{race.Step{Kind: race.StepRequest, Verb: api.Patch, PatchType: string(api.ApplyPatch), Request: "APPLY w1/status", Subresource: "status", Force: true}, "APPLY force /status w1"},
	} {
		if got := Call(tc.step); got != tc.call {
			t.Errorf("Call = %q, want %q", got, tc.call)
		}
	}
	noop := race.Step{Kind: race.StepRequest, Verb: api.Update, Request: "UPDATE cm1", Code: 200, RV: "101", Version: -1}
	if got := Answer(noop); got != "200 no-op (RV 101)" {
		t.Errorf("Answer of a no-op = %q", got)
	}
}
