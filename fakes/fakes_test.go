package fakes

import (
	"encoding/json"
	"fmt"
	"net/http"
	"reflect"
	"strings"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"

	"github.com/conflictlab/conflictlab/examples"
	"github.com/conflictlab/conflictlab/sim/api"
	"github.com/conflictlab/conflictlab/sim/race"
	"github.com/conflictlab/conflictlab/sim/scenario"
)

func example(t testing.TB, name string) *scenario.Scenario {
	t.Helper()
	sc, err := examples.Load(name)
	if err != nil {
		t.Fatal(err)
	}
	return sc
}

func run(t *testing.T, n Name, sc *scenario.Scenario) *Result {
	t.Helper()
	r, err := Run(n, sc, race.Schedule{})
	if err != nil {
		t.Fatalf("%s: %v", n, err)
	}
	return r
}

// requests lists "actor REQUEST code" for every request and Lister read.
func requests(o *race.Outcome) []string {
	var out []string
	for _, s := range answered(o) {
		out = append(out, fmt.Sprintf("%s %s %d", s.Actor, s.Request, s.Code))
	}
	return out
}

func finalData(o *race.Outcome, key string) (string, bool) {
	data, _ := o.Final["data"].(map[string]any)
	v, ok := data[key].(string)
	return v, ok
}

// Every example runs on every backend, finishes as it does on the
// simulator (or runs out of steps the same way), and runs alike twice: the
// fakes' watch events are drained, not raced.
func TestExamplesRunOnEveryBackend(t *testing.T) {
	for _, name := range examples.Names() {
		sc := example(t, name)
		for _, n := range All() {
			first, second := run(t, n, sc), run(t, n, sc)
			if len(answered(first.Outcome)) == 0 {
				t.Errorf("%s on %s: no request was answered", name, n)
			}
			for _, s := range answered(first.Outcome) {
				if s.Code == 0 {
					t.Errorf("%s on %s: step %d has no answer", name, n, s.Index)
				}
			}
			if !reflect.DeepEqual(requests(first.Outcome), requests(second.Outcome)) ||
				first.Outcome.Verdict != second.Outcome.Verdict || !reflect.DeepEqual(first.Skipped, second.Skipped) {
				t.Errorf("%s on %s: two runs differ:\n%v %s\n%v %s", name, n,
					requests(first.Outcome), first.Outcome.Verdict, requests(second.Outcome), second.Outcome.Verdict)
			}
		}
	}
}

// On the simulator, Run is race.Run: the same outcome, to the byte, and no
// step of a valid schedule is skipped.
func TestRunOnTheSimulatorIsRaceRun(t *testing.T) {
	for _, name := range examples.Names() {
		sc := example(t, name)
		want, err := race.Run(sc, race.Schedule{})
		if err != nil {
			t.Fatal(err)
		}
		got := run(t, Sim, sc)
		a, _ := json.Marshal(want)
		b, _ := json.Marshal(got.Outcome)
		if string(a) != string(b) || len(got.Skipped) != 0 {
			t.Errorf("%s: fakes.Run on the simulator differs from race.Run (skipped %v)", name, got.Skipped)
		}
	}
}

