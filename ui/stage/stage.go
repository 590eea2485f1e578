// Package stage is the bookkeeping of the race a screen shows beside its
// text (the lesson player's and the quiz's stage): which race is wanted,
// which is on show, hidden at its setup or to be revealed, and which are
// being computed. Races are computed in commands, off the UI loop, once
// each however often they are asked for; an answer that arrives for a
// race no longer wanted, or a late duplicate of the race on show, never
// resets the stage.
package stage

import (
	tea "charm.land/bubbletea/v2"

	"github.com/conflictlab/conflictlab/lessons"
	"github.com/conflictlab/conflictlab/sim/race"
)

// Races is all a stage asks of the simulator (racecache.Races): a race's
// whole run, and whether it has been computed already.
type Races interface {
	Race(lessons.RaceSpec) (*race.Outcome, error)
	Cached(lessons.RaceSpec) (*race.Outcome, bool)
}

// Ready is a race computed off the UI loop, under the key it was asked
// for; each screen wraps it in a message of its own.
type Ready struct {
	Key string
	Out *race.Outcome
	Err error
}

// Requests is a stage's bookkeeping. Keys name races ("" is none, or a
// race that is not the simulator's, such as a live replay). The zero
// value is ready to use; copies of one made by NewRequests share which
// races are being computed (a lesson's steps do).
type Requests struct {
	// Want is the race the stage should show, Shown the one it shows.
	Want, Shown string
	// Hidden: show the wanted race at its setup only; Reveal: reveal and
	// play it as soon as it is ready.
	Hidden, Reveal bool
	computing      map[string]bool
}

// NewRequests is bookkeeping whose copies share the races being
// computed.
func NewRequests() Requests { return Requests{computing: map[string]bool{}} }

// Ask wants the race k (spec's): its outcome at once when it is cached;
// otherwise a command that computes it and wraps the answer (nil when
// it is being computed already: that answer will do).
func (r *Requests) Ask(races Races, k string, spec lessons.RaceSpec, hidden, reveal bool, wrap func(Ready) tea.Msg) (*race.Outcome, tea.Cmd) {
	r.Want, r.Hidden, r.Reveal = k, hidden, reveal
	if o, ok := races.Cached(spec); ok {
		return o, nil
	}
	if r.computing[k] {
		return nil, nil
	}
	if r.computing == nil {
		r.computing = map[string]bool{}
	}
	r.computing[k] = true
	return nil, func() tea.Msg {
		o, err := races.Race(spec)
		return wrap(Ready{Key: k, Out: o, Err: err})
	}
}

// Arrived takes a computed race in: true when it is to be placed (it
// succeeded, and it is not a late duplicate of the race on show). An
// error for the race wanted is returned for the screen to show.
func (r *Requests) Arrived(msg Ready) (place bool, err error) {
	delete(r.computing, msg.Key)
	switch {
	case msg.Err != nil:
		if msg.Key == r.Want {
			return false, msg.Err
		}
		return false, nil
	case msg.Key == r.Shown:
		// A late duplicate: the stage already has this race, maybe
		// playing; a second copy must not reset it.
		return false, nil
	}
	return true, nil
}

// Wanted reports whether race k goes on the stage now: it is the race
// wanted, and it is not on show already as it should be (same reports
// whether the stage shows it the way it is wanted now, hidden or not)
// unless it is to be revealed.
func (r *Requests) Wanted(k string, same bool) bool {
	return k == r.Want && !(r.Shown == k && same && !r.Reveal)
}

// TakeReveal reports whether the race placed is to be revealed, once.
func (r *Requests) TakeReveal() bool {
	rev := r.Reveal
	r.Reveal = false
	return rev
}

// Clear forgets the race wanted (a new step or question).
func (r *Requests) Clear() { r.Want = "" }
