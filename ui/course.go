package ui

import (
	"fmt"
	"sync"

	"github.com/conflictlab/conflictlab/lessons"
	"github.com/conflictlab/conflictlab/ui/raceview"
)

// packRaces is the one place the UI meets the simulator: a step (and a
// chosen option) in, a whole precomputed run out. Runs are deterministic,
// so each is computed once and remembered; the lock is there because
// races are computed in commands, on goroutines of their own.
type packRaces struct {
	pack *lessons.Pack
	mu   sync.Mutex
	runs map[string]*raceview.Run
}

func newPackRaces(p *lessons.Pack) *packRaces {
	return &packRaces{pack: p, runs: map[string]*raceview.Run{}}
}

// Race runs the step's race with the option's strategy.
func (p *packRaces) Race(s lessons.Step, opt *lessons.Option) (*raceview.Run, error) {
	if s.Race == nil {
		return nil, fmt.Errorf("this step has no race")
	}
	k := fmt.Sprintf("%s|%v|%v", s.Race.Scenario, s.Race.Schedule, s.Race.Apply)
	if opt != nil {
		k += fmt.Sprintf("|%s|%p", opt.ID, opt.Strategy)
		if opt.Strategy != nil {
			k += fmt.Sprintf("|%+v", *opt.Strategy)
		}
	}
	p.mu.Lock()
	r, ok := p.runs[k]
	p.mu.Unlock()
	if ok {
		return r, nil
	}
	sc, err := p.pack.ScenarioFor(s, opt)
	if err != nil {
		return nil, err
	}
	o, err := p.pack.Run(s, opt)
	if err != nil {
		return nil, err
	}
	r = &raceview.Run{Outcome: o, Plans: map[string]string{}}
	for _, c := range sc.Controllers {
		r.Plans[c.Name] = raceview.Plan(c.Program)
	}
	p.mu.Lock()
	p.runs[k] = r
	p.mu.Unlock()
	return r, nil
}
