package code

// These tests run the snippets against client-go's fake clientsets, and
// only for what the fakes do the way a real API server does: a single
// writer's reads and writes, and the patch arithmetic (the fakes apply
// merge, strategic merge and JSON patches with the same libraries the
// server uses). The fakes never answer 409 on their own — a stale
// resourceVersion silently overwrites — so no test here relies on them for
// a conflict. Where a test needs an error to see how a retry loop reacts,
// it injects one with a reactor, the way the real server would word it.

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"
	dynamicfake "k8s.io/client-go/dynamic/fake"
	"k8s.io/client-go/kubernetes/fake"
	k8stesting "k8s.io/client-go/testing"
)

const ns = "default"

func configMap(name string, finalizers []string, data map[string]string) *corev1.ConfigMap {
	return &corev1.ConfigMap{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns, Finalizers: finalizers, ResourceVersion: "101"},
		Data:       data,
	}
}

// staleLister hands out a fixed copy: the informer cache as it was before
// someone else's write.
type staleLister struct{ cm *corev1.ConfigMap }

func (l staleLister) Get(string) (*corev1.ConfigMap, error) { return l.cm.DeepCopy(), nil }

func get(t *testing.T, c *fake.Clientset, name string) *corev1.ConfigMap {
	t.Helper()
	cm, err := c.CoreV1().ConfigMaps(ns).Get(context.Background(), name, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return cm
}

func TestSingleWriterUpdates(t *testing.T) {
	ctx := context.Background()
	c := fake.NewSimpleClientset(configMap("cm1", nil, map[string]string{"count": "4"}))
	if err := SetOwnerWithRetry(ctx, c, ns, "cm1"); err != nil {
		t.Fatal(err)
	}
	if err := SetMode(ctx, c, ns, "cm1"); err != nil {
		t.Fatal(err)
	}
	if err := Count(ctx, c, ns, "cm1", "count"); err != nil {
		t.Fatal(err)
	}
	if err := CountWithTest(ctx, c, ns, "cm1", "count"); err != nil {
		t.Fatal(err)
	}
	got := get(t, c, "cm1").Data
	if got["owner"] != "a" || got["mode"] != "green" || got["count"] != "6" {
		t.Fatalf("data %v", got)
	}
}

// The patch arithmetic of the finalizer races, with the cache one write
// behind the server.
func TestFinalizerPatches(t *testing.T) {
	ctx := context.Background()
	cached := configMap("cm1", nil, nil)
	cases := []struct {
		name string
		add  func(c *fake.Clientset) error
		want []string
	}{
		{"merge patch replaces the list", func(c *fake.Clientset) error {
			return AddFinalizerMergeFrom(ctx, c, ns, "cm1", "example.com/b", staleLister{cached})
		}, []string{"example.com/b"}},
		{"strategic merge patch merges it", func(c *fake.Clientset) error {
			return AddFinalizerStrategic(ctx, c, ns, "cm1", "example.com/b", staleLister{cached})
		}, []string{"example.com/a", "example.com/b"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := fake.NewSimpleClientset(configMap("cm1", []string{"example.com/a"}, nil))
			if err := tc.add(c); err != nil {
				t.Fatal(err)
			}
			got := slices.Sorted(slices.Values(get(t, c, "cm1").Finalizers))
			if !slices.Equal(got, tc.want) {
				t.Fatalf("finalizers %v, want %v", got, tc.want)
			}
		})
	}
}

// The capstone's list removal: the cache holds [a, you, z]; the server no
// longer has a.
func TestRemoveFinalizer(t *testing.T) {
	ctx := context.Background()
	cached := configMap("cm1", []string{"example.com/a", "example.com/you", "example.com/z"}, nil)
	server := func() *fake.Clientset {
		return fake.NewSimpleClientset(configMap("cm1", []string{"example.com/you", "example.com/z"}, nil))
	}
	cases := []struct {
		name   string
		remove func(c *fake.Clientset) error
		want   []string
	}{
		{"merge patch resurrects a", func(c *fake.Clientset) error {
			return RemoveFinalizerMergeFrom(ctx, c, ns, "cm1", "example.com/you", staleLister{cached})
		}, []string{"example.com/a", "example.com/z"}},
		{"index from the cache removes z", func(c *fake.Clientset) error {
			return RemoveFinalizerAt(ctx, c, ns, "cm1", "example.com/you", staleLister{cached})
		}, []string{"example.com/you"}},
		{"strategic merge patch deletes the element", func(c *fake.Clientset) error {
			return RemoveFinalizerStrategic(ctx, c, ns, "cm1", "example.com/you", staleLister{cached})
		}, []string{"example.com/z"}},
		{"tested JSON patch on a fresh read", func(c *fake.Clientset) error {
			return RemoveFinalizerTested(ctx, c, ns, "cm1", "example.com/you")
		}, []string{"example.com/z"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := server()
			if err := tc.remove(c); err != nil {
				t.Fatal(err)
			}
			if got := get(t, c, "cm1").Finalizers; !slices.Equal(got, tc.want) {
				t.Fatalf("finalizers %v, want %v", got, tc.want)
			}
		})
	}
}

func TestLabelPatches(t *testing.T) {
	ctx := context.Background()
	c := fake.NewSimpleClientset(configMap("cm1", nil, nil), configMap("track", nil, nil))
	for i := 0; i < 2; i++ { // a patch that states an intent can be sent twice
		if err := AddTeamLabel(ctx, c, ns, "cm1"); err != nil {
			t.Fatal(err)
		}
	}
	if got := get(t, c, "cm1").Labels["team"]; got != "payments" {
		t.Fatalf("team label %q", got)
	}
	blue := configMap("track", nil, nil)
	blue.Labels = map[string]string{"track": "blue"}
	c = fake.NewSimpleClientset(blue)
	if err := SetTrack(ctx, c, ns, "track", "red", staleLister{blue}); err != nil {
		t.Fatal(err)
	}
	if got := get(t, c, "track").Labels["track"]; got != "red" {
		t.Fatalf("track %q", got)
	}
}

// Server-side apply with the field-tracking fake (built-in kinds only):
// two managers each own what they declared.
func TestApplyRecordsManagers(t *testing.T) {
	ctx := context.Background()
	c := fake.NewClientset(configMap("cm1", nil, map[string]string{"mode": "blue"}))
	if err := ApplyX(ctx, c, ns, "cm1", "a", "1"); err != nil {
		t.Fatal(err)
	}
	if err := ApplyFinalizer(ctx, c, ns, "cm1", "b", "example.com/b"); err != nil {
		t.Fatal(err)
	}
	if err := TakeOverX(ctx, c, ns, "cm1", "c", "2"); err != nil {
		t.Fatal(err)
	}
	cm := get(t, c, "cm1")
	if cm.Data["x"] != "2" || !slices.Contains(cm.Finalizers, "example.com/b") {
		t.Fatalf("object %+v", cm)
	}
	managers := map[string]bool{}
	for _, e := range cm.ManagedFields {
		managers[e.Manager] = true
	}
	if !managers["b"] || !managers["c"] || managers["a"] {
		t.Fatalf("managers %v: want b and c (a lost its only field to c's force)", managers)
	}
}

// ApplyThree on NewClientset's field-managed tracker: a and b land, c's
// different value for a's field is a field conflict (IsConflict), as on
// the server.
func TestApplyThree(t *testing.T) {
	c := fake.NewClientset(configMap("cm1", nil, map[string]string{"mode": "blue"}))
	errs := ApplyThree(context.Background(), c, ns)
	if errs[0] != nil || errs[1] != nil || !apierrors.IsConflict(errs[2]) {
		t.Fatalf("errors %v: want a and b to land and c to conflict", errs)
	}
	if cm := get(t, c, "cm1"); cm.Data["x"] != "1" || cm.Data["y"] != "1" {
		t.Fatalf("data %v", cm.Data)
	}
}

// countCalls counts the fake's actions by verb.
func countCalls(c *fake.Clientset, verb string) int {
	n := 0
	for _, a := range c.Actions() {
		if a.GetVerb() == verb {
			n++
		}
	}
	return n
}

// reject makes every update answer err, as a server would.
func reject(c *fake.Clientset, err error) {
	c.PrependReactor("update", "configmaps", func(k8stesting.Action) (bool, runtime.Object, error) {
		return true, nil, err
	})
}

var conflict = apierrors.NewConflict(schema.GroupResource{Resource: "configmaps"}, "cm1",
	errors.New("the object has been modified; please apply your changes to the latest version and try again"))

// The retry loops' shape, with the error injected: how many calls, and
// whether each attempt reads again.
func TestRetryShapes(t *testing.T) {
	ctx := context.Background()
	cached := configMap("cm1", nil, map[string]string{})
	cases := []struct {
		name          string
		err           error
		run           func(c *fake.Clientset) error
		gets, updates int
	}{
		{"RetryOnConflict with a live GET: 5 reads, 5 writes", conflict, func(c *fake.Clientset) error {
			return SetOwnerWithRetry(ctx, c, ns, "cm1")
		}, 5, 5},
		{"retry without re-reading: 5 writes of one copy", conflict, func(c *fake.Clientset) error {
			return SetReplicasRetry(ctx, c, ns, "cm1", staleLister{cached})
		}, 0, 5},
		{"retry from the Lister: no GET at all", conflict, func(c *fake.Clientset) error {
			return SetReplicasRetryFromCache(ctx, c, ns, "cm1", staleLister{cached})
		}, 0, 5},
		{"RetryOnConflict returns a 422 at once", invalid(), func(c *fake.Clientset) error {
			return SetOwnerWithRetry(ctx, c, ns, "cm1")
		}, 1, 1},
		{"retrying every error sends the 422 five times", invalid(), func(c *fake.Clientset) error {
			return AddCleanupFinalizer(ctx, c, ns, "cm1")
		}, 5, 5},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := fake.NewSimpleClientset(configMap("cm1", nil, map[string]string{}))
			reject(c, tc.err)
			err := tc.run(c)
			if err == nil || apierrors.ReasonForError(err) != apierrors.ReasonForError(tc.err) {
				t.Fatalf("err %v, want the injected %v", err, tc.err)
			}
			if g, u := countCalls(c, "get"), countCalls(c, "update"); g != tc.gets || u != tc.updates {
				t.Fatalf("%d gets, %d updates; want %d, %d", g, u, tc.gets, tc.updates)
			}
		})
	}
}

