package lessons

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/conflictlab/conflictlab/sim/race"
	"github.com/conflictlab/conflictlab/sim/scenario"
)

// RaceSpec names one race: a scenario of the pack's folder, the schedule
// to play it with, and a strategy applied to some of its controllers. A
// lesson step with an option (Step.Spec) and a quiz question with an
// answer both come down to one. Playing it is the race runtime's job
// (lessons/racecache).
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

// Key identifies the race: two specs with the same key play the same race
// (the strategy by value, not by pointer).
func (sp RaceSpec) Key() string {
	b, err := json.Marshal(sp)
	if err != nil {
		// Every field is plain data; this cannot happen, and a key that
		// never matches only costs a recomputation.
		return fmt.Sprintf("%p", &sp)
	}
	return string(b)
}

// Applied is base with the strategy applied to the controllers the spec
// names. base is shared; the result is a copy.
func (sp RaceSpec) Applied(base *scenario.Scenario) *scenario.Scenario {
	sc := *base
	sc.Controllers = append([]scenario.Controller(nil), base.Controllers...)
	if sp.Strategy != nil {
		for i, c := range sc.Controllers {
			if len(sp.Apply) == 0 || slices.Contains(sp.Apply, c.Name) {
				sc.Controllers[i].Program = sp.Strategy.Apply(c.Program)
			}
		}
	}
	return &sc
}

// ScenarioFor returns the scenario a step plays, with the option's
// strategy applied to the controllers the step names (all when none). It
// reads only the pack's own scenarios; the race runtime
// (lessons/racecache) reads any in its folder.
func (p *Pack) ScenarioFor(s Step, opt *Option) (*scenario.Scenario, error) {
	if s.Race == nil {
		return nil, fmt.Errorf("step has no race")
	}
	base, ok := p.Scenarios[s.Race.Scenario]
	if !ok {
		return nil, fmt.Errorf("scenario %s not loaded", s.Race.Scenario)
	}
	return s.Spec(opt).Applied(base), nil
}

// Run plays a step's race (with an option's strategy for choose steps),
// afresh: the checks run each race once. Screens ask the race runtime
// (lessons/racecache), which keeps them.
func (p *Pack) Run(s Step, opt *Option) (*race.Outcome, error) {
	sc, err := p.ScenarioFor(s, opt)
	if err != nil {
		return nil, err
	}
	moves, err := scenario.ParseMoves(s.Race.Schedule)
	if err != nil {
		return nil, err
	}
	return race.Run(sc, race.Schedule{Moves: moves})
}

// ReadFile reads a file the pack names, with the rules every file of a
// pack follows (inside the pack, regular, at most MaxFileSize).
func (p *Pack) ReadFile(name string) ([]byte, error) { return p.readFile(name) }
