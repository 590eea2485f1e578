// Package check is what an exercise's test calls: it runs the learner's
// code in the exercise's races with simcluster — over every interleaving,
// or in the one order a race names — judges it against the exercise's
// check.yaml (verdict.Spec), and writes the verdict as JSON for conflictlab,
// which runs that test in a child process (package runner) and draws the
// losing run in the race view.
//
// It is part of what `conflictlab exercises init` writes into a
// learner's workspace as a local module, so it imports only the
// simulator and simcluster: the exercises' texts and solutions stay in
// the binary.
package check

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/conflictlab/conflictlab/exercises/verdict"
	"github.com/conflictlab/conflictlab/sim/race"
	"github.com/conflictlab/conflictlab/sim/scenario"
	"github.com/conflictlab/conflictlab/simcluster"
)

// Code maps each code controller to the function that builds its
// reconciler, as check.yaml's code names them.
type Code map[string]func(simcluster.Clients) reconcile.Reconciler

// Prove runs the check of the exercise in dir (its check.yaml and race
// files) on code. It never panics on a failure of the code: that is the
// verdict's Error.
func Prove(ctx context.Context, dir string, code Code) *verdict.Verdict {
	v := &verdict.Verdict{Failed: -1}
	spec, err := verdict.LoadSpec(filepath.Join(dir, verdict.SpecFile))
	if err != nil {
		return invalid(v, err)
	}
	if spec.Test != nil {
		return invalid(v, fmt.Errorf("%s: this exercise's answer is a test: conflictlab runs the package's tests, not a check", verdict.SpecFile))
	}
	var ctrls []simcluster.Controller
	for _, e := range spec.Code {
		fn := code[e.Controller]
		if fn == nil {
			return invalid(v, fmt.Errorf("%s: code controller %q has no function in the check's test (want %s)", verdict.SpecFile, e.Controller, e.Func))
		}
		ctrls = append(ctrls, simcluster.Controller{Name: e.Controller, New: fn})
	}
	opts := simcluster.Options{MaxCallsPerReconcile: spec.Limits.CallsPerReconcile, MaxRequests: spec.Limits.Requests}
	var report strings.Builder
	for i, rs := range spec.Races {
		sc, err := scenario.Load(filepath.Join(dir, rs.Scenario))
		if err != nil {
			return invalid(v, err)
		}
		rc, err := simcluster.New(sc, opts, onlyIn(sc, ctrls)...)
		if err != nil {
			return invalid(v, err)
		}
		start := time.Now()
		rv, run, err := prove(ctx, rc, rs)
		rv.Millis = time.Since(start).Milliseconds()
		rv.Scenario, rv.Name = rs.Scenario, sc.Name
		v.Races = append(v.Races, rv)
		if err != nil {
			v.Failed = i
			var se *simcluster.Error
			if !errors.As(err, &se) {
				se = &simcluster.Error{Kind: simcluster.ErrInternal, Msg: err.Error()}
			}
			v.Error = &verdict.CodeError{Kind: string(se.Kind), Controller: se.Controller, Call: se.Call, Msg: se.Msg, Text: se.Error()}
			fmt.Fprintf(&report, "✗ %s: %s\n", rs.Scenario, se.Error())
			break
		}
		writeRace(&report, rv)
		if !rv.Pass {
			v.Failed = i
			if run != nil {
				v.Outcome = run.Outcome
				v.Causes = verdict.CausesOf(run.Outcome)
				report.WriteString("\n")
				rc.Report(&report, run)
			}
			break
		}
	}
	v.Pass = v.Failed < 0
	v.Report = report.String()
	return v
}

func invalid(v *verdict.Verdict, err error) *verdict.Verdict {
	v.Invalid = err.Error()
	v.Report = "the exercise itself does not load: " + err.Error() + "\n"
	return v
}

// onlyIn keeps the controllers the scenario plays with code: a check
// may race the same code in several races, not every one of which has
// every controller.
func onlyIn(sc *scenario.Scenario, ctrls []simcluster.Controller) []simcluster.Controller {
	var out []simcluster.Controller
	for _, c := range ctrls {
		if slices.ContainsFunc(sc.Controllers, func(s scenario.Controller) bool { return s.Name == c.Name }) {
			out = append(out, c)
		}
	}
	return out
}