// The stale update, on every backend: b read cm1 before a wrote it, then
// PUTs its copy with the resourceVersion it read. The server and
// controller-runtime's fake refuse it (409); client-go's fakes take it and
// a's field is gone — the unit test passes, the cluster loses data.
func TestStaleUpdatePerBackend(t *testing.T) {
	sc := example(t, "lost-update-conditional")
	want := map[Name]struct {
		bCode   int
		verdict race.Verdict
		lost    []string
		finalRV string
	}{
		Sim:                   {http.StatusConflict, race.VerdictGaveUp, nil, "102"},
		ClientGoFake:          {http.StatusOK, race.VerdictLost, []string{"data.a (a's)"}, ""},
		ClientGoClientset:     {http.StatusOK, race.VerdictLost, []string{"data.a (a's)"}, ""},
		ControllerRuntimeFake: {http.StatusConflict, race.VerdictGaveUp, nil, "2"},
	}
	for _, n := range All() {
		o := run(t, n, sc).Outcome
		w := want[n]
		steps := answered(o)
		last := steps[len(steps)-1]
		if last.Actor != "b" || last.Verb != api.Update || last.Code != w.bCode {
			t.Errorf("%s: b's stale UPDATE answered %s %d, want %d", n, last.Request, last.Code, w.bCode)
		}
		if o.Verdict != w.verdict || !reflect.DeepEqual(lostFields(o), w.lost) {
			t.Errorf("%s: verdict %s, lost %v; want %s, %v", n, o.Verdict, lostFields(o), w.verdict, w.lost)
		}
		if rv := finalRV(o); rv != w.finalRV {
			t.Errorf("%s: final resourceVersion %q, want %q", n, rv, w.finalRV)
		}
		a, hasA := finalData(o, "a")
		b, hasB := finalData(o, "b")
		switch w.bCode {
		case http.StatusConflict:
			if a != "set by a" || hasB {
				t.Errorf("%s: final data %v: a's change should have survived and b's been refused", n, o.Final["data"])
			}
		default:
			if hasA || b != "set by b" {
				t.Errorf("%s: final data %v: b's stale copy should have erased a's change", n, o.Final["data"])
			}
		}
	}
}

func newFake(t *testing.T, n Name) *Backend {
	t.Helper()
	b, err := New(n)
	if err != nil || b.Err() != nil {
		t.Fatalf("%s: %v %v", n, err, b.Err())
	}
	t.Cleanup(b.Close)
	return b
}

