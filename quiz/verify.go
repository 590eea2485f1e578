package quiz

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/conflictlab/conflictlab/lessons"
	"github.com/conflictlab/conflictlab/lessons/racecache"
	"github.com/conflictlab/conflictlab/lessons/snippets"
)

// Verify checks every question against the course pack and the simulator:
// the lesson it points to exists; a bug question's snippet exists; a race
// question's options' claims hold exactly for the correct option; a method
// question's goal is met exactly by the correct option's strategy.
// Scenarios are read from the pack's folder (any file, not only those its
// lessons use).
func Verify(b *Bank, p *lessons.Pack) error {
	races := racecache.New(p)
	var errs []error
	for _, q := range b.Questions {
		errs = append(errs, verifyQuestion(q, races)...)
	}
	return errors.Join(errs...)
}

func verifyQuestion(q *Question, races *racecache.Races) []error {
	var errs []error
	fail := func(line int, format string, args ...any) {
		errs = append(errs, &Error{File: q.File, Line: line, Field: q.ID, Msg: fmt.Sprintf(format, args...)})
	}
	p := races.Pack()
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
	if err := races.Load(q.Scenario); err != nil {
		fail(q.Line, "scenario: %v", err)
		return errs
	}
	switch q.Kind {
	case Race:
		spec := q.Spec(nil)
		o, err := races.Race(spec)
		if err != nil {
			fail(q.Line, "race: %v", err)
			return errs
		}
		for i, opt := range q.Options {
			var first error
			for _, c := range opt.Claims {
				if err := races.CheckClaim(spec, o, c); err != nil && first == nil {
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
			spec := q.Spec(opt.Strategy)
			o, err := races.Race(spec)
			if err != nil {
				fail(opt.Line, "option %s: %v", Letter(i), err)
				continue
			}
			var first error
			for _, c := range q.Goal {
				if err := races.CheckClaim(spec, o, c); err != nil && first == nil {
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

// Spec is the race of a race or method question, with a method answer's
// strategy (nil: the scenario as it is). Meaningless for other kinds.
func (q *Question) Spec(strategy *lessons.Strategy) lessons.RaceSpec {
	return lessons.RaceSpec{Scenario: q.Scenario, Schedule: q.Schedule, Apply: q.Apply, Strategy: strategy}
}

// Prepare reads the scenarios the bank's questions race, so that a broken
// one is reported when the quiz opens rather than when its question
// comes, and no answer waits on a file; races keeps them (the pack is
// not changed).
func Prepare(b *Bank, races *racecache.Races) error {
	var errs []error
	for _, q := range b.Questions {
		if q.Scenario == "" {
			continue
		}
		if err := races.Load(q.Scenario); err != nil {
			errs = append(errs, &Error{File: q.File, Line: q.Line, Field: q.ID, Msg: err.Error()})
		}
	}
	return errors.Join(errs...)
}
