package race

import (
	"reflect"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/conflictlab/conflictlab/sim/api"
	"github.com/conflictlab/conflictlab/sim/controller"
	"github.com/conflictlab/conflictlab/sim/scenario"
)

// ensureChild is a controller that makes a child named by the server
// (generateName web-, label app=web) unless its cache shows one.
func ensureChild(reconciles int, expectations bool) scenario.Controller {
	obj := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "v1", "kind": "ConfigMap",
		"metadata": map[string]any{"generateName": "web-", "namespace": "default", "labels": map[string]any{"app": "web"}},
	}}
	return scenario.Controller{Program: controller.Program{
		Name: "c", Target: api.RefOf(obj), Read: controller.FromLister, Write: controller.Create,
		Object: obj, WhenAbsent: true, Reconciles: reconciles, Expectations: expectations, Retry: controller.NoRetry(),
	}}
}

var oneChild = scenario.Invariant{Kind: api.ConfigMap, Namespace: "default", Selector: "app=web", Is: 1, Why: "the parent needs exactly one child"}

func parentScenario(c scenario.Controller, invs ...scenario.Invariant) *scenario.Scenario {
	parent := configMap(map[string]any{"replicas": "1"})
	parent.SetName("parent")
	return &scenario.Scenario{Name: "children", StartRV: 100, Objects: []*unstructured.Unstructured{parent},
		Controllers: []scenario.Controller{c}, Lag: scenario.Lag{Manual: true}, Invariants: invs}
}

// Two reconciles from a cache that has not seen the first create make two
// children: nothing is lost, the verdict says so, and the invariant does
// not hold. With expectations the second reconcile waits for its cache
// and finds the child: it holds.
func TestInvariantCountsGeneratedChildren(t *testing.T) {
	o, err := Run(parentScenario(ensureChild(2, false), oneChild), Schedule{Moves: scenario.MustMoves("c", "c", "c", "c")})
	if err != nil {
		t.Fatal(err)
	}
	if o.Verdict != VerdictNoLoss {
		t.Errorf("verdict %s: a broken invariant must not change it", o.Verdict)
	}
	if len(o.Invariants) != 1 {
		t.Fatalf("invariants %+v", o.Invariants)
	}
	r := o.Invariants[0]
	if r.Met || r.Got != 2 || r.Want != 1 || len(r.Matching) != 2 || r.Why != oneChild.Why {
		t.Fatalf("double create: %+v", r)
	}
	for _, n := range r.Matching {
		if !strings.HasPrefix(n, "web-") || len(n) != len("web-")+5 {
			t.Errorf("matching name %q is not a generated web- name", n)
		}
	}
	if r.Matching[0] == r.Matching[1] {
		t.Errorf("the two children have one name: %v", r.Matching)
	}
	if b := o.BrokenInvariants(); len(b) != 1 || !reflect.DeepEqual(b[0], r) {
		t.Errorf("BrokenInvariants %+v", b)
	}

	o, err = Run(parentScenario(ensureChild(2, true), oneChild), Schedule{Moves: scenario.MustMoves("c", "c", "c")})
	if err != nil {
		t.Fatal(err)
	}
	if r := o.Invariants[0]; !r.Met || r.Got != 1 || len(r.Matching) != 1 {
		t.Errorf("with expectations: %+v", r)
	}
	if b := o.BrokenInvariants(); b != nil {
		t.Errorf("BrokenInvariants %+v, want none", b)
	}
}

