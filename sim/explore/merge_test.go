package explore

import (
	"context"
	"math/rand/v2"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/conflictlab/conflictlab/sim/controller"
	"github.com/conflictlab/conflictlab/sim/race"
	"github.com/conflictlab/conflictlab/sim/scenario"
)

// sameAsReference explores sc with the plain enumeration (the reference)
// and with the explorer, and fails unless the tallies and example
// schedules are identical and every example replays, from scratch, to the
// verdict it is listed under. It also explores with state merging alone
// (no sleep sets), which must agree and reach the same states, and with
// the sleep sets checked (every sleeping token taken after all, and
// required to reach the state it was counted as), which must give the
// very same result. It reports whether the reference finished (a
// truncated reference proves nothing).
func sameAsReference(t *testing.T, name string, sc *scenario.Scenario, limit int) (got *Result, finished bool) {
	t.Helper()
	ref, err := Explore(context.Background(), sc, Options{MaxSchedules: limit, reference: true})
	if err != nil {
		t.Fatalf("%s: reference: %v", name, err)
	}
	if ref.Truncated {
		return nil, false
	}
	got, err = Explore(context.Background(), sc, Options{})
	if err != nil {
		t.Fatalf("%s: explorer: %v", name, err)
	}
	if got.Truncated || got.Cancelled {
		t.Fatalf("%s: the search stopped: %+v", name, got)
	}
	if got.Schedules != ref.Schedules || !reflect.DeepEqual(got.Tally, ref.Tally) {
		t.Errorf("%s: explorer %d schedules %v, reference %d schedules %v", name, got.Schedules, got.Tally, ref.Schedules, ref.Tally)
	}
	if !reflect.DeepEqual(got.Examples, ref.Examples) {
		t.Errorf("%s: explorer examples %v, reference %v", name, got.Examples, ref.Examples)
	}
	if got.Paths > ref.Paths || ref.Paths != ref.Schedules || ref.States != 0 || ref.Slept != 0 {
		t.Errorf("%s: explorer played %d paths, reference %d paths (%d states, %d slept) for %d schedules", name, got.Paths, ref.Paths, ref.States, ref.Slept, ref.Schedules)
	}
	for v, ex := range got.Examples {
		o, err := race.Run(sc, race.Schedule{Tokens: ex})
		if err != nil {
			t.Fatalf("%s: example %v for %s: %v", name, ex, v, err)
		}
		if o.Verdict != v {
			t.Errorf("%s: example %v is listed under %s but replays to %s", name, ex, v, o.Verdict)
		}
	}
	merged, err := Explore(context.Background(), sc, Options{noSleep: true})
	if err != nil {
		t.Fatalf("%s: merging alone: %v", name, err)
	}
	if !reflect.DeepEqual(merged.Tally, got.Tally) || !reflect.DeepEqual(merged.Examples, got.Examples) ||
		merged.States != got.States || merged.Paths < got.Paths || merged.Slept != 0 {
		t.Errorf("%s: merging alone %+v, with sleep sets %+v", name, merged, got)
	}
	plain, err := Explore(context.Background(), sc, Options{noSymmetry: true})
	if err != nil {
		t.Fatalf("%s: without symmetry: %v", name, err)
	}
	if !reflect.DeepEqual(plain.Tally, got.Tally) || !reflect.DeepEqual(plain.Examples, got.Examples) || plain.States < got.States {
		t.Errorf("%s: without symmetry %+v, with %+v", name, plain, got)
	}
	checked, err := Explore(context.Background(), sc, Options{checkSleep: true})
	if err != nil {
		t.Fatalf("%s: sleep sets checked: %v", name, err)
	}
	if !reflect.DeepEqual(checked, got) {
		t.Errorf("%s: checked %+v, unchecked %+v", name, checked, got)
	}
	return got, true
}

