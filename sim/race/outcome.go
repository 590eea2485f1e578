package race

import (
	"encoding/json"
	"fmt"

	"github.com/conflictlab/conflictlab/sim/api"
	"github.com/conflictlab/conflictlab/sim/controller"
	"github.com/conflictlab/conflictlab/sim/scenario"
)

// Verdict classifies a run; scripts read it as a string in the JSON.
type Verdict string

// Verdicts, from worst to best. A run gets the first that applies.
const (
	VerdictLost       Verdict = "lost"       // a field a controller wrote was erased by a stale write
	VerdictGaveUp     Verdict = "gave-up"    // a controller stopped with its change not made
	VerdictUnfinished Verdict = "unfinished" // the step budget ran out (an unbounded loop)
	VerdictRequeued   Verdict = "requeued"   // every change landed, after at least one requeue
	VerdictNoLoss     Verdict = "no-loss"
)

// Verdicts lists them in order (VerdictStale is in stale.go).
var Verdicts = []Verdict{VerdictLost, VerdictStale, VerdictGaveUp, VerdictUnfinished, VerdictRequeued, VerdictNoLoss}

// Outcome is everything a run produced. Field names are stable: scripts and
// tests read the JSON.
type Outcome struct {
	Scenario    string             `json:"scenario"`
	Target      api.Ref            `json:"target"`
	Schedule    []scenario.Move    `json:"schedule"`
	Steps       []Step             `json:"steps"`
	Versions    []Version          `json:"versions"`
	Final       map[string]any     `json:"final"`
	Deleted     bool               `json:"deleted"`
	Controllers []ControllerResult `json:"controllers"`
	// Waits are the backoffs and requeue delays between steps.
	Waits       []Wait `json:"waits,omitempty"`
	Lost        []Loss `json:"lost"`
	Overwritten []Loss `json:"overwritten"`
	// Stale are decisions written from data that had changed (stale.go).
	Stale    []StaleDecision `json:"stale,omitempty"`
	Verdict  Verdict         `json:"verdict"`
	Requests int             `json:"requests"`
	// Invariants are the scenario's invariants checked at the end of the
	// run (invariant.go), beside the verdict: a run can lose nothing and
	// still break one.
	Invariants []InvariantResult `json:"invariants,omitempty"`
}

// ControllerResult is one controller's end state.
type ControllerResult struct {
	Name      string            `json:"name"`
	Read      string            `json:"read"`
	Write     string            `json:"write"`
	Status    controller.Status `json:"status"`
	Stats     controller.Stats  `json:"stats"`
	LastError string            `json:"lastError,omitempty"`
	CacheRV   int64             `json:"cacheRV"`
	// Plan is what the controller was set to do (plan.go).
	Plan Plan `json:"plan"`
}

// Loss is a field a controller meant to change whose final value does not
// show it, and who erased it.
type Loss struct {
	Field        string `json:"field"`
	Owner        string `json:"owner"`
	Intended     string `json:"intended"`
	Final        any    `json:"final,omitempty"`
	ErasedBy     string `json:"erasedBy"`
	ErasedAtStep int    `json:"erasedAtStep"`
	ErasedRV     string `json:"erasedRV"`
	// Cause is why, as data; sim/report says it in words (report.Reason).
	Cause LossCause `json:"-"`
	// Reason is the cause in words where a loss is printed as JSON: the
	// engine leaves it empty, report.Word fills it in.
	Reason string `json:"reason"`
}

func (l Loss) String() string {
	return fmt.Sprintf("%s: %s's %q erased by %s at step %d (RV %s): %s", l.Field, l.Owner, l.Intended, l.ErasedBy, l.ErasedAtStep, l.ErasedRV, l.Cause.Kind)
}

