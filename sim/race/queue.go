package race

import (
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/conflictlab/conflictlab/sim/api"
	"github.com/conflictlab/conflictlab/sim/apiserver"
	"github.com/conflictlab/conflictlab/sim/controller"
)

// The workqueue in front of the controllers, in the two ways a race can
// see it:
//   - a worker shared by several keys (scenario.Controller.Worker): the
//     controllers of one worker are one controller's keys, and its worker
//     runs one reconcile at a time, so a key waits while another is
//     reconciled — behind a loop that never returns, for ever;
//   - the informer's event handler (controller.Program.OnEvent): every
//     watch event of a controller's target that passes its filter puts
//     the key back on the queue, so a key a reconcile let go of comes back
//     with the next change.

// QueueQueued and QueueFiltered say what a watch event did to the key of
// the controller whose cache it reached (Step.Queue).
const (
	QueueQueued   = "queued"
	QueueFiltered = "filtered"
)

// blocked reports whether a's worker is busy with another key's
// reconcile.
func (w *World) blocked(a *actor) bool {
	if a.worker == "" {
		return false
	}
	for _, o := range w.actors {
		if o != a && o.worker == a.worker && o.machine.InReconcile() {
			return true
		}
	}
	return false
}

// sharesWorker reports whether another controller runs on a's worker.
func (w *World) sharesWorker(a *actor) bool {
	if a.worker == "" {
		return false
	}
	for _, o := range w.actors {
		if o != a && o.worker == a.worker {
			return true
		}
	}
	return false
}

// noteWorkers records, after every step, when a key starts waiting for
// its worker and, once the worker is free, the wait (a Wait of kind
// WaitWorker, after the step at which it began).
func (w *World) noteWorkers() {
	for _, a := range w.actors {
		if a.worker == "" {
			continue
		}
		b := w.blocked(a) && !a.machine.Finished()
		switch {
		case b && !a.waiting:
			a.waiting, a.waitFrom, a.waitStep, a.waitFor = true, w.now, len(w.trace.steps)-1, w.holder(a)
		case !b && a.waiting:
			a.waiting = false
			w.trace.waitFor(a.name, WaitWorker, a.waitStep, a.waitFrom, w.now, a.waitFor)
		}
	}
}

// holder is the controller whose reconcile holds a's worker.
func (w *World) holder(a *actor) string {
	for _, o := range w.actors {
		if o != a && o.worker == a.worker && o.machine.InReconcile() {
			return o.name
		}
	}
	return ""
}

// openWorkerWaits are the waits still under way, up to now, for the
// outcome: a key that never got its worker shows for how long.
func (w *World) openWorkerWaits() []Wait {
	var out []Wait
	for _, a := range w.actors {
		if a.waiting {
			out = append(out, Wait{Actor: a.name, AfterStep: a.waitStep, Kind: WaitWorker,
				FromMS: a.waitFrom.Milliseconds(), UntilMS: w.now.Milliseconds(), For: a.waitFor, Open: true})
		}
	}
	return out
}

// enqueueOnEvents hands the watch events a request made (those after
// revision from) to every controller whose key they put back on its
// queue, at the time each reaches that controller's informer. before is
// the request's object as the server held it before. Events reach an
// automatic informer in order, so the object it holds when one arrives
// is the version before it: what the filter compares.
func (w *World) enqueueOnEvents(from int64, before *unstructured.Unstructured) {
	evs, err := w.server.Events(from)
	if err != nil || len(evs) == 0 {
		return
	}
	prev := map[api.Ref]*unstructured.Unstructured{}
	for _, ev := range evs {
		ref := api.RefOf(ev.Object)
		old, seen := prev[ref]
		if !seen && before != nil && api.RefOf(before) == ref {
			old = before
		}
		prev[ref] = ev.Object
		for _, a := range w.actors {
			f := a.machine.Program().OnEvent
			if f == controller.EventsNone || a.machine.Program().Target != ref || a.lag.Manual {
				continue
			}
			if !passes(f, ev, old) {
				continue
			}
			at := w.emittedAt(ev.RV) + a.lag.Delay
			wasWaiting := a.machine.Finished()
			a.machine.Enqueue(at)
			a.next = nil
			if wasWaiting && !a.machine.Finished() {
				w.trace.waitFor(a.name, WaitEvent, len(w.trace.steps)-1, w.now, at, "")
			}
		}
	}
}

// drainFiltered: once no controller will act again, the events still on
// their way to a controller whose events bring its key back reach the
// caches, so the timeline shows each one filtered out — one that passed
// would have put the key back on the queue, and the race would not be
// over.
func (w *World) drainFiltered() {
	if !w.Done() {
		return
	}
	last := time.Duration(-1)
	for _, a := range w.actors {
		if a.machine.Program().OnEvent == controller.EventsNone || a.lag.Manual {
			continue
		}
		evs, err := w.server.Events(a.cache.RV())
		if err != nil {
			continue
		}
		for _, ev := range evs {
			last = max(last, w.emittedAt(ev.RV)+a.lag.Delay)
		}
	}
	if last > w.now {
		w.advanceTo(last)
	}
}

// passes applies a controller's event filter to one event.
func passes(f controller.EventFilter, ev apiserver.Event, old *unstructured.Unstructured) bool {
	var oldGen int64
	if old != nil {
		oldGen = old.GetGeneration()
	}
	return f.Passes(ev.Type == apiserver.Modified && old != nil, oldGen, ev.Object.GetGeneration())
}

// queueNote is what an event reaching a's cache does to a's key, for the
// timeline: "" for a controller whose events bring no key back.
func queueNote(a *actor, ev apiserver.Event) string {
	f := a.machine.Program().OnEvent
	if f == controller.EventsNone || a.machine.Program().Target != api.RefOf(ev.Object) {
		return ""
	}
	if passes(f, ev, a.cache.Peek(api.RefOf(ev.Object))) {
		return QueueQueued
	}
	return QueueFiltered
}

// waitFor records a wait that began after step, with whose reconcile it
// waited for (a worker's), or "".
func (t *trace) waitFor(actor string, kind WaitKind, step int, from, until time.Duration, holder string) {
	t.waits = append(t.waits, Wait{Actor: actor, AfterStep: step, Kind: kind,
		FromMS: from.Milliseconds(), UntilMS: until.Milliseconds(), For: holder})
}
