package controller

import (
	"encoding/json"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/conflictlab/conflictlab/sim/api"
)

func widgetRead(generation int64, size int64) *unstructured.Unstructured {
	return &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "oracle.example.com/v1", "kind": "Widget",
		"metadata": map[string]any{"name": "w1", "namespace": "default", "resourceVersion": "103", "generation": generation},
		"spec":     map[string]any{"size": size},
	}}
}

// A copy takes its value from the copy that was read, not from what the
// mutations before it made of that copy: status.observedGeneration =
// metadata.generation reports the generation the controller acted on.
func TestCopyTakesTheValueRead(t *testing.T) {
	read := widgetRead(2, 3)
	p := Program{Name: "ctl", Target: api.Ref{Kind: api.Widget, Namespace: "default", Name: "w1"}, Read: FromLister,
		Write: Update, Subresource: StatusSubresource, Retry: NoRetry(), Mutations: []Mutation{
			{Op: Set, Path: MustPath("spec.size"), Value: int64(9)},
			{Op: Copy, From: MustPath("spec.size"), Path: MustPath("status.readyReplicas")},
			{Op: Copy, From: MustPath("metadata.generation"), Path: MustPath("status.observedGeneration")},
		}}
	mutated, err := Mutate(p, read)
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := MustPath("status.readyReplicas").Get(mutated.Object); got != int64(3) {
		t.Errorf("readyReplicas = %#v, want 3 (the size read, not the 9 set before it)", got)
	}
	if got, _ := MustPath("status.observedGeneration").Get(mutated.Object); got != int64(2) {
		t.Errorf("observedGeneration = %#v, want 2", got)
	}
	if got, _ := MustPath("spec.size").Get(read.Object); got != int64(3) {
		t.Errorf("the read copy changed: spec.size = %#v", got)
	}
	// As a merge patch, the copied values are plain values in the body.
	p.Write = MergePatch
	p.Mutations = p.Mutations[1:]
	mutated, err = Mutate(p, read)
	if err != nil {
		t.Fatal(err)
	}
	req, err := BuildWrite(p, read, mutated)
	if err != nil {
		t.Fatal(err)
	}
	var body map[string]any
	if err := json.Unmarshal(req.Body, &body); err != nil {
		t.Fatal(err)
	}
	st, _ := body["status"].(map[string]any)
	if st["observedGeneration"] != float64(2) || st["readyReplicas"] != float64(3) || len(body) != 1 {
		t.Errorf("patch body = %s", req.Body)
	}
}

// Resolve turns a copy into the Set of the value read (a Remove when the
// field is absent), keeps its condition, and leaves other mutations alone.
func TestCopyResolve(t *testing.T) {
	read := widgetRead(4, 1).Object
	when := &Condition{Path: MustPath("spec.size"), Equals: int64(1)}
	c := Mutation{Op: Copy, From: MustPath("metadata.generation"), Path: MustPath("status.observedGeneration"), When: when}
	r := c.Resolve(read)
	if r.Op != Set || r.Value != int64(4) || r.Path.String() != "status.observedGeneration" || r.When != when {
		t.Errorf("resolved = %+v", r)
	}
	gone := Mutation{Op: Copy, From: MustPath("status.phase"), Path: MustPath("status.message")}
	if r := gone.Resolve(read); r.Op != Remove || r.Path.String() != "status.message" {
		t.Errorf("copy of an absent field = %+v, want a remove", r)
	}
	set := Mutation{Op: Set, Path: MustPath("spec.size"), Value: int64(2)}
	if r := set.Resolve(read); r.Op != Set || r.Value != int64(2) {
		t.Errorf("a set changed: %+v", r)
	}
	if !c.DependsOnRead() {
		t.Error("a copy depends on what was read")
	}
	if got := c.Describe(); got != "set status.observedGeneration from metadata.generation if spec.size=1" {
		t.Errorf("Describe = %q", got)
	}
	if err := (Mutation{Op: Copy, Path: MustPath("status.count")}).Validate(); err == nil {
		t.Error("a copy without from validated")
	}
	// Applied on its own, a copy reads the object it is applied to.
	obj := widgetRead(5, 1).Object
	if err := (Mutation{Op: Copy, From: MustPath("metadata.generation"), Path: MustPath("status.observedGeneration")}).Apply(obj); err != nil {
		t.Fatal(err)
	}
	if got, _ := MustPath("status.observedGeneration").Get(obj); got != int64(5) {
		t.Errorf("Apply: observedGeneration = %#v", got)
	}
}
