package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/conflictlab/conflictlab/sim/explore"
	"github.com/conflictlab/conflictlab/sim/race"
	"github.com/conflictlab/conflictlab/sim/scenario"
)

func exploreResult() *explore.Result {
	return &explore.Result{Scenario: "s", Schedules: 200,
		Tally:    map[race.Verdict]int{race.VerdictLost: 50, race.VerdictNoLoss: 150},
		Examples: map[race.Verdict][]scenario.Move{race.VerdictLost: scenario.MustMoves("a", "b"), race.VerdictNoLoss: scenario.MustMoves("b", "a")}}
}

// Without invariants the explore report says nothing of them.
func TestExploreTextWithoutInvariants(t *testing.T) {
	var b bytes.Buffer
	if err := ExploreText(&b, exploreResult()); err != nil {
		t.Fatal(err)
	}
	if out := b.String(); strings.Contains(out, MarkInvariant) || strings.Contains(out, "invariant") {
		t.Errorf("text:\n%s", out)
	}
}

// With invariants it says how many interleavings break one, with the
// invariant in the words of the race's report, the split by verdict,
// each invariant's share when there are several, and an example.
func TestExploreTextWithInvariants(t *testing.T) {
	one := explore.InvariantTally{Kind: "ConfigMap", Namespace: "default", Name: "cm1", Want: 1, Why: "the new cm1 must survive", Broken: 120, Example: scenario.MustMoves("b", "a")}
	r := exploreResult()
	r.Invariants = &explore.InvariantsTally{Broken: 120, ByVerdict: map[race.Verdict]int{race.VerdictLost: 20, race.VerdictNoLoss: 100},
		Example: scenario.MustMoves("b", "a"), Each: []explore.InvariantTally{one}}
	var b bytes.Buffer
	if err := ExploreText(&b, r); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{
		"  ⚠ 120 of 200 interleavings (60.0%) break an invariant: ConfigMap cm1 must exist: the new cm1 must survive\n      of which 20 lost, 100 no-loss\n",
		"  ⚠ broken   b,a\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("text:\n%s\nwant it to hold\n%s", out, want)
		}
	}

	two := explore.InvariantTally{Kind: "ConfigMap", Namespace: "default", Selector: "app=web", Want: 1, Why: "one child", Broken: 30, Example: scenario.MustMoves("a", "b")}
	r.Invariants.Each = append(r.Invariants.Each, two)
	b.Reset()
	if err := ExploreText(&b, r); err != nil {
		t.Fatal(err)
	}
	want := "  ⚠ 120 of 200 interleavings (60.0%) break an invariant:\n" +
		"      120 (60.0%)  ConfigMap cm1 must exist: the new cm1 must survive\n" +
		"      30 (15.0%)  exactly 1 ConfigMap must match app=web: one child\n" +
		"      of which 20 lost, 100 no-loss\n"
	if out := b.String(); !strings.Contains(out, want) {
		t.Errorf("text:\n%s\nwant it to hold\n%s", out, want)
	}

	r.Invariants = &explore.InvariantsTally{ByVerdict: map[race.Verdict]int{}, Each: []explore.InvariantTally{{Kind: "ConfigMap", Name: "cm1", Want: 1, Why: "kept"}}}
	b.Reset()
	if err := ExploreText(&b, r); err != nil {
		t.Fatal(err)
	}
	if out := b.String(); !strings.Contains(out, "  no interleaving breaks an invariant\n") || strings.Contains(out, MarkInvariant) {
		t.Errorf("text:\n%s", out)
	}
}