func invalid() error {
	return apierrors.NewInvalid(schema.GroupKind{Kind: "ConfigMap"}, "cm1", field.ErrorList{
		field.Invalid(field.NewPath("metadata", "finalizers").Index(0), "cleanup",
			"name is neither a standard finalizer name nor is it fully qualified"),
	})
}

func TestTestFailed(t *testing.T) {
	failedTest := &apierrors.StatusError{ErrStatus: metav1.Status{Status: metav1.StatusFailure, Code: 422,
		Reason: metav1.StatusReasonInvalid, Message: "the server rejected our request due to an error in our request",
		Details: &metav1.StatusDetails{}}}
	if !testFailed(failedTest) {
		t.Error("a failed test (422, no causes) is not recognised")
	}
	if testFailed(invalid()) {
		t.Error("a validation error (422 with causes) is taken for a failed test")
	}
	if testFailed(conflict) {
		t.Error("a 409 is taken for a failed test")
	}
}

// The worker hands a failing key back with a growing delay and forgets it
// once the reconcile succeeds.
func TestWorkqueueRequeue(t *testing.T) {
	ctx := context.Background()
	q := NewQueue()
	defer q.ShutDown()
	fails := 2
	calls := 0
	reconcile := func(context.Context, string) error {
		calls++
		if calls <= fails {
			return conflict
		}
		return nil
	}
	q.Add("default/cm1")
	deadline := time.Now().Add(5 * time.Second)
	for calls <= fails && time.Now().Before(deadline) {
		if !ProcessNextItem(ctx, q, reconcile) {
			t.Fatal("queue shut down")
		}
		if calls <= fails {
			if got := q.NumRequeues("default/cm1"); got != calls {
				t.Fatalf("after %d failures NumRequeues is %d", calls, got)
			}
		}
	}
	if calls != fails+1 || q.NumRequeues("default/cm1") != 0 {
		t.Fatalf("%d calls, %d requeues left", calls, q.NumRequeues("default/cm1"))
	}
}

