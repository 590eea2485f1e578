package scenario

import (
	"math"
	"reflect"
	"strings"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/conflictlab/conflictlab/sim/api"
	"github.com/conflictlab/conflictlab/sim/controller"
)

// roundTrip checks Parse(Marshal(s)) == s.
func roundTrip(t testing.TB, s *Scenario) {
	t.Helper()
	data, err := Marshal(s)
	if err != nil {
		t.Fatalf("Marshal: %v", err)
	}
	back, err := Parse(s.File, data)
	if err != nil {
		t.Fatalf("Parse(Marshal(s)): %v\n%s", err, data)
	}
	if !reflect.DeepEqual(back, s) {
		t.Fatalf("round trip changed the scenario:\n%s\nbefore: %#v\nafter:  %#v", data, s, back)
	}
}

// A scenario built in code, as the sandbox builds one to save a race.
func TestMarshalBuiltScenario(t *testing.T) {
	p := controller.MustPath
	seed := uint64(42)
	manual := Lag{Manual: true}
	obj := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "v1",
		"kind":       "ConfigMap",
		"metadata": map[string]any{
			"name": "cm1", "namespace": "default",
			"labels": map[string]any{"app.kubernetes.io/name": "web", "1": "one"},
		},
		"data": map[string]any{
			"count": "0", "flag": "true", "empty": "", "multi": "line one\nline two\n",
			"colon": "a: b", "hash": "# not a comment", "star": "*x", "tilde": "~", "null": "null",
			"spaces": "  padded  ", "quote": `it's "quoted"`, "date": "2026-01-01", "unicode": "größe ☃",
		},
	}}
	widget := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "oracle.example.com/v1",
		"kind":       "Widget",
		"metadata":   map[string]any{"name": "w", "namespace": "team-a"},
		"spec": map[string]any{
			"size": int64(3), "ratio": 2.0, "half": 0.5, "big": 1e21, "paused": false,
			"items": []any{"a", int64(1), nil, map[string]any{}, []any{}},
		},
	}}
	s := &Scenario{
		Name:        "built: in code",
		Description: "Line one.\nLine two.",
		File:        "saved.yaml",
		StartRV:     1,
		Objects:     []*unstructured.Unstructured{obj, widget},
		Lag:         Lag{Delay: 1500 * time.Microsecond},
		Schedule:    MustMoves("a", "b.cache", "b"),
		Seed:        &seed,
		MaxSteps:    77,
		Controllers: []Controller{
			{Program: controller.Program{
				Name:   "a",
				Target: api.Ref{Kind: api.ConfigMap, Namespace: "default", Name: "cm1"},
				Read:   controller.FromLive,
				Mutations: []controller.Mutation{
					{Op: controller.Set, Path: p(`metadata.labels["app.kubernetes.io/name"]`), Value: "api"},
					{Op: controller.Set, Path: p(`metadata.labels["team"]`), Value: "a"}, // not the sugar's spelling
					{Op: controller.Set, Path: p("metadata.labels.count"), Value: int64(3)},
					{Op: controller.Remove, Path: p("metadata.annotations.note")},
					{Op: controller.Set, Path: p("data.count"), Value: "1", When: &controller.Condition{Path: p("data.count"), Equals: "0"}},
					{Op: controller.Set, Path: p("data.obj"), Value: map[string]any{"k": []any{"v"}}},
					{Op: controller.Set, Path: p("data.multi"), Value: "x\ny", When: &controller.Condition{Path: p("data.gone"), Equals: nil}},
					{Op: controller.Increment, Path: p("data.n"), By: 1},
					{Op: controller.Increment, Path: p("data.m"), By: -3},
					{Op: controller.Append, Path: p("data.log"), Value: "a"},
					{Op: controller.AddToSet, Path: p("metadata.finalizers"), Value: "x.io/a"},
					{Op: controller.AddToSet, Path: p("metadata.finalizers"), Value: int64(1)},
					{Op: controller.RemoveFromList, Path: p("metadata.finalizers"), Value: "x.io/b"},
					{Op: controller.RemoveFromList, Path: p("spec.items"), Value: 2.5},
				},
				Write:        controller.JSONPatch,
				WithRV:       true,
				Test:         controller.TestValues,
				FieldManager: "a",
				Retry:        controller.RetryPolicy{Unbounded: true, On: controller.OnAnyError, Reread: controller.RereadNone},
				Requeue:      controller.RequeuePolicy{Max: 2, BaseDelay: 5 * time.Millisecond},
				Reconciles:   3,
			}, Lag: &manual},
			{Program: controller.Program{
				Name:       "b",
				Target:     api.Ref{Kind: api.Widget, Namespace: "team-a", Name: "w"},
				Read:       controller.FromLister,
				Mutations:  []controller.Mutation{{Op: controller.Set, Path: p("status.phase"), Value: "Ready"}},
				Write:      controller.ServerSideApply,
				Force:      true,
				Retry:      controller.DefaultRetry(),
				Reconciles: 1,
			}},
		},
	}
	data, err := Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%s", data)
	roundTrip(t, s)
	for _, want := range []string{"addLabel: {app.kubernetes.io/name: api}", "removeAnnotation: note", "addFinalizer: x.io/a", "removeFinalizer: x.io/b", "retry: default", "lag: manual", "lag: 1.5ms"} {
		if !strings.Contains(string(data), want) {
			t.Errorf("output lacks %q", want)
		}
	}
}

func TestMarshalRefusesWhatWouldNotLoad(t *testing.T) {
	s := &Scenario{Name: "bad", Controllers: []Controller{{Program: controller.Program{Name: "a", Target: api.Ref{Kind: "Pod", Name: "p"}}}}}
	if _, err := Marshal(s); err == nil {
		t.Error("no error")
	}
	if _, err := Marshal(nil); err == nil {
		t.Error("no error for nil")
	}
	bad := &Scenario{Name: "nan", Objects: []*unstructured.Unstructured{{Object: map[string]any{"x": math.NaN()}}}}
	if _, err := Marshal(bad); err == nil {
		t.Error("no error for NaN")
	}
}

// Marshal output is stable: marshalling what it parses back gives the
// same bytes.
func TestMarshalIsStable(t *testing.T) {
	for _, file := range exampleFiles(t) {
		s, err := Load(file)
		if err != nil {
			t.Fatal(err)
		}
		a, err := Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		s2, err := Parse(s.File, a)
		if err != nil {
			t.Fatal(err)
		}
		b, err := Marshal(s2)
		if err != nil {
			t.Fatal(err)
		}
		if string(a) != string(b) {
			t.Errorf("%s: not stable:\n%s\n---\n%s", file, a, b)
		}
	}
}
