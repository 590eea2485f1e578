package live

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/types"

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

var cm1 = api.Ref{Kind: api.ConfigMap, Namespace: "default", Name: "cm1"}

func TestBodiesMoveToTheRunNamespaceAndCarryTheLabel(t *testing.T) {
	b := &Backend{s: &Session{ID: "abc123", Namespace: "conflictlab-x-abc123"}}
	u, err := b.outgoing(api.Request{Verb: api.Update, Ref: cm1,
		Body: []byte(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"cm1","namespace":"default","labels":{"a":"b"}},"data":{"n":"1"}}`)})
	if err != nil {
		t.Fatal(err)
	}
	if u.GetNamespace() != "conflictlab-x-abc123" || u.GetLabels()[RunLabel] != "abc123" || u.GetLabels()["a"] != "b" {
		t.Fatalf("%v", u.Object)
	}
	for _, body := range []string{
		`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"cm1","namespace":"default"},"data":{"x":"a"}}`,
		"apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm1\n  namespace: default\ndata:\n  x: a\n",
	} {
		apply := api.Request{Verb: api.Patch, Ref: cm1, PatchType: api.ApplyPatch, Body: []byte(body)}
		var m struct {
			Metadata struct{ Namespace string } `json:"metadata"`
		}
		out, err := b.patchBody(apply)
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(out, &m); err != nil || m.Metadata.Namespace != "conflictlab-x-abc123" {
			t.Fatalf("%s %v", out, err)
		}
	}
	// An ordinary JSON patch (test, then replace) goes out as it is.
	tested := api.Request{Verb: api.Patch, Ref: cm1, PatchType: api.JSONPatch,
		Body: []byte(`[{"op":"test","path":"/metadata/resourceVersion","value":"101"},{"op":"replace","path":"/data/x","value":"a"}]`)}
	if got, err := b.patchBody(tested); err != nil || string(got) != string(tested.Body) {
		t.Fatalf("a JSON patch of data was refused or changed: %s %v", got, err)
	}
	merge := api.Request{Verb: api.Patch, Ref: cm1, PatchType: api.MergePatch, Body: []byte(`{"data":{"x":"a"}}`)}
	if got, err := b.patchBody(merge); err != nil || string(got) != `{"data":{"x":"a"}}` {
		t.Fatalf("a patch without a namespace must go out byte for byte: %s %v", got, err)
	}
}

// A body that names another object is refused before it is sent: the
// dynamic client takes a PUT's URL from the body's name, so a renamed body
// would overwrite a stranger (issue 9).
func TestBodiesThatNameAnotherObjectAreRefused(t *testing.T) {
	b := &Backend{s: &Session{ID: "abc123", Namespace: "conflictlab-x-abc123"}}
	for _, tc := range []struct {
		verb api.Verb
		pt   types.PatchType
		body string
		want string
	}{
		{api.Update, "", `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"victim"}}`, `names ConfigMap "victim"`},
		{api.Update, "", `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"cm1","namespace":"team-prod"}}`, `namespace "team-prod"`},
		{api.Update, "", `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"namespace":"default"}}`, `names ConfigMap null`},
		{api.Update, "", `{"apiVersion":"v1","kind":"Secret","metadata":{"name":"cm1"}}`, `kind is Secret`},
		{api.Update, "", `{"apiVersion":"v1","kind":"ConfigMap"}`, `no metadata.name`},
		{api.Create, "", `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"cm1","generateName":"x-"}}`, `generated name`},
		{api.Patch, api.MergePatch, `{"metadata":{"name":"victim"}}`, `names ConfigMap "victim"`},
		{api.Patch, api.StrategicPatch, `{"metadata":{"namespace":"kube-system"}}`, `namespace "kube-system"`},
		{api.Patch, api.ApplyPatch, "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: victim\n", `names ConfigMap "victim"`},
		{api.Patch, api.JSONPatch, `[{"op":"replace","path":"/metadata/name","value":"victim"}]`, `touches the object's identity`},
		{api.Patch, api.JSONPatch, `[{"op":"move","from":"/metadata/namespace","path":"/data/x"}]`, `touches the object's identity`},
		{api.Patch, api.JSONPatch, `[{"op":"replace","path":"","value":{}}]`, `touches the object's identity`},
	} {
		req := api.Request{Verb: tc.verb, Ref: cm1, PatchType: tc.pt, Body: []byte(tc.body)}
		var err error
		if tc.verb == api.Patch {
			_, err = b.patchBody(req)
		} else {
			_, err = b.outgoing(req)
		}
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s %s %s: err = %v, want one naming %q", tc.verb, tc.pt, tc.body, err, tc.want)
		}
	}
}

func TestReservedNamespacesAreRefused(t *testing.T) {
	for _, ns := range []string{"default", "kube-system", "kube-public", "kube-node-lease"} {
		err := CheckNamespace(ns)
		if err == nil || !strings.Contains(err.Error(), "--namespace "+ns+" is refused") {
			t.Errorf("%s: %v", ns, err)
		}
		c := &Cluster{opts: Options{Namespace: ns}}
		if _, err := c.Prepare(context.Background(), nil); err == nil { // refused before any use
			t.Errorf("Prepare in %s went ahead", ns)
		}
	}
	if err := CheckNamespace("team-dev"); err != nil {
		t.Error(err)
	}
}

func TestJournalRecordsIntentThenUIDAndDescribesLeftovers(t *testing.T) {
	j := Journal(t.TempDir())
	f := &Footprint{RunID: "abc123", Context: "kind", Namespace: "team-dev", Started: "2026-12-01T00:00:00Z"}
	f.intend(api.ConfigMap, "cm1")
	f.intend(api.ConfigMap, "cm1")
	if err := j.save(f); err != nil {
		t.Fatal(err)
	}
	got, errs := j.Load()
	if len(errs) > 0 || len(got) != 1 || len(got[0].Objects) != 1 || got[0].Objects[0].UID != "" {
		t.Fatalf("%+v %v", got, errs)
	}
	f.created(api.ConfigMap, "cm1", "u-1")
	f.intend(api.Widget, "w1")
	f.forget(api.Widget, "w1")
	f.CRDUID = "u-crd"
	if err := j.save(f); err != nil {
		t.Fatal(err)
	}
	got, _ = j.Load()
	if len(got[0].Objects) != 1 || got[0].Objects[0].UID != "u-1" || got[0].CRDUID != "u-crd" {
		t.Fatalf("%+v", got[0])
	}
	d := strings.Join(got[0].Describe(), "\n")
	for _, want := range []string{`kubectl --context "kind" -n team-dev delete configmaps cm1`, "delete crd widgets.oracle.example.com", "uid u-1"} {
		if !strings.Contains(d, want) {
			t.Errorf("Describe lacks %q:\n%s", want, d)
		}
	}
	// A stray file is reported, never trusted.
	if err := os.WriteFile(filepath.Join(string(j), "zzz.json"), []byte("{}"), 0o600); err != nil {
		t.Fatal(err)
	}
	if got, errs := j.Load(); len(got) != 1 || len(errs) != 1 {
		t.Fatalf("%d records, errors %v", len(got), errs)
	}
	if err := j.remove("abc123"); err != nil {
		t.Fatal(err)
	}
	if got, _ := j.Load(); len(got) != 0 {
		t.Fatalf("record not removed: %+v", got)
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
