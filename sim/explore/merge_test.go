package explore

import (
	"context"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/conflictlab/conflictlab/sim/controller"
	"github.com/conflictlab/conflictlab/sim/race"
	"github.com/conflictlab/conflictlab/sim/scenario"
)

// sameAsReference explores sc both ways and fails unless the tallies and
// example schedules are identical and every example replays, from
// scratch, to the verdict it is listed under. It reports whether the
// reference finished (a truncated reference proves nothing).
func sameAsReference(t *testing.T, name string, sc *scenario.Scenario, limit int) (merged *Result, finished bool) {
	t.Helper()
	ref, err := Explore(context.Background(), sc, Options{MaxSchedules: limit, reference: true})
	if err != nil {
		t.Fatalf("%s: reference: %v", name, err)
	}
	if ref.Truncated {
		return nil, false
	}
	got, err := Explore(context.Background(), sc, Options{})
	if err != nil {
		t.Fatalf("%s: merged: %v", name, err)
	}
	if got.Truncated || got.Cancelled {
		t.Fatalf("%s: merged search stopped: %+v", name, got)
	}
	if got.Schedules != ref.Schedules || !reflect.DeepEqual(got.Tally, ref.Tally) {
		t.Errorf("%s: merged %d schedules %v, reference %d schedules %v", name, got.Schedules, got.Tally, ref.Schedules, ref.Tally)
	}
	if !reflect.DeepEqual(got.Examples, ref.Examples) {
		t.Errorf("%s: merged examples %v, reference %v", name, got.Examples, ref.Examples)
	}
	if got.Paths > ref.Paths || ref.Paths != ref.Schedules {
		t.Errorf("%s: merged played %d paths, reference %d for %d schedules", name, got.Paths, ref.Paths, ref.Schedules)
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

// randomScenario draws a small race over one ConfigMap: 1–3 controllers,
// each with a random read source, write method, mutations (independent
// sets, shared counters, decisions, finalizer list edits), retry policy,
// requeue policy and reconcile count, under a random informer lag.
func randomScenario(rng *rand.Rand, i int) *scenario.Scenario {
	cm := &unstructured.Unstructured{Object: map[string]interface{}{
		"apiVersion": "v1", "kind": "ConfigMap",
		"metadata": map[string]interface{}{"name": "cm1", "namespace": "default",
			"finalizers": []interface{}{"example.com/setup", "example.com/keep"}},
		"data": map[string]interface{}{"count": "0", "mode": "blue"},
	}}
	sc := &scenario.Scenario{Name: fmt.Sprintf("random-%d", i), StartRV: 100,
		Objects: []*unstructured.Unstructured{cm}}
	switch rng.IntN(4) {
	case 1:
		sc.Lag = scenario.Lag{Delay: time.Duration(1+rng.IntN(4)) * time.Millisecond}
	case 2:
		sc.Lag = scenario.Lag{Manual: true}
	}
	if rng.IntN(4) == 0 {
		sc.MaxSteps = 6 + rng.IntN(6)
	}
	methods := []controller.WriteMethod{controller.Update, controller.UpdateClearRV, controller.MergePatch,
		controller.StrategicPatch, controller.JSONPatch, controller.ServerSideApply}
	n := 1 + rng.IntN(3)
	for c := 0; c < n; c++ {
		name := string(rune('a' + c))
		p := controller.Program{Name: name, Target: cm1, Read: controller.FromLister,
			Write: methods[rng.IntN(len(methods))], Retry: controller.NoRetry(), Reconciles: 1}
		if rng.IntN(3) == 0 {
			p.Read = controller.FromLive
		}
		p.WithRV = rng.IntN(2) == 0
		if p.Write == controller.JSONPatch && rng.IntN(2) == 0 {
			p.Test = controller.TestRV
		}
		for m := 0; m < 1+rng.IntN(2); m++ {
			switch rng.IntN(6) {
			case 0:
				p.Mutations = append(p.Mutations, controller.Mutation{Op: controller.Set, Path: controller.MustPath("data." + name), Value: "1"})
			case 1:
				p.Mutations = append(p.Mutations, controller.Mutation{Op: controller.Increment, Path: controller.MustPath("data.count"), By: 1})
			case 2:
				p.Mutations = append(p.Mutations, controller.Mutation{Op: controller.Set, Path: controller.MustPath("data.mode"), Value: "red",
					When: &controller.Condition{Path: controller.MustPath("data.mode"), Equals: "blue"}})
			case 3:
				p.Mutations = append(p.Mutations, controller.Mutation{Op: controller.AddToSet, Path: controller.MustPath("metadata.finalizers"), Value: "example.com/" + name})
			case 4:
				p.Mutations = append(p.Mutations, controller.Mutation{Op: controller.RemoveFromList, Path: controller.MustPath("metadata.finalizers"), Value: "example.com/setup"})
			case 5:
				p.Mutations = append(p.Mutations, controller.Mutation{Op: controller.Set, Path: controller.MustPath("data.mode"), Value: name})
			}
		}
		switch rng.IntN(3) {
		case 1:
			p.Retry = controller.DefaultRetry()
		case 2:
			p.Retry = controller.RetryPolicy{Attempts: 2 + rng.IntN(2), On: controller.OnConflict,
				Reread: []controller.ReadSource{controller.FromLive, controller.FromLister, controller.RereadNone}[rng.IntN(3)]}
		}
		if rng.IntN(4) == 0 {
			p.Requeue = controller.RequeuePolicy{Max: 1, BaseDelay: 5 * time.Millisecond}
		}
		if rng.IntN(4) == 0 {
			p.Reconciles = 2
		}
		ctl := scenario.Controller{Program: p}
		if rng.IntN(5) == 0 {
			ctl.Lag = &scenario.Lag{Manual: true}
		}
		sc.Controllers = append(sc.Controllers, ctl)
	}
	return sc
}

// TestMergingMatchesReferenceOnRandomScenarios is the property: on random
// small races the merging search and the plain enumeration agree.
func TestMergingMatchesReferenceOnRandomScenarios(t *testing.T) {
	rng := rand.New(rand.NewPCG(14, 14))
	compared, merged := 0, 0
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
		for v := range got.Tally {
			verdicts[v] = true
		}
	}
	// The property must have been tested where it can fail: on many races,
	// many of them merged, covering the verdicts.
	if compared < 100 || merged < 15 || len(verdicts) < 5 {
		t.Fatalf("compared %d races, %d with merged states, verdicts %v", compared, merged, verdicts)
	}
	t.Logf("compared %d races, %d with merged states, verdicts %v", compared, merged, verdicts)
}
