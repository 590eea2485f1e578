package live

import (
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/conflictlab/conflictlab/sim/api"
	"github.com/conflictlab/conflictlab/sim/controller"
)

var w1 = api.Ref{Kind: api.Widget, Namespace: "default", Name: "w1"}

// Writes to /status and hand-written bodies pass the same identity checks
// as any other write: a body that names another object, or a JSON patch
// that rewrites the name, is refused before it is sent.
func TestStatusWritesAndHandWrittenBodiesAreChecked(t *testing.T) {
	b := &Backend{s: &Session{ID: "abc123", Namespace: "conflictlab-x-abc123"}}
	build := func(p controller.Program) api.Request {
		t.Helper()
		p.Name, p.Target = "a", w1
		read := &unstructured.Unstructured{Object: map[string]any{
			"apiVersion": "oracle.example.com/v1", "kind": "Widget",
			"metadata": map[string]any{"name": "w1", "namespace": "default", "resourceVersion": "101"},
		}}
		req, err := controller.BuildWrite(p, read, read)
		if err != nil {
			t.Fatal(err)
		}
		return req
	}
	refused := []struct {
		name string
		req  api.Request
		want string
	}{
		{"a merge patch to /status naming another object",
			build(controller.Program{Write: controller.MergePatch, Subresource: "status",
				Body: map[string]any{"metadata": map[string]any{"name": "victim"}}}), `names Widget "victim"`},
		{"an apply to /status moving the object to another namespace",
			build(controller.Program{Write: controller.ServerSideApply, Subresource: "status",
				Body: map[string]any{"apiVersion": "oracle.example.com/v1", "kind": "Widget",
					"metadata": map[string]any{"name": "w1", "namespace": "kube-system"}}}), `namespace "kube-system"`},
		{"a JSON patch to /status renaming its object",
			build(controller.Program{Write: controller.JSONPatch, Subresource: "status",
				Body: []any{map[string]any{"op": "replace", "path": "/metadata/name", "value": "victim"}}}), `touches the object's identity`},
		{"a JSON patch whose renaming op follows an item that is not an operation",
			api.Request{Verb: api.Patch, Ref: w1, PatchType: api.JSONPatch,
				Body: []byte(`[5,{"op":"replace","path":"/metadata/name","value":"victim"}]`)}, `touches the object's identity`},
		{"a JSON patch whose keys are not in lower case",
			api.Request{Verb: api.Patch, Ref: w1, PatchType: api.JSONPatch,
				Body: []byte(`[{"Op":"Replace","PATH":"/metadata/name","value":"victim"}]`)}, `touches the object's identity`},
		{"a JSON patch moving the name away",
			api.Request{Verb: api.Patch, Ref: w1, PatchType: api.JSONPatch,
				Body: []byte(`[{"op":"move","from":"/metadata/name","path":"/spec/owner"}]`)}, `touches the object's identity`},
		{"an update to /status naming another object",
			api.Request{Verb: api.Update, Ref: w1, Subresource: "status",
				Body: []byte(`{"apiVersion":"oracle.example.com/v1","kind":"Widget","metadata":{"name":"victim"}}`)}, `names Widget "victim"`},
	}
	for _, tc := range refused {
		var err error
		if tc.req.Verb == api.Patch {
			_, err = b.patchBody(tc.req)
		} else {
			_, err = b.outgoing(tc.req)
		}
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want one naming %q", tc.name, err, tc.want)
		}
	}
	for _, sub := range []string{"../victim", "scale", "status/../../victim"} {
		if err := checkSubresource(api.Request{Verb: api.Patch, Ref: w1, Subresource: sub}); err == nil {
			t.Errorf("subresource %q was accepted", sub)
		}
	}
	if err := checkSubresource(api.Request{Verb: api.Patch, Ref: w1, Subresource: "status"}); err != nil {
		t.Errorf("status refused: %v", err)
	}

	// What only reads the identity, and the strategic merge directives, go
	// out byte for byte.
	for _, req := range []api.Request{
		build(controller.Program{Write: controller.JSONPatch, Subresource: "status", Body: []any{
			map[string]any{"op": "test", "path": "/metadata/uid", "value": "00000000-0000-4000-8000-000000000001"},
			map[string]any{"op": "copy", "from": "/metadata/name", "path": "/status/message"},
		}}),
		build(controller.Program{Write: controller.StrategicPatch, Body: map[string]any{
			"metadata": map[string]any{
				"$deleteFromPrimitiveList/finalizers": []any{"x.io/a"},
				"$setElementOrder/finalizers":         []any{"x.io/b"},
				"finalizers":                          []any{"x.io/b"},
			}}}),
		build(controller.Program{Write: controller.MergePatch, Subresource: "status",
			Body: map[string]any{"status": map[string]any{"phase": nil}}}),
	} {
		got, err := b.patchBody(req)
		if err != nil || string(got) != string(req.Body) {
			t.Errorf("%s %s was refused or changed: %s %v", req.PatchType, req.Body, got, err)
		}
	}
}
