// Package racecache is the one race runtime of a pack: the lesson player,
// the quiz and the course screens ask it for races. The simulator is
// deterministic, so each race is played once and its outcome kept.
package racecache

import (
	"fmt"
	"sync"

	"github.com/conflictlab/conflictlab/lessons"
	"github.com/conflictlab/conflictlab/lessons/claims"
	"github.com/conflictlab/conflictlab/sim/race"
	"github.com/conflictlab/conflictlab/sim/scenario"
)

// Races plays a pack's races and keeps their outcomes. It reads no file:
// the pack brings the scenarios its lessons race, and a scenario no lesson
// uses (a quiz question's) is read from the pack's folder when its caller
// loads (Load), kept here, never added to the pack — a race asked for on
// a key press never waits on a file. It is safe for concurrent use:
// screens compute races in commands, on goroutines of their own.
type Races struct {
	pack      *lessons.Pack
	mu        sync.Mutex
	scenarios map[string]*scenario.Scenario
	outcomes  map[string]*race.Outcome
}

// New is the race runtime of p.
func New(p *lessons.Pack) *Races {
	return &Races{pack: p, scenarios: map[string]*scenario.Scenario{}, outcomes: map[string]*race.Outcome{}}
}

// Pack is the pack the races come from.
func (r *Races) Pack() *lessons.Pack { return r.pack }

// Scenario is the scenario spec plays, with its strategy applied.
func (r *Races) Scenario(sp lessons.RaceSpec) (*scenario.Scenario, error) {
	base, err := r.base(sp.Scenario)
	if err != nil {
		return nil, err
	}
	return sp.Applied(base), nil
}

// Load reads the scenario file name from the pack's folder, unless the
// pack or an earlier Load has it, and keeps it for the races that will
// ask (a quiz loads its questions' this way).
func (r *Races) Load(name string) error {
	if name == "" {
		return fmt.Errorf("no scenario named")
	}
	if _, ok := r.pack.Scenarios[name]; ok {
		return nil
	}
	r.mu.Lock()
	_, ok := r.scenarios[name]
	r.mu.Unlock()
	if ok {
		return nil
	}
	data, err := r.pack.ReadFile(name)
	if err != nil {
		return err
	}
	sc, err := scenario.Parse(name, data)
	if err != nil {
		return err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, ok := r.scenarios[name]; !ok {
		r.scenarios[name] = sc // loaded twice at once: keep the first
	}
	return nil
}

// base is the scenario file as parsed: the pack's own for its lessons'
// scenarios, else one Load read.
func (r *Races) base(name string) (*scenario.Scenario, error) {
	if name == "" {
		return nil, fmt.Errorf("this step has no race")
	}
	if sc, ok := r.pack.Scenarios[name]; ok {
		return sc, nil
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if sc, ok := r.scenarios[name]; ok {
		return sc, nil
	}
	return nil, fmt.Errorf("%s: no lesson of the pack races it, and it was not loaded with the pack", name)
}

// Race is spec's outcome, played the first time it is asked for. Two
// callers asking at once may both play it; both get the outcome stored
// first, so a race has one outcome, the same pointer every time.
func (r *Races) Race(sp lessons.RaceSpec) (*race.Outcome, error) {
	if o, ok := r.Cached(sp); ok {
		return o, nil
	}
	sc, err := r.Scenario(sp)
	if err != nil {
		return nil, err
	}
	moves, err := scenario.ParseMoves(sp.Schedule)
	if err != nil {
		return nil, err
	}
	o, err := race.Run(sc, race.Schedule{Moves: moves})
	if err != nil {
		return nil, err
	}
	k := sp.Key()
	r.mu.Lock()
	defer r.mu.Unlock()
	if first, ok := r.outcomes[k]; ok {
		return first, nil
	}
	r.outcomes[k] = o
	return o, nil
}

// Cached is spec's outcome if it has been played, without playing it: a
// screen's Update asks this, and computes a missing race in a command.
func (r *Races) Cached(sp lessons.RaceSpec) (*race.Outcome, bool) {
	k := sp.Key()
	r.mu.Lock()
	defer r.mu.Unlock()
	o, ok := r.outcomes[k]
	return o, ok
}

// CheckClaim tests one claim against an outcome of spec's race.
func (r *Races) CheckClaim(sp lessons.RaceSpec, o *race.Outcome, c lessons.Claim) error {
	return claims.Check(c, o, func() (*scenario.Scenario, error) { return r.Scenario(sp) })
}
