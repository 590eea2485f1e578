package explore

import (
	"context"
	"encoding/json"
	"testing"

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
