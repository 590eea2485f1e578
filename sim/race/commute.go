package race

import (
	"github.com/conflictlab/conflictlab/sim/api"
	"github.com/conflictlab/conflictlab/sim/controller"
	"github.com/conflictlab/conflictlab/sim/scenario"
)

// Commute reports whether two moves enabled in w are independent here:
// taking them in either order reaches worlds with the same state key (so
// with the same future, see StateKeys), and neither disables the other.
// The explorer's partial-order reduction (sleep sets) relies on it, so it
// errs on the side of "no": a false "no" only costs exploring an order
// again, a false "yes" would lose interleavings.
//
// What a step touches:
//   - A delivery to NAME's manual-lag informer touches only NAME's
//     cache: it reads the first event that cache has not seen, which no
//     other step removes (the server's history only grows; nothing
//     compacts it during a race), and it does not move the clock.
//   - A controller step touches its own machine, and moves the clock one
//     tick (more if it is backing off: it first waits until it wakes),
//     after which every informer with an automatic lag takes the events
//     that have fallen due. Through the clock, two controller steps are
//     dependent unless both are "quiet reads" (below): a write makes
//     events that the other's cache may take before or after its step, the
//     step that goes second runs one tick later (a backoff computed from
//     the clock ends later), and a step that wakes from a backoff jumps
//     the clock by an amount that depends on when it runs.
//
// A quiet read is a GET (from the Lister, or live from the server) by a
// controller that is not backing off, whose answer cannot depend on the
// tick it runs at, and whose effect on its machine does not either: its
// Lister's automatic informer has no event pending (none can fall due in
// between), a live GET names an object the server holds (the answer is
// the object; reads change nothing on the server), and its program is one
// of the read-modify-write methods, whose machine takes no time from a
// successful read or a NotFound (only an error other than NotFound
// starts a backoff, and neither of these GETs can get one).
// Two quiet reads by different controllers commute: each touches only its
// own machine (and the clock, which ends two ticks on in either order).
// Two requests to the server are dependent unless both are reads, as the
// rule above already says.
func (w *World) Commute(t, u scenario.Move) bool {
	ta, tcache := w.moveActor(t)
	ua, ucache := w.moveActor(u)
	if ta == nil || ua == nil || ta == ua {
		return false
	}
	if tcache || ucache {
		// A delivery to one informer and anything another controller or
		// informer does: the other step never reads this cache, and the
		// delivery neither moves the clock nor reads anything the other
		// step can change.
		return true
	}
	return w.quietRead(ta) && w.quietRead(ua)
}

// moveActor resolves a move to its actor, and whether it is a watch
// delivery (nil for a delivery to an informer that is not hand-fed).
func (w *World) moveActor(m scenario.Move) (*actor, bool) {
	a := w.actor(m.Controller)
	if m.Deliver && (a == nil || !a.lag.Manual) {
		return nil, false
	}
	return a, m.Deliver
}

// readModifyWrite are the programs whose machine handles a read as
// machine.go's read phase does (a lifecycle verb's may not).
var readModifyWrite = map[controller.WriteMethod]bool{
	controller.Update: true, controller.UpdateClearRV: true, controller.UpdateStatus: true,
	controller.MergePatch: true, controller.StrategicPatch: true, controller.JSONPatch: true,
	controller.ServerSideApply: true,
}

func (w *World) quietRead(a *actor) bool {
	if a.machine.Finished() || a.machine.WakeAt() > w.now || !readModifyWrite[a.machine.Program().Write] || w.awaiting(a) {
		return false
	}
	if w.sharesWorker(a) || a.machine.Program().OnEvent != controller.EventsNone {
		// Its read may take a worker another key waits for, or end a
		// reconcile whose next start depends on the clock (queue.go).
		return false
	}
	act := a.nextAction()
	if act.Request.Verb != api.Get || act.Request.Subresource != "" {
		return false
	}
	switch act.Kind {
	case controller.ReadLister:
		return a.lag.Manual || w.pending(a) == nil
	case controller.SendRequest:
		return w.server.Peek(act.Request.Ref) != nil
	}
	return false
}

// nextAction is the machine's next action, computed once per machine
// state: Next is pure, and building a write is the costly part of a step,
// so the explorer's branches (cloned after it is known) share it.
func (a *actor) nextAction() controller.Action {
	if a.next == nil {
		act := a.machine.Next()
		a.next = &act
	}
	return *a.next
}

// Prepare works out every controller's next action now, before the
// explorer clones the world for each branch: the clones then share it
// instead of each building the same write again.
func (w *World) Prepare() {
	for _, a := range w.actors {
		if !a.machine.Finished() {
			a.nextAction()
		}
	}
}
