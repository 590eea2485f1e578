package playgoal

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/conflictlab/conflictlab/lessons"
	"github.com/conflictlab/conflictlab/sim/controller"
	"github.com/conflictlab/conflictlab/sim/race"
	"github.com/conflictlab/conflictlab/sim/scenario"
)

// A fix-it level made in the sandbox: the author marks the knobs the
// learner may change, and the fewest changes that fix the race are
// searched for, as a break-it level's shortest order is. The author's
// settings and par are what the search finds, so ProveGoal holds them.

// ErrNothingToFix: the race as written already keeps every interleaving
// clear of the goal's verdicts.
var ErrNothingToFix = errors.New("nothing to fix: no interleaving ends with a verdict the goal forbids")

// MaxFixProofs bounds the settings ShortestFix proves (each an
// exploration of every order): many knobs on many controllers make more
// combinations than a search can try while an author waits.
const MaxFixProofs = 2000

// MaxFixChanges bounds the search for the fewest changes: a fix-it that
// takes more changes than this is not a level a learner finishes.
const MaxFixChanges = 4

// KnobChoices are the values the sandbox offers for a knob of a fix-it
// level, in the order a settings table shows them: every value the
// format names, less an unbounded retry (the step budget ends it, so it
// proves nothing) and update-status (which part of the object is
// written is the race's, not a way of writing it).
func KnobChoices(k lessons.KnobName) []string {
	switch k {
	case lessons.KnobWrite:
		var out []string
		for _, w := range controller.WriteMethods {
			if w != controller.UpdateStatus {
				out = append(out, string(w))
			}
		}
		return out
	case lessons.KnobRead:
		return []string{string(controller.FromLister), string(controller.FromLive)}
	case lessons.KnobRetry:
		var out []string
		for _, p := range controller.RetryPresets {
			if !p.Policy.Unbounded {
				out = append(out, p.Name)
			}
		}
		return out
	case lessons.KnobRequeue:
		return []string{"0", "3"}
	case lessons.KnobWithRV, lessons.KnobForce:
		return []string{"false", "true"}
	case lessons.KnobTest:
		return []string{"none", string(controller.TestRV), string(controller.TestValues)}
	}
	return nil
}

// RunnableChoices are the knob's choices that every tunable controller
// of sc can run with (a strategic merge patch on a custom resource, or
// server-side apply's force without apply, cannot), so a level offers
// only values that mean something on its race.
func RunnableChoices(sc *scenario.Scenario, k lessons.KnobName) []string {
	var out []string
	for _, v := range KnobChoices(k) {
		ok := true
		for _, c := range sc.Controllers {
			tuned, err := lessons.Tuned(sc, lessons.Settings{c.Name: {k: v}})
			if err == nil {
				_, err = race.New(tuned)
			}
			if err != nil {
				ok = false
				break
			}
		}
		if ok {
			out = append(out, v)
		}
	}
	return out
}

// ShortestFix finds the fewest knob changes of g (its Knobs and
// Controllers; Settings and Par are ignored) after which no interleaving
// of base ends with one of g.Fix's verdicts: the settings that differ
// from the race's own, nil when none of at most MaxFixChanges changes
// does it. An error says the race cannot be explored.
func ShortestFix(ctx context.Context, g *lessons.PlayGoal, base *scenario.Scenario) (lessons.Settings, error) {
	pr := newProofs(g, base)
	start := g.StartSettings(base)
	if r, err := pr.of(ctx, start); err != nil {
		return nil, err
	} else if r.Proven() {
		return nil, ErrNothingToFix
	}
	var found lessons.Settings
	proofs := 0
	for n := 1; n <= MaxFixChanges && found == nil; n++ {
		err := eachWithin(g, base, start, n, func(s lessons.Settings) (bool, error) {
			if err := ctx.Err(); err != nil {
				return false, err
			}
			if s.Changes(start) != n {
				return true, nil // proven at a smaller n
			}
			if proofs++; proofs > MaxFixProofs {
				return false, fmt.Errorf("more than %d settings to prove with %d changes: mark fewer knobs", MaxFixProofs, n)
			}
			r, err := pr.of(ctx, s)
			if err == nil && r.Proven() {
				found = s
				return false, nil
			}
			return true, nil
		})
		if err != nil {
			return nil, err
		}
	}
	if found == nil {
		return nil, nil
	}
	return found.Diff(start), nil
}

// FixGoal is the goal of a fix-it level whose learner may change knobs
// (each offering values) to keep every interleaving clear of fix: its
// author's settings and par found by ShortestFix (nil when no fix of at
// most MaxFixChanges changes exists).
func FixGoal(ctx context.Context, base *scenario.Scenario, knobs []lessons.Knob, fix []race.Verdict) (*lessons.PlayGoal, error) {
	g := &lessons.PlayGoal{Fix: slices.Clone(fix), Knobs: slices.Clone(knobs)}
	s, err := ShortestFix(ctx, g, base)
	if err != nil || s == nil {
		return nil, err
	}
	g.Settings, g.Par = s, s.Changes(lessons.Settings{})
	return g, nil
}
