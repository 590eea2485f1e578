package controller

import (
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/conflictlab/conflictlab/sim/api"
)

var widget = api.Ref{Kind: api.Widget, Namespace: "default", Name: "w1"}

func readWidget() *unstructured.Unstructured {
	return &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "oracle.example.com/v1", "kind": "Widget",
		"metadata": map[string]any{"name": "w1", "namespace": "default", "resourceVersion": "101"},
		"spec":     map[string]any{"size": int64(1)},
		"status":   map[string]any{"phase": "Ready"},
	}}
}

// Every write method goes to /status when the program says so.
func TestEveryWriteMethodGoesToStatus(t *testing.T) {
	for _, w := range []WriteMethod{Update, UpdateClearRV, MergePatch, StrategicPatch, JSONPatch, ServerSideApply} {
		p := Program{Name: "st", Target: widget, Read: FromLister, Write: w, Subresource: StatusSubresource, Retry: NoRetry(),
			Mutations: []Mutation{{Op: Set, Path: MustPath("status.phase"), Value: "Done"}}}
		if err := p.Validate(); err != nil {
			t.Fatalf("%s: %v", w, err)
		}
		read := readWidget()
		mutated, err := Mutate(p, read)
		if err != nil {
			t.Fatal(err)
		}
		req, err := BuildWrite(p, read, mutated)
		if err != nil {
			t.Fatal(err)
		}
		if req.Subresource != "status" || !strings.Contains(string(req.Body), "Done") {
			t.Errorf("%s: %s to %q, want /status", w, req.Body, req.Subresource)
		}
	}
	p := Program{Name: "st", Target: widget, Read: FromLister, Write: MergePatch, Subresource: "scale", Retry: NoRetry(),
		Mutations: []Mutation{{Op: Set, Path: MustPath("status.phase"), Value: "Done"}}}
	if err := p.Validate(); err == nil || !strings.Contains(err.Error(), `unknown subresource "scale"`) {
		t.Fatalf("Validate: %v", err)
	}
}

// firstWrite drives a machine through one read (answered with read) and returns
// the write it then wants, or ok false if it skipped the write.
func firstWrite(t *testing.T, p Program, read *unstructured.Unstructured) (api.Request, string, bool) {
	t.Helper()
	if err := p.Validate(); err != nil {
		t.Fatal(err)
	}
	m := New(p)
	a := m.Next()
	m.Deliver(a, api.Response{Code: 200, Object: read}, 0)
	if m.Finished() {
		return api.Request{}, "", false
	}
	w := m.Next()
	if w.Kind != SendRequest {
		t.Fatalf("after the read: %+v", w)
	}
	return w.Request, w.Purpose, true
}

// A write whose mutations change nothing is skipped, unless the program
// says noop send: then the real no-op request goes out, for every method.
func TestNoopSend(t *testing.T) {
	same := []Mutation{{Op: Set, Path: MustPath("spec.size"), Value: int64(1)}}
	p := Program{Name: "a", Target: widget, Read: FromLister, Write: Update, Retry: NoRetry(), Mutations: same}
	if _, _, sent := firstWrite(t, p, readWidget()); sent {
		t.Fatal("a write that changes nothing was sent without noop: send")
	}
	for w, body := range map[WriteMethod]string{
		Update:         `"resourceVersion":"101"`,
		MergePatch:     `{}`,
		StrategicPatch: `{}`,
		JSONPatch:      `[]`,
		ServerSideApply: `{"apiVersion":"oracle.example.com/v1","kind":"Widget","metadata":{"name":"w1","namespace":"default"},` +
			`"spec":{"size":1}}`,
	} {
		p.Write, p.SendNoop = w, true
		req, purpose, sent := firstWrite(t, p, readWidget())
		if !sent {
			t.Fatalf("%s: noop send skipped the write", w)
		}
		if !strings.Contains(string(req.Body), body) || (w != Update && w != ServerSideApply && string(req.Body) != body) {
			t.Errorf("%s: body %s, want %s", w, req.Body, body)
		}
		if purpose != "write (no change, noop: send)" {
			t.Errorf("%s: purpose %q", w, purpose)
		}
	}
}

// A hand-written body goes out as it was written, with the method's
// content type, whatever was read; the program has no mutations.
func TestHandWrittenBodyIsSentAsWritten(t *testing.T) {
	for _, tc := range []struct {
		w    WriteMethod
		body any
		pt   string
		want string
	}{
		{MergePatch, map[string]any{"spec": map[string]any{"size": nil}}, string(api.MergePatch), `{"spec":{"size":null}}`},
		{StrategicPatch, map[string]any{"metadata": map[string]any{"$deleteFromPrimitiveList/finalizers": []any{"x.io/a"}}},
			string(api.StrategicPatch), `{"metadata":{"$deleteFromPrimitiveList/finalizers":["x.io/a"]}}`},
		{JSONPatch, []any{map[string]any{"op": "remove", "path": "/spec/size"}}, string(api.JSONPatch), `[{"op":"remove","path":"/spec/size"}]`},
		{ServerSideApply, map[string]any{"apiVersion": "oracle.example.com/v1", "kind": "Widget", "status": map[string]any{"phase": "X"}},
			string(api.ApplyPatch), `{"apiVersion":"oracle.example.com/v1","kind":"Widget","status":{"phase":"X"}}`},
	} {
		p := Program{Name: "a", Target: widget, Read: FromLister, Write: tc.w, Subresource: StatusSubresource, Body: tc.body, Retry: NoRetry()}
		req, purpose, sent := firstWrite(t, p, readWidget())
		if !sent || string(req.Body) != tc.want || string(req.PatchType) != tc.pt || req.Subresource != "status" || req.FieldManager != "a" {
			t.Errorf("%s: sent %v %s %s %q %q, want %s", tc.w, sent, req.PatchType, req.Body, req.Subresource, req.FieldManager, tc.want)
		}
		if purpose != "write (hand-written body)" {
			t.Errorf("%s: purpose %q", tc.w, purpose)
		}
	}
}

func TestHandWrittenBodyRules(t *testing.T) {
	base := Program{Name: "a", Target: widget, Read: FromLister, Retry: NoRetry()}
	for _, tc := range []struct {
		change func(*Program)
		want   string
	}{
		{func(p *Program) { p.Write, p.Body = Update, map[string]any{} }, "not update"},
		{func(p *Program) {
			p.Write, p.Body = MergePatch, map[string]any{}
			p.Mutations = []Mutation{{Op: Remove, Path: MustPath("spec.size")}}
		}, "replaces mutations"},
		{func(p *Program) { p.Write, p.Body, p.WithRV = MergePatch, map[string]any{}, true }, "withRV"},
		{func(p *Program) { p.Write, p.Body, p.SendNoop = MergePatch, map[string]any{}, true }, "always sent"},
		{func(p *Program) {
			p.Write, p.Body = MergePatch, map[string]any{"metadata": map[string]any{"name": "w2"}}
		}, `body.metadata.name: the target's name is "w1", not "w2"`},
		{func(p *Program) { p.Write, p.Body = MergePatch, map[string]any{"x": func() {}} }, "body: json: unsupported type"},
		{func(p *Program) { p.Write = MergePatch }, "no mutations"},
	} {
		p := base
		tc.change(&p)
		if err := p.Validate(); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Validate: %v, want one with %q", err, tc.want)
		}
	}
}
