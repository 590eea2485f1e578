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

// LongestReconcileMS is the time one reconcile holds its worker: its
// backoffs count, the workqueue's requeue delay does not, and a reconcile
// still under way counts up to its last step.
func TestLongestReconcileMS(t *testing.T) {
	conflict := apierrors.NewConflict(schema.GroupResource{Resource: "configmaps"}, "cm1", errors.New("the object has been modified"))
	obj := &unstructured.Unstructured{Object: map[string]any{"apiVersion": "v1", "kind": "ConfigMap",
		"metadata": map[string]any{"name": "cm1", "namespace": "default", "resourceVersion": "7"}}}
	run := func(retry RetryPolicy, conflicts int) Stats {
		p := Program{Name: "a", Target: api.Ref{Kind: api.ConfigMap, Namespace: "default", Name: "cm1"},
			Read: FromLive, Write: Update, Retry: retry, Requeue: RequeuePolicy{Max: 3, BaseDelay: 100 * time.Millisecond},
			Mutations: []Mutation{{Op: Set, Path: MustPath("data.x"), Value: "1"}}}
		m := New(p)
		now := time.Duration(0)
		for writes := 0; !m.Finished() && now < time.Second; now += time.Millisecond {
			if now < m.WakeAt() {
				continue
			}
			a := m.Next()
			if a.Request.Verb == api.Get {
				m.Deliver(a, api.Response{Code: 200, Object: obj}, now)
				continue
			}
			var err error
			if writes < conflicts {
				err = conflict
			}
			writes++
			m.Deliver(a, api.Response{Code: 200, Object: obj, Err: err}, now)
		}
		return m.Stats()
	}
	// Bounded: five attempts, a GET and a PUT each, 10ms of backoff after
	// each failed PUT (PUTs at 1, 12, 23, 34, 45ms),
	// then a 100ms wait in the queue that is nobody's reconcile.
	bounded := run(DefaultRetry(), 7)
	if bounded.Requeues != 1 || bounded.LongestReconcileMS != 45 {
		t.Fatalf("bounded: %+v", bounded)
	}
	// Unbounded: seven conflicts, then the eighth PUT lands at 78ms.
	unbounded := run(RetryPolicy{Unbounded: true, On: OnConflict, Reread: FromLive, Backoff: 10 * time.Millisecond}, 7)
	if unbounded.Requeues != 0 || unbounded.LongestReconcileMS != 78 {
		t.Fatalf("unbounded: %+v", unbounded)
	}
	// Never landing: counted up to the last step although it never returns.
	stuck := run(RetryPolicy{Unbounded: true, On: OnConflict, Reread: FromLive, Backoff: 10 * time.Millisecond}, 1<<30)
	if stuck.LongestReconcileMS < 990 {
		t.Fatalf("stuck: %+v", stuck)
	}
}
