package apiserver_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"sort"
	"strconv"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"

	"github.com/conflictlab/conflictlab/sim/api"
	"github.com/conflictlab/conflictlab/sim/apiserver"
)

// firstRV makes the first write of a fresh server get resourceVersion 228,
// so that the watch case reproduces docs/SEMANTICS.md's numbers exactly
// (ADDED 228, MODIFIED 229, DELETED 230).
const firstRV = 227

const ns = "default"

func newServer() *apiserver.Server { return apiserver.New(nil, firstRV) }

func cmRef(name string) api.Ref     { return api.Ref{Kind: api.ConfigMap, Namespace: ns, Name: name} }
func deployRef(name string) api.Ref { return api.Ref{Kind: api.Deployment, Namespace: ns, Name: name} }
func widgetRef(name string) api.Ref { return api.Ref{Kind: api.Widget, Namespace: ns, Name: name} }

// Request builders: the body is JSON (or YAML for apply), as a real HTTP
// client puts it on the wire.

func createReq(r api.Ref, body []byte) api.Request {
	return api.Request{Verb: api.Create, Ref: r, Body: body}
}

func updateReq(r api.Ref, body []byte) api.Request {
	return api.Request{Verb: api.Update, Ref: r, Body: body}
}

func statusReq(r api.Ref, body []byte) api.Request {
	return api.Request{Verb: api.Update, Ref: r, Subresource: "status", Body: body}
}

func patchReq(r api.Ref, pt types.PatchType, body string) api.Request {
	return api.Request{Verb: api.Patch, Ref: r, PatchType: pt, Body: []byte(body)}
}

func applyReq(r api.Ref, manager string, force bool, yamlBody string) api.Request {
	return api.Request{Verb: api.Patch, Ref: r, PatchType: api.ApplyPatch, Body: []byte(yamlBody),
		FieldManager: manager, Force: force}
}

func deleteReq(r api.Ref) api.Request { return api.Request{Verb: api.Delete, Ref: r} }
func getReq(r api.Ref) api.Request    { return api.Request{Verb: api.Get, Ref: r} }

