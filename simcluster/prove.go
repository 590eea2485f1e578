package simcluster

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/conflictlab/conflictlab/sim/race"
	"github.com/conflictlab/conflictlab/sim/report"
	"github.com/conflictlab/conflictlab/sim/scenario"
)

// TB is what Prove needs of a test: *testing.T and *testing.B have it.
type TB interface {
	Helper()
	Errorf(format string, args ...any)
	Logf(format string, args ...any)
}

// Good verdicts are the ones a correct controller may end with: every
// change landed, possibly after a requeue.
func Good(v race.Verdict) bool { return v == race.VerdictNoLoss || v == race.VerdictRequeued }

// Prove explores the race over every interleaving and fails t unless each
// one ends well: no field lost (the code controllers' mutations say what
// they mean to change), no decision written from stale data, no
// controller that gave up or did not finish, no invariant of the
// scenario broken, and no run cut short by a bound. On a failure it
// reports the tally and the first bad schedule's whole timeline, with the
// line of the code that made each call; a failure of the code (a panic, a
// call the harness cannot schedule, nondeterminism) is reported as it is.
// It returns the exploration (nil after such a failure).
//
// This is the test a fake client cannot write: client-go's fakes never
// answer 409, controller-runtime's fake does only for the copy it was
// handed, and neither has a cache that lags.
func Prove(t TB, sc *scenario.Scenario, opts Options, ctrls ...Controller) *Exploration {
	t.Helper()
	ctx := context.Background()
	rc, err := New(sc, opts, ctrls...)
	if err != nil {
		t.Errorf("%v", err)
		return nil
	}
	x, err := rc.Explore(ctx)
	if err != nil {
		t.Errorf("simcluster: race %q: %v", sc.Name, err)
		return nil
	}
	bad, first := x.Failures()
	if x.Truncated {
		t.Errorf("simcluster: race %q: the exploration stopped at its limit (%d schedules and states): the tally covers only part of the interleavings; raise Options.MaxSchedules or make the race smaller", sc.Name, rc.opts.MaxSchedules)
	}
	if len(bad) == 0 {
		if x.Bound != "" {
			t.Errorf("simcluster: race %q: a run was cut short: %s\nschedule: [%s]", sc.Name, x.Bound, joinMoves(x.BoundSchedule))
		}
		t.Logf("simcluster: race %q: all %d interleavings end well (%s)", sc.Name, x.Schedules, x.TallyLine())
		return x
	}
	var b strings.Builder
	fmt.Fprintf(&b, "simcluster: race %q: %s of %d interleavings (%s)\n", sc.Name, strings.Join(bad, ", "), x.Schedules, x.TallyLine())
	fmt.Fprintf(&b, "the first, in depth-first order: [%s]\n\n", joinMoves(first))
	run, err := rc.Run(ctx, race.Schedule{Moves: first})
	if err != nil {
		fmt.Fprintf(&b, "(replaying it failed: %v)\n", err)
		t.Errorf("%s", b.String())
		return x
	}
	rc.Report(&b, run)
	t.Errorf("%s", b.String())
	return x
}

// Failures says what went wrong over the interleavings — "3 lost",
// "2 break an invariant", one entry per bad verdict in race.Verdicts'
// order — and the first bad schedule in depth-first order (the first
// bad verdict's, or the first that breaks an invariant). Both are empty
// when every interleaving ends well (Good, no invariant broken).
func (x *Exploration) Failures() (bad []string, first []scenario.Move) {
	for _, v := range race.Verdicts {
		if n := x.Tally[v]; n > 0 && !Good(v) {
			bad = append(bad, fmt.Sprintf("%d %s", n, v))
			if first == nil {
				first = x.Examples[v]
			}
		}
	}
	if inv := x.Invariants; inv != nil && inv.Broken > 0 {
		bad = append(bad, fmt.Sprintf("%d break an invariant", inv.Broken))
		if first == nil {
			first = inv.Example
		}
	}
	return bad, first
}

// Report writes what Prove prints of a failing run: its timeline, why it
// was cut short (if it was) and the line of the code that made each call.
func (rc *Race) Report(w io.Writer, run *Run) {
	_ = report.Text(w, run.Outcome)
	if run.Bound != "" {
		fmt.Fprintf(w, "cut short: %s\n", run.Bound)
	}
	writeCallSites(w, run.Outcome, rc)
}

// TallyLine is the tally in one line: "lost 3, no-loss 3".
func (x *Exploration) TallyLine() string {
	var parts []string
	for _, v := range race.Verdicts {
		if n := x.Tally[v]; n > 0 {
			parts = append(parts, fmt.Sprintf("%s %d", v, n))
		}
	}
	return strings.Join(parts, ", ")
}

// writeCallSites lists where the code made each of its steps.
func writeCallSites(b io.Writer, o *race.Outcome, rc *Race) {
	fmt.Fprintf(b, "\nwhere the code made each call\n")
	for _, s := range o.Steps {
		if s.Kind == race.StepWatch || !rc.isCode(s.Actor) {
			continue
		}
		fmt.Fprintf(b, "  %3d  %-10s %-28s %s\n", s.Index, s.Actor, report.Call(s), s.Purpose)
	}
}
