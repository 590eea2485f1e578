// Package explore runs every interleaving of a scenario's atomic steps and
// tallies the outcomes, with one example schedule for each — the model
// checker behind "how many of the ways this can go lose an update?".
package explore

import (
	"context"
	"fmt"

	"github.com/conflictlab/conflictlab/sim/race"
	"github.com/conflictlab/conflictlab/sim/scenario"
)

// Options bound an exploration.
type Options struct {
	// MaxSchedules stops the search after this much work (0:
	// DefaultMaxSchedules): this many complete schedules played, or, with
	// state merging, schedules played and states kept together (each
	// played schedule then stands for many interleavings, and the states
	// are what fills memory). The result says when it stopped early.
	MaxSchedules int
	// Progress, when set, is called after every complete schedule with the
	// count so far; returning false cancels the search.
	Progress func(done int) bool
	// NoMemo turns off the server's memory of answers (for measuring it,
	// and for checking that it changes nothing).
	NoMemo bool
	// reference turns off state merging and sleep sets: every interleaving
	// is played to its end, as the explorer did before merging (tests
	// compare the two).
	reference bool
	// noSleep turns off the sleep sets, leaving state merging alone (for
	// measuring them).
	noSleep bool
	// noSymmetry turns off merging worlds that are renamings of each
	// other (race.NewSymmetricStateKeys).
	noSymmetry bool
	// checkSleep makes the search take every sleeping token after all
	// and fail unless it reaches the state it was counted as (tests).
	checkSleep bool
}

// DefaultMaxSchedules keeps an accidental explosion (an unbounded retry
// loop, many controllers) from running for hours.
const DefaultMaxSchedules = 1_000_000

// Result is the tally.
type Result struct {
	Scenario string `json:"scenario"`
	// Schedules is the number of interleavings the tally covers.
	Schedules int                  `json:"schedules"`
	Tally     map[race.Verdict]int `json:"tally"`
	// States is the number of distinct branching states explored, and
	// Paths the number of schedules actually played to their end: every
	// other interleaving reached a state already explored and took its
	// tally from there (Schedules/Paths is how many interleavings each
	// explored path stands for). Slept is the number of steps the
	// partial-order reduction did not take: each would only have reordered
	// steps that commute, reaching a state already explored.
	States int `json:"states"`
	Paths  int `json:"paths"`
	Slept  int `json:"slept"`
	// Examples holds the first schedule found for each verdict.
	Examples  map[race.Verdict][]scenario.Move `json:"examples"`
	Truncated bool                             `json:"truncated"`
	Cancelled bool                             `json:"cancelled"`
	// Invariants counts the interleavings that end with one of the
	// scenario's invariants broken, beside the verdicts (nil when the
	// scenario declares none).
	Invariants *InvariantsTally `json:"invariants,omitempty"`
}

// Explore tallies every interleaving by depth-first search. At each branch
// the world is cloned, so a schedule is played from its divergence point
// rather than replayed from the start; and a branching state reached again
// by another order of the same steps (its state key is equal, see
// race.StateKeys) is not explored again: its subtree's tally, kept from the
// first visit, is added once more. On top of that, a step that only
// reorders steps that commute (race.World.Commute: a Lister read and
// another controller's, a watch delivery and anything another controller
// does) is not taken at all: its sleep set says where it leads, a state
// explored before, and its tally is taken from there. Controllers that
// run the same program are interchangeable: a state that is another
// explored state with such controllers renamed is merged with it too
// (race.NewSymmetricStateKeys; the verdict names no controller, and the
// tokens are translated through the renaming where a sleeping token
// follows its node). The tally still
// counts interleavings, and it is exactly the one playing each of them
// would give; each example is the first schedule in depth-first order
// with its verdict, as if every interleaving had been played (merge.go).
// The scenario's invariants are checked at the end of every interleaving
// and counted the same way (Result.Invariants), beside the verdicts.
//
// ctx is checked before every step, not only between interleavings: one
// interleaving can be a thousand steps long. When it is cancelled the
// result so far is returned with Cancelled set (and no error).
func Explore(ctx context.Context, sc *scenario.Scenario, opts Options) (*Result, error) {
	w, err := race.New(sc)
	if err != nil {
		return nil, err
	}
	if !opts.NoMemo {
		w.Memoize()
	}
	if opts.MaxSchedules == 0 {
		opts.MaxSchedules = DefaultMaxSchedules
	}
	if len(sc.Invariants) > maxInvariants {
		return nil, fmt.Errorf("explore: %d invariants: at most %d", len(sc.Invariants), maxInvariants)
	}
	max := sc.StepBudget()
	r := &Result{Scenario: sc.Name, Tally: map[race.Verdict]int{}, Examples: map[race.Verdict][]scenario.Move{},
		Invariants: newInvariantsTally(sc)}
	if !opts.reference {
		n, _, err := newMerger(ctx, opts, max, r, w).walk(w, nil)
		if n.n != nil {
			n.n.t.addTo(r)
		}
		return r, err
	}
	cancelled := func() bool {
		if ctx.Err() != nil {
			r.Cancelled = true
			return true
		}
		return false
	}
	var walk func(w *race.World) (stop bool, err error)
	walk = func(w *race.World) (bool, error) {
		for {
			if cancelled() {
				return true, nil
			}
			enabled := w.Enabled()
			if len(enabled) == 0 || len(w.Taken()) >= max {
				r.Paths++
				return r.leaf(w, opts), nil
			}
			if len(enabled) == 1 {
				// A forced move: no branch, no clone.
				if err := w.Step(enabled[0]); err != nil {
					return true, err
				}
				continue
			}
			for i, tok := range enabled {
				if i > 0 && cancelled() {
					return true, nil
				}
				next := w
				if i < len(enabled)-1 {
					next = w.Clone()
				}
				if err := next.Step(tok); err != nil {
					return true, err
				}
				stop, err := walk(next)
				if stop || err != nil {
					return true, err
				}
			}
			return false, nil
		}
	}
	_, err = walk(w)
	return r, err
}

func (r *Result) leaf(w *race.World, opts Options) bool {
	v := w.Verdict()
	r.Tally[v]++
	r.Schedules++
	if _, ok := r.Examples[v]; !ok {
		r.Examples[v] = append([]scenario.Move(nil), w.Taken()...)
	}
	if r.Invariants != nil {
		b := brokenIn(w)
		r.Invariants.count(v, b, 1)
		r.Invariants.example(b, w.Taken())
	}
	if opts.Progress != nil && !opts.Progress(r.Schedules) {
		r.Cancelled = true
		return true
	}
	if r.Schedules >= opts.MaxSchedules {
		r.Truncated = true
		return true
	}
	return false
}
