package race

import (
	"fmt"
	"reflect"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/conflictlab/conflictlab/sim/api"
	"github.com/conflictlab/conflictlab/sim/controller"
)

// A code controller (controller.Code) is one whose moves are made by Go
// code outside the simulator: a reconcile function calling real clients
// (package simcluster). The world stays a pure state machine: the code's
// next call is offered to its machine as plain data (Offer), the
// scheduler takes it like any other controller's step (Step), the answer
// waits for the code to collect it (Answer), and the code says when its
// reconcile returns (Return). Whoever runs the code keeps it to one call
// at a time; the world only ever sees data.

// Offer sets the next move of code controller name: the request its code
// is sending, or (controller.ReadLister) the read of its informer cache
// it is making. The move is taken when the schedule next names name.
func (w *World) Offer(name string, act controller.Action) error {
	a := w.actor(name)
	if a == nil {
		return fmt.Errorf("no controller %q", name)
	}
	if err := a.machine.Offer(act); err != nil {
		return err
	}
	a.next = nil
	return nil
}

// Answer is the response to code controller name's last move. Its
// objects are the world's own (the copy the controller now holds, in the
// timeline): copy one before changing it.
func (w *World) Answer(name string) (api.Response, bool) {
	a := w.actor(name)
	if a == nil {
		return api.Response{}, false
	}
	return a.machine.Answer()
}

// Return ends code controller name's current reconcile, with the result
// it returned: the workqueue requeues it, runs it again or is done with it
// (controller.Machine.Return). A requeue's delay shows in the timeline as
// a wait after the controller's last step.
func (w *World) Return(name string, r controller.Returned) error {
	a := w.actor(name)
	if a == nil {
		return fmt.Errorf("no controller %q", name)
	}
	requeues := a.machine.Stats().Requeues
	if err := a.machine.Return(r); err != nil {
		return err
	}
	a.next = nil
	if wake := a.machine.WakeAt(); wake > w.now && !a.machine.Finished() {
		kind := WaitBackoff
		if a.machine.Stats().Requeues > requeues {
			kind = WaitRequeue
		}
		from := a.machine.AnsweredAt()
		after := -1
		for i := len(w.trace.steps) - 1; i >= 0; i-- {
			if s := w.trace.steps[i]; s.Actor == name && s.Kind != StepWatch {
				after = i
				break
			}
		}
		w.trace.waits = append(w.trace.waits, Wait{Actor: name, AfterStep: after, Kind: kind,
			FromMS: from.Milliseconds(), UntilMS: wake.Milliseconds()})
	}
	return nil
}

// read is a Lister read of the actor's cache. A code controller gets the
// cached object itself, not a copy (its answers are the world's, see
// Answer): what runs the code copies it as the code's client would, and
// can tell one cached version from another by its address.
func (a *actor) read(ref api.Ref) (*unstructured.Unstructured, error) {
	if a.machine.IsCode() {
		if o := a.cache.Peek(ref); o != nil {
			return o, nil
		}
	}
	return a.cache.Get(ref)
}

// IsCode reports whether controller name is a code controller.
func (w *World) IsCode(name string) bool {
	a := w.actor(name)
	return a != nil && a.machine.IsCode()
}

// Finished reports whether controller name will never act again.
func (w *World) Finished(name string) bool {
	a := w.actor(name)
	return a == nil || a.machine.Finished()
}

// codeIntent reports whether a code controller's successful write at
// after carried mutation mu: the write is to the object it reconciles and
// made the change (an increment moved the counter). A code controller's
// mutations say what it means to do, not what each of its writes sends;
// a write that did not touch a field says nothing about it.
func codeIntent(p controller.Program, mu controller.Mutation, before, after *unstructured.Unstructured) bool {
	if api.RefOf(after) != p.Target {
		return false
	}
	if mu.Op == controller.Increment {
		var was int64
		if before != nil {
			was, _ = mu.CounterValue(before.Object)
		}
		now, _ := mu.CounterValue(after.Object)
		return now != was
	}
	return mu.Satisfied(after.Object)
}

// codeMisses are the changes a code controller meant to make and never
// made: its reconcile returned (without an error, for good) before any of
// its writes carried one, and the object does not show it at the end.
// (An object that shows it anyway needed no write.)
func (w *World) codeMisses() []Loss {
	var out []Loss
	for _, a := range w.actors {
		if !a.machine.IsCode() || a.machine.Status(w.now) != controller.Done {
			continue
		}
		prog := a.machine.Program()
		final := w.server.Peek(prog.Target)
		for _, mu := range prog.Mutations {
			made := false
			for _, in := range w.trace.intents {
				made = made || (in.actor == a.name && carries(in.mutation, mu))
			}
			if made || final == nil || shows(mu, final.Object) {
				continue
			}
			if mu.When != nil && !mu.When.Holds(final.Object) {
				continue
			}
			l := Loss{Field: mu.Path.String(), Owner: a.name, Intended: mu.Describe(), ErasedAtStep: -1,
				Cause: LossCause{Kind: CauseNotMade, Actor: a.name}}
			l.Final, _ = mu.Path.Get(final.Object)
			out = append(out, l)
		}
	}
	return out
}

// shows reports whether obj shows mu's change, made or not: a counter's
// never does (its change is relative to what was read), a copy's does
// when the field holds what its source holds (both absent included).
func shows(mu controller.Mutation, obj map[string]any) bool {
	switch mu.Op {
	case controller.Increment:
		return false
	case controller.Copy:
		from, hasFrom := mu.From.Get(obj)
		cur, has := mu.Path.Get(obj)
		return has == hasFrom && reflect.DeepEqual(cur, from)
	}
	return mu.Satisfied(obj)
}

// carries reports whether an intent a write recorded is mutation mu: a
// copy is recorded resolved, as the set (or remove) of the value it read.
func carries(in, mu controller.Mutation) bool {
	if in.Path.String() != mu.Path.String() {
		return false
	}
	if mu.Op == controller.Copy {
		return in.Op == controller.Set || in.Op == controller.Remove
	}
	return in.Op == mu.Op
}
