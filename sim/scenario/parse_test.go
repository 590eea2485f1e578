package scenario

import (
	"errors"
	"os"
	"reflect"
	"testing"
	"time"

	"github.com/conflictlab/conflictlab/sim/api"
	"github.com/conflictlab/conflictlab/sim/controller"
)

func writeFile(path string, data []byte) error { return os.WriteFile(path, data, 0o644) }

func mustParse(t *testing.T, data []byte) *Scenario {
	t.Helper()
	s, err := Parse("race.yaml", data)
	if err != nil {
		t.Fatalf("%v\n%s", err, data)
	}
	return s
}

// oneController parses header plus one controller and returns its program.
func oneController(t *testing.T, lines ...string) Controller {
	t.Helper()
	s := mustParse(t, ctrl(lines...))
	if len(s.Controllers) != 1 {
		t.Fatalf("%d controllers", len(s.Controllers))
	}
	roundTrip(t, s)
	return s.Controllers[0]
}

func TestParseDefaults(t *testing.T) {
	s := mustParse(t, ctrl("- name: a", "  target: ConfigMap/cm1", "  mutations: [{remove: data.x}]", "  write: update"))
	if s.Name != "t" || s.File != "race.yaml" || s.StartRV != DefaultStartRV || s.MaxSteps != DefaultMaxSteps {
		t.Errorf("scenario defaults: %+v", s)
	}
	if s.Lag != (Lag{}) || s.Seed != nil || s.Schedule != nil {
		t.Errorf("lag %+v seed %v schedule %v", s.Lag, s.Seed, s.Schedule)
	}
	if got := s.Objects[0].GetNamespace(); got != DefaultNamespace {
		t.Errorf("object namespace %q", got)
	}
	want := controller.Program{
		Name:       "a",
		Target:     api.Ref{Kind: api.ConfigMap, Namespace: "default", Name: "cm1"},
		Read:       controller.FromLister,
		Mutations:  []controller.Mutation{{Op: controller.Remove, Path: controller.MustPath("data.x")}},
		Write:      controller.Update,
		Retry:      controller.NoRetry(),
		Reconciles: 1,
	}
	if !reflect.DeepEqual(s.Controllers[0].Program, want) {
		t.Errorf("program\n got %+v\nwant %+v", s.Controllers[0].Program, want)
	}
	if s.Controllers[0].Lag != nil {
		t.Errorf("controller lag %v", s.Controllers[0].Lag)
	}
	if s.Controllers[0].Manager() != "a" {
		t.Errorf("manager %q", s.Controllers[0].Manager())
	}
}

func TestParseTopLevel(t *testing.T) {
	s := mustParse(t, doc(
		"name: lost-update",
		"description: Two controllers.",
		"startRV: 1",
		"lag: manual",
		"maxSteps: 40",
		"seed: 18446744073709551615",
		"schedule: [a, b, a.cache, b]",
		"objects:",
		"- apiVersion: apps/v1",
		"  kind: Deployment",
		"  metadata: {name: web, namespace: prod}",
		"  spec: {replicas: 1}",
		"- apiVersion: oracle.example.com/v1",
		"  kind: Widget",
		"  metadata: {name: w}",
		"controllers:",
		"- {name: a, target: Deployment/prod/web, mutations: [{set: {path: spec.replicas, value: 3}}], write: update, lag: 0}",
		"- {name: b, target: Widget/w, mutations: [{set: {path: spec.size, value: 3}}], write: merge-patch, lag: 2ms}",
	))
	if s.Description != "Two controllers." || s.StartRV != 1 || !s.Lag.Manual || s.MaxSteps != 40 {
		t.Errorf("%+v", s)
	}
	if s.Seed == nil || *s.Seed != 18446744073709551615 {
		t.Errorf("seed %v", s.Seed)
	}
	if !reflect.DeepEqual(s.Schedule, MustMoves("a", "b", "a.cache", "b")) {
		t.Errorf("schedule %v", s.Schedule)
	}
	if got := s.Controllers[0].Target; got != (api.Ref{Kind: api.Deployment, Namespace: "prod", Name: "web"}) {
		t.Errorf("target %v", got)
	}
	if l := s.LagOf(0); l != (Lag{}) {
		t.Errorf("lag of a %+v", l)
	}
	if l := s.LagOf(1); l != (Lag{Delay: 2 * time.Millisecond}) {
		t.Errorf("lag of b %+v", l)
	}
	if got := s.Objects[0].Object["spec"].(map[string]any)["replicas"]; got != int64(1) {
		t.Errorf("replicas %#v", got)
	}
	roundTrip(t, s)
}

