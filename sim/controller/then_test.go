package controller

import (
	"encoding/json"
	"errors"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/conflictlab/conflictlab/sim/api"
)

func widgetAt(rv string, status map[string]interface{}) *unstructured.Unstructured {
	o := map[string]interface{}{
		"apiVersion": "oracle.example.com/v1", "kind": "Widget",
		"metadata": map[string]interface{}{"name": "w1", "namespace": "default", "resourceVersion": rv},
		"spec":     map[string]interface{}{"size": int64(1)},
	}
	if status != nil {
		o["status"] = status
	}
	return &unstructured.Unstructured{Object: o}
}

// The second call of a reconcile is built on the first call's answer, not
// on what the reconcile had changed before it: a status set before an
// Update of the main resource is gone from the object the client hands
// to Status().Update, which sends the answer's status (and its RV).
func TestThenStartsFromTheAnswer(t *testing.T) {
	p := Program{Name: "r", Target: api.Ref{Kind: api.Widget, Namespace: "default", Name: "w1"}, Read: FromLister,
		Write: Update, Retry: NoRetry(), Then: &Then{Subresource: StatusSubresource},
		Mutations: []Mutation{{Op: Set, Path: MustPath("status.phase"), Value: "Ready"}, {Op: Set, Path: MustPath("spec.size"), Value: int64(2)}}}
	if err := p.Validate(); err != nil {
		t.Fatal(err)
	}
	m := New(p)
	read := Action{Kind: ReadLister}
	m.Deliver(read, api.Response{Code: 200, Object: widgetAt("101", nil)}, 0)
	first := m.Next()
	if first.Then || first.Request.Subresource != "" || first.Request.Verb != api.Update {
		t.Fatalf("first call %+v", first)
	}
	// The main endpoint kept the old status (none) and moved the RV.
	answer := widgetAt("102", map[string]interface{}{"phase": "Pending"})
	answer.Object["spec"] = map[string]interface{}{"size": int64(2)}
	m.Deliver(first, api.Response{Code: 200, Object: answer}, 1)
	second := m.Next()
	if !second.Then || second.Request.Subresource != StatusSubresource || second.Request.Verb != api.Update {
		t.Fatalf("second call %+v", second)
	}
	var sent map[string]interface{}
	if err := json.Unmarshal(second.Request.Body, &sent); err != nil {
		t.Fatal(err)
	}
	status, _ := sent["status"].(map[string]interface{})
	meta, _ := sent["metadata"].(map[string]interface{})
	if status["phase"] != "Pending" || meta["resourceVersion"] != "102" {
		t.Errorf("the second call sends status %v at RV %v: want the answer's Pending at 102", status, meta["resourceVersion"])
	}
	m.Deliver(second, api.Response{Code: 200, Object: answer}, 2)
	if !m.Finished() || m.Status(2) != Done || m.Stats().Writes != 2 || m.Stats().Requests != 2 {
		t.Errorf("after both calls: finished %v, %s, %+v", m.Finished(), m.Status(2), m.Stats())
	}
}

// Changes made after the first call returned are in the second.
func TestThenMutationsApplyToTheAnswer(t *testing.T) {
	p := Program{Name: "r", Target: api.Ref{Kind: api.Widget, Namespace: "default", Name: "w1"}, Read: FromLister,
		Write: Update, Retry: NoRetry(),
		Mutations: []Mutation{{Op: Set, Path: MustPath("spec.size"), Value: int64(2)}},
		Then:      &Then{Subresource: StatusSubresource, Mutations: []Mutation{{Op: Set, Path: MustPath("status.phase"), Value: "Ready"}}}}
	m := New(p)
	m.Deliver(Action{Kind: ReadLister}, api.Response{Code: 200, Object: widgetAt("101", nil)}, 0)
	first := m.Next()
	m.Deliver(first, api.Response{Code: 200, Object: widgetAt("102", nil)}, 1)
	second := m.Next()
	var sent struct {
		Status map[string]interface{} `json:"status"`
	}
	if err := json.Unmarshal(second.Request.Body, &sent); err != nil {
		t.Fatal(err)
	}
	if sent.Status["phase"] != "Ready" {
		t.Errorf("second call's status %v", sent.Status)
	}
	// A failed second call ends the reconcile with its error, unretried.
	m.Deliver(second, api.Response{Code: 409, Err: apierrors.NewConflict(schema.GroupResource{Group: "oracle.example.com", Resource: "widgets"}, "w1", errors.New("the object has been modified"))}, 2)
	if m.Status(2) != GaveUp || m.Stats().Conflicts != 1 || m.Stats().Retries != 0 {
		t.Errorf("after a 409 on the second call: %s %+v", m.Status(2), m.Stats())
	}
}

func TestThenValidation(t *testing.T) {
	base := Program{Name: "r", Target: api.Ref{Kind: api.Widget, Namespace: "default", Name: "w1"}, Read: FromLister,
		Write: Update, Retry: NoRetry(), Mutations: []Mutation{{Op: Set, Path: MustPath("spec.size"), Value: int64(2)}}}
	for name, change := range map[string]func(*Program){
		"after a patch":   func(p *Program) { p.Write = MergePatch; p.Then = &Then{} },
		"bad subresource": func(p *Program) { p.Then = &Then{Subresource: "scale"} },
		"decides": func(p *Program) {
			p.Then = &Then{Mutations: []Mutation{{Op: Copy, Path: MustPath("status.observedGeneration"), From: MustPath("metadata.generation")}}}
		},
	} {
		p := base
		change(&p)
		if err := p.Validate(); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
	ok := base
	ok.Then = &Then{}
	if err := ok.Validate(); err != nil {
		t.Errorf("a bare then: %v", err)
	}
}
