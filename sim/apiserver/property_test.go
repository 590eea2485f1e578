package apiserver_test

import (
	"encoding/json"
	"fmt"
	"math/rand"
	"strconv"
	"strings"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/types"

	"github.com/conflictlab/conflictlab/sim/api"
	"github.com/conflictlab/conflictlab/sim/apiserver"
)

// TestProperties drives the server with random, deterministic request
// sequences (updates with current, stale and empty RVs, the four patch
// kinds, deletes, creates, garbage) and checks after every request:
//
//	(a) the cluster RV advances by exactly one on a successful write that
//	    changed something, with exactly one event at that RV, and never
//	    otherwise (reads, no-op writes);
//	(b) a rejected request changes nothing: objects and event log are
//	    identical to a snapshot taken before it, and to a Clone taken
//	    before it (which the request must not have reached either);
//	(c) every event's RV equals the RV of the object it carries, events
//	    strictly increase, and replaying the log rebuilds the objects.
func TestProperties(t *testing.T) {
	steps := 400
	if testing.Short() {
		steps = 100
	}
	for seed := int64(1); seed <= 6; seed++ {
		t.Run(fmt.Sprintf("seed=%d", seed), func(t *testing.T) {
			g := &generator{t: t, r: rand.New(rand.NewSource(seed)), s: newServer(), seen: map[api.Ref][]string{}}
			counts := map[string]int{}
			after := snapshot(t, g.s)
			for i := 0; i < steps; i++ {
				g.s.SetTime(time.Duration(i) * time.Second)
				req := g.next() // reads only
				before := after
				clone := g.s.Clone()
				resp := g.s.Do(req)
				after = snapshot(t, g.s)
				what := fmt.Sprintf("step %d: %s %q", i, req.Describe(), req.Body)

				if d := before.diff(snapshot(t, clone)); d != "" {
					t.Fatalf("%s: the request reached a Clone taken before it: %s", what, d)
				}
				changed := !equal(before.Objects, after.Objects)
				switch {
				case resp.Err != nil:
					counts[fmt.Sprintf("error %d", resp.Code)]++
					checkRejected(t, what, resp, before, after)
				case changed:
					counts["write"]++
					if after.RV != before.RV+1 || len(after.Events) != len(before.Events)+1 {
						t.Fatalf("%s: a write moved the RV %d -> %d and the log %d -> %d events",
							what, before.RV, after.RV, len(before.Events), len(after.Events))
					}
					evs, err := g.s.Events(before.RV)
					if err != nil || len(evs) != 1 || evs[0].RV != after.RV {
						t.Fatalf("%s: events after the write: %s %v", what, eventsString(evs), err)
					}
				default:
					counts["no change"]++
					if d := before.diff(after); d != "" {
						t.Fatalf("%s: a request that changed no object changed the server: %s", what, d)
					}
				}
				if resp.Err == nil && resp.Object != nil {
					g.observe(resp.Object.GetResourceVersion(), api.RefOf(resp.Object))
				}
				checkLog(t, what, after)
			}
			// The generator must actually exercise every outcome.
			for _, k := range []string{"write", "no change", "error 409", "error 422", "error 404", "error 400"} {
				if counts[k] == 0 {
					t.Errorf("no request ended in %q: %v", k, counts)
				}
			}
			t.Logf("outcomes: %v", counts)
		})
	}
}

func checkRejected(t *testing.T, what string, resp api.Response, before, after state) {
	t.Helper()
	var st apierrors.APIStatus
	if se, ok := resp.Err.(*apierrors.StatusError); !ok {
		t.Fatalf("%s: error %T %v is not a *StatusError", what, resp.Err, resp.Err)
	} else {
		st = se
	}
	if c := int(st.Status().Code); c != resp.Code || c < 400 || c > 599 {
		t.Fatalf("%s: response code %d, Status code %d", what, resp.Code, c)
	}
	if resp.Object != nil {
		t.Fatalf("%s: an error response carries an object", what)
	}
	if d := before.diff(after); d != "" {
		t.Fatalf("%s: rejected with %v, yet the server changed: %s", what, resp.Err, d)
	}
}

