package apiserver_test

import (
	"errors"
	"net/http"
	"strconv"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"

	"github.com/conflictlab/conflictlab/sim/api"
	"github.com/conflictlab/conflictlab/sim/apiserver"
)

// fuzzBase is the server every fuzz input is sent to (through a Clone):
// cm1 and cm4 with a finalizer, a Deployment and a Widget with a status.
func fuzzBase(f *testing.F) *apiserver.Server {
	s := newServer()
	mustDo(f, s, createReq(cmRef("cm4"), cmBody(f, "cm4", "", map[string]string{"x": "1"}, "x.io/a")))
	mustDo(f, s, createReq(cmRef("cm1"), cmBody(f, "cm1", "", map[string]string{"x": "1"}, "x.io/a")))
	mustDo(f, s, createReq(deployRef("d1"), deployBody(f, "d1", "", [2]string{"app", "app:v1"}, [2]string{"sidecar", "sc:v1"})))
	w := mustDo(f, s, createReq(widgetRef("w1"), widgetBody(f, "w1", "", map[string]any{"size": 1}, nil)))
	mustDo(f, s, statusReq(widgetRef("w1"), widgetBody(f, "w1", w.GetResourceVersion(),
		map[string]any{"size": 1}, map[string]any{"phase": "Ready"})))
	return s
}

// FuzzPatchBody sends arbitrary bytes as the body of a patch of every type,
// of an update and of a create (target picks which, and of which kind): the
// server must not panic, and must answer either a success that obeys the
// RV/event invariants, or a *apierrors.StatusError with a 4xx/5xx code that
// changed nothing. Every seed body is added for every target.
func FuzzPatchBody(f *testing.F) {
	for _, seed := range []string{
		`{"data":{"x":"2"}}`,
		`{"metadata":{"finalizers":["x.io/b"]}}`,
		`{"metadata":{"finalizers":null}}`,
		`{"metadata":{"resourceVersion":"1"}}`,
		`{"spec":{"size":"big"}}`,
		`{"spec":{"template":{"spec":{"containers":[{"name":"app","image":"app:v2"}]}}}}`,
		`{"$patch":"replace"}`,
		`{"metadata":{"$deleteFromPrimitiveList/finalizers":["x.io/a"]}}`,
		`[{"op":"replace","path":"/data/x","value":"2"}]`,
		`[{"op":"test","path":"/metadata/resourceVersion","value":"229"}]`,
		`[{"op":"replace","path":"","value":null}]`,
		`[{"op":"move","from":"/metadata","path":"/metadata/x"}]`,
		"apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm1\ndata:\n  x: \"3\"\n",
		"apiVersion: oracle.example.com/v1\nkind: Widget\nmetadata:\n  name: w1\nspec:\n  size: 3\n",
		`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"cm1","resourceVersion":"229"},"data":{"x":1}}`,
		`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"cm1"},"data":{"a b":"1"}}`,
		`{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"d1"},"spec":{"replicas":"x"}}`,
		`{"apiVersion":"oracle.example.com/v1","kind":"Widget","metadata":{"name":"w1"},"spec":[]}`,
		`null`, `[]`, `{}`, `"x"`, `1e400`, `{"metadata":[]}`, ``, "\xff\xfe", `{"a":`, "- a\n- b", "a: &a [*a]",
	} {
		for target := range fuzzTargets {
			f.Add([]byte(seed), uint8(target))
		}
	}
	base := fuzzBase(f)
	baseState := snapshot(f, base)
	f.Fuzz(func(t *testing.T, body []byte, target uint8) {
		fuzzOne(t, base, baseState, fuzzTargets[int(target)%len(fuzzTargets)](body))
		// The write went to a Clone only.
		if d := baseState.diff(snapshot(t, base)); d != "" {
			t.Fatalf("a request changed the server it was cloned from: %s", d)
		}
	})
}

