package explore

import (
	"context"
	"fmt"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/conflictlab/conflictlab/sim/api"
	"github.com/conflictlab/conflictlab/sim/controller"
	"github.com/conflictlab/conflictlab/sim/race"
	"github.com/conflictlab/conflictlab/sim/scenario"
)

var cm1 = api.Ref{Kind: api.ConfigMap, Namespace: "default", Name: "cm1"}

func configMap() *unstructured.Unstructured {
	return &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "v1", "kind": "ConfigMap",
		"metadata": map[string]any{"name": "cm1", "namespace": "default"},
		"data":     map[string]any{"count": "0"},
	}}
}

// writers builds n controllers that each set their own data field (or, with
// count, increment a shared counter) and write with method w.
func writers(n int, w controller.WriteMethod, retry controller.RetryPolicy, read controller.ReadSource, count bool) *scenario.Scenario {
	sc := &scenario.Scenario{Name: fmt.Sprintf("%d-%s", n, w), StartRV: 100,
		Objects: []*unstructured.Unstructured{configMap()}}
	for i := 0; i < n; i++ {
		name := string(rune('a' + i))
		mu := controller.Mutation{Op: controller.Set, Path: controller.MustPath("data." + name), Value: "1"}
		if count {
			mu = controller.Mutation{Op: controller.Increment, Path: controller.MustPath("data.count"), By: 1}
		}
		sc.Controllers = append(sc.Controllers, scenario.Controller{Program: controller.Program{
			Name: name, Target: cm1, Read: read, Write: w, Retry: retry,
			Mutations: []controller.Mutation{mu},
		}})
	}
	return sc
}

func TestUnconditionalUpdateLosesInSomeInterleavings(t *testing.T) {
	r, err := Explore(context.Background(), writers(2, controller.UpdateClearRV, controller.NoRetry(), controller.FromLister, false), Options{})
	if err != nil {
		t.Fatal(err)
	}
	// Two controllers, two steps each (read, write): C(4,2) = 6 schedules.
	// The update is lost whenever both read before either writes: a b a b,
	// a b b a, b a a b, b a b a.
	want := map[race.Verdict]int{race.VerdictLost: 4, race.VerdictNoLoss: 2}
	if r.Schedules != 6 || !reflect.DeepEqual(r.Tally, want) {
		t.Fatalf("got %d schedules, tally %v; want 6, %v", r.Schedules, r.Tally, want)
	}
	if got := r.Examples[race.VerdictLost]; !reflect.DeepEqual(got, scenario.MustMoves("a", "b", "a", "b")) {
		t.Fatalf("first losing schedule %v", got)
	}
}