// checkLog checks the whole event log against itself and the objects.
func checkLog(t *testing.T, what string, st state) {
	t.Helper()
	evs := st.Events
	if len(evs) > 0 && evs[len(evs)-1].RV != st.RV {
		t.Fatalf("%s: newest event RV %d, cluster RV %d", what, evs[len(evs)-1].RV, st.RV)
	}
	if st.RV != firstRV+int64(len(evs)) {
		t.Fatalf("%s: cluster RV %d after %d events from %d: a revision without an event", what, st.RV, len(evs), firstRV)
	}
	replay := map[string]string{}
	for i, e := range evs {
		if e.ObjRV != strconv.FormatInt(e.RV, 10) {
			t.Fatalf("%s: event %d (%s %d) carries an object at RV %s", what, i, e.Type, e.RV, e.ObjRV)
		}
		if i > 0 && e.RV <= evs[i-1].RV {
			t.Fatalf("%s: event RVs not strictly increasing: %d then %d", what, evs[i-1].RV, e.RV)
		}
		_, exists := replay[e.Ref]
		switch e.Type {
		case apiserver.Added:
			if exists {
				t.Fatalf("%s: ADDED %d of %s, which exists", what, e.RV, e.Ref)
			}
			replay[e.Ref] = e.JSON
		case apiserver.Modified:
			if !exists {
				t.Fatalf("%s: MODIFIED %d of %s, which does not exist", what, e.RV, e.Ref)
			}
			replay[e.Ref] = e.JSON
		case apiserver.Deleted:
			if !exists {
				t.Fatalf("%s: DELETED %d of %s, which does not exist", what, e.RV, e.Ref)
			}
			delete(replay, e.Ref)
		default:
			t.Fatalf("%s: event type %q", what, e.Type)
		}
	}
	if !equal(replay, st.Objects) {
		t.Fatalf("%s: replaying the event log gives\n%v\nthe server holds\n%v", what, replay, st.Objects)
	}
}

// generator makes random requests against a small, contended set of
// objects, so that stale RVs, no-ops, conflicts and finalizer races happen.
type generator struct {
	t    *testing.T
	r    *rand.Rand
	s    *apiserver.Server
	seen map[api.Ref][]string // every RV a client has seen for the object
}

var propRefs = []api.Ref{cmRef("cm1"), cmRef("cm2"), widgetRef("w1"), deployRef("d1")}

func (g *generator) observe(rv string, r api.Ref) {
	if rv != "" {
		g.seen[r] = append(g.seen[r], rv)
	}
}

func (g *generator) pick(xs ...string) string { return xs[g.r.Intn(len(xs))] }

// rv is the resourceVersion a client puts in its write: the current one,
// a stale one it saw earlier, none, or (rarely) a malformed one.
func (g *generator) rv(r api.Ref) string {
	live := g.s.Do(getReq(r))
	switch n := g.r.Intn(20); {
	case n < 9 && live.Object != nil:
		return live.Object.GetResourceVersion()
	case n < 15:
		if seen := g.seen[r]; len(seen) > 0 {
			return seen[g.r.Intn(len(seen))]
		}
		return "1"
	case n < 19:
		return ""
	default:
		return g.pick("abc", "-1", "0")
	}
}

func (g *generator) finalizers() []string {
	switch g.r.Intn(6) {
	case 0:
		return []string{"x.io/a"}
	case 1:
		return []string{"x.io/b"}
	case 2:
		return []string{"x.io/a", "x.io/b"}
	case 3:
		return []string{"a"} // invalid
	}
	return nil
}

func (g *generator) data() map[string]string {
	d := map[string]string{}
	for _, k := range []string{"x", "y"} {
		if g.r.Intn(3) > 0 {
			d[k] = g.pick("1", "2")
		}
	}
	if g.r.Intn(15) == 0 {
		d["bad key"] = "1" // invalid
	}
	return d
}

// body is a whole object of r's kind as a client writes it.
func (g *generator) body(r api.Ref, rv string) []byte {
	t := g.t
	switch r.Kind {
	case api.ConfigMap:
		return cmBody(t, r.Name, rv, g.data(), g.finalizers()...)
	case api.Deployment:
		cs := [][2]string{{"app", g.pick("app:v1", "app:v2")}}
		if g.r.Intn(2) == 0 {
			cs = append(cs, [2]string{"sidecar", "sc:v1"})
		}
		return deployBody(t, r.Name, rv, cs...)
	default:
		var size any = g.r.Intn(3)
		if g.r.Intn(12) == 0 {
			size = "big" // schema violation
		}
		b := widgetBody(t, r.Name, rv, map[string]any{"size": size}, map[string]any{"phase": g.pick("Ready", "Done")})
		if fs := g.finalizers(); fs != nil {
			var m map[string]any
			_ = json.Unmarshal(b, &m)
			m["metadata"].(map[string]any)["finalizers"] = fs
			b = mustJSON(t, m)
		}
		return b
	}
}