func TestParseTargets(t *testing.T) {
	for _, tc := range []struct {
		target string
		want   api.Ref
	}{
		{"ConfigMap/cm1", api.Ref{Kind: api.ConfigMap, Namespace: "default", Name: "cm1"}},
		{"ConfigMap/default/cm1", api.Ref{Kind: api.ConfigMap, Namespace: "default", Name: "cm1"}},
		{"{kind: ConfigMap, name: cm1}", api.Ref{Kind: api.ConfigMap, Namespace: "default", Name: "cm1"}},
		{"{kind: ConfigMap, name: cm1, namespace: default}", api.Ref{Kind: api.ConfigMap, Namespace: "default", Name: "cm1"}},
	} {
		c := oneController(t, "- name: a", "  target: "+tc.target, "  mutations: [{remove: data.x}]", "  write: update")
		if c.Target != tc.want {
			t.Errorf("%s: %v", tc.target, c.Target)
		}
	}
}

func TestParseMutations(t *testing.T) {
	p := controller.MustPath
	for _, tc := range []struct {
		yaml string
		want controller.Mutation
	}{
		{"set: {path: data.owner, value: a}", controller.Mutation{Op: controller.Set, Path: p("data.owner"), Value: "a"}},
		{`set: {path: data.n, value: "1"}`, controller.Mutation{Op: controller.Set, Path: p("data.n"), Value: "1"}},
		{"set: {path: spec.replicas, value: 3}", controller.Mutation{Op: controller.Set, Path: p("spec.replicas"), Value: int64(3)}},
		{"set: {path: spec.paused, value: true}", controller.Mutation{Op: controller.Set, Path: p("spec.paused"), Value: true}},
		{"set: {path: spec.ratio, value: 0.5}", controller.Mutation{Op: controller.Set, Path: p("spec.ratio"), Value: 0.5}},
		{"set: {path: spec.selector, value: {app: web}}", controller.Mutation{Op: controller.Set, Path: p("spec.selector"), Value: map[string]any{"app": "web"}}},
		{"set: {path: 'spec.template.spec.containers[name=app].image', value: nginx}", controller.Mutation{Op: controller.Set, Path: p("spec.template.spec.containers[name=app].image"), Value: "nginx"}},
		{"remove: data.owner", controller.Mutation{Op: controller.Remove, Path: p("data.owner")}},
		{"increment: data.count", controller.Mutation{Op: controller.Increment, Path: p("data.count"), By: 1}},
		{"increment: {path: data.count}", controller.Mutation{Op: controller.Increment, Path: p("data.count"), By: 1}},
		{"increment: {path: status.count, by: -2}", controller.Mutation{Op: controller.Increment, Path: p("status.count"), By: -2}},
		{"append: {path: data.log, value: a}", controller.Mutation{Op: controller.Append, Path: p("data.log"), Value: "a"}},
		{"addToSet: {path: spec.items, value: x}", controller.Mutation{Op: controller.AddToSet, Path: p("spec.items"), Value: "x"}},
		{"removeFromList: {path: spec.items, value: 7}", controller.Mutation{Op: controller.RemoveFromList, Path: p("spec.items"), Value: int64(7)}},
		{"addLabel: {team: a}", controller.Mutation{Op: controller.Set, Path: p("metadata.labels.team"), Value: "a"}},
		{"addLabel: {version: 2}", controller.Mutation{Op: controller.Set, Path: p("metadata.labels.version"), Value: "2"}},
		{"addLabel: {app.kubernetes.io/name: web}", controller.Mutation{Op: controller.Set, Path: p(`metadata.labels["app.kubernetes.io/name"]`), Value: "web"}},
		{"removeLabel: team", controller.Mutation{Op: controller.Remove, Path: p("metadata.labels.team")}},
		{"removeLabel: example.com/tier", controller.Mutation{Op: controller.Remove, Path: p(`metadata.labels["example.com/tier"]`)}},
		{"annotate: {note: hi}", controller.Mutation{Op: controller.Set, Path: p("metadata.annotations.note"), Value: "hi"}},
		{"annotate: {example.com/last-seen: '2026-01-01'}", controller.Mutation{Op: controller.Set, Path: p(`metadata.annotations["example.com/last-seen"]`), Value: "2026-01-01"}},
		{"removeAnnotation: note", controller.Mutation{Op: controller.Remove, Path: p("metadata.annotations.note")}},
		{"addFinalizer: x.io/a", controller.Mutation{Op: controller.AddToSet, Path: p("metadata.finalizers"), Value: "x.io/a"}},
		{"removeFinalizer: x.io/a", controller.Mutation{Op: controller.RemoveFromList, Path: p("metadata.finalizers"), Value: "x.io/a"}},
		{"{set: {path: spec.replicas, value: 3}, when: {path: status.phase, equals: Ready}}", controller.Mutation{
			Op: controller.Set, Path: p("spec.replicas"), Value: int64(3),
			When: &controller.Condition{Path: p("status.phase"), Equals: "Ready"}}},
		{"{addFinalizer: x.io/a, when: {path: metadata.deletionTimestamp, equals: null}}", controller.Mutation{
			Op: controller.AddToSet, Path: p("metadata.finalizers"), Value: "x.io/a",
			When: &controller.Condition{Path: p("metadata.deletionTimestamp"), Equals: nil}}},
	} {
		t.Run(tc.yaml, func(t *testing.T) {
			c := oneController(t, "- name: a", "  target: ConfigMap/cm1", "  mutations:", "  - "+tc.yaml, "  write: update")
			if len(c.Mutations) != 1 || !reflect.DeepEqual(c.Mutations[0], tc.want) {
				t.Errorf("\n got %#v\nwant %#v", c.Mutations, tc.want)
			}
		})
	}
}

