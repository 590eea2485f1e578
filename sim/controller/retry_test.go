package controller

import (
	"errors"
	"fmt"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/util/retry"
	"k8s.io/client-go/util/workqueue"

	"github.com/conflictlab/conflictlab/sim/api"
)

// TestRetryMatchesClientGo drives a machine and client-go's own
// retry.RetryOnConflict (with the sleep taken out) through the same
// sequences of write answers, and checks they make the same number of
// attempts and end with the same error.
func TestRetryMatchesClientGo(t *testing.T) {
	gr := schema.GroupResource{Resource: "configmaps"}
	conflict := apierrors.NewConflict(gr, "cm1", errors.New("the object has been modified"))
	invalid := apierrors.NewInvalid(schema.GroupKind{Kind: "ConfigMap"}, "cm1", field.ErrorList{field.Invalid(field.NewPath("x"), "y", "bad")})
	notFound := apierrors.NewNotFound(gr, "cm1")
	forbidden := apierrors.NewForbidden(gr, "cm1", errors.New("no"))
	cases := [][]error{
		{nil},
		{conflict, nil},
		{conflict, conflict, conflict, conflict, nil},
		{conflict, conflict, conflict, conflict, conflict},
		{conflict, conflict, conflict, conflict, conflict, nil}, // a sixth attempt never happens
		{invalid},
		{conflict, invalid},
		{notFound},
		{forbidden, nil},
	}
	backoff := retry.DefaultRetry
	backoff.Duration, backoff.Jitter = 0, 0 // same steps, no wall-clock sleep
	for i, answers := range cases {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			calls := 0
			want := retry.RetryOnConflict(backoff, func() error {
				err := answers[calls]
				calls++
				return err
			})

			p := Program{Name: "a", Target: api.Ref{Kind: api.ConfigMap, Namespace: "default", Name: "cm1"},
				Read: FromLive, Write: Update, Retry: DefaultRetry(),
				Mutations: []Mutation{{Op: Set, Path: MustPath("data.x"), Value: "1"}}}
			m := New(p)
			obj := &unstructured.Unstructured{Object: map[string]any{
				"apiVersion": "v1", "kind": "ConfigMap",
				"metadata": map[string]any{"name": "cm1", "namespace": "default", "resourceVersion": "7"}}}
			writes := 0
			var last error
			for now := 0; !m.Finished() && now < 1000; now++ {
				a := m.Next()
				if a.Request.Verb == api.Get {
					m.Deliver(a, api.Response{Code: 200, Object: obj}, 0)
					continue
				}
				last = answers[writes]
				writes++
				m.Deliver(a, api.Response{Code: 200, Object: obj, Err: last}, 0)
			}
			if writes != calls {
				t.Fatalf("machine made %d write attempts, retry.RetryOnConflict %d", writes, calls)
			}
			if (want == nil) != (m.LastError() == nil) || (want != nil && want.Error() != m.LastError().Error()) {
				t.Fatalf("machine ended with %v, client-go with %v", m.LastError(), want)
			}
			if got := m.Stats().Requests; got != 2*writes {
				t.Fatalf("each attempt is a GET and a write: %d requests for %d attempts", got, writes)
			}
		})
	}
}

// TestRequeueBackoffMatchesClientGo: the workqueue model backs an item off
// as client-go's default controller rate limiter does, 5ms·2^n up to 1000s.
func TestRequeueBackoffMatchesClientGo(t *testing.T) {
	limiter := workqueue.DefaultTypedControllerRateLimiter[string]()
	p := Program{Name: "a", Target: api.Ref{Kind: api.ConfigMap, Namespace: "default", Name: "cm1"},
		Read: FromLive, Write: Update, Retry: NoRetry(), Requeue: RequeuePolicy{Max: 30},
		Mutations: []Mutation{{Op: Set, Path: MustPath("data.x"), Value: "1"}}}
	m := New(p)
	// A read that fails (a 404 would be "nothing to do", not an error).
	down := apierrors.NewServiceUnavailable("etcd is unreachable")
	now := time.Duration(0)
	for i := 0; i < 30; i++ {
		m.Deliver(m.Next(), api.Response{Code: 503, Err: down}, now)
		want := limiter.When("cm1")
		if got := m.WakeAt() - now; got != want {
			t.Fatalf("requeue %d: backoff %v, client-go %v", i+1, got, want)
		}
		now = m.WakeAt()
	}
}

// TestTestFailedRetriesOnlyCauselessInvalid: the test-failed loop retries
// the 422 a failed JSON patch test gets (no field causes) — which a
// malformed patch gets too — and returns a validation 422 (with causes), a
// 409, a 404 or a 403 after one call, as retry.OnError with the lessons'
// testFailed predicate does.
func TestTestFailedRetriesOnlyCauselessInvalid(t *testing.T) {
	gr := schema.GroupResource{Resource: "configmaps"}
	gk := schema.GroupKind{Kind: "ConfigMap"}
	testFailed := apierrors.NewInvalid(gk, "cm1", nil)
	validation := apierrors.NewInvalid(gk, "cm1", field.ErrorList{field.Invalid(field.NewPath("metadata", "finalizers"), "a", "bad")})
	cases := []struct {
		err  error
		want bool
	}{
		{testFailed, true},
		{validation, false},
		{apierrors.NewConflict(gr, "cm1", errors.New("modified")), false},
		{apierrors.NewNotFound(gr, "cm1"), false},
		{apierrors.NewForbidden(gr, "cm1", errors.New("no")), false},
	}
	r := DefaultRetry()
	r.On = OnTestFailed
	for _, c := range cases {
		if got := r.Retries(c.err); got != c.want {
			t.Errorf("%v: retried %v, want %v", c.err, got, c.want)
		}
		calls := 0
		_ = retry.OnError(wait.Backoff{Steps: 5}, func(err error) bool {
			var st apierrors.APIStatus
			if !apierrors.IsInvalid(err) || !errors.As(err, &st) {
				return false
			}
			d := st.Status().Details
			return d == nil || len(d.Causes) == 0
		}, func() error { calls++; return c.err })
		if (calls == 5) != c.want {
			t.Errorf("%v: client-go's loop made %d calls", c.err, calls)
		}
	}
}
