package explore

import (
	"context"
	"encoding/json"
	"reflect"
	"testing"

	"github.com/conflictlab/conflictlab/sim/api"
	"github.com/conflictlab/conflictlab/sim/controller"
	"github.com/conflictlab/conflictlab/sim/race"
	"github.com/conflictlab/conflictlab/sim/scenario"
)

// TestInvariantsCountedBesideVerdicts: c reconciles twice and creates a
// child (app=web) whenever its cache shows none. Of its three
// interleavings, only the one where the watch event of the first child
// reaches the cache before the second reconcile lists it makes one child;
// the other two make two. Every one is no-loss: the invariants are
// counted beside the verdicts, which they do not move.
func TestInvariantsCountedBesideVerdicts(t *testing.T) {
	sc, err := scenario.Load("../../lessons/course/scenarios/ryw-double-create.yaml")
	if err != nil {
		t.Fatal(err)
	}
	sc.Invariants = append(sc.Invariants,
		scenario.Invariant{Kind: api.ConfigMap, Name: "parent", Is: 1, Why: "the parent stays"},
		scenario.Invariant{Kind: api.ConfigMap, Selector: "app=web", Is: 2, Why: "two children"})
	for _, opts := range []Options{{}, {reference: true}} {
		r, err := Explore(context.Background(), sc, opts)
		if err != nil {
			t.Fatal(err)
		}
		if r.Schedules != 3 || !reflect.DeepEqual(r.Tally, map[race.Verdict]int{race.VerdictNoLoss: 3}) {
			t.Fatalf("reference %v: %d schedules, tally %v", opts.reference, r.Schedules, r.Tally)
		}
		inv := r.Invariants
		var each []int
		for _, e := range inv.Each {
			each = append(each, e.Broken)
		}
		// One child (want 1) broken twice, the parent never, two
		// children (want 2) once: every interleaving breaks one.
		if inv.Broken != 3 || !reflect.DeepEqual(inv.ByVerdict, map[race.Verdict]int{race.VerdictNoLoss: 3}) || !reflect.DeepEqual(each, []int{2, 0, 1}) {
			t.Errorf("reference %v: %d broken, by verdict %v, each %v", opts.reference, inv.Broken, inv.ByVerdict, each)
		}
		if inv.Each[1].Example != nil || inv.Each[0].Example == nil || inv.Each[2].Example == nil ||
			!reflect.DeepEqual(inv.Example, r.Examples[race.VerdictNoLoss]) {
			t.Errorf("reference %v: examples %v, each %+v, verdicts' %v", opts.reference, inv.Example, inv.Each, r.Examples)
		}
		for i, e := range inv.Each {
			if e.Example == nil {
				continue
			}
			o, err := race.Run(sc, race.Schedule{Moves: e.Example})
			if err != nil {
				t.Fatal(err)
			}
			if o.Invariants[i].Met {
				t.Errorf("example %v of invariant %d meets it: %+v", e.Example, i, o.Invariants[i])
			}
		}
	}
}

// TestNoInvariantsNoCount: a scenario without invariants has no count,
// and its JSON no "invariants" field; with one, the JSON carries it.
func TestNoInvariantsNoCount(t *testing.T) {
	sc := writers(2, controller.UpdateClearRV, controller.NoRetry(), controller.FromLister, false)
	for _, with := range []bool{false, true} {
		if with {
			sc.Invariants = []scenario.Invariant{{Kind: api.ConfigMap, Selector: "app", Is: 1, Why: "labelled"}}
		}
		r, err := Explore(context.Background(), sc, Options{})
		if err != nil {
			t.Fatal(err)
		}
		b, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		var got struct {
			Invariants *struct {
				Broken    int             `json:"broken"`
				ByVerdict map[string]int  `json:"byVerdict"`
				Example   []scenario.Move `json:"example"`
				Each      []struct {
					Selector string `json:"selector"`
					Want     int    `json:"want"`
					Broken   int    `json:"broken"`
				} `json:"each"`
			} `json:"invariants"`
		}
		if err := json.Unmarshal(b, &got); err != nil {
			t.Fatal(err)
		}
		if !with {
			if r.Invariants != nil || got.Invariants != nil {
				t.Errorf("no invariants, but %+v in %s", r.Invariants, b)
			}
			continue
		}
		// Nothing labels cm1: all 6 interleavings break it (4 lost, 2
		// no-loss).
		inv := got.Invariants
		if inv == nil || inv.Broken != 6 || inv.ByVerdict["lost"] != 4 || inv.ByVerdict["no-loss"] != 2 || len(inv.Example) == 0 ||
			len(inv.Each) != 1 || inv.Each[0].Selector != "app" || inv.Each[0].Want != 1 || inv.Each[0].Broken != 6 {
			t.Errorf("json %s", b)
		}
	}
}

// TestTooManyInvariants: more invariants than a count holds is an error,
// not a wrong count.
func TestTooManyInvariants(t *testing.T) {
	sc := writers(1, controller.MergePatch, controller.NoRetry(), controller.FromLister, false)
	for i := 0; i <= maxInvariants; i++ {
		sc.Invariants = append(sc.Invariants, scenario.Invariant{Kind: api.ConfigMap, Name: "cm1", Is: 1, Why: "kept"})
	}
	if _, err := Explore(context.Background(), sc, Options{}); err == nil {
		t.Fatal("no error")
	}
	sc.Invariants = sc.Invariants[:maxInvariants]
	r, err := Explore(context.Background(), sc, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if r.Invariants.Broken != 0 || len(r.Invariants.Each) != maxInvariants {
		t.Fatalf("%+v", r.Invariants)
	}
}