// prove runs one race: explored, or one run. run is the run to show when
// the race fails.
func prove(ctx context.Context, rc *simcluster.Race, rs verdict.RaceSpec) (verdict.RaceVerdict, *simcluster.Run, error) {
	rv := verdict.RaceVerdict{Want: rs.Verdict, Explored: !rs.One}
	if rs.One {
		run, err := rc.Run(ctx, race.Schedule{Moves: rs.Schedule})
		if err != nil {
			return rv, nil, err
		}
		o := run.Outcome
		rv.Verdict, rv.Schedule, rv.Bound = o.Verdict, o.Schedule, run.Bound
		switch {
		case run.Bound != "":
			rv.Problems = append(rv.Problems, "cut short: "+run.Bound)
		case rs.Verdict == "" && !simcluster.Good(o.Verdict):
			rv.Problems = append(rv.Problems, fmt.Sprintf("it ended %s", o.Verdict))
		case rs.Verdict != "" && o.Verdict != rs.Verdict:
			rv.Problems = append(rv.Problems, fmt.Sprintf("it ended %s, where it must end %s", o.Verdict, rs.Verdict))
		}
		for _, inv := range o.Invariants {
			if !inv.Met {
				rv.Problems = append(rv.Problems, "an invariant is broken: "+inv.Why)
			}
		}
		if rs.Owns != nil {
			if p := checkOwns(o, rs.Owns); p != "" {
				rv.Problems = append(rv.Problems, p)
			}
		}
		rv.Pass = len(rv.Problems) == 0
		return rv, run, nil
	}
	x, err := rc.Explore(ctx)
	if err != nil {
		return rv, nil, err
	}
	rv.Schedules, rv.Tally = x.Schedules, x.Tally
	bad, first := x.Failures()
	if rs.Verdict != "" {
		// Every interleaving must end so.
		bad, first = nil, nil
		for _, v := range race.Verdicts {
			if n := x.Tally[v]; n > 0 && v != rs.Verdict {
				bad = append(bad, fmt.Sprintf("%d %s", n, v))
				if first == nil {
					first = x.Examples[v]
				}
			}
		}
	}
	if x.Truncated {
		rv.Problems = append(rv.Problems, fmt.Sprintf("the exploration stopped at its limit after %d interleavings: the race is too big to prove", x.Schedules))
	}
	if len(bad) > 0 {
		rv.Problems = append(rv.Problems, fmt.Sprintf("%s of %d interleavings", strings.Join(bad, ", "), x.Schedules))
	} else if x.Bound != "" {
		rv.Problems = append(rv.Problems, "cut short: "+x.Bound)
		first = x.BoundSchedule
	}
	rv.Pass = len(rv.Problems) == 0
	if rv.Pass || first == nil {
		return rv, nil, nil
	}
	run, err := rc.Run(ctx, race.Schedule{Moves: first})
	if err != nil {
		return rv, nil, err
	}
	rv.Schedule, rv.Verdict, rv.Bound = run.Outcome.Schedule, run.Outcome.Verdict, run.Bound
	return rv, run, nil
}

// writeRace is a race's line of the report.
func writeRace(b *strings.Builder, rv verdict.RaceVerdict) {
	mark := "✓"
	if !rv.Pass {
		mark = "✗"
	}
	switch {
	case rv.Explored && rv.Pass:
		fmt.Fprintf(b, "%s %s: all %d interleavings end well (%s)\n", mark, rv.Scenario, rv.Schedules, tallyLine(rv.Tally))
	case rv.Explored:
		fmt.Fprintf(b, "%s %s: %s (%s)\n", mark, rv.Scenario, strings.Join(rv.Problems, "; "), tallyLine(rv.Tally))
		if len(rv.Schedule) > 0 {
			fmt.Fprintf(b, "  the first, in depth-first order: [%s]\n", joinMoves(rv.Schedule))
		}
	case rv.Pass:
		fmt.Fprintf(b, "%s %s: in the order [%s] it ends %s, as it must\n", mark, rv.Scenario, joinMoves(rv.Schedule), rv.Verdict)
	default:
		fmt.Fprintf(b, "%s %s: in the order [%s]: %s\n", mark, rv.Scenario, joinMoves(rv.Schedule), strings.Join(rv.Problems, "; "))
	}
}

func tallyLine(t map[race.Verdict]int) string {
	var parts []string
	for _, v := range race.Verdicts {
		if n := t[v]; n > 0 {
			parts = append(parts, fmt.Sprintf("%s %d", v, n))
		}
	}
	return strings.Join(parts, ", ")
}

func joinMoves(ms []scenario.Move) string {
	toks := make([]string, len(ms))
	for i, m := range ms {
		toks[i] = m.String()
	}
	return strings.Join(toks, ",")
}