// With a lagging informer even the sequential schedules lose: the second
// controller's Lister still holds the version from before the first write.
func TestStaleCacheLosesEvenSequentially(t *testing.T) {
	sc := writers(2, controller.UpdateClearRV, controller.NoRetry(), controller.FromLister, false)
	sc.Lag = scenario.Lag{Delay: 3 * time.Millisecond}
	r, err := Explore(context.Background(), sc, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if r.Tally[race.VerdictLost] != 6 {
		t.Fatalf("tally %v", r.Tally)
	}
	sc.Lag = scenario.Lag{Delay: 3 * time.Millisecond}
	sc.Controllers[1].Lag = &scenario.Lag{}
	r, err = Explore(context.Background(), sc, Options{})
	if err != nil {
		t.Fatal(err)
	}
	// b's cache is current, so "a a b b" is safe; "b b a a" still loses
	// because a's cache lags.
	if r.Tally[race.VerdictLost] != 5 || r.Tally[race.VerdictNoLoss] != 1 {
		t.Fatalf("tally %v", r.Tally)
	}
}

func TestConditionalUpdateWithLiveRereadNeverLoses(t *testing.T) {
	for _, n := range []int{2, 3} {
		for _, count := range []bool{false, true} {
			sc := writers(n, controller.Update, controller.DefaultRetry(), controller.FromLister, count)
			r, err := Explore(context.Background(), sc, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if r.Tally[race.VerdictLost] != 0 || r.Tally[race.VerdictGaveUp] != 0 || r.Truncated {
				t.Fatalf("%d controllers (counter %v): %+v", n, count, r)
			}
			if r.Schedules < 6 {
				t.Fatalf("explored only %d schedules", r.Schedules)
			}
		}
	}
}

func TestMergePatchCounterLosesIncrements(t *testing.T) {
	r, err := Explore(context.Background(), writers(2, controller.MergePatch, controller.NoRetry(), controller.FromLister, true), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if r.Tally[race.VerdictLost] != 4 || r.Tally[race.VerdictNoLoss] != 2 {
		t.Fatalf("tally %v", r.Tally)
	}
}

// TestCloningMatchesReplay checks the explorer's cloning against the plain
// definition: enumerate every schedule by replaying it from scratch.
func TestCloningMatchesReplay(t *testing.T) {
	cases := []*scenario.Scenario{
		writers(2, controller.UpdateClearRV, controller.NoRetry(), controller.FromLister, false),
		writers(2, controller.Update, controller.DefaultRetry(), controller.FromLister, true),
		writers(3, controller.MergePatch, controller.NoRetry(), controller.FromLister, true),
		writers(2, controller.Update, controller.RetryPolicy{Attempts: 3, On: controller.OnConflict, Reread: controller.RereadNone}, controller.FromLive, false),
	}
	for _, sc := range cases {
		got, err := Explore(context.Background(), sc, Options{})
		if err != nil {
			t.Fatal(err)
		}
		want := map[race.Verdict]int{}
		var replay func(prefix []scenario.Move)
		replay = func(prefix []scenario.Move) {
			w, err := race.New(sc)
			if err != nil {
				t.Fatal(err)
			}
			for _, tok := range prefix {
				if err := w.Step(tok); err != nil {
					t.Fatal(err)
				}
			}
			en := w.Enabled()
			if len(en) == 0 {
				want[w.Verdict()]++
				return
			}
			for _, tok := range en {
				replay(append(append([]scenario.Move(nil), prefix...), tok))
			}
		}
		replay(nil)
		if !reflect.DeepEqual(got.Tally, want) {
			t.Errorf("%s: explorer %v, replay %v", sc.Name, got.Tally, want)
		}
	}
}

func TestProgressCancels(t *testing.T) {
	// A merged state's subtree is counted at once, so the count can pass
	// 5 in one report; the result holds exactly what was reported.
	last := 0
	r, err := Explore(context.Background(), writers(3, controller.MergePatch, controller.NoRetry(), controller.FromLister, true), Options{
		Progress: func(done int) bool { last = done; return done < 5 },
	})
	if err != nil {
		t.Fatal(err)
	}
	if !r.Cancelled || r.Schedules != last || last < 5 || last >= 90 {
		t.Fatalf("cancelled=%v schedules=%d, last reported %d", r.Cancelled, r.Schedules, last)
	}
}

// TestMemoChangesNothing: with the server remembering answers across
// branches, every example scenario explores to exactly the same tallies and
// example schedules as without.
func TestMemoChangesNothing(t *testing.T) {
	files, err := filepath.Glob("../../examples/*.yaml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no examples: %v", err)
	}
	extra, _ := filepath.Glob("../../lessons/course/scenarios/*.yaml")
	for _, f := range append(files, extra...) {
		sc, err := scenario.Load(f)
		if err != nil {
			t.Fatal(err)
		}
		with, err := Explore(context.Background(), sc, Options{MaxSchedules: 1000})
		if err != nil {
			t.Fatal(err)
		}
		without, err := Explore(context.Background(), sc, Options{MaxSchedules: 1000, NoMemo: true})
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(with, without) {
			t.Errorf("%s: with memo %+v, without %+v", f, with, without)
		}
	}
}
