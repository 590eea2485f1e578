package explore

import (
	"fmt"
	"math/rand/v2"
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/conflictlab/conflictlab/sim/api"
	"github.com/conflictlab/conflictlab/sim/controller"
	"github.com/conflictlab/conflictlab/sim/scenario"
)

// randomScenario draws a small race over one ConfigMap: 1–3 controllers,
// each with a random read source, write method, mutations (independent
// sets, shared counters, decisions, finalizer list edits), retry policy,
// requeue policy and reconcile count, under a random informer lag.
func randomScenario(rng *rand.Rand, i int) *scenario.Scenario {
	cm := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "v1", "kind": "ConfigMap",
		"metadata": map[string]any{"name": "cm1", "namespace": "default",
			"finalizers": []any{"example.com/setup", "example.com/keep"}},
		"data": map[string]any{"count": "0", "mode": "blue"},
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

// withInvariants gives a random race (randomScenario) one or two
// invariants, and what makes them hold in some interleavings and not in
// others: some controllers also set cm1's label tier to their own name
// (the last write decides it, a lost update drops it);
// and sometimes a second ConfigMap, cm2, labelled gen=old, that a controller deletes while
// another may create it again, labelled gen=new.
func withInvariants(rng *rand.Rand, sc *scenario.Scenario) {
	cms := []scenario.Invariant{
		{Selector: "tier", Is: 1, Why: "cm1 is labelled"},
		{Selector: "tier in (b, c)", Is: 0, Why: "nothing labelled b or c"},
	}
	// At least one controller labels cm1 with its name; the last (whose
	// write is not lost) decides the label. (Two that apply it conflict,
	// and the conflict lists both managers: TestApplyConflictCausesInOneOrder.)
	first := rng.IntN(len(sc.Controllers))
	for i := range sc.Controllers {
		if i == first || rng.IntN(2) == 0 {
			p := &sc.Controllers[i].Program
			p.Mutations = append(p.Mutations, controller.Mutation{Op: controller.Set, Path: controller.MustPath("metadata.labels.tier"), Value: p.Name})
		}
	}
	cms = append(cms, scenario.Invariant{Selector: "tier=" + sc.Controllers[first].Name, Is: 1, Why: "the label is " + sc.Controllers[first].Name + "'s"})
	if rng.IntN(2) == 0 {
		cm2 := &unstructured.Unstructured{Object: map[string]any{
			"apiVersion": "v1", "kind": "ConfigMap",
			"metadata": map[string]any{"name": "cm2", "namespace": "default", "labels": map[string]any{"gen": "old"}},
			"data":     map[string]any{"generation": "old"},
		}}
		sc.Objects = append(sc.Objects, cm2)
		ref := api.Ref{Kind: api.ConfigMap, Namespace: "default", Name: "cm2"}
		del := controller.Program{Name: "x", Target: ref, Read: controller.FromLive, Write: controller.Delete, Retry: controller.NoRetry(), Reconciles: 1}
		if rng.IntN(2) == 0 {
			del.Read = controller.FromLister
		}
		sc.Controllers = append(sc.Controllers, scenario.Controller{Program: del})
		if rng.IntN(3) > 0 {
			obj := cm2.DeepCopy()
			obj.SetLabels(map[string]string{"gen": "new"})
			obj.Object["data"] = map[string]any{"generation": "new"}
			mk := controller.Program{Name: "y", Target: ref, Read: controller.FromLive, Write: controller.Create, Object: obj,
				WhenAbsent: rng.IntN(2) == 0, Retry: controller.NoRetry(), Reconciles: 1}
			sc.Controllers = append(sc.Controllers, scenario.Controller{Program: mk})
		}
		cms = append(cms,
			scenario.Invariant{Name: "cm2", Is: 1, Why: "cm2 is made again"},
			scenario.Invariant{Name: "cm2", Is: 0, Why: "cm2 is gone"},
			scenario.Invariant{Selector: "gen=new", Is: 1, Why: "the new cm2 survives"})
	}
	rng.Shuffle(len(cms), func(i, j int) { cms[i], cms[j] = cms[j], cms[i] })
	for _, inv := range cms[:1+rng.IntN(2)] {
		inv.Kind = api.ConfigMap
		sc.Invariants = append(sc.Invariants, inv)
	}
}