// Outcome summarises the run so far.
func (w *World) Outcome() *Outcome {
	o := &Outcome{Scenario: w.sc.Name, Schedule: append([]scenario.Move(nil), w.taken...),
		Steps: append([]Step(nil), w.trace.steps...), Versions: append([]Version(nil), w.trace.versions...),
		Waits: append(append([]Wait(nil), w.trace.waits...), w.openWorkerWaits()...)}
	if len(w.sc.Controllers) > 0 {
		o.Target = w.sc.Controllers[0].Target
	}
	if obj := w.server.Peek(o.Target); obj != nil {
		o.Final = obj.Object
	} else if last := w.trace.lastVersionOf(o.Target); last >= 0 {
		o.Final, o.Deleted = w.trace.versions[last].Object, true
	}
	gaveUp, requeued, running := false, false, false
	for _, a := range w.actors {
		st := a.machine.Stats()
		r := ControllerResult{Name: a.name, Read: string(a.machine.Program().Read), Write: string(a.machine.Program().Write),
			Status: a.machine.Status(w.now), Stats: st, CacheRV: a.cache.RV(), Plan: a.plan.clone()}
		if err := a.machine.LastError(); err != nil {
			r.LastError = err.Error()
		}
		o.Requests += st.Requests
		gaveUp = gaveUp || a.machine.Status(w.now) == controller.GaveUp
		running = running || !a.machine.Finished()
		requeued = requeued || st.Requeues > 0
		o.Controllers = append(o.Controllers, r)
	}
	o.Lost, o.Overwritten = w.trace.losses(w)
	coll := w.trace.collateral(w)
	o.Lost = append(explainMisses(o.Lost, coll), coll...)
	o.Lost = append(o.Lost, w.codeMisses()...) // code.go
	o.Stale = w.staleDecisions(o.Steps, o.Versions)
	o.Verdict = verdict(len(o.Lost) > 0, len(o.Stale) > 0, gaveUp, running, requeued)
	o.Invariants = w.Invariants()
	return o
}

// Verdict classifies the run so far without building a whole Outcome (the
// explorer calls it once per interleaving).
func (w *World) Verdict() Verdict {
	lost, _ := w.trace.losses(w)
	lost = append(lost, w.trace.collateral(w)...)
	lost = append(lost, w.codeMisses()...)
	gaveUp, requeued, running := false, false, false
	for _, a := range w.actors {
		gaveUp = gaveUp || a.machine.Status(w.now) == controller.GaveUp
		running = running || !a.machine.Finished()
		requeued = requeued || a.machine.Stats().Requeues > 0
	}
	return verdict(len(lost) > 0, w.hasStaleDecision(), gaveUp, running, requeued)
}

func verdict(lost, stale, gaveUp, running, requeued bool) Verdict {
	switch {
	case lost:
		return VerdictLost
	case stale:
		return VerdictStale
	case gaveUp:
		return VerdictGaveUp
	case running:
		return VerdictUnfinished
	case requeued:
		return VerdictRequeued
	}
	return VerdictNoLoss
}

// losses walks the intents of successful writes against the history.
func (t *trace) losses(w *World) (lost, overwritten []Loss) {
	// Only a controller's latest intent per field and operation counts: a
	// retry that lands supersedes the attempt before it.
	latest := map[string]int{}
	for i, in := range t.intents {
		if in.mutation.Op == controller.Increment {
			continue
		}
		latest[in.actor+"\x00"+string(in.mutation.Op)+"\x00"+in.mutation.Path.String()] = i
	}
	for i, in := range t.intents {
		if in.lost != nil {
			lost = append(lost, *in.lost)
			continue
		}
		if in.overwrite != nil {
			overwritten = append(overwritten, *in.overwrite)
			continue
		}
		if in.mutation.Op == controller.Increment {
			if l := t.counterErased(in); l != nil {
				lost = append(lost, *l)
			}
			continue
		}
		if latest[in.actor+"\x00"+string(in.mutation.Op)+"\x00"+in.mutation.Path.String()] != i {
			continue
		}
		ref := refOfMap(t.versions[in.version].Object)
		final := t.versions[t.lastVersionOf(ref)].Object
		if in.mutation.Satisfied(final) {
			continue
		}
		l := Loss{Field: in.mutation.Path.String(), Owner: in.actor, Intended: in.mutation.Describe()}
		l.Final, _ = in.mutation.Path.Get(final)
		eraser := -1
		for v := in.version + 1; v < len(t.versions); v++ {
			if refOfMap(t.versions[v].Object) == ref && !in.mutation.Satisfied(t.versions[v].Object) {
				eraser = v
				break
			}
		}
		if eraser < 0 {
			l.Cause = LossCause{Kind: CauseNeverVisible}
			lost = append(lost, l)
			continue
		}
		ev := t.versions[eraser]
		l.ErasedBy, l.ErasedAtStep, l.ErasedRV = ev.Actor, ev.Step, ev.RV
		if t.intended(ev.Actor, ev.Step, in.mutation) {
			l.Cause = LossCause{Kind: CauseDeliberate, Actor: ev.Actor}
			overwritten = append(overwritten, l)
			continue
		}
		held := ""
		if ev.Step >= 0 {
			held = t.steps[ev.Step].HeldRV
		}
		l.Cause = LossCause{Kind: CauseStaleCopy, Actor: ev.Actor, Request: ev.Request, HeldRV: held}
		if v, ok := t.sentInBody(ev.Step, in.mutation); ok && handWritten(w, ev.Actor) {
			// A hand-written body named the field: nothing stale, the
			// request said so (a typed struct's zero value, say).
			l.Cause = LossCause{Kind: CauseNamedInBody, Actor: ev.Actor, Request: ev.Request, HeldRV: held, Value: compactJSON(v)}
		}
		if m, ok := t.sameApplier(ev.Step, in.step); ok {
			// Nothing stale about it: the manager's new declaration
			// left the field out, and nobody else owned it.
			l.Cause = LossCause{Kind: CauseOwnApplyDropped, Actor: ev.Actor, Request: ev.Request, HeldRV: held, Value: m}
		}
		lost = append(lost, l)
	}
	return lost, overwritten
}