func TestParseWrites(t *testing.T) {
	for _, tc := range []struct {
		lines []string
		check func(controller.Program) bool
	}{
		{[]string{"  write: update"}, func(p controller.Program) bool { return p.Write == controller.Update }},
		{[]string{"  write: update-clear-rv"}, func(p controller.Program) bool { return p.Write == controller.UpdateClearRV }},
		{[]string{"  write: update-status"}, func(p controller.Program) bool { return p.Write == controller.UpdateStatus }},
		{[]string{"  write: merge-patch"}, func(p controller.Program) bool { return p.Write == controller.MergePatch && !p.WithRV }},
		{[]string{"  write: merge-patch", "  withRV: true"}, func(p controller.Program) bool { return p.Write == controller.MergePatch && p.WithRV }},
		{[]string{"  write: strategic-patch", "  withRV: true"}, func(p controller.Program) bool { return p.Write == controller.StrategicPatch && p.WithRV }},
		{[]string{"  write: json-patch"}, func(p controller.Program) bool {
			return p.Write == controller.JSONPatch && p.Test == controller.TestNone
		}},
		{[]string{"  write: json-patch", "  test: none"}, func(p controller.Program) bool { return p.Test == controller.TestNone }},
		{[]string{"  write: json-patch", "  test: resourceVersion"}, func(p controller.Program) bool { return p.Test == controller.TestRV }},
		{[]string{"  write: json-patch", "  test: values", "  withRV: true"}, func(p controller.Program) bool { return p.Test == controller.TestValues && p.WithRV }},
		{[]string{"  write: apply"}, func(p controller.Program) bool {
			return p.Write == controller.ServerSideApply && !p.Force && p.FieldManager == "" && p.Manager() == "a"
		}},
		{[]string{"  write: apply", "  force: true", "  fieldManager: kubectl"}, func(p controller.Program) bool {
			return p.Force && p.FieldManager == "kubectl" && p.Manager() == "kubectl"
		}},
		{[]string{"  write: update", "  withRV: false", "  force: false"}, func(p controller.Program) bool { return !p.WithRV && !p.Force }},
		{[]string{"  write: update", "  read: live"}, func(p controller.Program) bool { return p.Read == controller.FromLive }},
		{[]string{"  write: update", "  read: lister"}, func(p controller.Program) bool { return p.Read == controller.FromLister }},
		{[]string{"  write: update", "  reconciles: 4"}, func(p controller.Program) bool { return p.Reconciles == 4 }},
	} {
		lines := append([]string{"- name: a", "  target: ConfigMap/cm1", "  mutations: [{remove: data.x}]"}, tc.lines...)
		c := oneController(t, lines...)
		if !tc.check(c.Program) {
			t.Errorf("%v: %+v", tc.lines, c.Program)
		}
	}
}

