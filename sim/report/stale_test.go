package report

import (
	"strings"
	"testing"

	"github.com/conflictlab/conflictlab/sim/race"
)

// A run whose only flaw is a stale decision says so in its outcome, with
// the read and the write that made it stale — not as a clean run.
func TestTextShowsAStaleDecision(t *testing.T) {
	o := &race.Outcome{Scenario: "decision", Verdict: race.VerdictStale, Stale: []race.StaleDecision{{
		Actor: "scaler", Field: "spec.replicas", Decided: `set spec.replicas=5 if metadata.annotations["example.com/load"]=high`,
		Basis: `metadata.annotations["example.com/load"]`, Read: "high", Now: "low", ReadRV: "101",
		ChangedBy: "metrics", ChangedAtStep: 2, ChangedRV: "102", WriteStep: 3}}}
	var b strings.Builder
	if err := Text(&b, o); err != nil {
		t.Fatal(err)
	}
	// Step indexes count from 0, the printed steps from 1 (as the rows).
	want := `⚠ decided on stale data — scaler's write at step 4 (set spec.replicas=5 if metadata.annotations["example.com/load"]=high) was decided from metadata.annotations["example.com/load"] = "high" in the copy it read at RV 101; metrics had made it "low" at step 3 (RV 102)`
	if !strings.Contains(b.String(), "outcome: stale\n") || !strings.Contains(b.String(), want) {
		t.Fatalf("want %q in:\n%s", want, b.String())
	}
}

// The learner's own controller is "you": its decision is "your write".
func TestStaleLineSaysYourWrite(t *testing.T) {
	got := StaleLine(race.StaleDecision{Actor: "you", WriteStep: 3, ChangedBy: "metrics"})
	if !strings.Contains(got, "— your write at step 4") || strings.Contains(got, "you's") || !strings.Contains(got, "in the copy you read") {
		t.Fatalf("%s", got)
	}
}

// A field the server maintains was moved by the server, on someone's
// write: the line says so, not that the writer set it.
func TestStaleLineServerField(t *testing.T) {
	got := StaleLine(race.StaleDecision{Actor: "ctl", WriteStep: 3, Basis: "metadata.generation", Read: int64(1), Now: int64(2),
		ChangedBy: "user", ChangedAtStep: 1, ChangedRV: "102", ReadRV: "101"})
	want := "the server had made it 2 at step 2 (RV 102), on user's write" // steps count from 1
	if !strings.HasSuffix(got, want) || strings.Contains(got, "user had made it") {
		t.Fatalf("%s\nwant it to end %q", got, want)
	}
}
