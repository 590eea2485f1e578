package stage

import (
	"sync"

	tea "charm.land/bubbletea/v2"

	"github.com/conflictlab/conflictlab/lessons"
	"github.com/conflictlab/conflictlab/sim/scenario"
	"github.com/conflictlab/conflictlab/ui/raceview"
)

// A question before its answer shows its race's setup, made from the
// scenario alone (raceview.NewSetup): it has no way to the outcome. The
// first setup builds the API server's schema, so setups are made off the
// UI loop too, once each, and kept.

// Scenarios gives a race's scenario, and nothing else: a screen that
// holds only this cannot be asked for an outcome.
type Scenarios func(lessons.RaceSpec) (*scenario.Scenario, error)

// SetupReady is a setup made off the UI loop, under the key it was made
// for; each screen wraps it in a message of its own.
type SetupReady struct {
	Key string
	Run *raceview.Run
	Err error
}

// Setups are the setups a screen has made, by key; a pointer is shared
// by the screen's copies.
type Setups struct {
	mu   sync.Mutex
	runs map[string]*raceview.Run
}

// NewSetups is an empty store.
func NewSetups() *Setups { return &Setups{runs: map[string]*raceview.Run{}} }

// Get is the setup made under k.
func (s *Setups) Get(k string) (*raceview.Run, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	r, ok := s.runs[k]
	return r, ok
}

// Make is the command that makes the setup of spec's race from its
// scenario alone, lets withhold keep off it what the question is about,
// keeps it under k, and wraps it for the screen.
func (s *Setups) Make(k string, scenarioOf Scenarios, spec lessons.RaceSpec, withhold func(*raceview.Run), wrap func(SetupReady) tea.Msg) tea.Cmd {
	return func() tea.Msg {
		sc, err := scenarioOf(spec)
		if err != nil {
			return wrap(SetupReady{Key: k, Err: err})
		}
		r, err := raceview.NewSetup(sc)
		if err != nil {
			return wrap(SetupReady{Key: k, Err: err})
		}
		if withhold != nil {
			withhold(r)
		}
		s.mu.Lock()
		s.runs[k] = r
		s.mu.Unlock()
		return wrap(SetupReady{Key: k, Run: r})
	}
}

// Withhold keeps off a setup what its question is about: every plan when
// plansAfter (the plans would answer it), and when the options are
// strategies to choose from, the parts of the plans they set (parts,
// lessons.StrategyParts) on the controllers apply names (all when none).
func Withhold(r *raceview.Run, plansAfter, choosing bool, apply, parts []string) {
	if plansAfter {
		r.WithholdPlans()
	}
	if choosing {
		r.WithholdChoice(apply, parts)
	}
}
