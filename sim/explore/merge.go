package explore

import (
	"context"
	"fmt"

	"github.com/conflictlab/conflictlab/sim/race"
)

// tally counts a subtree's interleavings by verdict, in race.Verdicts
// order.
type tally []int

var verdictIndex = func() map[race.Verdict]int {
	m := map[race.Verdict]int{}
	for i, v := range race.Verdicts {
		m[v] = i
	}
	return m
}()

func (t tally) add(u tally) {
	for i, n := range u {
		t[i] += n
	}
}

func (t tally) sum() int {
	n := 0
	for _, c := range t {
		n += c
	}
	return n
}

func (t tally) addTo(r *Result) {
	for i, n := range t {
		if n > 0 {
			r.Tally[race.Verdicts[i]] += n
			r.Schedules += n
		}
	}
}

// merger is the state-merging search. memo holds the tally of every
// branching state whose subtree has been explored completely, by state
// key. A subtree is only ever stored complete, so a stopped search
// (cancelled, truncated) never leaves a partial tally to be reused.
//
// Examples come out as the plain enumeration's: the first leaf in
// depth-first order with each verdict. A state met again was first met
// earlier in that order, and every verdict in its subtree was then given
// an example, one that comes before any leaf below the second meeting.
type merger struct {
	ctx  context.Context
	opts Options
	max  int
	r    *Result
	keys *race.StateKeys
	memo map[[32]byte]tally
	// counted is the number of interleavings tallied so far, the progress.
	counted int
}

// walk explores from w and returns its subtree's tally; ok is false when
// the search stopped (the tally is then the part explored before).
func (m *merger) walk(w *race.World) (t tally, ok bool, err error) {
	for {
		if m.cancelled() {
			return tally(make([]int, len(race.Verdicts))), false, nil
		}
		enabled := w.Enabled()
		if len(enabled) == 0 || len(w.Taken()) >= m.max {
			return m.leaf(w)
		}
		if len(enabled) == 1 {
			// A forced move: no branch, no clone, no key.
			if err := w.Step(enabled[0]); err != nil {
				return nil, false, err
			}
			continue
		}
		key := m.keys.Key(w)
		if seen, hit := m.memo[key]; hit {
			for i, n := range seen {
				if _, has := m.r.Examples[race.Verdicts[i]]; n > 0 && !has {
					return nil, false, fmt.Errorf("explore: a merged state's %s has no example (a state key misses something)", race.Verdicts[i])
				}
			}
			return seen, m.progress(seen.sum()), nil
		}
		m.r.States++
		sum := tally(make([]int, len(race.Verdicts)))
		for i, tok := range enabled {
			if i > 0 && m.cancelled() {
				return sum, false, nil
			}
			next := w
			if i < len(enabled)-1 {
				next = w.Clone()
			}
			if err := next.Step(tok); err != nil {
				return sum, false, err
			}
			sub, ok, err := m.walk(next)
			if sub != nil {
				sum.add(sub)
			}
			if !ok || err != nil {
				return sum, false, err
			}
		}
		m.memo[key] = sum
		return sum, true, nil
	}
}

func (m *merger) cancelled() bool {
	if m.ctx.Err() != nil {
		m.r.Cancelled = true
		return true
	}
	return false
}

func (m *merger) leaf(w *race.World) (tally, bool, error) {
	v := w.Verdict()
	i, known := verdictIndex[v]
	if !known {
		return nil, false, fmt.Errorf("explore: unknown verdict %q", v)
	}
	t := tally(make([]int, len(race.Verdicts)))
	t[i] = 1
	m.r.Paths++
	if _, ok := m.r.Examples[v]; !ok {
		m.r.Examples[v] = append([]string(nil), w.Taken()...)
	}
	if !m.progress(1) {
		return t, false, nil
	}
	if m.r.Paths >= m.opts.MaxSchedules {
		m.r.Truncated = true
		return t, false, nil
	}
	return t, true, nil
}

// progress counts n more interleavings tallied and reports them; false
// stops the search.
func (m *merger) progress(n int) bool {
	m.counted += n
	if m.opts.Progress != nil && !m.opts.Progress(m.counted) {
		m.r.Cancelled = true
		return false
	}
	return true
}