// gc deletes cm1 by name after maker created it again: the new cm1 is
// gone. In the other order, gc deletes the old one and the new survives.
// Counting by name sees through the delete and the create.
func TestInvariantByNameSeesDeletes(t *testing.T) {
	gc := prog("gc", controller.Delete)
	owner := prog("owner", controller.Delete)
	owner.Read = controller.FromLive
	maker := scenario.Controller{Program: controller.Program{Name: "maker", Target: cm1, Read: controller.FromLister,
		Write: controller.Create, Object: configMap(map[string]any{"generation": "new"}), Retry: controller.NoRetry()}}
	survives := scenario.Invariant{Kind: api.ConfigMap, Namespace: "default", Name: "cm1", Is: 1, Why: "maker's new cm1 must survive"}
	gone := scenario.Invariant{Kind: api.ConfigMap, Namespace: "default", Name: "cm1", Is: 0, Why: "nothing named cm1 is left"}
	sc := &scenario.Scenario{Name: "recreate", StartRV: 100, Objects: []*unstructured.Unstructured{configMap(map[string]any{"generation": "old"})},
		Controllers: []scenario.Controller{gc, owner, maker}, Lag: scenario.Lag{Manual: true},
		Invariants: []scenario.Invariant{survives, gone}}

	o, err := Run(sc, Schedule{Moves: scenario.MustMoves("gc", "owner", "owner", "maker", "gc")})
	if err != nil {
		t.Fatal(err)
	}
	if o.Verdict != VerdictNoLoss {
		t.Errorf("verdict %s", o.Verdict)
	}
	if r := o.Invariants; r[0].Met || r[0].Got != 0 || r[0].Matching != nil || !r[1].Met {
		t.Errorf("gc deleted the new cm1: %+v", r)
	}

	// gc's DELETE comes first and takes the old cm1; owner finds nothing
	// to delete; maker's cm1 is the one left.
	o, err = Run(sc, Schedule{Moves: scenario.MustMoves("gc", "gc", "owner", "maker")})
	if err != nil {
		t.Fatal(err)
	}
	if r := o.Invariants; !r[0].Met || r[0].Got != 1 || !reflect.DeepEqual(r[0].Matching, []string{"cm1"}) || r[1].Met {
		t.Errorf("maker's cm1 survives: %+v", r)
	}
}

// CheckInvariants reads only the versions: an object's newest version
// decides, a deletion removes it, a name created again counts again, and
// objects of another kind, namespace or label do not count.
func TestCheckInvariantsIsAFunctionOfTheHistory(t *testing.T) {
	obj := func(kind, ns, name string, labels map[string]any) map[string]any {
		md := map[string]any{"name": name, "namespace": ns}
		if labels != nil {
			md["labels"] = labels
		}
		return map[string]any{"apiVersion": "v1", "kind": kind, "metadata": md}
	}
	web := map[string]any{"app": "web"}
	versions := []Version{
		{Object: obj("ConfigMap", "default", "a", web)},
		{Object: obj("ConfigMap", "default", "b", web)},
		{Object: obj("ConfigMap", "default", "c", web)},
		{Object: obj("ConfigMap", "default", "b", web), Deleted: true}, // b is deleted
		{Object: obj("ConfigMap", "default", "c", nil)},                // c loses its label
		{Object: obj("ConfigMap", "other", "d", web)},                  // another namespace
		{Object: obj("Widget", "default", "w", web)},                   // another kind
		{Object: obj("ConfigMap", "default", "a", web), Deleted: true}, // a is deleted…
		{Object: obj("ConfigMap", "default", "a", web)},                // …and created again
	}
	invs := []scenario.Invariant{
		{Kind: api.ConfigMap, Selector: "app=web", Is: 1, Why: "one"},
		{Kind: api.ConfigMap, Name: "b", Is: 1, Why: "b stays"},
		{Kind: api.ConfigMap, Namespace: "other", Selector: "app", Is: 1, Why: "d"},
		{Kind: api.ConfigMap, Selector: "app!=web", Is: 2, Why: "parent-less"},
	}
	got := CheckInvariants(invs, versions)
	want := []InvariantResult{
		{Kind: api.ConfigMap, Namespace: "default", Selector: "app=web", Want: 1, Got: 1, Matching: []string{"a"}, Why: "one", Met: true},
		{Kind: api.ConfigMap, Namespace: "default", Name: "b", Want: 1, Got: 0, Why: "b stays"},
		{Kind: api.ConfigMap, Namespace: "other", Selector: "app", Want: 1, Got: 1, Matching: []string{"d"}, Why: "d", Met: true},
		{Kind: api.ConfigMap, Namespace: "default", Selector: "app!=web", Want: 2, Got: 1, Matching: []string{"c"}, Why: "parent-less"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("\n got %+v\nwant %+v", got, want)
	}
	if CheckInvariants(nil, versions) != nil {
		t.Error("no invariants: want nil, so that the outcome's JSON leaves them out")
	}
}
