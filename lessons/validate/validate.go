// Package validate is `lessons validate`: everything the course's own test
// and an instructor's pack go through before a learner sees them. It runs
// every race, checks every claim (lessons/claims), proves every play goal
// and measures the room it leaves (lessons/playgoal), and runs the content
// linters (lessons/lint), the earned-answer checks among them.
package validate

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/conflictlab/conflictlab/lessons"
	"github.com/conflictlab/conflictlab/lessons/answerbias"
	"github.com/conflictlab/conflictlab/lessons/claims"
	"github.com/conflictlab/conflictlab/lessons/lint"
	"github.com/conflictlab/conflictlab/lessons/playgoal"
)

// Options says how to validate.
type Options struct {
	// Enforce makes the earned-answer findings problems, not warnings
	// (answerbias.Enforce is the default the course's tests and the
	// command use).
	Enforce bool
	// Course applies the built-in course's own play rules (CoursePlay).
	Course bool
	// Scope names the pack in messages ("the course").
	Scope string
}

// Defaults are the options the course's tests and `lessons validate` use
// for the built-in course.
func Defaults() Options {
	return Options{Enforce: answerbias.Enforce, Course: true, Scope: "the course"}
}

// The built-in course's play rules (issue 26): a break-it step in each of
// these lessons (numbered from 1 in course order), and at least
// MinRichBreaks break-it steps across the course whose race has three
// controllers or decoy moves.
var (
	BreakLessons  = []int{9, 12, 13, 14, 16}
	MinRichBreaks = 3
)

// Result is what a validation found.
type Result struct {
	// Problems make the pack invalid.
	Problems []error
	// Warnings are shown and do not fail it: the answer-bias warnings,
	// and the earned-answer findings when Enforce is off (a pack being
	// written).
	Warnings []error
	// Earned is what the earned-answer checks found, excused findings
	// included; Plays the room of every play step.
	Earned lint.EarnedReport
	Plays  []Play
}

// Play is one play step and the room it leaves.
type Play struct {
	File  string
	Line  int
	Field string
	// Lesson is the lesson's number in the pack, from 1.
	Lesson int
	Title  string
	Room   playgoal.Room
}

// Check runs every race of every lesson and checks every claim, the way an
// author's solver would: step claims must hold; a predict option's claims
// must hold exactly when it is correct; a choose option's own claims must
// hold, and the step's claims (the goal) must hold for its race exactly
// when the option is correct; a play step's par is proven. The code shown
// beside a race must be what it plays, and no text may point at what is
// not on the screen. A pack that passes cannot say something the simulator
// does not do. With answerbias.Enforce, the earned-answer findings are
// problems too.
func Check(p *lessons.Pack) error {
	return errors.Join(Run(p, Options{Enforce: answerbias.Enforce, Scope: "the pack"}).Problems...)
}

// Run validates p.
func Run(p *lessons.Pack, o Options) Result {
	var r Result
	ctx := context.Background()
	for n, l := range p.Lessons {
		for i, s := range l.Steps {
			field := fmt.Sprintf("steps[%d]", i)
			if s.Race == nil {
				if len(s.Claims) > 0 {
					r.Problems = append(r.Problems, &lessons.Error{File: l.File, Line: s.Line, Field: field + ".claims", Msg: "claims need a race"})
				}
				continue
			}
			if s.Kind == lessons.Play {
				room, errs := playgoal.Check(ctx, p, l, s, field)
				r.Problems = append(r.Problems, errs...)
				if room.Break != nil || room.Fix != nil {
					r.Plays = append(r.Plays, Play{File: l.File, Line: s.Goal.Line, Field: field + ".goal", Lesson: n + 1, Title: s.Title, Room: room})
				}
			} else {
				r.Problems = append(r.Problems, claims.CheckStep(p, l, s, field)...)
			}
			r.Problems = append(r.Problems, lint.Code(p, l, s, field)...)
		}
		r.Problems = append(r.Problems, lint.Screen(p, l)...)
	}
	r.Warnings = append(r.Warnings, lint.Bias(p)...)
	scope := o.Scope
	if scope == "" {
		scope = "the pack"
	}
	r.Earned = lint.Earned(p, scope)
	findings := r.Earned.Findings
	findings = append(findings, roomFindings(r.Plays)...)
	if o.Course {
		findings = append(findings, CourseFindings(p, r.Plays)...)
	}
	r.Earned.Findings = findings
	for _, f := range findings {
		if f.Excused != "" {
			continue
		}
		if o.Enforce {
			r.Problems = append(r.Problems, asError(f, ""))
		} else {
			r.Warnings = append(r.Warnings, asError(f, "warning: "))
		}
	}
	return r
}

// asError is a finding as the pack's other problems print: FILE:LINE:
// field: message.
func asError(f answerbias.Finding, prefix string) error {
	return &lessons.Error{File: f.File, Line: f.Line, Field: f.Field, Msg: prefix + string(f.Check) + ": " + f.Msg}
}

// roomFindings are the play steps that leave too little to search.
func roomFindings(plays []Play) []answerbias.Finding {
	var out []answerbias.Finding
	for _, pl := range plays {
		check := answerbias.FixRoom
		if pl.Room.Break != nil {
			check = answerbias.BreakRoom
		}
		for _, msg := range pl.Room.Problems() {
			out = append(out, answerbias.Finding{File: pl.File, Line: pl.Line, Field: pl.Field, Check: check, Msg: msg})
		}
	}
	return out
}

// CourseFindings are the built-in course's play rules a pack breaks:
// the lessons of BreakLessons without a break-it step, and too few
// break-it steps with three controllers or decoy moves.
func CourseFindings(p *lessons.Pack, plays []Play) []answerbias.Finding {
	var out []answerbias.Finding
	breaks := map[int]bool{}
	rich := 0
	for _, pl := range plays {
		if pl.Room.Break != nil {
			breaks[pl.Lesson] = true
			if pl.Room.Break.Rich() {
				rich++
			}
		}
	}
	for _, n := range BreakLessons {
		if n > len(p.Lessons) {
			continue
		}
		if !breaks[n] {
			l := p.Lessons[n-1]
			out = append(out, answerbias.Finding{File: l.File, Line: 1, Check: answerbias.CoursePlay,
				Msg: fmt.Sprintf("lesson %d (%s) has no break-it step; lessons %s each need one", n, l.ID, lessonList(BreakLessons))})
		}
	}
	if rich < MinRichBreaks {
		out = append(out, answerbias.Finding{File: ".", Check: answerbias.CoursePlay,
			Msg: fmt.Sprintf("%d break-it steps have three controllers or decoy moves; the course needs at least %d", rich, MinRichBreaks)})
	}
	return out
}

func lessonList(ns []int) string {
	s := make([]string, len(ns))
	for i, n := range ns {
		s[i] = fmt.Sprint(n)
	}
	return strings.Join(s, ", ")
}
