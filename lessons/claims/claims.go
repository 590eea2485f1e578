// Package claims decides the claims a lesson or quiz question makes about
// a race: Check tests one claim against an outcome, and CheckStep is the
// author's solver for a read, predict or choose step (a correct option's
// claims must hold and a wrong one's must not), so the course cannot say
// something the simulator does not do.
package claims

import (
	"fmt"
	"strings"

	"github.com/conflictlab/conflictlab/lessons"
	"github.com/conflictlab/conflictlab/sim/controller"
	"github.com/conflictlab/conflictlab/sim/race"
	"github.com/conflictlab/conflictlab/sim/report"
	"github.com/conflictlab/conflictlab/sim/scenario"
)

// CheckStep checks the claims of a read, predict or choose step (field
// names it in messages, "steps[3]"): a step's claims hold on its race; a
// predict option's claims hold exactly when it is correct; a choose
// option's own claims hold on its race, and the step's claims (the goal)
// hold for it exactly when it is correct. It plays each race afresh.
func CheckStep(p *lessons.Pack, l *lessons.Lesson, s lessons.Step, field string) []error {
	var errs []error
	fail := func(line int, f, msg string) {
		errs = append(errs, &lessons.Error{File: l.File, Line: line, Field: f, Msg: msg})
	}
	switch s.Kind {
	case lessons.Read, lessons.Predict:
		o, err := p.Run(s, nil)
		if err != nil {
			fail(s.Line, field+".race", err.Error())
			return errs
		}
		for j, c := range s.Claims {
			if err := CheckClaim(p, s, nil, o, c); err != nil {
				fail(c.Line, fmt.Sprintf("%s.claims[%d]", field, j), err.Error())
			}
		}
		for k, opt := range s.Options {
			f := fmt.Sprintf("%s.options[%d]", field, k)
			if len(opt.Claims) == 0 && s.Kind == lessons.Predict {
				fail(opt.Line, f+".claims", "a predict option needs claims the simulator can confirm or refute")
				continue
			}
			var first error
			for _, c := range opt.Claims {
				if err := CheckClaim(p, s, nil, o, c); err != nil && first == nil {
					first = err
				}
			}
			switch {
			case opt.Correct && first != nil:
				fail(opt.Line, f, "marked correct, but the simulator refutes it: "+first.Error())
			case !opt.Correct && first == nil:
				fail(opt.Line, f, "marked wrong, but every claim it makes holds in the simulator")
			}
		}
	case lessons.Choose:
		if len(s.Claims) == 0 {
			fail(s.Line, field+".claims", "a choose step needs goal claims that tell right strategies from wrong ones")
		}
		for k := range s.Options {
			opt := s.Options[k]
			f := fmt.Sprintf("%s.options[%d]", field, k)
			o, err := p.Run(s, &opt)
			if err != nil {
				fail(opt.Line, f, err.Error())
				continue
			}
			for j, c := range opt.Claims {
				if err := CheckClaim(p, s, &opt, o, c); err != nil {
					fail(c.Line, fmt.Sprintf("%s.claims[%d]", f, j), err.Error())
				}
			}
			var first error
			for _, c := range s.Claims {
				if err := CheckClaim(p, s, &opt, o, c); err != nil && first == nil {
					first = err
				}
			}
			switch {
			case opt.Correct && first != nil:
				fail(opt.Line, f, "marked correct, but its race misses the goal: "+first.Error())
			case !opt.Correct && first == nil:
				fail(opt.Line, f, "marked wrong, but its race meets every goal claim")
			}
		}
	}
	return errs
}

// CheckClaim tests one claim against an outcome of the step's race.
func CheckClaim(p *lessons.Pack, s lessons.Step, opt *lessons.Option, o *race.Outcome, c lessons.Claim) error {
	return Check(c, o, func() (*scenario.Scenario, error) { return p.ScenarioFor(s, opt) })
}