func TestParseRetryAndRequeue(t *testing.T) {
	def := controller.DefaultRetry()
	for _, tc := range []struct {
		yaml string
		want controller.RetryPolicy
	}{
		{"none", controller.NoRetry()},
		{"default", def},
		{"{}", def},
		{"{attempts: 3}", controller.RetryPolicy{Attempts: 3, On: controller.OnConflict, Reread: controller.FromLive, Backoff: 10 * time.Millisecond}},
		{"{attempts: 1}", controller.RetryPolicy{Attempts: 1, On: controller.OnConflict, Reread: controller.FromLive, Backoff: 10 * time.Millisecond}},
		{"{on: any}", controller.RetryPolicy{Attempts: 5, On: controller.OnAnyError, Reread: controller.FromLive, Backoff: 10 * time.Millisecond}},
		{"{reread: lister, backoff: 0}", controller.RetryPolicy{Attempts: 5, On: controller.OnConflict, Reread: controller.FromLister}},
		{"{reread: none, backoff: 1s}", controller.RetryPolicy{Attempts: 5, On: controller.OnConflict, Reread: controller.RereadNone, Backoff: time.Second}},
		{"{unbounded: true, on: any}", controller.RetryPolicy{Unbounded: true, On: controller.OnAnyError, Reread: controller.FromLive, Backoff: 10 * time.Millisecond}},
		{"{unbounded: false, attempts: 2}", controller.RetryPolicy{Attempts: 2, On: controller.OnConflict, Reread: controller.FromLive, Backoff: 10 * time.Millisecond}},
	} {
		c := oneController(t, "- name: a", "  target: ConfigMap/cm1", "  mutations: [{remove: data.x}]", "  write: update", "  retry: "+tc.yaml)
		if c.Retry != tc.want {
			t.Errorf("retry: %s\n got %+v\nwant %+v", tc.yaml, c.Retry, tc.want)
		}
	}
	for _, tc := range []struct {
		yaml string
		want controller.RequeuePolicy
	}{
		{"{}", controller.RequeuePolicy{}},
		{"{max: 3}", controller.RequeuePolicy{Max: 3}},
		{"{max: 3, baseDelay: 5ms}", controller.RequeuePolicy{Max: 3, BaseDelay: 5 * time.Millisecond}},
	} {
		c := oneController(t, "- name: a", "  target: ConfigMap/cm1", "  mutations: [{remove: data.x}]", "  write: update", "  requeue: "+tc.yaml)
		if c.Requeue != tc.want {
			t.Errorf("requeue: %s: %+v", tc.yaml, c.Requeue)
		}
	}
}

func TestParseLags(t *testing.T) {
	for _, tc := range []struct {
		yaml string
		want Lag
	}{
		{"0", Lag{}},
		{"0s", Lag{}},
		{"5ms", Lag{Delay: 5 * time.Millisecond}},
		{"2s", Lag{Delay: 2 * time.Second}},
		{"1m30s", Lag{Delay: 90 * time.Second}},
		{"manual", Lag{Manual: true}},
	} {
		c := oneController(t, "- name: a", "  target: ConfigMap/cm1", "  mutations: [{remove: data.x}]", "  write: update", "  lag: "+tc.yaml)
		if c.Lag == nil || *c.Lag != tc.want {
			t.Errorf("controller lag %s: %+v", tc.yaml, c.Lag)
		}
		s := mustParse(t, doc(append([]string{"lag: " + tc.yaml}, string(ctrl("- {name: a, target: ConfigMap/cm1, mutations: [remove: data.x], write: update}")))...))
		if s.Lag != tc.want || s.Controllers[0].Lag != nil || s.LagOf(0) != tc.want {
			t.Errorf("scenario lag %s: %+v", tc.yaml, s.Lag)
		}
		roundTrip(t, s)
	}
}