// TestMergingMatchesReferenceOnEveryExample: every example and course
// scenario the plain enumeration can finish gets the same tally and the
// same example schedules from the merging search.
func TestMergingMatchesReferenceOnEveryExample(t *testing.T) {
	files, _ := filepath.Glob("../../examples/*.yaml")
	course, _ := filepath.Glob("../../lessons/course/scenarios/*.yaml")
	files = append(files, course...)
	if len(files) < 20 {
		t.Fatalf("only %d scenario files", len(files))
	}
	compared := 0
	for _, f := range files {
		sc, err := scenario.Load(f)
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := sameAsReference(t, f, sc, 5_000); ok {
			compared++
		} else {
			t.Logf("%s: the reference does not finish in 5,000 schedules", f)
		}
	}
	if compared < len(files)*3/4 {
		t.Fatalf("compared only %d of %d files", compared, len(files))
	}
}

// TestMergingMatchesReferenceOnRandomScenarios is the property: on random
// small races (random_test.go) the explorer and the plain enumeration
// agree, and the sleep sets never count a step as leading somewhere it
// does not.
func TestMergingMatchesReferenceOnRandomScenarios(t *testing.T) {
	rng := rand.New(rand.NewPCG(14, 14))
	compared, merged, slept := 0, 0, 0
	verdicts := map[race.Verdict]bool{}
	for i := 0; compared < 100 && i < 400; i++ {
		sc := randomScenario(rng, i)
		if _, err := race.New(sc); err != nil {
			continue // an invalid draw (a write method the object refuses)
		}
		got, ok := sameAsReference(t, sc.Name, sc, 2_000)
		if !ok {
			continue
		}
		compared++
		if got.Paths < got.Schedules {
			merged++
		}
		if got.Slept > 0 {
			slept++
		}
		for v := range got.Tally {
			verdicts[v] = true
		}
	}
	// The property must have been tested where it can fail: on many races,
	// many of them merged, many with sleeping steps, covering the verdicts.
	if compared < 100 || merged < 15 || slept < 15 || len(verdicts) < 5 {
		t.Fatalf("compared %d races, %d with merged states, %d with sleeping steps, verdicts %v", compared, merged, slept, verdicts)
	}
	t.Logf("compared %d races, %d with merged states, %d with sleeping steps, verdicts %v", compared, merged, slept, verdicts)
}

// TestSymmetryMatchesReferenceOnRandomTwins is the property for symmetry:
// random races of two or three controllers running one random program
// (sometimes with one of them changed, sometimes with a value that is a
// controller's name, which the renaming must refuse) explore to the
// reference's tallies and example schedules, and symmetry does merge
// states in many of them.
func TestSymmetryMatchesReferenceOnRandomTwins(t *testing.T) {
	rng := rand.New(rand.NewPCG(14, 15))
	compared, reduced := 0, 0
	verdicts := map[race.Verdict]bool{}
	for i := 0; compared < 60 && i < 300; i++ {
		sc := randomScenario(rng, i)
		first := sc.Controllers[0]
		sc.Controllers = nil
		for c := 0; c < 2+rng.IntN(2); c++ {
			ctl := first
			ctl.Name = string(rune('a' + c))
			ctl.Mutations = append([]controller.Mutation(nil), first.Mutations...)
			if c > 0 && rng.IntN(6) == 0 {
				ctl.Reconciles = 3 - ctl.Reconciles // no longer a twin
			}
			sc.Controllers = append(sc.Controllers, ctl)
		}
		if _, err := race.New(sc); err != nil {
			continue
		}
		got, ok := sameAsReference(t, sc.Name, sc, 2_000)
		if !ok {
			continue
		}
		compared++
		plain, err := Explore(context.Background(), sc, Options{noSymmetry: true})
		if err != nil {
			t.Fatal(err)
		}
		if got.States < plain.States {
			reduced++
		}
		for v := range got.Tally {
			verdicts[v] = true
		}
	}
	if compared < 60 || reduced < 20 || len(verdicts) < 4 {
		t.Fatalf("compared %d races, %d with fewer states by symmetry, verdicts %v", compared, reduced, verdicts)
	}
	t.Logf("compared %d races, %d with fewer states by symmetry, verdicts %v", compared, reduced, verdicts)
}
