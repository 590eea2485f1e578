package race

import (
	"math/rand/v2"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/conflictlab/conflictlab/sim/controller"
	"github.com/conflictlab/conflictlab/sim/scenario"
)

// TestCommuteMeansSameState checks Commute against its definition on
// every example and course scenario: along random schedules, at every
// state, each pair of enabled tokens it calls independent is taken in both
// orders; both orders must stay enabled and reach the same state key.
func TestCommuteMeansSameState(t *testing.T) {
	files, _ := filepath.Glob("../../examples/*.yaml")
	course, _ := filepath.Glob("../../lessons/course/scenarios/*.yaml")
	files = append(files, course...)
	if len(files) < 20 {
		t.Fatalf("only %d scenario files", len(files))
	}
	rng := rand.New(rand.NewPCG(14, 1))
	keys := NewStateKeys()
	pairs, refused := 0, 0
	for _, f := range files {
		sc, err := scenario.Load(f)
		if err != nil {
			t.Fatal(err)
		}
		w0, err := New(sc)
		if err != nil {
			t.Fatal(err)
		}
		for run := 0; run < 8; run++ {
			w := w0.Clone()
			for len(w.Taken()) < min(sc.StepBudget(), 60) {
				en := w.Enabled()
				if len(en) == 0 {
					break
				}
				for i, a := range en {
					for _, b := range en[i+1:] {
						if !w.Commute(a, b) {
							refused++
							continue
						}
						if w.Commute(b, a) != true {
							t.Fatalf("%s after %v: Commute(%s, %s) is not symmetric", f, w.Taken(), a, b)
						}
						pairs++
						ab, ba := both(t, w, a, b), both(t, w, b, a)
						if keys.Key(ab) != keys.Key(ba) {
							t.Fatalf("%s after %v: %s and %s are said to commute, but the two orders differ", f, w.Taken(), a, b)
						}
					}
				}
				if err := w.Step(en[rng.IntN(len(en))]); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	// Tested where it can fail: many pairs said to commute, many refused.
	if pairs < 200 || refused < 200 {
		t.Fatalf("%d pairs commuted, %d refused", pairs, refused)
	}
	t.Logf("%d pairs commuted, %d refused", pairs, refused)
}

// both takes a then b on a clone of w, failing if b is no longer enabled.
func both(t *testing.T, w *World, a, b scenario.Move) *World {
	t.Helper()
	c := w.Clone()
	if err := c.Step(a); err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(c.Enabled(), b) {
		t.Fatalf("after %v: %s disabled %s", w.Taken(), a, b)
	}
	if err := c.Step(b); err != nil {
		t.Fatal(err)
	}
	return c
}

// TestCommuteRefusesWhatTheClockOrders: the cases where two Lister reads
// do not commute because of the clock. Each is first shown to be real (the
// two orders end in different states), then refused.
func TestCommuteRefusesWhatTheClockOrders(t *testing.T) {
	keys := NewStateKeys()
	differ := func(w *World, a, b string) bool {
		ma, mb := scenario.Step(a), scenario.Step(b)
		return keys.Key(both(t, w, ma, mb)) != keys.Key(both(t, w, mb, ma))
	}

	// An event falling due: a writes at once (a live read), b and c read
	// their Listers, whose informers lag 2 ms. Right after a's write, the
	// read taken second runs a tick later, when the event has arrived.
	a := prog("a", controller.MergePatch, set("data.a", "1"))
	a.Read = controller.FromLive
	sc := &scenario.Scenario{Name: "due", StartRV: 100, Objects: []*unstructured.Unstructured{configMap(map[string]any{"x": "0"})},
		Controllers: []scenario.Controller{a, prog("b", controller.MergePatch, set("data.b", "1")), prog("c", controller.MergePatch, set("data.c", "1"))},
		Lag:         scenario.Lag{Delay: 2 * time.Millisecond}}
	w, err := New(sc)
	if err != nil {
		t.Fatal(err)
	}
	if !w.Commute(scenario.Step("b"), scenario.Step("c")) {
		t.Fatal("two Lister reads with nothing pending should commute")
	}
	for _, tok := range scenario.MustMoves("a", "a") {
		if err := w.Step(tok); err != nil {
			t.Fatal(err)
		}
	}
	if !differ(w, "b", "c") {
		t.Fatal("the event falling due should order the two reads")
	}
	if w.Commute(scenario.Step("b"), scenario.Step("c")) {
		t.Fatal("Commute ignores an event about to fall due")
	}

	// A backoff: b's write conflicts and it retries 3 ms later; c reads
	// again for its second reconcile. When b wakes, its step jumps the
	// clock, by more or less depending on when it runs.
	retry := controller.RetryPolicy{Attempts: 3, On: controller.OnConflict, Reread: controller.FromLister, Backoff: 3 * time.Millisecond}
	b := prog("b", controller.Update, set("data.b", "1"))
	b.Retry = retry
	c := prog("c", controller.Update, set("data.c", "1"))
	c.Retry, c.Reconciles = retry, 2
	sc = &scenario.Scenario{Name: "backoff", StartRV: 100, Objects: []*unstructured.Unstructured{configMap(map[string]any{"x": "0"})},
		Controllers: []scenario.Controller{b, c}}
	w, err = New(sc)
	if err != nil {
		t.Fatal(err)
	}
	for _, tok := range scenario.MustMoves("b", "c", "c", "b") { // b's update conflicts
		if err := w.Step(tok); err != nil {
			t.Fatal(err)
		}
	}
	if w.Now() >= findActor(w, "b").machine.WakeAt() {
		t.Fatal("b is not backing off")
	}
	if !differ(w, "b", "c") {
		t.Fatal("b's wake-up should depend on the order")
	}
	if w.Commute(scenario.Step("b"), scenario.Step("c")) {
		t.Fatal("Commute ignores a backoff")
	}
}

func findActor(w *World, name string) *actor { return w.actor(name) }
