package code

import (
	"context"
	"testing"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes/fake"
	"sigs.k8s.io/controller-runtime/pkg/client"
	crfake "sigs.k8s.io/controller-runtime/pkg/client/fake"
)

// The lesson "Your tests lie", on the libraries themselves: client-go's
// fakes take the stale update, a reactor makes the conflict happen, and
// controller-runtime's fake refuses a stale version (and counts versions
// per object).

func TestTwoWritersPassOnClientGoFakes(t *testing.T) {
	ctx := context.Background()
	for name, c := range map[string]*fake.Clientset{
		"NewSimpleClientset": fake.NewSimpleClientset(configMap("cm1", nil, map[string]string{"mode": "blue"})),
		"NewClientset":       fake.NewClientset(configMap("cm1", nil, map[string]string{"mode": "blue"})),
	} {
		if err := TwoWriters(ctx, c, ns, "cm1"); err != nil {
			t.Fatalf("%s: %v: the fake refused the stale update", name, err)
		}
		got := get(t, c, "cm1").Data
		if _, hasA := got["a"]; hasA || got["b"] != "set by b" {
			t.Errorf("%s: data %v: want b's stale copy to have erased data.a", name, got)
		}
	}
}

func TestConflictOnceDrivesTheRetry(t *testing.T) {
	ctx := context.Background()
	c := fake.NewSimpleClientset(configMap("cm1", nil, map[string]string{}))
	ConflictOnce(c)
	if err := SetOwnerWithRetry(ctx, c, ns, "cm1"); err != nil {
		t.Fatal(err)
	}
	if g, u := countCalls(c, "get"), countCalls(c, "update"); g != 2 || u != 2 {
		t.Fatalf("%d gets, %d updates; want 2, 2 (one 409, one fresh read, one update that lands)", g, u)
	}
	if got := get(t, c, "cm1").Data["owner"]; got != "a" {
		t.Fatalf("owner %q", got)
	}
}

func TestControllerRuntimeFakeChecksVersions(t *testing.T) {
	ctx := context.Background()
	c := crfake.NewClientBuilder().WithObjects(
		&corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "cm1", Namespace: ns}},
		&corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "cm2", Namespace: ns}},
	).Build()
	var a, b corev1.ConfigMap
	key := client.ObjectKey{Namespace: ns, Name: "cm1"}
	if err := c.Get(ctx, key, &a); err != nil {
		t.Fatal(err)
	}
	b = *a.DeepCopy()
	a.Data = map[string]string{"a": "set by a"}
	if err := c.Update(ctx, &a); err != nil {
		t.Fatal(err)
	}
	b.Data = map[string]string{"b": "set by b"}
	if err := c.Update(ctx, &b); !apierrors.IsConflict(err) {
		t.Fatalf("stale update: %v, want a Conflict", err)
	}
	var cm2 corev1.ConfigMap
	if err := c.Get(ctx, client.ObjectKey{Namespace: ns, Name: "cm2"}, &cm2); err != nil {
		t.Fatal(err)
	}
	// Per-object counting: cm1 is at its second version, cm2 at its first,
	// whatever order they were written in.
	if a.ResourceVersion == cm2.ResourceVersion || cm2.ResourceVersion != b.ResourceVersion {
		t.Fatalf("cm1 at %q (read at %q), cm2 at %q", a.ResourceVersion, b.ResourceVersion, cm2.ResourceVersion)
	}
}

func TestNewConflictingClient(t *testing.T) {
	ctx := context.Background()
	c := NewConflictingClient(&corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "cm1", Namespace: ns}})
	var cm corev1.ConfigMap
	if err := c.Get(ctx, client.ObjectKey{Namespace: ns, Name: "cm1"}, &cm); err != nil {
		t.Fatal(err)
	}
	cm.Data = map[string]string{"x": "1"}
	if err := c.Update(ctx, &cm); !apierrors.IsConflict(err) {
		t.Fatalf("first update: %v, want the injected Conflict", err)
	}
	if err := c.Update(ctx, &cm); err != nil {
		t.Fatalf("second update: %v", err)
	}
}

func TestSetModeMovedOnControllerRuntimeFake(t *testing.T) {
	c := crfake.NewClientBuilder().WithObjects(&corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "cm1", Namespace: ns}}).Build()
	moved, err := SetModeMoved(context.Background(), c, ns, "cm1")
	if err != nil || !moved {
		t.Fatalf("moved %v, err %v", moved, err)
	}
}
