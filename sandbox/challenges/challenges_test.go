package challenges

import (
	"context"
	"testing"

	"github.com/conflictlab/conflictlab/sandbox/draft"
	"github.com/conflictlab/conflictlab/sim/explore"
	"github.com/conflictlab/conflictlab/sim/race"
	"github.com/conflictlab/conflictlab/sim/scenario"
)

// TestEveryChallengeIsSolvableAndNotTrivial checks each shipped challenge
// against the simulator: its solution wins with exactly the par score,
// par is the best possible, and the starting race does not already win.
func TestEveryChallengeIsSolvableAndNotTrivial(t *testing.T) {
	all, err := All()
	if err != nil {
		t.Fatal(err)
	}
	if len(all) < 6 {
		t.Fatalf("%d challenges; the sandbox ships at least 6", len(all))
	}
	kinds := map[Kind]int{}
	for _, c := range all {
		kinds[c.Kind]++
		t.Run(c.ID, func(t *testing.T) {
			if c.Title == "" || c.Goal == "" || c.Hint == "" || c.Par < 1 || len(c.Solution) == 0 {
				t.Fatalf("incomplete challenge: %+v", c)
			}
			switch c.Kind {
			case Break:
				checkBreak(t, c)
			case Fix:
				checkFix(t, c)
			}
		})
	}
	if kinds[Break] < 3 || kinds[Fix] < 3 {
		t.Fatalf("want at least three of each kind: %v", kinds)
	}
}

func checkBreak(t *testing.T, c *Challenge) {
	w, err := race.New(c.Scenario)
	if err != nil {
		t.Fatal(err)
	}
	if Broken(w.Outcome()) {
		t.Fatal("the race has lost a field before any step")
	}
	r, err := explore.Explore(context.Background(), c.Scenario, explore.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if lost := r.Tally[race.VerdictLost]; lost == 0 || lost == r.Schedules {
		t.Fatalf("%d of %d interleavings lose a field: the learner has nothing to find", lost, r.Schedules)
	}
	for i, tok := range scenario.MustMoves(c.Solution...) {
		if err := w.Step(tok); err != nil {
			t.Fatalf("solution step %d: %v", i+1, err)
		}
		if Broken(w.Outcome()) != (i == len(c.Solution)-1) {
			t.Fatalf("solution %v: the loss shows at step %d, not at its end", c.Solution, i+1)
		}
	}
	if len(c.Solution) != c.Par {
		t.Fatalf("the solution takes %d steps, par is %d", len(c.Solution), c.Par)
	}
	if best := shortestLoss(t, c.Scenario, c.Par); best != c.Par {
		t.Fatalf("a schedule of %d steps loses a field; par says %d", best, c.Par)
	}
}

// shortestLoss is the fewest steps after which some schedule has lost a
// field (searching up to limit steps), by iterative deepening.
func shortestLoss(t *testing.T, sc *scenario.Scenario, limit int) int {
	root, err := race.New(sc)
	if err != nil {
		t.Fatal(err)
	}
	var reach func(w *race.World, depth int) bool
	reach = func(w *race.World, depth int) bool {
		if w.Verdict() == race.VerdictLost {
			return true
		}
		if depth == 0 {
			return false
		}
		for _, tok := range w.Enabled() {
			next := w.Clone()
			if err := next.Step(tok); err != nil {
				t.Fatal(err)
			}
			if reach(next, depth-1) {
				return true
			}
		}
		return false
	}
	for d := 0; d <= limit; d++ {
		if reach(root.Clone(), d) {
			return d
		}
	}
	return limit + 1
}

func fixed(t *testing.T, sc *scenario.Scenario) bool {
	t.Helper()
	r, err := explore.Explore(context.Background(), sc, explore.Options{MaxSchedules: 200_000})
	if err != nil {
		t.Fatal(err)
	}
	ok, _ := Fixed(r)
	return ok
}

func checkFix(t *testing.T, c *Challenge) {
	if fixed(t, c.Scenario) {
		t.Fatal("the starting race already passes")
	}
	sol := draft.Clone(c.Scenario)
	for _, a := range c.Solution {
		if err := draft.Apply(sol, a); err != nil {
			t.Fatal(err)
		}
	}
	if err := draft.Check(sol); err != nil {
		t.Fatalf("the solution is not a valid race: %v", err)
	}
	if !draft.SameRace(c.Scenario, sol) {
		t.Fatal("the solution changes what the controllers do, not how")
	}
	if !fixed(t, sol) {
		t.Fatalf("the solution %v does not pass", c.Solution)
	}
	if n := len(draft.Diff(c.Scenario, sol)); n != c.Par {
		t.Fatalf("the solution changes %d settings (%v), par is %d", n, draft.Diff(c.Scenario, sol), c.Par)
	}
	if c.Par < 2 {
		return
	}
	// Par is the best possible: no single change passes. (Pairs and
	// triples would take minutes; fix-counter's par of 4 is two changes
	// per controller, each of which alone leaves the other losing.)
	for i := range c.Scenario.Controllers {
		for _, s := range draft.Settings {
			if s.Free || !s.Shown(c.Scenario, i) {
				continue
			}
			for _, ch := range s.Choices(c.Scenario, i) {
				try := draft.Clone(c.Scenario)
				if ch.Value == s.Get(try, i) || s.Set(try, i, ch.Value) != nil || draft.Check(try) != nil {
					continue
				}
				if fixed(t, try) {
					t.Fatalf("one change passes: %v; par says %d", draft.Diff(c.Scenario, try), c.Par)
				}
			}
		}
	}
}
