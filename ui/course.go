package ui

import (
	"fmt"
	"sync"

	"github.com/conflictlab/conflictlab/lessons"
	"github.com/conflictlab/conflictlab/termsafe"
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
	// A pack's scenario values, labels and the server's messages about
	// them are shown as text, never obeyed by the terminal.
	r = termsafe.Deep(r)
	p.mu.Lock()
	p.runs[k] = r
	p.mu.Unlock()
	return r, nil
}

// displayPack is p with the text the screens show (titles, prose,
// questions, options, feedback) escaped by termsafe: a lesson pack can come
// from anyone, and a title holding "\x1b]0;…\a" or "\x1b[2J" must be
// shown, not obeyed. Identifiers, file names and claims are left as they
// are (progress and races are keyed by them); the frame guard in render
// still escapes them if they are ever shown. p is not changed.
func displayPack(p *lessons.Pack) *lessons.Pack {
	cp := *p
	cp.Lessons = make([]*lessons.Lesson, len(p.Lessons))
	for i, l := range p.Lessons {
		lc := *l
		lc.Title = termsafe.Escape(l.Title)
		lc.Summary = escapeAll(l.Summary)
		lc.Steps = make([]lessons.Step, len(l.Steps))
		for j, s := range l.Steps {
			s.Title, s.Text, s.Question = termsafe.Escape(s.Title), termsafe.Escape(s.Text), termsafe.Escape(s.Question)
			s.Hint, s.Solution = termsafe.Escape(s.Hint), termsafe.Escape(s.Solution)
			s.Options = append([]lessons.Option(nil), s.Options...)
			for k := range s.Options {
				o := &s.Options[k]
				o.Label, o.Feedback = termsafe.Escape(o.Label), termsafe.Escape(o.Feedback)
			}
			lc.Steps[j] = s
		}
		cp.Lessons[i] = &lc
	}
	return &cp
}

func escapeAll(ss []string) []string {
	if ss == nil {
		return nil
	}
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = termsafe.Escape(s)
	}
	return out
}
