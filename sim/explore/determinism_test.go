package explore

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/conflictlab/conflictlab/sim/controller"
	"github.com/conflictlab/conflictlab/sim/scenario"
)

// TestStatesAreAFunctionOfTheRace: two races that once made the explorer
// count a different number of states on each run (the tallies stayed
// right, the merging did not): explored six times each, with and without
// symmetry, the results agree to the byte; the sleeping steps, taken
// after all, reach the states they were counted as; and merging
// renamings never keeps more states than not merging them.
func TestStatesAreAFunctionOfTheRace(t *testing.T) {
	for _, f := range []string{"testdata/two-managers-apply-a-label.yaml", "testdata/twins-beside-others.yaml"} {
		sc, err := scenario.Load(f)
		if err != nil {
			t.Fatal(err)
		}
		var first [2]string
		var results [2]*Result
		for run := 0; run < 6; run++ {
			for i, o := range []Options{{}, {noSymmetry: true}} {
				r, err := Explore(context.Background(), sc, o)
				if err != nil {
					t.Fatalf("%s: %v", f, err)
				}
				b, err := json.Marshal(r)
				if err != nil {
					t.Fatal(err)
				}
				if run == 0 {
					first[i], results[i] = string(b), r
				} else if string(b) != first[i] {
					t.Fatalf("%s (%+v): run %d differs from the first:\n%s\n%s", f, o, run, b, first[i])
				}
			}
		}
		if results[0].States > results[1].States {
			t.Errorf("%s: %d states with symmetry, %d without", f, results[0].States, results[1].States)
		}
		if _, err := Explore(context.Background(), sc, Options{checkSleep: true}); err != nil {
			t.Errorf("%s: %v", f, err)
		}
		sameAsReference(t, f, sc, 20_000)
	}
}

// TestBudgetBoundsStates: with state merging the limit counts the states
// kept as well as the schedules played, so a race whose interleavings
// explode stops at it; a race that merges down to a few states is still
// counted whole under a limit far below its number of interleavings.
func TestBudgetBoundsStates(t *testing.T) {
	big := writers(4, controller.Update, controller.DefaultRetry(), controller.FromLister, true)
	r, err := Explore(context.Background(), big, Options{MaxSchedules: 500})
	if err != nil {
		t.Fatal(err)
	}
	if !r.Truncated || r.Paths+r.States != 500 {
		t.Fatalf("limit 500: truncated %v, %d played, %d states", r.Truncated, r.Paths, r.States)
	}
	sc, err := scenario.Load("../../lessons/course/scenarios/del-recreate.yaml")
	if err != nil {
		t.Fatal(err)
	}
	// 257,602 interleavings from 14 schedules played and 501 states.
	r, err = Explore(context.Background(), sc, Options{MaxSchedules: 1000})
	if err != nil {
		t.Fatal(err)
	}
	if r.Truncated || r.Schedules != 257602 {
		t.Fatalf("del-recreate under a limit of 1000: truncated %v, %d interleavings (%d played, %d states)", r.Truncated, r.Schedules, r.Paths, r.States)
	}
}
