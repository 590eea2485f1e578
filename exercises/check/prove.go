// Package check is what an exercise's test calls: it runs the learner's
// code in the exercise's races with simcluster — over every interleaving,
// or in the one order a race names — judges it against the exercise's
// check.yaml (Spec), and writes the verdict as JSON for conflictlab,
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

	"github.com/conflictlab/conflictlab/sim/race"
	"github.com/conflictlab/conflictlab/sim/scenario"
	"github.com/conflictlab/conflictlab/simcluster"
)

// Code maps each code controller to the function that builds its
// reconciler, as check.yaml's code names them.
type Code map[string]func(simcluster.Clients) reconcile.Reconciler

// Verdict is what a check found. The workspace's test writes it as JSON
// (Encode) and conflictlab reads it back (Decode).
type Verdict struct {
	// Pass: every race ended as the check requires.
	Pass bool `json:"pass"`
	// Races are the check's races, in check.yaml's order; a race after
	// the first that failed is not run.
	Races []RaceVerdict `json:"races"`
	// Failed is the index in Races of the race that failed, -1 if none.
	Failed int `json:"failed"`
	// Outcome is the failing race's losing run, as the race view draws
	// it: the first bad interleaving in depth-first order, or the run in
	// the race's own order. Nil when passing, or when no run could be
	// played to its end (Error says why).
	Outcome *race.Outcome `json:"outcome,omitempty"`
	// Causes are Outcome's loss causes, which its own JSON leaves out.
	Causes *Causes `json:"causes,omitempty"`
	// Error is a failure of the code that simcluster reported instead of
	// a verdict: a panic (with its stack), nondeterminism, a call from a
	// goroutine the reconcile started, a reconcile that neither called
	// nor returned in time.
	Error *simcluster.Error `json:"error,omitempty"`
	// Invalid is set when the exercise itself is broken (its check.yaml
	// or a race file does not load, or the code does not match it).
	Invalid string `json:"invalid,omitempty"`
	// Report is the verdict in words, as `go test` prints it: each race's
	// result and, for the one that failed, the losing run's timeline and
	// the line of the code that made each call.
	Report string `json:"report"`
}

// RaceVerdict is one race's result.
type RaceVerdict struct {
	// Scenario is the race's file; Name the scenario's name.
	Scenario string `json:"scenario"`
	Name     string `json:"name"`
	// Explored: every interleaving was played (Schedules of them, Tally
	// by verdict); otherwise the race was one run, in its own order.
	Explored  bool                 `json:"explored"`
	Schedules int                  `json:"schedules,omitempty"`
	Tally     map[race.Verdict]int `json:"tally,omitempty"`
	// Verdict is how the one run (or the failing interleaving) ended;
	// Want what the check requires of it ("" means well: no-loss or
	// requeued, every invariant kept).
	Verdict race.Verdict `json:"verdict,omitempty"`
	Want    race.Verdict `json:"want,omitempty"`
	Pass    bool         `json:"pass"`
	// Problems say in words what failed.
	Problems []string `json:"problems,omitempty"`
	// Schedule is the failing run's order (or the one run's).
	Schedule []scenario.Move `json:"schedule,omitempty"`
	// Bound says why a run was cut short (a reconcile that did not
	// return, too many requests).
	Bound string `json:"bound,omitempty"`
	// Millis is the wall time the race took.
	Millis int64 `json:"millis"`
}

// Prove runs the check of the exercise in dir (its check.yaml and race
// files) on code. It never panics on a failure of the code: that is the
// verdict's Error.
func Prove(ctx context.Context, dir string, code Code) *Verdict {
	v := &Verdict{Failed: -1}
	spec, err := LoadSpec(filepath.Join(dir, SpecFile))
	if err != nil {
		return v.invalid(err)
	}
	if spec.Test != nil {
		return v.invalid(fmt.Errorf("%s: this exercise's answer is a test: conflictlab runs the package's tests, not a check", SpecFile))
	}
	var ctrls []simcluster.Controller
	for _, e := range spec.Code {
		fn := code[e.Controller]
		if fn == nil {
			return v.invalid(fmt.Errorf("%s: code controller %q has no function in the check's test (want %s)", SpecFile, e.Controller, e.Func))
		}
		ctrls = append(ctrls, simcluster.Controller{Name: e.Controller, New: fn})
	}
	opts := simcluster.Options{MaxCallsPerReconcile: spec.Limits.CallsPerReconcile, MaxRequests: spec.Limits.Requests}
	var report strings.Builder
	for i, rs := range spec.Races {
		sc, err := scenario.Load(filepath.Join(dir, rs.Scenario))
		if err != nil {
			return v.invalid(err)
		}
		rc, err := simcluster.New(sc, opts, onlyIn(sc, ctrls)...)
		if err != nil {
			return v.invalid(err)
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
			v.Error = se
			fmt.Fprintf(&report, "✗ %s: %s\n", rs.Scenario, se.Error())
			break
		}
		writeRace(&report, rv)
		if !rv.Pass {
			v.Failed = i
			if run != nil {
				v.Outcome = run.Outcome
				v.Causes = causesOf(run.Outcome)
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

func (v *Verdict) invalid(err error) *Verdict {
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
func prove(ctx context.Context, rc *simcluster.Race, rs RaceSpec) (RaceVerdict, *simcluster.Run, error) {
	rv := RaceVerdict{Want: rs.Verdict, Explored: !rs.One}
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
func writeRace(b *strings.Builder, rv RaceVerdict) {
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
