// Package validate is `lessons validate`: everything the course's own test
// and an instructor's pack go through before a learner sees them. It runs
// every race, checks every claim (lessons/claims), proves every play goal
// (lessons/playgoal) and runs the content linters (lessons/lint).
package validate

import (
	"errors"
	"fmt"

	"github.com/conflictlab/conflictlab/lessons"
	"github.com/conflictlab/conflictlab/lessons/claims"
	"github.com/conflictlab/conflictlab/lessons/lint"
	"github.com/conflictlab/conflictlab/lessons/playgoal"
)

// Check runs every race of every lesson and checks every claim, the way an
// author's solver would: step claims must hold; a predict option's claims
// must hold exactly when it is correct; a choose option's own claims must
// hold, and the step's claims (the goal) must hold for its race exactly
// when the option is correct; a play step's par is proven. The code shown
// beside a race must be what it plays, and no text may point at what is
// not on the screen. A pack that passes cannot say something the simulator
// does not do.
func Check(p *lessons.Pack) error {
	var errs []error
	for _, l := range p.Lessons {
		for i, s := range l.Steps {
			field := fmt.Sprintf("steps[%d]", i)
			if s.Race == nil {
				if len(s.Claims) > 0 {
					errs = append(errs, &lessons.Error{File: l.File, Line: s.Line, Field: field + ".claims", Msg: "claims need a race"})
				}
				continue
			}
			if s.Kind == lessons.Play {
				errs = append(errs, playgoal.Prove(p, l, s, field)...)
			} else {
				errs = append(errs, claims.CheckStep(p, l, s, field)...)
			}
			errs = append(errs, lint.Code(p, l, s, field)...)
		}
		errs = append(errs, lint.Screen(p, l)...)
	}
	return errors.Join(errs...)
}

// Warnings returns what may give an answer away without making the pack
// invalid (nil when none); the built-in course is tested to have none.
func Warnings(p *lessons.Pack) []error { return lint.Bias(p) }
