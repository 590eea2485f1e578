package explore

import (
	"context"
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/conflictlab/conflictlab/sim/controller"
	"github.com/conflictlab/conflictlab/sim/race"
	"github.com/conflictlab/conflictlab/sim/scenario"
)

// TestSleepSetsSkipCommutingSteps: three controllers reading their
// Listers, and two with manual informers whose deliveries commute with the
// other's steps: the sleep sets leave steps untaken, play fewer paths than
// merging alone, and the tally is still the reference's.
func TestSleepSetsSkipCommutingSteps(t *testing.T) {
	manual := writers(2, controller.Update, controller.DefaultRetry(), controller.FromLister, true)
	manual.Lag = scenario.Lag{Manual: true}
	for _, sc := range []*scenario.Scenario{
		writers(3, controller.MergePatch, controller.NoRetry(), controller.FromLister, true),
		writers(3, controller.Update, controller.DefaultRetry(), controller.FromLive, false),
		manual,
	} {
		if _, ok := sameAsReference(t, sc.Name, sc, 100_000); !ok {
			t.Fatalf("%s: the reference did not finish", sc.Name)
		}
		// Without symmetry, which merges most of what the sleep sets
		// would save in the first race.
		got, err := Explore(context.Background(), sc, Options{noSymmetry: true})
		if err != nil {
			t.Fatal(err)
		}
		merged, err := Explore(context.Background(), sc, Options{noSleep: true, noSymmetry: true})
		if err != nil {
			t.Fatal(err)
		}
		// Deliveries commute with every other controller's step: there
		// the sleeping steps also save whole paths.
		if got.Slept == 0 || sc == manual && got.Paths >= merged.Paths {
			t.Errorf("%s: %d steps slept, %d paths played (merging alone: %d) for %d states", sc.Name, got.Slept, got.Paths, merged.Paths, got.States)
		}
		t.Logf("%s: %d interleavings, %d states, %d paths (merging alone %d), %d slept", sc.Name, got.Schedules, got.States, got.Paths, merged.Paths, got.Slept)
	}
}

// TestWritesNeverSleep: two controllers that only write (no read in
// between: the retry rereads nothing) never commute, so nothing sleeps.
func TestWritesNeverSleep(t *testing.T) {
	sc := writers(2, controller.UpdateClearRV, controller.NoRetry(), controller.FromLister, false)
	for i := range sc.Controllers {
		sc.Controllers[i].Read = controller.FromLive
	}
	w, err := race.New(sc)
	if err != nil {
		t.Fatal(err)
	}
	if !w.Commute(scenario.Step("a"), scenario.Step("b")) {
		t.Fatal("two live GETs of an existing object should commute")
	}
	for _, tok := range scenario.MustMoves("a", "b") {
		if err := w.Step(tok); err != nil {
			t.Fatal(err)
		}
	}
	if w.Commute(scenario.Step("a"), scenario.Step("b")) {
		t.Fatal("two writes commute")
	}
}

// TestResultsAreDeterministic: the same race explored twice gives the
// same result, to the byte of its JSON (counts of states, paths and
// sleeping steps included).
func TestResultsAreDeterministic(t *testing.T) {
	files, _ := filepath.Glob("../../examples/*.yaml")
	if len(files) == 0 {
		t.Fatal("no examples")
	}
	scs := []*scenario.Scenario{writers(3, controller.MergePatch, controller.NoRetry(), controller.FromLister, true)}
	for _, f := range files {
		sc, err := scenario.Load(f)
		if err != nil {
			t.Fatal(err)
		}
		scs = append(scs, sc)
	}
	for _, sc := range scs {
		var out [2][]byte
		for i := range out {
			r, err := Explore(context.Background(), sc, Options{MaxSchedules: 20_000})
			if err != nil {
				t.Fatal(err)
			}
			if out[i], err = json.Marshal(r); err != nil {
				t.Fatal(err)
			}
		}
		if string(out[0]) != string(out[1]) {
			t.Errorf("%s: two runs differ:\n%s\n%s", sc.Name, out[0], out[1])
		}
	}
}

// TestResultJSONHasCounts: `explore -o json` prints the Result, which says
// how many distinct states and played paths the tally took.
func TestResultJSONHasCounts(t *testing.T) {
	sc := writers(2, controller.Update, controller.DefaultRetry(), controller.FromLister, true)
	sc.Lag = scenario.Lag{Manual: true}
	r, err := Explore(context.Background(), sc, Options{})
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	var got map[string]any
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	want := map[string]float64{"schedules": 324, "states": float64(r.States), "paths": float64(r.Paths), "slept": float64(r.Slept)}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("json %s = %v, want %v (%s)", k, got[k], v, b)
		}
	}
	if r.States == 0 || r.Paths == 0 || r.Slept == 0 || r.Paths >= r.Schedules {
		t.Errorf("counts %+v", r)
	}
}
