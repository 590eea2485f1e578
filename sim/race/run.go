package race

import (
	"fmt"
	"math/rand/v2"

	"github.com/conflictlab/conflictlab/sim/scenario"
)

// Schedule chooses the steps of a run. With Moves, they are taken in order
// and the run is completed round-robin; with a Seed, each step is drawn at
// random from the enabled ones; with neither, the scenario's own schedule
// or seed applies, and failing both, round-robin.
type Schedule struct {
	Moves []scenario.Move
	Seed  *uint64
}

// Run plays a whole race and returns its outcome.
func Run(sc *scenario.Scenario, sched Schedule) (*Outcome, error) {
	w, err := New(sc)
	if err != nil {
		return nil, err
	}
	if err := w.Play(sched); err != nil {
		return nil, err
	}
	return w.Outcome(), nil
}

// Play advances the world to the end of the schedule.
func (w *World) Play(sched Schedule) error {
	if sched.Moves == nil && sched.Seed == nil {
		sched.Moves, sched.Seed = w.sc.Schedule, w.sc.Seed
	}
	max := w.sc.StepBudget()
	for i, tok := range sched.Moves {
		if len(w.taken) >= max {
			return nil
		}
		if err := w.Step(tok); err != nil {
			return fmt.Errorf("step %d: %w", i+1, err)
		}
	}
	var rng *rand.Rand
	if sched.Seed != nil && sched.Moves == nil {
		rng = rand.New(rand.NewPCG(*sched.Seed, 0x636f6e666c696374))
	}
	for !w.Done() && len(w.taken) < max {
		var tok scenario.Move
		if rng != nil {
			en := w.Enabled()
			tok = en[rng.IntN(len(en))]
		} else {
			tok = w.nextRoundRobin()
		}
		if err := w.Step(tok); err != nil {
			return err
		}
	}
	return nil
}

// nextRoundRobin picks the controller after the one that stepped last.
func (w *World) nextRoundRobin() scenario.Move {
	last := -1
	if n := len(w.taken); n > 0 && !w.taken[n-1].Deliver {
		for i, a := range w.actors {
			if a.name == w.taken[n-1].Controller {
				last = i
			}
		}
	}
	for k := 1; k <= len(w.actors); k++ {
		a := w.actors[(last+k)%len(w.actors)]
		if !a.machine.Finished() && !w.blocked(a) {
			return scenario.Step(a.name)
		}
	}
	return scenario.Move{}
}
