package report

import (
	"strings"
	"testing"

	"github.com/conflictlab/conflictlab/sim/race"
)

// A value the object had before the race is not "setup wanted"; the
// learner's own controller is "your", not "you's".
func TestLossWording(t *testing.T) {
	o := &race.Outcome{Verdict: race.VerdictLost,
		Versions: []race.Version{{RV: "103", Step: 3, Actor: "you", Request: "PATCH json cm1",
			Changes: []race.Change{{Path: "metadata.finalizers", Op: "changed", Old: []any{"y", "z"}, New: []any{"y"}}}}},
		Lost: []race.Loss{
			{Field: "metadata.finalizers", Owner: "setup", Intended: "example.com/z", ErasedBy: "you", ErasedAtStep: 3, ErasedRV: "103", Reason: "r1"},
			{Field: "metadata.finalizers", Owner: "you", Intended: "remove finalizer example.com/you", ErasedBy: "you", ErasedAtStep: 3, ErasedRV: "104", Reason: "r2"},
		}}
	var b strings.Builder
	if err := Text(&b, o); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{
		`✗ LOST metadata.finalizers — "example.com/z" was there before the race; erased by you at step 4 (RV 103)`,
		`✗ LOST metadata.finalizers — you wanted "remove finalizer example.com/you"; erased by you at step 4 (RV 104)`,
		`✗ LOST (setup's "example.com/z")`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("want %q in:\n%s", want, out)
		}
	}
	o.Lost[0].Owner, o.Lost[0].ErasedRV = "you", "103"
	b.Reset()
	_ = Text(&b, o)
	if strings.Contains(b.String(), "you's") || !strings.Contains(b.String(), `✗ LOST (your "example.com/z")`) {
		t.Errorf("possessive of you:\n%s", b.String())
	}
}
