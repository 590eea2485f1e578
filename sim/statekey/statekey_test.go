package statekey

import (
	"errors"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/conflictlab/conflictlab/sim/api"
)

// TestValuesOfDifferentTypesDiffer: a value's encoding says its type
// (an int64 is not the float64 of the same number, nor the string of its
// digits), maps are written in key order whatever their iteration order,
// and nesting is framed (["a","b"] is not ["ab"]).
func TestValuesOfDifferentTypesDiffer(t *testing.T) {
	values := []any{nil, "1", int64(1), float64(1), 1, true, false, int32(1),
		[]any{"a", "b"}, []any{"ab"}, []any{[]any{"a"}, "b"},
		map[string]any{"a": "b"}, map[string]any{"a": []any{"b"}}, map[string]any{"ab": ""}}
	distinct(t, values, Value)
	m := map[string]any{}
	for _, k := range []string{"z", "y", "x", "w", "v", "u", "t", "s"} {
		m[k] = k
	}
	first := Encode(func(e Encoder) { Value(e, m) })
	for range 20 {
		if got := Encode(func(e Encoder) { Value(e, m) }); got != first {
			t.Fatalf("a map encodes differently from one call to the next:\n%s\n%s", first, got)
		}
	}
}

// TestErrorsByStatus: a status error is written with its reason, code,
// message and causes, so a conflict and a not-found differ, and so do two
// conflicts with different messages; another error by type and message.
func TestErrorsByStatus(t *testing.T) {
	gr := schema.GroupResource{Resource: "configmaps"}
	conflict := apierrors.NewConflict(gr, "cm1", errors.New("the object has been modified"))
	conflict2 := apierrors.NewConflict(gr, "cm1", errors.New("something else"))
	invalid := apierrors.NewInvalid(schema.GroupKind{Kind: "ConfigMap"}, "cm1", nil)
	errs := []error{nil, conflict, conflict2, apierrors.NewNotFound(gr, "cm1"), invalid,
		errors.New("the object has been modified"), errors.New("other"), &apierrors.StatusError{}}
	distinct(t, errs, Error)
}

// distinct: no two of values encode alike.
func distinct[T any](t *testing.T, values []T, write func(Encoder, T)) {
	t.Helper()
	seen := map[string]T{}
	for _, v := range values {
		enc := Encode(func(e Encoder) { write(e, v) })
		if prev, dup := seen[enc]; dup {
			t.Errorf("%#v and %#v encode alike:\n%s", prev, v, enc)
		}
		seen[enc] = v
	}
}

// TestObjectsInRefOrder: a store is written in reference order, whatever
// the map's iteration order.
func TestObjectsInRefOrder(t *testing.T) {
	objs := map[api.Ref]*unstructured.Unstructured{}
	for _, n := range []string{"e", "d", "c", "b", "a"} {
		objs[api.Ref{Kind: api.ConfigMap, Namespace: "default", Name: n}] = &unstructured.Unstructured{Object: map[string]any{"n": n}}
	}
	objs[api.Ref{Kind: api.ConfigMap, Namespace: "aaa", Name: "z"}] = nil
	first := Encode(func(e Encoder) { Objects(e, objs) })
	for range 20 {
		if got := Encode(func(e Encoder) { Objects(e, objs) }); got != first {
			t.Fatalf("a store encodes differently from one call to the next:\n%s\n%s", first, got)
		}
	}
	want := "int 6\ntext \"ConfigMap\"\ntext \"aaa\"\ntext \"z\"\nobject nil\ntext \"ConfigMap\"\ntext \"default\"\ntext \"a\"\nobject {\"n\":\"a\"}\n"
	if len(first) < len(want) || first[:len(want)] != want {
		t.Errorf("store starts\n%s\nwant\n%s", first, want)
	}
}