func mustJSON(t testing.TB, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// meta is an object's metadata as a client sends it; rv "" leaves the
// resourceVersion out entirely.
func meta(name, rv string, finalizers ...string) map[string]any {
	m := map[string]any{"name": name, "namespace": ns}
	if rv != "" {
		m["resourceVersion"] = rv
	}
	if len(finalizers) > 0 {
		m["finalizers"] = finalizers
	}
	return m
}

// cmBody is a whole ConfigMap.
func cmBody(t testing.TB, name, rv string, data map[string]string, finalizers ...string) []byte {
	t.Helper()
	return mustJSON(t, map[string]any{
		"apiVersion": "v1", "kind": "ConfigMap",
		"metadata": meta(name, rv, finalizers...),
		"data":     data,
	})
}

// deployBody is a whole Deployment with the given containers (name -> image).
func deployBody(t testing.TB, name, rv string, containers ...[2]string) []byte {
	t.Helper()
	var cs []map[string]any
	for _, c := range containers {
		cs = append(cs, map[string]any{"name": c[0], "image": c[1]})
	}
	return mustJSON(t, map[string]any{
		"apiVersion": "apps/v1", "kind": "Deployment",
		"metadata": meta(name, rv),
		"spec": map[string]any{
			"selector": map[string]any{"matchLabels": map[string]any{"app": name}},
			"template": map[string]any{
				"metadata": map[string]any{"labels": map[string]any{"app": name}},
				"spec":     map[string]any{"containers": cs},
			},
		},
	})
}

// widgetBody is a whole Widget; a nil spec or status is left out.
func widgetBody(t testing.TB, name, rv string, spec, status map[string]any) []byte {
	t.Helper()
	obj := map[string]any{
		"apiVersion": api.WidgetGroup + "/v1", "kind": "Widget",
		"metadata": meta(name, rv),
	}
	if spec != nil {
		obj["spec"] = spec
	}
	if status != nil {
		obj["status"] = status
	}
	return mustJSON(t, obj)
}

// mustDo serves a request that must succeed and returns its object.
func mustDo(t testing.TB, s *apiserver.Server, req api.Request) *unstructured.Unstructured {
	t.Helper()
	resp := s.Do(req)
	if resp.Err != nil {
		t.Fatalf("%s: unexpected error %d: %v", req.Describe(), resp.Code, resp.Err)
	}
	return resp.Object
}

func mustGet(t testing.TB, s *apiserver.Server, r api.Ref) *unstructured.Unstructured {
	t.Helper()
	return mustDo(t, s, getReq(r))
}

func rvOf(t testing.TB, u *unstructured.Unstructured) int64 {
	t.Helper()
	n, err := strconv.ParseInt(u.GetResourceVersion(), 10, 64)
	if err != nil {
		t.Fatalf("resourceVersion %q of %s: %v", u.GetResourceVersion(), u.GetName(), err)
	}
	return n
}

// state is everything a client can observe of a server: its revision,
// every object (as JSON) and the whole event log (each object as JSON).
type state struct {
	RV      int64
	Objects map[string]string
	Events  []eventSnap
}

type eventSnap struct {
	Type  apiserver.EventType
	RV    int64
	Ref   string // the object's ref
	ObjRV string // the object's resourceVersion
	JSON  string
}

func snapshot(t testing.TB, s *apiserver.Server) state {
	t.Helper()
	st := state{RV: s.RV(), Objects: map[string]string{}}
	for _, k := range api.Kinds() {
		resp := s.Do(api.Request{Verb: api.List, Ref: api.Ref{Kind: k}})
		if resp.Err != nil {
			t.Fatalf("list %s: %v", k, resp.Err)
		}
		for _, it := range resp.Items {
			st.Objects[api.RefOf(it).String()] = string(mustJSON(t, it.Object))
		}
	}
	evs, err := s.Events(0)
	if err != nil {
		t.Fatalf("events: %v", err)
	}
	for _, e := range evs {
		st.Events = append(st.Events, eventSnap{Type: e.Type, RV: e.RV, Ref: api.RefOf(e.Object).String(),
			ObjRV: e.Object.GetResourceVersion(), JSON: string(mustJSON(t, e.Object.Object))})
	}
	return st
}

func (a state) diff(b state) string {
	if a.RV != b.RV {
		return "cluster RV " + strconv.FormatInt(a.RV, 10) + " -> " + strconv.FormatInt(b.RV, 10)
	}
	if len(a.Events) != len(b.Events) {
		return "event log length " + strconv.Itoa(len(a.Events)) + " -> " + strconv.Itoa(len(b.Events))
	}
	for i := range a.Events {
		if a.Events[i] != b.Events[i] {
			return fmt.Sprintf("event %d: %+v -> %+v", i, a.Events[i], b.Events[i])
		}
	}
	keys := map[string]bool{}
	for k := range a.Objects {
		keys[k] = true
	}
	for k := range b.Objects {
		keys[k] = true
	}
	sorted := make([]string, 0, len(keys))
	for k := range keys {
		sorted = append(sorted, k)
	}
	sort.Strings(sorted)
	for _, k := range sorted {
		if a.Objects[k] != b.Objects[k] {
			return "object " + k + ": " + a.Objects[k] + " -> " + b.Objects[k]
		}
	}
	return ""
}

// overTheWire is the error a real client would build from the Status the
// server sends: encode the Status to JSON, decode it, apierrors.FromObject.
func overTheWire(t testing.TB, err error) error {
	t.Helper()
	var st apierrors.APIStatus
	if !errors.As(err, &st) {
		t.Fatalf("error %T %v carries no Status", err, err)
	}
	raw := mustJSON(t, st.Status())
	var back metav1.Status
	if err := json.Unmarshal(raw, &back); err != nil {
		t.Fatal(err)
	}
	return apierrors.FromObject(&back)
}

// managedFields returns the object's entries as manager/operation -> fieldsV1.
func managedFields(u *unstructured.Unstructured) map[string]string {
	out := map[string]string{}
	for _, e := range u.GetManagedFields() {
		raw := ""
		if e.FieldsV1 != nil {
			raw = e.FieldsV1.GetRawString()
		}
		out[e.Manager+"/"+string(e.Operation)] = raw
	}
	return out
}

func equal(a, b any) bool { return reflect.DeepEqual(a, b) }
