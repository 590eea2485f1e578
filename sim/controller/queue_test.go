package controller

import (
	"errors"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/conflictlab/conflictlab/sim/api"
)

// TestEnqueue follows a machine whose events bring its key back through
// the three places an event can find its key: out of the queue (waiting:
// a reconcile starts at the event), in a reconcile (it runs again once
// that one returns), and queued before it started (the event collapses
// into it).
func TestEnqueue(t *testing.T) {
	conflict := apierrors.NewConflict(schema.GroupResource{Resource: "configmaps"}, "cm1", errors.New("the object has been modified"))
	obj := &unstructured.Unstructured{Object: map[string]interface{}{"apiVersion": "v1", "kind": "ConfigMap",
		"metadata": map[string]interface{}{"name": "cm1", "namespace": "default", "resourceVersion": "7"}}}
	p := Program{Name: "c", Target: api.Ref{Kind: api.ConfigMap, Namespace: "default", Name: "cm1"},
		Read: FromLive, Write: Update, Retry: NoRetry(), OnEvent: EventsAny,
		Mutations: []Mutation{{Op: Set, Path: MustPath("data.x"), Value: "1"}}}
	read := func(m *Machine, now time.Duration) {
		t.Helper()
		a := m.Next()
		if a.Kind != SendRequest || a.Request.Verb != api.Get {
			t.Fatalf("at %v: next is %+v, want the read", now, a)
		}
		m.Deliver(a, api.Response{Code: 200, Object: obj}, now)
	}
	write := func(m *Machine, err error, now time.Duration) {
		t.Helper()
		a := m.Next()
		if a.Request.Verb == api.Get {
			t.Fatalf("at %v: next is a read, want the write", now)
		}
		m.Deliver(a, api.Response{Code: 409, Err: err}, now)
	}

	m := New(p)
	read(m, 0)
	write(m, conflict, 1)
	if !m.Finished() || !m.Dropped() || m.Status(1) != GaveUp {
		t.Fatalf("after a swallowed 409: finished %v dropped %v status %s", m.Finished(), m.Dropped(), m.Status(1))
	}
	m.Enqueue(20 * time.Millisecond)
	if m.Finished() || m.WakeAt() != 20*time.Millisecond || m.Status(5*time.Millisecond) != Sleeping {
		t.Fatalf("an event for a key out of the queue: finished %v wake %v", m.Finished(), m.WakeAt())
	}
	if got := m.Next().Purpose; got != "event 1: read" {
		t.Errorf("purpose %q", got)
	}
	read(m, 20*time.Millisecond)
	// An event during this reconcile: it runs again once it returns.
	m.Enqueue(22 * time.Millisecond)
	write(m, conflict, 21*time.Millisecond)
	if m.Finished() || m.WakeAt() != 22*time.Millisecond {
		t.Fatalf("an event during a reconcile: finished %v wake %v, want a new reconcile at 22ms", m.Finished(), m.WakeAt())
	}
	// An event while the key waits to be served collapses into the
	// reconcile that serves it.
	m.Enqueue(23 * time.Millisecond)
	read(m, 24*time.Millisecond)
	a := m.Next()
	m.Deliver(a, api.Response{Code: 200, Object: obj}, 25*time.Millisecond)
	if !m.Finished() || m.Dropped() || m.Status(25*time.Millisecond) != Done {
		t.Fatalf("after the write lands: finished %v dropped %v status %s", m.Finished(), m.Dropped(), m.Status(25*time.Millisecond))
	}

	// Without OnEvent an event changes nothing.
	q := New(Program{Name: "d", Target: p.Target, Read: FromLive, Write: Update, Retry: NoRetry(), Mutations: p.Mutations})
	read(q, 0)
	write(q, conflict, 1)
	q.Enqueue(2)
	if !q.Finished() || q.Status(2) != GaveUp {
		t.Errorf("a machine without OnEvent woke up: %s", q.Status(2))
	}
}

func TestEventFilters(t *testing.T) {
	for _, tc := range []struct {
		f          EventFilter
		modified   bool
		old, new   int64
		wantPasses bool
	}{
		{EventsAny, true, 1, 1, true},
		{EventsGenerationChanged, true, 1, 1, false},
		{EventsGenerationChanged, true, 1, 2, true},
		{EventsGenerationChanged, false, 0, 1, true}, // a create or a delete passes GenerationChangedPredicate
		{EventsNone, true, 1, 2, false},
	} {
		if got := tc.f.Passes(tc.modified, tc.old, tc.new); got != tc.wantPasses {
			t.Errorf("%q.Passes(%v, %d, %d) = %v", tc.f, tc.modified, tc.old, tc.new, got)
		}
	}
	if err := (Program{Name: "a", OnEvent: "often"}).Validate(); err == nil {
		t.Error("an unknown filter validated")
	}
}
