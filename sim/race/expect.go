package race

// awaitOwnWrite holds a controller with expectations until its informer
// has seen its own last write (controller.Machine.Awaits): its watch
// events are delivered as they come — on the informer's lag, the clock
// moving on to when each falls due, or, for a manual lag, at once, since
// waiting for them is what the controller does — and only then does it
// read its Lister. Each delivery is a step of the timeline, before the
// read it made possible, and the wait itself is one of the outcome's
// Waits (WaitOwnWrite), drawn before the deliveries: what the controller
// did in that time was nothing.
func (w *World) awaitOwnWrite(a *actor) {
	rv := a.machine.Awaits()
	if rv == 0 || a.cache.RV() >= rv {
		return
	}
	from, cached, after := w.now, a.cache.RV(), len(w.trace.steps)-1
	defer func() { w.trace.ownWriteWait(a.name, after, from, w.now, rv, cached) }()
	for a.cache.RV() < rv {
		ev := w.pending(a)
		if ev == nil {
			return // nothing more will come: read what there is
		}
		if !a.lag.Manual {
			if due := w.emittedAt(ev.RV) + a.lag.Delay; due > w.now {
				w.advanceTo(due) // delivers it, and whatever else fell due
				continue
			}
		}
		w.deliver(a, *ev)
	}
}

// awaiting reports whether a controller's next step first waits for its
// cache: such a step moves the clock and fills its cache, so it is no
// quiet read (commute.go).
func (w *World) awaiting(a *actor) bool {
	rv := a.machine.Awaits()
	return rv > 0 && a.cache.RV() < rv
}