// fuzzTargets are the places a body goes: every patch type, an update and
// a create (named and unnamed), for every kind.
var fuzzTargets = func() []func([]byte) api.Request {
	var out []func([]byte) api.Request
	for _, ref := range []api.Ref{cmRef("cm1"), deployRef("d1"), widgetRef("w1")} {
		out = append(out,
			func(b []byte) api.Request { return patchReq(ref, api.MergePatch, string(b)) },
			func(b []byte) api.Request { return patchReq(ref, api.StrategicPatch, string(b)) },
			func(b []byte) api.Request { return patchReq(ref, api.JSONPatch, string(b)) },
			func(b []byte) api.Request { return applyReq(ref, "fuzz", false, string(b)) },
			func(b []byte) api.Request { return applyReq(ref, "fuzz", true, string(b)) },
			func(b []byte) api.Request { return updateReq(ref, b) },
			func(b []byte) api.Request { return createReq(ref, b) },
			func(b []byte) api.Request { return createReq(api.Ref{Kind: ref.Kind, Namespace: ns}, b) },
		)
		if ref.Kind == api.Widget {
			out = append(out, func(b []byte) api.Request {
				r := updateReq(ref, b)
				r.Subresource = "status"
				return r
			}, func(b []byte) api.Request {
				r := patchReq(ref, api.MergePatch, string(b))
				r.Subresource = "status"
				return r
			})
		}
	}
	return out
}()

func fuzzOne(t *testing.T, base *apiserver.Server, before state, req api.Request) {
	t.Helper()
	s := base.Clone()
	resp := s.Do(req)
	if resp.Err != nil {
		var se *apierrors.StatusError
		if !errors.As(resp.Err, &se) {
			t.Fatalf("%s: error %T %v is not a *apierrors.StatusError", req.Describe(), resp.Err, resp.Err)
		}
		if c := int(se.ErrStatus.Code); c < 400 || c > 599 || c != resp.Code {
			t.Fatalf("%s: Status code %d, response code %d: %v", req.Describe(), c, resp.Code, resp.Err)
		}
		if resp.Object != nil {
			t.Fatalf("%s: an error carries an object", req.Describe())
		}
		if d := before.diff(snapshot(t, s)); d != "" {
			t.Fatalf("%s: rejected with %v, yet changed the server: %s", req.Describe(), resp.Err, d)
		}
	} else {
		if resp.Code != http.StatusOK && resp.Code != http.StatusCreated {
			t.Fatalf("%s: success with code %d", req.Describe(), resp.Code)
		}
		if resp.Object == nil {
			t.Fatalf("%s: success without an object", req.Describe())
		}
		// Whatever the body said, what was written is a well-formed object
		// of the kind, where the URL put it.
		info, _ := api.Lookup(req.Ref.Kind)
		if o := resp.Object; o.GetName() == "" || o.GetNamespace() != ns || o.GetKind() != string(info.Kind) ||
			o.GetAPIVersion() != info.APIVersion || (req.Ref.Name != "" && o.GetName() != req.Ref.Name) {
			t.Fatalf("%s: wrote %s %s/%s/%s", req.Describe(), o.GetAPIVersion(), o.GetKind(), o.GetNamespace(), o.GetName())
		}
		after := snapshot(t, s)
		if changed := !equal(before.Objects, after.Objects); changed != (after.RV == before.RV+1) ||
			len(after.Events) != len(before.Events)+int(after.RV-before.RV) {
			t.Fatalf("%s: RV %d -> %d, events %d -> %d, objects changed %v", req.Describe(),
				before.RV, after.RV, len(before.Events), len(after.Events), changed)
		}
		for _, e := range after.Events {
			if e.ObjRV != strconv.FormatInt(e.RV, 10) {
				t.Fatalf("%s: event %s %d carries RV %s", req.Describe(), e.Type, e.RV, e.ObjRV)
			}
		}
	}
}
