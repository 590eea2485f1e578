package live

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/conflictlab/conflictlab/sim/api"
)

func TestDNSLabel(t *testing.T) {
	for in, want := range map[string]string{
		"lost-update": "lost-update", "Apply_Conflict 2": "apply-conflict-2", "--": "race",
		strings.Repeat("a", 60): strings.Repeat("a", 40),
	} {
		if got := dnsLabel(in, 40); got != want {
			t.Errorf("dnsLabel(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestBodiesMoveToTheRunNamespaceAndCarryTheLabel(t *testing.T) {
	b := &Backend{s: &Session{ID: "abc123", Namespace: "conflictlab-x-abc123"}}
	u, err := b.outgoing([]byte(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"cm1","namespace":"default","labels":{"a":"b"}},"data":{"n":"1"}}`))
	if err != nil {
		t.Fatal(err)
	}
	if u.GetNamespace() != "conflictlab-x-abc123" || u.GetLabels()[RunLabel] != "abc123" || u.GetLabels()["a"] != "b" {
		t.Fatalf("%v", u.Object)
	}
	apply := api.Request{Verb: api.Patch, PatchType: api.ApplyPatch,
		Body: []byte(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"cm1","namespace":"default"},"data":{"x":"a"}}`)}
	var m struct {
		Metadata struct{ Namespace string } `json:"metadata"`
	}
	if err := json.Unmarshal(b.patchBody(apply), &m); err != nil || m.Metadata.Namespace != "conflictlab-x-abc123" {
		t.Fatalf("%s %v", b.patchBody(apply), err)
	}
	merge := api.Request{Verb: api.Patch, PatchType: api.MergePatch, Body: []byte(`{"data":{"x":"a"}}`)}
	if got := string(b.patchBody(merge)); got != `{"data":{"x":"a"}}` {
		t.Fatalf("a patch without a namespace must go out byte for byte: %s", got)
	}
}

func TestPermissionsName(t *testing.T) {
	got := strings.Join(Permissions([]api.Kind{api.ConfigMap, api.Widget}, true, true), "\n")
	for _, want := range []string{"namespaces: create, delete", "configmaps: get, list, watch, create, update, patch, delete",
		"widgets.oracle.example.com/status: update, patch", "customresourcedefinitions.apiextensions.k8s.io: get, create, delete"} {
		if !strings.Contains(got, want) {
			t.Errorf("lacks %q:\n%s", want, got)
		}
	}
}