// handWritten reports whether actor sends a hand-written body (a
// scenario's body), which says what it means field by field.
func handWritten(w *World, actor string) bool {
	a := w.actor(actor)
	return a != nil && a.machine.Program().Body != nil
}

// sentInBody reports whether the write at step sent a hand-written body
// (scenario body) that sets mu's field, and the value it sent.
func (t *trace) sentInBody(step int, mu controller.Mutation) (any, bool) {
	if step < 0 || step >= len(t.steps) || len(t.steps[step].Body) == 0 {
		return nil, false
	}
	var body map[string]any
	if json.Unmarshal(t.steps[step].Body, &body) != nil {
		return nil, false // a JSON patch's op list: not an object
	}
	return mu.Path.Get(body)
}

// sameApplier reports whether the write at step erased is an apply under
// the field manager that made the write at step set (the manager's own
// next declaration), and that manager.
func (t *trace) sameApplier(erased, set int) (string, bool) {
	if erased < 0 || set < 0 || erased >= len(t.steps) || set >= len(t.steps) {
		return "", false
	}
	e, s := t.steps[erased], t.steps[set]
	if e.PatchType != string(api.ApplyPatch) || s.PatchType != string(api.ApplyPatch) || e.FieldManager == "" || e.FieldManager != s.FieldManager {
		return "", false
	}
	return e.FieldManager, true
}

// intended reports whether the write at step by actor carried a mutation on
// the same field.
func (t *trace) intended(actor string, step int, mu controller.Mutation) bool {
	for _, in := range t.intents {
		if in.actor == actor && in.step == step && in.mutation.Undoes(mu) {
			return true
		}
	}
	return false
}

// counterErased finds a later write, by a controller that does not count,
// that put the counter back below this increment.
func (t *trace) counterErased(in intent) *Loss {
	ref := refOfMap(t.versions[in.version].Object)
	mine, _ := in.mutation.CounterValue(t.versions[in.version].Object)
	for v := in.version + 1; v < len(t.versions); v++ {
		ver := t.versions[v]
		if refOfMap(ver.Object) != ref {
			continue
		}
		n, _ := in.mutation.CounterValue(ver.Object)
		if n < mine && !t.intended(ver.Actor, ver.Step, in.mutation) {
			return &Loss{Field: in.mutation.Path.String(), Owner: in.actor, Intended: in.mutation.Describe(), Final: n,
				ErasedBy: ver.Actor, ErasedAtStep: ver.Step, ErasedRV: ver.RV,
				Cause: LossCause{Kind: CauseOlderCount, Actor: ver.Actor, Request: ver.Request}}
		}
		if n != mine {
			mine = n
		}
	}
	return nil
}
