package race

import (
	"fmt"

	"github.com/conflictlab/conflictlab/sim/controller"
)

// Lost intents cover what controllers meant to do. A list can also lose
// an element nobody in the race put there: a JSON patch that removes "the
// finalizer at index 1" of a list that has shifted removes someone else's
// finalizer, one the object had before the race began. collateral reports
// those: an element of the object's setup list that a write removed,
// although no controller meant to remove it.
func (t *trace) collateral(w *World) []Loss {
	var progs []controller.Program
	listWriters := false
	for _, a := range w.actors {
		p := a.machine.Program()
		progs = append(progs, p)
		for _, mu := range p.Mutations {
			listWriters = listWriters || mu.Op == controller.RemoveFromList || mu.Op == controller.AddToSet
		}
	}
	if !listWriters {
		return nil
	}
	var out []Loss
	for vi, v := range t.versions {
		if v.Step < 0 || v.Deleted {
			continue
		}
		ref := refOfMap(v.Object)
		setup, prev := -1, -1
		for i := 0; i < vi; i++ {
			if refOfMap(t.versions[i].Object) != ref {
				continue
			}
			if setup < 0 && t.versions[i].Step < 0 {
				setup = i
			}
			prev = i
		}
		if setup < 0 || prev < 0 {
			continue
		}
		for _, p := range progs {
			if p.Name != v.Actor {
				continue
			}
			for _, mu := range p.Mutations {
				if mu.Op != controller.RemoveFromList && mu.Op != controller.AddToSet {
					continue
				}
				before, _ := mu.Path.Get(t.versions[prev].Object)
				after, _ := mu.Path.Get(v.Object)
				orig, _ := mu.Path.Get(t.versions[setup].Object)
				for _, e := range elements(before) {
					if inList(after, e) || !inList(orig, e) || meantToRemove(progs, mu.Path.String(), e) {
						continue
					}
					l := Loss{Field: mu.Path.String(), Owner: "setup", Intended: fmt.Sprint(e), Final: after,
						ErasedBy: v.Actor, ErasedAtStep: v.Step, ErasedRV: v.RV}
					held := ""
					if v.Step < len(t.steps) {
						held = t.steps[v.Step].HeldRV
					}
					l.Cause = LossCause{Kind: CauseCollateral, Actor: v.Actor, Value: fmt.Sprint(e), Request: v.Request, HeldRV: held}
					out = append(out, l)
				}
			}
		}
	}
	return out
}

func elements(l any) []any {
	s, _ := l.([]any)
	return s
}

func inList(l any, e any) bool {
	for _, x := range elements(l) {
		if fmt.Sprint(x) == fmt.Sprint(e) {
			return true
		}
	}
	return false
}

func meantToRemove(progs []controller.Program, path string, e any) bool {
	for _, p := range progs {
		for _, mu := range p.Mutations {
			if mu.Op == controller.RemoveFromList && mu.Path.String() == path && fmt.Sprint(mu.Value) == fmt.Sprint(e) {
				return true
			}
		}
	}
	return false
}

// explainMisses gives a write that missed its own list change the reason
// collateral found: it changed another element instead.
func explainMisses(lost, coll []Loss) []Loss {
	for i, l := range lost {
		for _, c := range coll {
			if l.Owner == c.ErasedBy && l.ErasedBy == l.Owner && l.ErasedAtStep == c.ErasedAtStep && l.Field == c.Field {
				lost[i].Cause = LossCause{Kind: CauseMissedPosition, Value: c.Intended}
			}
		}
	}
	return lost
}