func (g *generator) next() api.Request {
	r := propRefs[g.r.Intn(len(propRefs))]
	if g.r.Intn(12) == 0 {
		r.Name = "nope" // does not exist, usually
	}
	switch g.r.Intn(11) {
	case 0:
		return createReq(r, g.body(r, g.pick("", "", "", "", "5")))
	case 1, 2:
		req := updateReq(r, g.body(r, g.rv(r)))
		if r.Kind == api.Widget && g.r.Intn(2) == 0 {
			req.Subresource = "status"
		}
		return req
	case 3:
		return patchReq(r, api.MergePatch, g.mapPatch(r))
	case 4:
		return patchReq(r, api.StrategicPatch, g.mapPatch(r))
	case 5:
		return patchReq(r, api.JSONPatch, g.jsonPatch(r))
	case 6:
		return g.apply(r)
	case 7:
		return deleteReq(r)
	case 8:
		// A controller removing every finalizer, or adding one.
		fs := "null"
		if g.r.Intn(3) == 0 {
			fs = `["x.io/new"]`
		}
		return patchReq(r, api.MergePatch, `{"metadata":{"finalizers":`+fs+`}}`)
	case 9:
		// Garbage in every position a client can put it.
		garbage := g.pick(`{`, `[]`, `null`, `"x"`, `{"metadata":7}`, `[{"op":"move","from":"/nope","path":"/x"}]`,
			`{"metadata":{"name":"other"}}`, `{"data":[1]}`, `{"spec":"x"}`, "\x00\xff")
		pt := []types.PatchType{api.MergePatch, api.StrategicPatch, api.JSONPatch, api.ApplyPatch}[g.r.Intn(4)]
		req := patchReq(r, pt, garbage)
		req.FieldManager = "g"
		if g.r.Intn(3) == 0 {
			req = updateReq(r, []byte(garbage))
		}
		return req
	default:
		return getReq(r)
	}
}

// mapPatch is a merge or strategic merge patch body: data or spec, maybe
// finalizers, maybe a resourceVersion.
func (g *generator) mapPatch(r api.Ref) string {
	meta := map[string]any{}
	if g.r.Intn(3) == 0 {
		meta["resourceVersion"] = g.rv(r)
	}
	if fs := g.finalizers(); fs != nil {
		meta["finalizers"] = fs
	}
	p := map[string]any{"metadata": meta}
	switch r.Kind {
	case api.ConfigMap:
		p["data"] = g.data()
	case api.Deployment:
		p["spec"] = map[string]any{"template": map[string]any{"spec": map[string]any{
			"containers": []any{map[string]any{"name": "app", "image": g.pick("app:v1", "app:v3")}}}}}
	default:
		p["spec"] = map[string]any{"size": g.r.Intn(3)}
	}
	return string(mustJSON(g.t, p))
}

func (g *generator) jsonPatch(r api.Ref) string {
	var ops []string
	if g.r.Intn(2) == 0 {
		ops = append(ops, fmt.Sprintf(`{"op":"test","path":"/metadata/resourceVersion","value":%q}`, g.rv(r)))
	}
	switch g.r.Intn(4) {
	case 0:
		ops = append(ops, fmt.Sprintf(`{"op":"replace","path":"/metadata/resourceVersion","value":%q}`, g.rv(r)))
	case 1:
		ops = append(ops, `{"op":"remove","path":"/metadata/finalizers/0"}`)
	case 2:
		ops = append(ops, `{"op":"add","path":"/metadata/finalizers","value":["x.io/b"]}`)
	}
	switch r.Kind {
	case api.ConfigMap:
		ops = append(ops, fmt.Sprintf(`{"op":"add","path":"/data","value":{"x":%q}}`, g.pick("1", "2")))
	case api.Widget:
		ops = append(ops, fmt.Sprintf(`{"op":"add","path":"/spec/size","value":%d}`, g.r.Intn(3)))
	default:
		ops = append(ops, fmt.Sprintf(`{"op":"replace","path":"/spec/template/spec/containers/0/image","value":%q}`, g.pick("app:v1", "app:v2")))
	}
	return "[" + strings.Join(ops, ",") + "]"
}

func (g *generator) apply(r api.Ref) api.Request {
	info, _ := api.Lookup(r.Kind)
	y := fmt.Sprintf("apiVersion: %s\nkind: %s\nmetadata:\n  name: %s\n  namespace: %s\n", info.APIVersion, r.Kind, r.Name, r.Namespace)
	if g.r.Intn(4) == 0 {
		y += "  finalizers: [" + g.pick("x.io/a", "x.io/b") + "]\n"
	}
	switch r.Kind {
	case api.ConfigMap:
		y += fmt.Sprintf("data:\n  x: %q\n", g.pick("1", "2", "3"))
	case api.Deployment:
		y += fmt.Sprintf("spec:\n  selector:\n    matchLabels: {app: %s}\n  template:\n    metadata:\n      labels: {app: %s}\n"+
			"    spec:\n      containers:\n      - name: app\n        image: %s\n", r.Name, r.Name, g.pick("app:v1", "app:v4"))
	default:
		y += fmt.Sprintf("spec:\n  size: %d\n", g.r.Intn(3))
	}
	req := applyReq(r, g.pick("a", "b", "a", "b", ""), g.r.Intn(3) == 0, y)
	if r.Kind == api.Widget && g.r.Intn(4) == 0 {
		req.Subresource = "status"
	}
	return req
}