func cm(name, rv, value string) []byte {
	md := fmt.Sprintf(`"name":%q,"namespace":"default"`, name)
	if rv != "" {
		md += fmt.Sprintf(`,"resourceVersion":%q`, rv)
	}
	return []byte(fmt.Sprintf(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{%s},"data":{"x":%q}}`, md, value))
}

// A PUT carrying a resourceVersion the object never had: client-go's fakes
// store it as sent (they have no resourceVersion semantics), while
// controller-runtime's answers the real 409 and counts the object's
// versions on its own: two objects both start at "1".
func TestResourceVersionSemantics(t *testing.T) {
	ref := func(name string) api.Ref { return api.Ref{Kind: api.ConfigMap, Namespace: "default", Name: name} }
	for _, tc := range []struct {
		n       Name
		created string // the resourceVersion of a fresh object
		bogus   int    // the answer to a PUT with resourceVersion 4242
		kept    string // the resourceVersion the object has afterwards
	}{
		{ClientGoFake, "", http.StatusOK, "4242"},
		{ClientGoClientset, "", http.StatusOK, "4242"},
		{ControllerRuntimeFake, "1", http.StatusConflict, "1"},
	} {
		b := newFake(t, tc.n)
		for _, name := range []string{"cm1", "cm2"} {
			r := b.Do(api.Request{Verb: api.Create, Ref: ref(name), Body: cm(name, "", "0"), FieldManager: "setup"})
			if r.Err != nil || r.Code != http.StatusCreated || r.Object.GetResourceVersion() != tc.created {
				t.Fatalf("%s: create %s: %d %v rv %q, want 201 rv %q", tc.n, name, r.Code, r.Err, r.Object.GetResourceVersion(), tc.created)
			}
		}
		r := b.Do(api.Request{Verb: api.Update, Ref: ref("cm1"), Body: cm("cm1", "4242", "1"), FieldManager: "a"})
		if r.Code != tc.bogus {
			t.Errorf("%s: PUT with a resourceVersion the object never had: %d %v, want %d", tc.n, r.Code, r.Err, tc.bogus)
		}
		if tc.bogus == http.StatusConflict && !apierrors.IsConflict(r.Err) {
			t.Errorf("%s: the 409 is not a Conflict status error: %v", tc.n, r.Err)
		}
		if got := b.Peek(ref("cm1")).GetResourceVersion(); got != tc.kept {
			t.Errorf("%s: cm1's resourceVersion afterwards %q, want %q", tc.n, got, tc.kept)
		}
		if got := b.Peek(ref("cm2")).GetResourceVersion(); got != tc.created {
			t.Errorf("%s: cm2's resourceVersion %q, want %q", tc.n, got, tc.created)
		}
	}
}

// The fakes' watch events are numbered by the backend as they are emitted:
// one per successful write, none for a refused one, readable at once.
func TestWatchEventsAreDrainedInOrder(t *testing.T) {
	ref := api.Ref{Kind: api.ConfigMap, Namespace: "default", Name: "cm1"}
	for _, n := range []Name{ClientGoFake, ClientGoClientset, ControllerRuntimeFake} {
		b := newFake(t, n)
		b.Do(api.Request{Verb: api.Create, Ref: ref, Body: cm("cm1", "", "0"), FieldManager: "setup"})
		got := b.Do(api.Request{Verb: api.Get, Ref: ref})
		b.Do(api.Request{Verb: api.Update, Ref: ref, Body: cm("cm1", got.Object.GetResourceVersion(), "1"), FieldManager: "a"})
		evs, err := b.Events(0)
		if err != nil || b.RV() != 2 || len(evs) != 2 {
			t.Fatalf("%s: RV %d, %d events (%v), want 2", n, b.RV(), len(evs), err)
		}
		if evs[0].Type != api.Added || evs[1].Type != api.Modified || evs[1].RV != 2 || evs[1].Object.GetKind() != "ConfigMap" {
			t.Errorf("%s: events %s %d, %s %d (kind %q)", n, evs[0].Type, evs[0].RV, evs[1].Type, evs[1].RV, evs[1].Object.GetKind())
		}
		if x, _, _ := unstructuredString(evs[1].Object.Object, "data", "x"); x != "1" {
			t.Errorf("%s: the MODIFIED event carries data.x %q, want 1", n, x)
		}
		if later, _ := b.Events(2); len(later) != 0 {
			t.Errorf("%s: events after 2: %d", n, len(later))
		}
		// A refused write (a create of an existing name) emits nothing.
		r := b.Do(api.Request{Verb: api.Create, Ref: ref, Body: cm("cm1", "", "9"), FieldManager: "a"})
		if !apierrors.IsAlreadyExists(r.Err) || b.RV() != 2 {
			t.Errorf("%s: second create: %v, RV %d", n, r.Err, b.RV())
		}
	}
}

func unstructuredString(m map[string]any, path ...string) (string, bool, error) {
	var cur any = m
	for _, p := range path {
		mm, ok := cur.(map[string]any)
		if !ok {
			return "", false, nil
		}
		cur = mm[p]
	}
	s, ok := cur.(string)
	return s, ok, nil
}

// The comparison table says where the fakes diverge and why.
func TestCompareShowsTheDivergence(t *testing.T) {
	c, err := Compare(example(t, "retry-live-get"), race.Schedule{}, All())
	if err != nil {
		t.Fatal(err)
	}
	byName := map[Name]Divergence{}
	for _, d := range c.Divergences {
		byName[d.Backend] = d
	}
	if d := byName[ControllerRuntimeFake]; !d.Same() {
		t.Errorf("controller-runtime's fake should run retry-live-get as the simulator does: %+v", d)
	}
	for _, n := range []Name{ClientGoFake, ClientGoClientset} {
		d := byName[n]
		if d.FirstStep != 4 || len(d.Skipped) != 2 || d.RefVerdict != race.VerdictNoLoss || d.Verdict != race.VerdictLost {
			t.Errorf("%s: %+v", n, d)
		}
		if len(d.Codes) != 1 || !strings.Contains(d.Codes[0], "200 (sim: 409)") {
			t.Errorf("%s: codes %v", n, d.Codes)
		}
	}
	var out strings.Builder
	if err := c.WriteText(&out); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"b UPDATE cm1 409 Conflict", "b UPDATE cm1 200 ≠", "client-go-fake diverges from sim:",
		"controller-runtime-fake: ran the race as sim did", "final data.a: absent (sim: \"set by a\")"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the table lacks %q:\n%s", want, out.String())
		}
	}
}

// Server-side apply as each fake does it: NewSimpleClientset applies by
// strategic merge, so it cannot create an object (404) and a custom
// resource cannot take it at all (a plain error, not a Status); NewClientset
// has the field manager for its typed kinds but the Widget goes through
// dynamic/fake, which has none; controller-runtime's fake applies both.
func TestServerSideApplyPerBackend(t *testing.T) {
	widget := api.Ref{Kind: api.Widget, Namespace: "default", Name: "w1"}
	fresh := api.Ref{Kind: api.ConfigMap, Namespace: "default", Name: "fresh"}
	for _, tc := range []struct {
		n             Name
		createByApply int
		applyToWidget int
	}{
		{ClientGoFake, http.StatusNotFound, http.StatusInternalServerError},
		{ClientGoClientset, http.StatusCreated, http.StatusInternalServerError},
		{ControllerRuntimeFake, http.StatusCreated, http.StatusOK},
	} {
		b := newFake(t, tc.n)
		r := b.Do(api.Request{Verb: api.Patch, PatchType: api.ApplyPatch, Ref: fresh, FieldManager: "a",
			Body: []byte(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"fresh","namespace":"default"},"data":{"a":"1"}}`)})
		if r.Code != tc.createByApply {
			t.Errorf("%s: apply creating a ConfigMap: %d %v, want %d", tc.n, r.Code, r.Err, tc.createByApply)
		}
		b.Do(api.Request{Verb: api.Create, Ref: widget, FieldManager: "setup",
			Body: []byte(`{"apiVersion":"oracle.example.com/v1","kind":"Widget","metadata":{"name":"w1","namespace":"default"},"spec":{"size":1}}`)})
		r = b.Do(api.Request{Verb: api.Patch, PatchType: api.ApplyPatch, Ref: widget, FieldManager: "a",
			Body: []byte(`{"apiVersion":"oracle.example.com/v1","kind":"Widget","metadata":{"name":"w1"},"spec":{"owner":"a"}}`)})
		if r.Code != tc.applyToWidget {
			t.Errorf("%s: apply to a Widget: %d %v, want %d", tc.n, r.Code, r.Err, tc.applyToWidget)
		}
		if _, isStatus := r.Err.(apierrors.APIStatus); r.Err != nil && isStatus {
			t.Errorf("%s: the Widget apply's error is a Status (%v), not the plain error the fake returned", tc.n, r.Err)
		}
		if r.Err == nil {
			if owner, _, _ := unstructuredString(b.Peek(widget).Object, "spec", "owner"); owner != "a" {
				t.Errorf("%s: the applied Widget has spec.owner %q", tc.n, owner)
			}
		}
	}
}