// The widget snippets send status to /status and spec to the main
// endpoint (the dynamic fake records the subresource of every action; it
// does not implement the status subresource's field filtering).
func TestWidgetEndpoints(t *testing.T) {
	ctx := context.Background()
	w := &unstructured.Unstructured{Object: map[string]interface{}{
		"apiVersion": "oracle.example.com/v1", "kind": "Widget",
		"metadata": map[string]interface{}{"name": "w1", "namespace": ns},
		"spec":     map[string]interface{}{"size": int64(1)},
	}}
	dc := dynamicfake.NewSimpleDynamicClientWithCustomListKinds(runtime.NewScheme(),
		map[schema.GroupVersionResource]string{Widgets: "WidgetList"}, w)
	if err := ResizeThenReport(ctx, dc, ns, "w1"); err != nil {
		t.Fatal(err)
	}
	if err := MarkReady(ctx, dc, ns, "w1"); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, a := range dc.Actions() {
		if a.GetVerb() == "update" {
			got = append(got, a.GetVerb()+"/"+a.GetSubresource())
		}
	}
	if want := []string{"update/", "update/status", "update/status"}; !slices.Equal(got, want) {
		t.Fatalf("writes %v, want %v", got, want)
	}
	cur, err := dc.Resource(Widgets).Namespace(ns).Get(ctx, "w1", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	conds, _, _ := unstructured.NestedSlice(cur.Object, "status", "conditions")
	if len(conds) != 1 || conds[0].(map[string]interface{})["type"] != "Ready" {
		t.Fatalf("conditions %v", conds)
	}
}
