package explore

import (
	"github.com/conflictlab/conflictlab/sim/api"
	"github.com/conflictlab/conflictlab/sim/race"
	"github.com/conflictlab/conflictlab/sim/scenario"
)

// InvariantsTally counts, over every interleaving, those that end with at
// least one of the scenario's invariants broken (scenario.Invariant,
// race.CheckInvariants). It stands beside the verdict tally and never
// changes it: an interleaving counted here is also counted under its
// verdict, typically no-loss.
type InvariantsTally struct {
	// Broken is the number of interleavings that end with at least one
	// invariant broken, and ByVerdict splits it by their verdicts.
	Broken    int                  `json:"broken"`
	ByVerdict map[race.Verdict]int `json:"byVerdict"`
	// Example is the first such schedule in depth-first order, as the
	// verdicts' examples are (nil when none breaks one).
	Example []scenario.Move `json:"example,omitempty"`
	// Each is every invariant's own count, in the scenario's order.
	Each []InvariantTally `json:"each"`
}

// InvariantTally is one invariant (its fields as race.InvariantResult
// names them) and the interleavings that end with it broken.
type InvariantTally struct {
	Kind      api.Kind `json:"kind"`
	Namespace string   `json:"namespace"`
	Name      string   `json:"name,omitempty"`
	Selector  string   `json:"selector,omitempty"`
	Want      int      `json:"want"`
	Why       string   `json:"why"`
	Broken    int      `json:"broken"`
	// Example is the first schedule in depth-first order that breaks it.
	Example []scenario.Move `json:"example,omitempty"`
}

// Invariant is the invariant as a race.InvariantResult with no count,
// for the report's wording.
func (t InvariantTally) Invariant() race.InvariantResult {
	return race.InvariantResult{Kind: t.Kind, Namespace: t.Namespace, Name: t.Name, Selector: t.Selector, Want: t.Want, Why: t.Why}
}

// maxInvariants is the most invariants a brokenSet holds.
const maxInvariants = 64

// newInvariantsTally is the empty tally of sc's invariants, nil when it
// declares none.
func newInvariantsTally(sc *scenario.Scenario) *InvariantsTally {
	if len(sc.Invariants) == 0 {
		return nil
	}
	t := &InvariantsTally{ByVerdict: map[race.Verdict]int{}, Each: make([]InvariantTally, len(sc.Invariants))}
	for i, inv := range sc.Invariants {
		t.Each[i] = InvariantTally{Kind: inv.Kind, Namespace: inv.InNamespace(), Name: inv.Name, Selector: inv.Selector, Want: inv.Is, Why: inv.Why}
	}
	return t
}

// brokenSet is the set of invariants a finished interleaving breaks, bit
// i for the scenario's invariant i (a file has at most
// scenario.LimitInvariants; Explore refuses more than maxInvariants).
type brokenSet uint64

// brokenIn checks the scenario's invariants against the end of w, as
// the outcome of playing its schedule does (race.Outcome.Invariants).
func brokenIn(w *race.World) brokenSet {
	if len(w.Scenario().Invariants) == 0 {
		return 0
	}
	var b brokenSet
	for i, r := range w.Invariants() {
		if !r.Met {
			b |= 1 << i
		}
	}
	return b
}

// example records the schedule as the first example of each invariant in
// b (and of breaking one) that has none yet.
func (t *InvariantsTally) example(b brokenSet, schedule []scenario.Move) {
	if b == 0 {
		return
	}
	if t.Example == nil {
		t.Example = append([]scenario.Move(nil), schedule...)
	}
	for i := range t.Each {
		if b&(1<<i) != 0 && t.Each[i].Example == nil {
			t.Each[i].Example = append([]scenario.Move(nil), schedule...)
		}
	}
}

// count adds n interleavings of verdict v that break the invariants in b.
func (t *InvariantsTally) count(v race.Verdict, b brokenSet, n int) {
	if b == 0 || n == 0 {
		return
	}
	t.Broken += n
	t.ByVerdict[v] += n
	for i := range t.Each {
		if b&(1<<i) != 0 {
			t.Each[i].Broken += n
		}
	}
}
