package controller

import (
	"time"

	"github.com/conflictlab/conflictlab/sim/statekey"
)

// A controller's informer does more than fill a cache: its event handler
// puts the object's key on the workqueue for every watch event, so a key
// that a reconcile let go of (done, or an error swallowed with a nil
// return) comes back with the next change to the object. A predicate can
// filter those events first: controller-runtime's
// GenerationChangedPredicate passes an update only when
// metadata.generation moved, so status and metadata writes bring no key
// back. Program.OnEvent turns that on: a machine that has run its
// reconciles waits for an event instead of stopping, and the world
// (sim/race) hands it every event of its target that passes the filter.

// EventFilter is which watch events of its target put a controller's key
// back on its workqueue.
type EventFilter string

const (
	// EventsNone: no event brings the key back; the controller runs its
	// reconciles and stops (the default, and how every race without
	// onEvent behaves).
	EventsNone EventFilter = ""
	// EventsAny: every event of the target queues the key, as an event
	// handler without predicates does.
	EventsAny EventFilter = "any"
	// EventsGenerationChanged: an update queues the key only when
	// metadata.generation changed (predicate.GenerationChangedPredicate);
	// creates and deletes always do.
	EventsGenerationChanged EventFilter = "generation-changed"
)

// EventFilters lists them, for messages.
var EventFilters = []EventFilter{EventsAny, EventsGenerationChanged}

// Passes reports whether an event gets past the filter: modified says the
// event is an update (not a create or a delete), oldGen and newGen are
// metadata.generation of the object the informer held and of the one the
// event brings.
func (f EventFilter) Passes(modified bool, oldGen, newGen int64) bool {
	switch f {
	case EventsAny:
		return true
	case EventsGenerationChanged:
		return !modified || oldGen != newGen
	}
	return false
}

// Enqueue is an event of the target that passed the filter, reaching the
// informer at virtual time at: the handler adds the key to the queue
// then. What that does depends on where the key is at that time, which a
// write made earlier cannot know, so the machine keeps the times (pending)
// and settles them as it goes: an Add while the key waits in the queue
// collapses into it (and serves it at once if it was waiting out a
// requeue's backoff: the handler's Add does not wait for AddRateLimited's
// delay); an Add during a reconcile queues the key again for when that
// reconcile returns; an Add while the key is out of the queue (a machine
// waiting for an event) starts a reconcile.
func (m *Machine) Enqueue(at time.Duration) {
	if m.prog.OnEvent == EventsNone {
		return
	}
	if m.phase == phaseWaiting {
		m.events++
		m.restart()
		m.wakeAt = at
		return
	}
	i := len(m.pending)
	for i > 0 && m.pending[i-1] > at {
		i--
	}
	m.pending = append(m.pending[:i:i], append([]time.Duration{at}, m.pending[i:]...)...)
	if !m.inReconcile && (m.phase == phaseRead || m.phase == phaseWrite) && at < m.wakeAt {
		m.wakeAt = at
	}
}

// collapse drops the events that reached the queue by now, at the start
// of a reconcile: the key was in the queue, and this reconcile serves
// them.
func (m *Machine) collapse(now time.Duration) {
	i := 0
	for i < len(m.pending) && m.pending[i] <= now {
		i++
	}
	if i > 0 {
		m.pending = m.pending[i:len(m.pending):len(m.pending)]
	}
}

// nextEvent is when an event brings the key back after a reconcile that
// returned at now: now, when one came in during it; else the first still
// to come. ok is false when none is pending.
func (m *Machine) nextEvent(now time.Duration) (time.Duration, bool) {
	if len(m.pending) == 0 {
		return 0, false
	}
	return max(now, m.pending[0]), true
}

// settle is where a machine without reconciles left ends up: with
// OnEvent, waiting for the next event (or starting again when one came in
// during the reconcile or is still on its way) instead of finished.
// failed says the last reconcile ended with its change not made. It
// reports whether it took the machine over.
func (m *Machine) settle(now time.Duration, failed bool) bool {
	if m.prog.OnEvent == EventsNone {
		return false
	}
	m.dropped = failed
	if at, ok := m.nextEvent(now); ok {
		m.events++
		m.restart()
		m.wakeAt = at
		return true
	}
	m.phase = phaseWaiting
	return true
}

// encodeQueueState writes the events still to be settled and whether the
// last reconcile let its key go with the change not made, for the
// explorer's state key. events only numbers the timeline's rows ("event
// 2: read"): no step and no verdict reads it.
func (m *Machine) encodeQueueState(e statekey.Encoder) {
	e.Int(int64(len(m.pending)))
	for _, at := range m.pending {
		e.Int(int64(at))
	}
	statekey.Bool(e, m.dropped)
}

// InReconcile reports whether a reconcile is under way: its first step
// answered, and it has not returned (a worker is held).
func (m *Machine) InReconcile() bool { return m.inReconcile }

// Dropped reports whether the machine is waiting for an event after a
// reconcile whose change was not made: its key is out of the queue with
// the error swallowed, until an event brings it back.
func (m *Machine) Dropped() bool { return m.phase == phaseWaiting && m.dropped }