// A delete with a resourceVersion precondition the object does not have:
// client-go's fakes ignore the precondition and delete; controller-runtime's
// refuses with the server's 409 message.
func TestDeletePreconditionPerBackend(t *testing.T) {
	ref := api.Ref{Kind: api.ConfigMap, Namespace: "default", Name: "cm1"}
	for _, tc := range []struct {
		n       Name
		code    int
		deleted bool
	}{
		{ClientGoFake, http.StatusOK, true},
		{ClientGoClientset, http.StatusOK, true},
		{ControllerRuntimeFake, http.StatusConflict, false},
	} {
		b := newFake(t, tc.n)
		b.Do(api.Request{Verb: api.Create, Ref: ref, Body: cm("cm1", "", "0"), FieldManager: "setup"})
		r := b.Do(api.Request{Verb: api.Delete, Ref: ref, Body: []byte(`{"preconditions":{"resourceVersion":"4242"}}`)})
		if r.Code != tc.code || (b.Peek(ref) == nil) != tc.deleted {
			t.Errorf("%s: delete with a stale precondition: %d %v, deleted %v; want %d, deleted %v",
				tc.n, r.Code, r.Err, b.Peek(ref) == nil, tc.code, tc.deleted)
		}
		if tc.code == http.StatusConflict && !strings.Contains(r.Err.Error(), "the ResourceVersion in the precondition (4242) does not match") {
			t.Errorf("%s: %v", tc.n, r.Err)
		}
		if tc.deleted {
			if evs, _ := b.Events(1); len(evs) != 1 || evs[0].Type != api.Deleted {
				t.Errorf("%s: the delete's watch event: %v", tc.n, evs)
			}
		}
	}
}
