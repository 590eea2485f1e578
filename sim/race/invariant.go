package race

import (
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/conflictlab/conflictlab/sim/api"
	"github.com/conflictlab/conflictlab/sim/scenario"
)

// InvariantResult is one of the scenario's invariants (scenario.Invariant)
// checked against the world at the end of the run: a race can land every
// change and still leave the world wrong (two children where one was
// wanted, a new object deleted by name). It stands beside the verdict and
// never changes it.
type InvariantResult struct {
	Kind      api.Kind `json:"kind"`
	Namespace string   `json:"namespace"`
	// Name or Selector: what was counted.
	Name     string `json:"name,omitempty"`
	Selector string `json:"selector,omitempty"`
	Want     int    `json:"want"`
	Got      int    `json:"got"`
	// Matching are the names of the objects counted, in the order they
	// were created.
	Matching []string `json:"matching,omitempty"`
	Why      string   `json:"why"`
	Met      bool     `json:"met"`
}

// CheckInvariants counts, for each invariant, the objects that exist at
// the end of the history: for every object (kind, namespace, name) its
// newest version, unless that version is its deletion. It reads only the
// versions, so it is a function of the run, on any backend.
func CheckInvariants(invs []scenario.Invariant, versions []Version) []InvariantResult {
	if len(invs) == 0 {
		return nil
	}
	var order []api.Ref
	last := map[api.Ref]int{}
	for i, v := range versions {
		ref := refOfMap(v.Object)
		if _, seen := last[ref]; !seen {
			order = append(order, ref)
		}
		last[ref] = i
	}
	out := make([]InvariantResult, 0, len(invs))
	for _, inv := range invs {
		r := InvariantResult{Kind: inv.Kind, Namespace: inv.InNamespace(), Name: inv.Name, Selector: inv.Selector, Want: inv.Is, Why: inv.Why}
		for _, ref := range order {
			v := versions[last[ref]]
			if v.Deleted {
				continue
			}
			u := unstructured.Unstructured{Object: v.Object}
			if inv.Matches(ref.Kind, ref.Namespace, ref.Name, u.GetLabels()) {
				r.Got++
				r.Matching = append(r.Matching, ref.Name)
			}
		}
		r.Met = r.Got == r.Want
		out = append(out, r)
	}
	return out
}

// Invariants checks the scenario's invariants against the world as it
// stands (Outcome.Invariants at the end of a run), without working out the
// rest of the outcome: the explorer asks it at every leaf.
func (w *World) Invariants() []InvariantResult {
	return CheckInvariants(w.sc.Invariants, w.trace.versions)
}

// BrokenInvariants are the invariants the run did not meet, in the
// scenario's order.
func (o *Outcome) BrokenInvariants() []InvariantResult {
	var out []InvariantResult
	for _, r := range o.Invariants {
		if !r.Met {
			out = append(out, r)
		}
	}
	return out
}
