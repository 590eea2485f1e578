package quiz

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/conflictlab/conflictlab/lessons"
	"github.com/conflictlab/conflictlab/lessons/snippets"
	"github.com/conflictlab/conflictlab/sim/scenario"
)

// Verify checks every question against the course pack and the simulator:
// the lesson it points to exists; a bug question's snippet exists; a race
// question's options' claims hold exactly for the correct option; a method
// question's goal is met exactly by the correct option's strategy.
// Scenarios are read from the pack's folder (any file, not only those its
// lessons use).
func Verify(b *Bank, p *lessons.Pack) error {
	var errs []error
	for _, q := range b.Questions {
		errs = append(errs, verifyQuestion(q, p)...)
	}
	return errors.Join(errs...)
}

func verifyQuestion(q *Question, p *lessons.Pack) []error {
	var errs []error
	fail := func(line int, format string, args ...interface{}) {
		errs = append(errs, &Error{File: q.File, Line: line, Field: q.ID, Msg: fmt.Sprintf(format, args...)})
	}
	if p.Lesson(q.Lesson) == nil {
		fail(q.Line, "lesson %q: no such lesson in the course", q.Lesson)
	}
	if q.Repeats != "" {
		if _, err := RepeatedStep(q, p); err != nil {
			fail(q.Line, "repeats: %v", err)
		}
	}
	if q.Snippet != "" {
		if _, err := snippets.Get(q.Snippet); err != nil {
			fail(q.Line, "%v", err)
		}
	}
	if q.Kind != Race && q.Kind != Method {
		return errs
	}
	if err := loadScenario(p, q.Scenario); err != nil {
		fail(q.Line, "scenario: %v", err)
		return errs
	}
	step := q.Step()
	switch q.Kind {
	case Race:
		o, err := p.Run(step, nil)
		if err != nil {
			fail(q.Line, "race: %v", err)
			return errs
		}
		for i, opt := range q.Options {
			var first error
			for _, c := range opt.Claims {
				if err := p.CheckClaim(step, nil, o, c); err != nil && first == nil {
					first = err
				}
			}
			switch {
			case opt.Correct && first != nil:
				fail(opt.Line, "option %s is marked correct, but the simulator refutes it: %v", Letter(i), first)
			case !opt.Correct && first == nil:
				fail(opt.Line, "option %s is marked wrong, but every claim it makes holds in the simulator", Letter(i))
			}
		}
	case Method:
		for i, opt := range q.Options {
			lo := lessons.Option{ID: Letter(i), Label: opt.Text, Correct: opt.Correct, Strategy: opt.Strategy, Line: opt.Line}
			o, err := p.Run(step, &lo)
			if err != nil {
				fail(opt.Line, "option %s: %v", Letter(i), err)
				continue
			}
			var first error
			for _, c := range q.Goal {
				if err := p.CheckClaim(step, &lo, o, c); err != nil && first == nil {
					first = err
				}
			}
			switch {
			case opt.Correct && first != nil:
				fail(opt.Line, "option %s is marked correct, but its race misses the goal: %v", Letter(i), first)
			case !opt.Correct && first == nil:
				fail(opt.Line, "option %s is marked wrong, but its race meets the goal", Letter(i))
			}
		}
	}
	return errs
}

// RepeatedStep is the lesson step a question says it repeats.
func RepeatedStep(q *Question, p *lessons.Pack) (lessons.Step, error) {
	id, n, _ := strings.Cut(q.Repeats, "/")
	l := p.Lesson(id)
	if l == nil {
		return lessons.Step{}, fmt.Errorf("%q: no lesson %s", q.Repeats, id)
	}
	i, err := strconv.Atoi(n)
	if err != nil || i < 1 || i > len(l.Steps) {
		return lessons.Step{}, fmt.Errorf("%q: lesson %s has steps 1 to %d", q.Repeats, id, len(l.Steps))
	}
	return l.Steps[i-1], nil
}

// Step is the race of a race or method question as a lesson step (predict
// or choose), so that a screen can play it with the lesson machinery:
// Pack.Run(q.Step(), nil), or with a method option's strategy. Call Prepare
// first so the pack has the scenario. Meaningless for other kinds.
func (q *Question) Step() lessons.Step {
	kind := lessons.Predict
	if q.Kind == Method {
		kind = lessons.Choose
	}
	return lessons.Step{Kind: kind, Title: q.ID, Question: q.Text, Code: q.Snippet, Line: q.Line,
		Race: &lessons.RaceRef{Scenario: q.Scenario, Schedule: q.Schedule, Apply: q.Apply}}
}

// loadScenario makes sure the pack has parsed the scenario at name.
func loadScenario(p *lessons.Pack, name string) error {
	if _, ok := p.Scenarios[name]; ok {
		return nil
	}
	data, err := p.Snippet(name)
	if err != nil {
		return err
	}
	sc, err := scenario.Parse(name, data)
	if err != nil {
		return err
	}
	p.Scenarios[name] = sc
	return nil
}

// Prepare loads the scenarios the bank's questions race into the pack, so
// that Pack.Run can play them (a screen showing a race question's race
// calls it once).
func Prepare(b *Bank, p *lessons.Pack) error {
	var errs []error
	for _, q := range b.Questions {
		if q.Scenario == "" {
			continue
		}
		if err := loadScenario(p, q.Scenario); err != nil {
			errs = append(errs, &Error{File: q.File, Line: q.Line, Field: q.ID, Msg: err.Error()})
		}
	}
	return errors.Join(errs...)
}
