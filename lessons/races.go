package lessons

import (
	"encoding/json"
	"fmt"
	"sync"

	"github.com/conflictlab/conflictlab/sim/race"
	"github.com/conflictlab/conflictlab/sim/scenario"
)

// RaceSpec names one race: a scenario of the pack's folder, the schedule
// to play it with, and a strategy applied to some of its controllers. A
// lesson step with an option (Step.Spec) and a quiz question with an
// answer both come down to one.
type RaceSpec struct {
	Scenario string
	Schedule []string
	// Apply names the controllers the strategy changes (all when empty).
	Apply []string
	// Strategy, when set, overrides how those controllers write.
	Strategy *Strategy
}

// Spec is the race a step plays, with the option's strategy (a choose
// step's); the zero spec when the step has none.
func (s Step) Spec(opt *Option) RaceSpec {
	if s.Race == nil {
		return RaceSpec{}
	}
	sp := RaceSpec{Scenario: s.Race.Scenario, Schedule: s.Race.Schedule, Apply: s.Race.Apply}
	if opt != nil {
		sp.Strategy = opt.Strategy
	}
	return sp
}

// key identifies the race: two specs with the same key play the same race
// (the strategy by value, not by pointer).
func (sp RaceSpec) key() string {
	b, err := json.Marshal(sp)
	if err != nil {
		// Every field is plain data; this cannot happen, and a key that
		// never matches only costs a recomputation.
		return fmt.Sprintf("%p", &sp)
	}
	return string(b)
}

// scenario is base with the strategy applied to the controllers it names.
// base is shared; the result is a copy.
func (sp RaceSpec) scenario(base *scenario.Scenario) *scenario.Scenario {
	sc := *base
	sc.Controllers = append([]scenario.Controller(nil), base.Controllers...)
	if sp.Strategy != nil {
		for i, c := range sc.Controllers {
			if len(sp.Apply) == 0 || contains(sp.Apply, c.Name) {
				sc.Controllers[i].Program = sp.Strategy.Apply(c.Program)
			}
		}
	}
	return &sc
}

// Races is the one race runtime of a pack: the lesson player, the quiz
// and the course screens ask it for races. The simulator is
// deterministic, so each race is played once and its outcome kept; a
// scenario no lesson uses (a quiz question's) is read from the pack's
// folder once and kept here, never added to the pack. It is safe for
// concurrent use: screens compute races in commands, on goroutines of
// their own.
type Races struct {
	pack      *Pack
	mu        sync.Mutex
	scenarios map[string]*scenario.Scenario
	outcomes  map[string]*race.Outcome
}

// NewRaces is the race runtime of p.
func NewRaces(p *Pack) *Races {
	return &Races{pack: p, scenarios: map[string]*scenario.Scenario{}, outcomes: map[string]*race.Outcome{}}
}

// Pack is the pack the races come from.
func (r *Races) Pack() *Pack { return r.pack }

// Scenario is the scenario spec plays, with its strategy applied.
func (r *Races) Scenario(sp RaceSpec) (*scenario.Scenario, error) {
	base, err := r.base(sp.Scenario)
	if err != nil {
		return nil, err
	}
	return sp.scenario(base), nil
}

// base is the scenario file as parsed: the pack's own for its lessons'
// scenarios, else read from the pack's folder once.
func (r *Races) base(name string) (*scenario.Scenario, error) {
	if name == "" {
		return nil, fmt.Errorf("this step has no race")
	}
	if sc, ok := r.pack.Scenarios[name]; ok {
		return sc, nil
	}
	r.mu.Lock()
	sc, ok := r.scenarios[name]
	r.mu.Unlock()
	if ok {
		return sc, nil
	}
	data, err := r.pack.readFile(name)
	if err != nil {
		return nil, err
	}
	sc, err = scenario.Parse(name, data)
	if err != nil {
		return nil, err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if first, ok := r.scenarios[name]; ok {
		return first, nil // parsed twice at once: keep the first
	}
	r.scenarios[name] = sc
	return sc, nil
}

// Race is spec's outcome, played the first time it is asked for. Two
// callers asking at once may both play it; both get the outcome stored
// first, so a race has one outcome, the same pointer every time.
func (r *Races) Race(sp RaceSpec) (*race.Outcome, error) {
	if o, ok := r.Cached(sp); ok {
		return o, nil
	}
	sc, err := r.Scenario(sp)
	if err != nil {
		return nil, err
	}
	o, err := race.Run(sc, race.Schedule{Tokens: sp.Schedule})
	if err != nil {
		return nil, err
	}
	k := sp.key()
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
func (r *Races) Cached(sp RaceSpec) (*race.Outcome, bool) {
	k := sp.key()
	r.mu.Lock()
	defer r.mu.Unlock()
	o, ok := r.outcomes[k]
	return o, ok
}
