package simcluster

import (
	"context"

	"github.com/conflictlab/conflictlab/sim/race"
)

// Run is the result of one run.
type Run struct {
	// Outcome is the race's outcome, as every view of a race draws it.
	Outcome *race.Outcome
	// Bound says why the run was cut short — a reconcile that did not
	// return within Options.MaxCallsPerReconcile calls, a controller past
	// Options.MaxRequests — and is empty otherwise. A run cut short ends
	// unfinished, as one that used up the scenario's maxSteps does.
	Bound string
}

// Run plays the race once: sched's tokens (a controller's name is its
// next call, NAME.cache a watch delivery to a manual-lag informer), then
// round-robin until every controller is done; or steps drawn from
// sched's seed (race.Schedule; the zero value takes the scenario's).
// A failure of the code (a panic, a call the scheduler cannot take) is an
// *Error.
func (rc *Race) Run(ctx context.Context, sched race.Schedule) (*Run, error) {
	w, err := race.New(rc.sc)
	if err != nil {
		return nil, err
	}
	return rc.RunWorld(ctx, w, sched)
}

// RunWorld is Run on a world the caller built for the race's scenario —
// race.NewWithBackend on a real cluster, as the conformance tests do —
// which has taken no step yet.
func (rc *Race) RunWorld(ctx context.Context, w *race.World, sched race.Schedule) (*Run, error) {
	sets, err := rc.takeClients()
	if err != nil {
		return nil, err
	}
	defer rc.putClients(sets)
	r, err := rc.newRunner(ctx, w, sets, nil)
	if err != nil {
		return nil, err
	}
	defer r.stop()
	if !r.over() {
		if err := r.playOut(sched); err != nil {
			return nil, err
		}
	}
	if r.err != nil {
		return nil, r.err
	}
	return &Run{Outcome: w.Outcome(), Bound: r.bound}, nil
}

// takeClients hands out a set of clients per code controller, reused
// from an earlier run when one is free (building them costs more than a
// short run).
func (rc *Race) takeClients() (map[string]Clients, error) {
	rc.mu.Lock()
	if n := len(rc.free); n > 0 {
		sets := rc.free[n-1]
		rc.free = rc.free[:n-1]
		rc.mu.Unlock()
		return sets, nil
	}
	rc.mu.Unlock()
	sets := map[string]Clients{}
	for _, name := range rc.code {
		c, err := newClients(name, rc.opts.Scheme)
		if err != nil {
			return nil, err
		}
		sets[name] = c
	}
	return sets, nil
}

func (rc *Race) putClients(sets map[string]Clients) {
	for _, c := range sets {
		c.conn.bind(nil)
	}
	rc.mu.Lock()
	rc.free = append(rc.free, sets)
	rc.mu.Unlock()
}