// Check tests c against o: nil when it holds, else what the race did
// instead. scenarioOf is the race's scenario, which only an explore claim
// needs (it plays every interleaving of it).
func Check(c lessons.Claim, o *race.Outcome, scenarioOf func() (*scenario.Scenario, error)) error {
	switch {
	case c.Verdict != "":
		if o.Verdict != c.Verdict {
			return fmt.Errorf("verdict is %s, not %s", o.Verdict, c.Verdict)
		}
	case c.Lost != "":
		for _, l := range o.Lost {
			if l.Field == c.Lost {
				return nil
			}
		}
		return fmt.Errorf("%s is not lost (lost: %s)", c.Lost, lostFields(o))
	case c.Kept != "":
		for _, l := range o.Lost {
			if l.Field == c.Kept {
				return fmt.Errorf("%s is lost: %s", c.Kept, report.Reason(l))
			}
		}
	case c.Code != nil:
		return checkCode(o, *c.Code)
	case c.Final != nil:
		path, err := controller.ParsePath(c.Final.Path)
		if err != nil {
			return err
		}
		v, found := path.Get(o.Final)
		if c.Final.Absent {
			if found {
				return fmt.Errorf("%s is %v, not absent", c.Final.Path, v)
			}
			return nil
		}
		if !found {
			return fmt.Errorf("%s is absent, not %v", c.Final.Path, c.Final.Equals)
		}
		if fmt.Sprint(v) != fmt.Sprint(c.Final.Equals) {
			return fmt.Errorf("%s is %v, not %v", c.Final.Path, v, c.Final.Equals)
		}
	case c.Message != "":
		for _, st := range o.Steps {
			if strings.Contains(st.Message, c.Message) {
				return nil
			}
		}
		return fmt.Errorf("no answer says %q", c.Message)
	case c.Requests != nil:
		return checkCount(o, *c.Requests, "requests", func(cr race.ControllerResult) int { return cr.Stats.Requests })
	case c.Conflicts != nil:
		return checkCount(o, *c.Conflicts, "conflicts", func(cr race.ControllerResult) int { return cr.Stats.Conflicts })
	case c.ReconcileMS != nil:
		err := checkCount(o, *c.ReconcileMS, "", func(cr race.ControllerResult) int { return int(cr.Stats.LongestReconcileMS) })
		if err != nil && !strings.HasPrefix(err.Error(), "no controller") {
			return fmt.Errorf("%s's longest reconcile held its worker %dms (%v)", c.ReconcileMS.Controller,
				longestReconcile(o, c.ReconcileMS.Controller), countWant(*c.ReconcileMS))
		}
		return err
	case c.Status != nil:
		for _, cr := range o.Controllers {
			if cr.Name == c.Status.Controller {
				if cr.Status != controller.Status(c.Status.Is) {
					return fmt.Errorf("%s ended %s, not %s", cr.Name, cr.Status, c.Status.Is)
				}
				return nil
			}
		}
		return fmt.Errorf("no controller %s", c.Status.Controller)
	case c.Invariant != nil:
		return checkInvariant(o, *c.Invariant.Met)
	case c.Explore != nil:
		sc, err := scenarioOf()
		if err != nil {
			return err
		}
		r, err := exploreClaim(sc)
		if err != nil {
			return err
		}
		n := r.Tally[c.Explore.Verdict]
		switch c.Explore.Count {
		case "none":
			if n != 0 {
				return fmt.Errorf("%d of %d interleavings end %s", n, r.Schedules, c.Explore.Verdict)
			}
		case "some":
			if n == 0 {
				return fmt.Errorf("none of %d interleavings ends %s", r.Schedules, c.Explore.Verdict)
			}
		case "all":
			if n != r.Schedules {
				return fmt.Errorf("only %d of %d interleavings end %s", n, r.Schedules, c.Explore.Verdict)
			}
		}
	}
	return nil
}

// checkInvariant: the race ends meeting every invariant of its scenario
// (met), or breaking one (!met).
func checkInvariant(o *race.Outcome, met bool) error {
	if len(o.Invariants) == 0 {
		return fmt.Errorf("the scenario declares no invariants: an invariant claim needs some")
	}
	broken := o.BrokenInvariants()
	switch {
	case met && len(broken) > 0:
		b := broken[0]
		return fmt.Errorf("an invariant is broken: %d %s counted where %d are wanted (%s)", b.Got, invariantWhat(b), b.Want, b.Why)
	case !met && len(broken) == 0:
		var parts []string
		for _, r := range o.Invariants {
			parts = append(parts, fmt.Sprintf("%d %s", r.Got, invariantWhat(r)))
		}
		return fmt.Errorf("every invariant holds (%s)", strings.Join(parts, "; "))
	}
	return nil
}