// Object YAML keeps its types: strings stay strings, integers become
// int64, booleans stay booleans, timestamps stay text.
func TestParseObjectValues(t *testing.T) {
	s := mustParse(t, doc(
		"name: t",
		"objects:",
		"- apiVersion: apps/v1",
		"  kind: Deployment",
		"  metadata:",
		"    name: web",
		"    labels: {app.kubernetes.io/name: web, tier: '1'}",
		"    annotations:",
		"      created: 2026-01-01T00:00:00Z",
		"  spec:",
		"    replicas: 3",
		"    paused: false",
		"    ratio: 1.0",
		"    selector: {matchLabels: {app: web}}",
		"    template:",
		"      spec:",
		"        containers:",
		"        - {name: app, image: 'nginx:1.27', ports: [{containerPort: 80}]}",
		"    empty: {}",
		"    none: null",
		"controllers: [{name: a, target: Deployment/web, mutations: [remove: spec.paused], write: update}]",
	))
	obj := s.Objects[0].Object
	spec := obj["spec"].(map[string]any)
	for path, want := range map[string]any{
		"spec.replicas": int64(3),
		"spec.paused":   false,
		"spec.ratio":    1.0,
		`metadata.labels["app.kubernetes.io/name"]`:               "web",
		"metadata.labels.tier":                                    "1",
		"metadata.annotations.created":                            "2026-01-01T00:00:00Z",
		"spec.template.spec.containers[0].image":                  "nginx:1.27",
		"spec.template.spec.containers[0].ports[0].containerPort": int64(80),
	} {
		got, ok := controller.MustPath(path).Get(obj)
		if !ok || !reflect.DeepEqual(got, want) {
			t.Errorf("%s = %#v, want %#v", path, got, want)
		}
	}
	if _, ok := spec["none"]; !ok || spec["none"] != nil {
		t.Errorf("none: %#v", spec["none"])
	}
	if !reflect.DeepEqual(spec["empty"], map[string]any{}) {
		t.Errorf("empty: %#v", spec["empty"])
	}
	// Unstructured can deep-copy it: every value is of a JSON type.
	_ = s.Objects[0].DeepCopy()
	roundTrip(t, s)
}

func TestParseAnchorsAndAliases(t *testing.T) {
	s := mustParse(t, doc(
		"name: t",
		"objects:",
		"- &cm {apiVersion: v1, kind: ConfigMap, metadata: {name: cm1}, data: {x: '1'}}",
		"controllers:",
		"- name: a",
		"  target: &t ConfigMap/cm1",
		"  mutations: &m [{increment: data.x}]",
		"  write: update",
		"  retry: &r {attempts: 3}",
		"- {name: b, target: *t, mutations: *m, write: update, retry: *r}",
	))
	if !reflect.DeepEqual(s.Controllers[0].Mutations, s.Controllers[1].Mutations) || s.Controllers[1].Retry.Attempts != 3 {
		t.Errorf("%+v", s.Controllers)
	}
}

// wantOneError parses data and wants exactly one error from it: at line,
// in field, saying msg.
func wantOneError(t *testing.T, data []byte, line int, field, msg string) {
	t.Helper()
	_, err := Parse("race.yaml", data)
	var list ErrorList
	if !errors.As(err, &list) || len(list) != 1 {
		t.Fatalf("want one error, got %v\n%s", err, data)
	}
	want := &Error{File: "race.yaml", Line: line, Field: field, Msg: msg}
	if *list[0] != *want {
		t.Errorf("\n got: %v\nwant: %s", list[0], want)
	}
}
