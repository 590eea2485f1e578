package race

import (
	"fmt"
	"reflect"

	"github.com/conflictlab/conflictlab/sim/api"
	"github.com/conflictlab/conflictlab/sim/controller"
)

// VerdictStale: every write landed and nothing was erased, but a write
// carried a decision (a mutation with a `when`) taken from a copy whose
// deciding field had changed on the server before the write: a scaler that
// scales up on "load: high" after the load dropped. No field is lost — the
// object is inconsistent with itself.
const VerdictStale Verdict = "stale"

// StaleDecision is one decision written from data that had changed.
type StaleDecision struct {
	Actor string `json:"actor"`
	// Field is what the decision wrote ("spec.replicas"), Decided what it
	// set it to (as the mutation describes itself).
	Field   string `json:"field"`
	Decided string `json:"decided"`
	// Basis is the field the decision was taken from, and its value in the
	// copy that was read; Now is its value on the server at the write.
	Basis string `json:"basis"`
	Read  any    `json:"read,omitempty"`
	Now   any    `json:"now,omitempty"`
	// ReadRV is the version of the copy the decision was taken from.
	ReadRV string `json:"readRV"`
	// ChangedBy, ChangedAtStep and ChangedRV name the write that made the
	// copy stale; WriteStep is the decision's own write.
	ChangedBy     string `json:"changedBy"`
	ChangedAtStep int    `json:"changedAtStep"`
	ChangedRV     string `json:"changedRV"`
	WriteStep     int    `json:"writeStep"`
}

func (d StaleDecision) String() string {
	return fmt.Sprintf("%s wrote %s (%s) at step %d, decided from %s = %v in its copy at RV %s; %s had changed it to %v at step %d (RV %s)",
		d.Actor, d.Field, d.Decided, d.WriteStep, d.Basis, d.Read, d.ReadRV, d.ChangedBy, d.Now, d.ChangedAtStep, d.ChangedRV)
}

// staleDecisions finds, for every successful write, the decisions it
// carried whose basis no longer held on the server when the write landed:
// the condition held in the copy the controller read (HeldRV) and not in
// the version the write replaced, or the other way round.
func (w *World) staleDecisions(steps []Step, versions []Version) []StaleDecision {
	var out []StaleDecision
	for _, s := range steps {
		if s.Kind != StepRequest || !s.OK() || s.Verb == api.Get || s.Verb == api.List || s.HeldRV == "" {
			continue
		}
		a := w.actor(s.Actor)
		if a == nil {
			continue
		}
		prog := a.machine.Program()
		held, before := -1, -1
		for i, v := range versions {
			if refOfMap(v.Object) != prog.Target || v.Step >= s.Index && v.Step >= 0 {
				continue
			}
			if v.RV == s.HeldRV {
				held = i
			}
			before = i
		}
		if held < 0 || before <= held {
			continue // read the version it wrote over: nothing changed in between
		}
		for _, mu := range prog.Mutations {
			if d, ok := staleCopy(mu, prog.Target, s, versions, held, before); ok {
				out = append(out, d)
			}
			if mu.When == nil {
				continue
			}
			took := mu.When.Holds(versions[held].Object)
			if mu.When.Holds(versions[before].Object) == took || !took {
				// Only a decision that was acted on is in the write; one not
				// taken leaves nothing in the object to point at.
				continue
			}
			changer := held + 1
			for changer < before && (refOfMap(versions[changer].Object) != prog.Target || mu.When.Holds(versions[changer].Object) == took) {
				changer++
			}
			cv := versions[changer]
			d := StaleDecision{Actor: s.Actor, Field: mu.Path.String(), Decided: mu.Describe(), Basis: mu.When.Path.String(),
				ReadRV: s.HeldRV, ChangedBy: cv.Actor, ChangedAtStep: cv.Step, ChangedRV: cv.RV, WriteStep: s.Index}
			d.Read, _ = mu.When.Path.Get(versions[held].Object)
			d.Now, _ = mu.When.Path.Get(versions[before].Object)
			out = append(out, d)
		}
	}
	return out
}

// hasStaleDecision is the verdict's question, answered cheaply for the
// many races whose controllers decide nothing.
func (w *World) hasStaleDecision() bool {
	decides := false
	for _, a := range w.actors {
		for _, mu := range a.machine.Program().Mutations {
			decides = decides || mu.When != nil || mu.Op == controller.Copy
		}
	}
	return decides && len(w.staleDecisions(w.trace.steps, w.trace.versions)) > 0
}

// staleCopy: a copy mutation (status.observedGeneration =
// metadata.generation) wrote the value its read copy held at From, and the
// server's version had another value there when the write landed — a
// report on a spec that was already gone.
func staleCopy(mu controller.Mutation, target api.Ref, s Step, versions []Version, held, before int) (StaleDecision, bool) {
	if mu.Op != controller.Copy || (mu.When != nil && !mu.When.Holds(versions[held].Object)) {
		return StaleDecision{}, false
	}
	read, _ := mu.From.Get(versions[held].Object)
	now, _ := mu.From.Get(versions[before].Object)
	if reflect.DeepEqual(read, now) {
		return StaleDecision{}, false
	}
	changer := held + 1
	for changer < before {
		if refOfMap(versions[changer].Object) == target {
			if v, _ := mu.From.Get(versions[changer].Object); !reflect.DeepEqual(v, read) {
				break
			}
		}
		changer++
	}
	cv := versions[changer]
	return StaleDecision{Actor: s.Actor, Field: mu.Path.String(), Decided: mu.Describe(), Basis: mu.From.String(),
		Read: read, Now: now, ReadRV: s.HeldRV, ChangedBy: cv.Actor, ChangedAtStep: cv.Step, ChangedRV: cv.RV,
		WriteStep: s.Index}, true
}