// invariantWhat names what an invariant counts: "ConfigMap cm1",
// "ConfigMap app=web".
func invariantWhat(r race.InvariantResult) string {
	if r.Name != "" {
		return string(r.Kind) + " " + r.Name
	}
	return string(r.Kind) + " " + r.Selector
}

func lostFields(o *race.Outcome) string {
	if len(o.Lost) == 0 {
		return "nothing"
	}
	var f []string
	for _, l := range o.Lost {
		f = append(f, l.Field)
	}
	return strings.Join(f, ", ")
}

func checkCode(o *race.Outcome, c lessons.CodeClaim) error {
	if c.Step != nil {
		if *c.Step < 0 || *c.Step >= len(o.Steps) {
			return fmt.Errorf("the run has no step %d", *c.Step)
		}
		if got := o.Steps[*c.Step].Code; got != c.Is {
			return fmt.Errorf("step %d answered %d, not %d", *c.Step, got, c.Is)
		}
		if st := o.Steps[*c.Step]; c.CacheCurrent != nil && cacheCurrent(st) != *c.CacheCurrent {
			return fmt.Errorf("step %d answered %d with %s cache %s", *c.Step, c.Is, st.Actor, cacheWords(!*c.CacheCurrent))
		}
		return nil
	}
	for _, st := range o.Steps {
		if st.Kind == race.StepRequest && (c.By == "" || st.Actor == c.By) && st.Code == c.Is &&
			(c.CacheCurrent == nil || cacheCurrent(st) == *c.CacheCurrent) {
			return nil
		}
	}
	who := "any controller"
	if c.By != "" {
		who = c.By
	}
	if c.CacheCurrent != nil {
		return fmt.Errorf("%s never got a %d with its cache %s", who, c.Is, cacheWords(*c.CacheCurrent))
	}
	return fmt.Errorf("%s never got a %d", who, c.Is)
}

// cacheCurrent reports whether the step's controller had seen every
// revision of the server when its answer came.
func cacheCurrent(st race.Step) bool {
	rv, ok := st.CacheRVs[st.Actor]
	return ok && rv >= st.ServerRV
}

func cacheWords(current bool) string {
	if current {
		return "caught up with the server"
	}
	return "behind the server"
}

func checkCount(o *race.Outcome, c lessons.CountClaim, what string, get func(race.ControllerResult) int) error {
	for _, cr := range o.Controllers {
		if cr.Name != c.Controller {
			continue
		}
		n := get(cr)
		if c.Is != nil && n != *c.Is {
			return fmt.Errorf("%s made %d %s, not %d", cr.Name, n, what, *c.Is)
		}
		if c.AtLeast != nil && n < *c.AtLeast {
			return fmt.Errorf("%s made %d %s, fewer than %d", cr.Name, n, what, *c.AtLeast)
		}
		if c.AtMost != nil && n > *c.AtMost {
			return fmt.Errorf("%s made %d %s, more than %d", cr.Name, n, what, *c.AtMost)
		}
		return nil
	}
	return fmt.Errorf("no controller %s", c.Controller)
}

func longestReconcile(o *race.Outcome, name string) int64 {
	for _, cr := range o.Controllers {
		if cr.Name == name {
			return cr.Stats.LongestReconcileMS
		}
	}
	return 0
}

func countWant(c lessons.CountClaim) string {
	switch {
	case c.Is != nil:
		return fmt.Sprintf("want exactly %d", *c.Is)
	case c.AtLeast != nil && c.AtMost != nil:
		return fmt.Sprintf("want %d to %d", *c.AtLeast, *c.AtMost)
	case c.AtLeast != nil:
		return fmt.Sprintf("want at least %d", *c.AtLeast)
	case c.AtMost != nil:
		return fmt.Sprintf("want at most %d", *c.AtMost)
	}
	return "want nothing"
}
