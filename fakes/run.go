package fakes

import (
	"fmt"
	"slices"

	"github.com/conflictlab/conflictlab/sim/race"
	"github.com/conflictlab/conflictlab/sim/scenario"
)

// Result is one race played on one backend.
type Result struct {
	Backend Name          `json:"backend"`
	Outcome *race.Outcome `json:"outcome"`
	// Skipped are the steps of the schedule this backend could not take:
	// the controller had already finished (or its cache had no event
	// waiting), because an earlier answer differed from the simulator's —
	// a write the simulator refuses, retried there, lands at once here.
	Skipped []Skip `json:"skipped,omitempty"`
}

// Skip is one schedule step a backend could not take.
type Skip struct {
	// Step is the step's position in the schedule, from 1.
	Step  int           `json:"step"`
	Token scenario.Move `json:"token"`
	Why   string        `json:"why"`
}

// Run plays a race on backend n with the schedule the simulator would use:
// sched's tokens or seed, else the scenario's own, else round-robin. Steps
// the backend cannot take are skipped and listed (on the simulator there
// are none when the schedule is valid); after the listed steps the race is
// finished round-robin, as the simulator finishes it.
func Run(n Name, sc *scenario.Scenario, sched race.Schedule) (*Result, error) {
	w, closeFn, err := NewWorld(n, sc)
	if err != nil {
		return nil, err
	}
	defer closeFn()
	if sched.Moves == nil && sched.Seed == nil {
		sched.Moves, sched.Seed = sc.Schedule, sc.Seed
	}
	res := &Result{Backend: n}
	if sched.Moves == nil {
		if err := w.Play(race.Schedule{Seed: sched.Seed}); err != nil {
			return nil, fmt.Errorf("%s: %w", n, err)
		}
		res.Outcome = w.Outcome()
		return res, nil
	}
	budget := sc.StepBudget()
	for i, tok := range sched.Moves {
		if len(w.Taken()) >= budget {
			break
		}
		if err := knownToken(sc, tok); err != nil {
			return nil, fmt.Errorf("step %d: %w", i+1, err)
		}
		if !slices.Contains(w.Enabled(), tok) {
			why := "it had finished"
			if tok.Deliver {
				why = "no watch event was waiting"
			}
			res.Skipped = append(res.Skipped, Skip{Step: i + 1, Token: tok, Why: why})
			continue
		}
		if err := w.Step(tok); err != nil {
			return nil, fmt.Errorf("%s: step %d: %w", n, i+1, err)
		}
	}
	// An empty, non-nil schedule: finish round-robin.
	if err := w.Play(race.Schedule{Moves: scenario.MustMoves()}); err != nil {
		return nil, fmt.Errorf("%s: %w", n, err)
	}
	res.Outcome = w.Outcome()
	return res, nil
}

// knownToken rejects a step that names no controller of the scenario, on
// every backend alike (the simulator's own error).
func knownToken(sc *scenario.Scenario, tok scenario.Move) error {
	name := tok.Controller
	for _, c := range sc.Controllers {
		if c.Name == name {
			return nil
		}
	}
	return fmt.Errorf("schedule: no controller %q", name)
}
