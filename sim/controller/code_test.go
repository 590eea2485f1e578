package controller

import (
	"errors"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/conflictlab/conflictlab/sim/api"
)

var cmRef = api.Ref{Kind: api.ConfigMap, Namespace: "default", Name: "cm1"}

func codeProgram() Program {
	return Program{Name: "you", Target: cmRef, Write: Code, Reconciles: 1, Requeue: RequeuePolicy{Max: 2, BaseDelay: 5 * time.Millisecond}}
}

func object(rv string) *unstructured.Unstructured {
	u := &unstructured.Unstructured{Object: map[string]any{"apiVersion": "v1", "kind": "ConfigMap",
		"metadata": map[string]any{"name": "cm1", "namespace": "default", "resourceVersion": rv}}}
	return u
}

// A code machine takes the moves it is offered, one at a time, keeps the
// answer for the code, and remembers what it read as the copy a write of
// the same object was made from.
func TestCodeMachineTakesOfferedMoves(t *testing.T) {
	m := New(codeProgram())
	if a := m.Next(); a.Kind != Idle {
		t.Fatalf("nothing offered yet, Next = %+v", a)
	}
	read := Action{Kind: ReadLister, Request: api.Request{Verb: api.Get, Ref: cmRef}, Purpose: "r.go:1"}
	if err := m.Offer(read); err != nil {
		t.Fatal(err)
	}
	if err := m.Offer(read); err == nil {
		t.Fatal("a second offer while one waits must be refused")
	}
	if a := m.Next(); a.Purpose != "r.go:1" || a.Kind != ReadLister {
		t.Fatalf("Next = %+v", a)
	}
	m.Deliver(read, api.Response{Code: 200, Object: object("101")}, 0)
	if resp, ok := m.Answer(); !ok || resp.Object.GetResourceVersion() != "101" {
		t.Fatalf("answer %v %v", resp, ok)
	}
	update := Action{Kind: SendRequest, Request: api.Request{Verb: api.Update, Ref: cmRef, Body: []byte(`{}`)}}
	if err := m.Offer(update); err != nil {
		t.Fatal(err)
	}
	if h := m.Holding(); h == nil || h.GetResourceVersion() != "101" {
		t.Fatalf("holding %v", h)
	}
	conflict := apierrors.NewConflict(gr, "cm1", errors.New("the object has been modified"))
	m.Deliver(update, api.Response{Code: 409, Err: conflict}, time.Millisecond)
	if st := m.Stats(); st.Requests != 1 || st.ListerReads != 1 || st.Writes != 1 || st.Conflicts != 1 {
		t.Fatalf("stats %+v", st)
	}
	if err := m.Return(Returned{Err: conflict}); err != nil {
		t.Fatal(err)
	}
	// The workqueue: back after its backoff, from the time of the answer.
	if m.Finished() || m.WakeAt() != 6*time.Millisecond || m.Stats().Requeues != 1 {
		t.Fatalf("finished %v wake %s stats %+v", m.Finished(), m.WakeAt(), m.Stats())
	}
	// The next reconcile's write after its read counts as a retry only
	// after a conflict in the same reconcile.
	if err := m.Offer(update); err != nil {
		t.Fatal(err)
	}
	m.Deliver(update, api.Response{Code: 200, Object: object("103")}, 7*time.Millisecond)
	if st := m.Stats(); st.Retries != 0 || st.Writes != 2 || m.LastError() != nil {
		t.Fatalf("stats %+v, last error %v", st, m.LastError())
	}
	if err := m.Return(Returned{}); err != nil {
		t.Fatal(err)
	}
	if m.Status(10*time.Millisecond) != Done {
		t.Fatalf("status %s", m.Status(10*time.Millisecond))
	}
	if err := m.Offer(read); err == nil {
		t.Fatal("a finished controller takes no more moves")
	}
}

func TestCodeMachineGivesUpWhenRequeuesAreSpent(t *testing.T) {
	m := New(codeProgram())
	for i := 0; i < 3; i++ {
		if err := m.Return(Returned{Requeue: true}); err != nil {
			t.Fatal(err)
		}
	}
	if m.Status(time.Hour) != GaveUp || m.Stats().Requeues != 2 {
		t.Fatalf("status %s, stats %+v", m.Status(time.Hour), m.Stats())
	}
}

func TestCodeMachineRequeueAfter(t *testing.T) {
	p := codeProgram()
	p.Reconciles = 2
	m := New(p)
	if err := m.Return(Returned{RequeueAfter: time.Second}); err != nil {
		t.Fatal(err)
	}
	if m.Finished() || m.WakeAt() != time.Second || m.Stats().Requeues != 0 {
		t.Fatalf("wake %s stats %+v", m.WakeAt(), m.Stats())
	}
	if err := m.Return(Returned{}); err != nil || !m.Finished() {
		t.Fatalf("after the second reconcile: %v, finished %v", err, m.Finished())
	}
}

func TestCodeProgramValidates(t *testing.T) {
	p := codeProgram()
	if err := p.Validate(); err != nil {
		t.Fatalf("a code controller without mutations is valid: %v", err)
	}
	p.Target.Name = ""
	if err := p.Validate(); err == nil {
		t.Fatal("a code controller needs a target")
	}
	if err := New(Program{Name: "a", Target: cmRef, Write: Update}).Offer(Action{Kind: ReadLister}); err == nil {
		t.Fatal("only a code controller takes offers")
	}
}
