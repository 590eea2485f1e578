package draft

import (
	"fmt"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/conflictlab/conflictlab/sim/api"
	"github.com/conflictlab/conflictlab/sim/controller"
	"github.com/conflictlab/conflictlab/sim/scenario"
)

// TestMutationSyntaxRoundTrips: what the editor shows reads back as the
// same mutation, with the value's type kept.
func TestMutationSyntaxRoundTrips(t *testing.T) {
	for _, c := range []struct {
		kind      api.Kind
		in, shown string
		value     any
	}{
		{api.ConfigMap, "set data.owner = a", "set data.owner = a", "a"},
		{api.ConfigMap, "set data.count = 3", `set data.count = "3"`, "3"}, // ConfigMap data is strings
		{api.Widget, "set spec.size = 3", "set spec.size = 3", int64(3)},
		{api.Widget, `set spec.color = "3"`, `set spec.color = "3"`, "3"},
		{api.Widget, "set spec.paused = true", "set spec.paused = true", true},
		{api.ConfigMap, "remove data.x", "remove data.x", nil},
		{api.ConfigMap, "increment data.count by -2", "increment data.count by -2", nil},
		{api.ConfigMap, "add-to-set metadata.finalizers = example.com/a", "add-finalizer example.com/a", "example.com/a"},
		{api.Deployment, "set spec.template.spec.containers[name=app].image = nginx:1.28", "set spec.template.spec.containers[name=app].image = nginx:1.28", "nginx:1.28"},
		{api.Widget, "set spec.replicas = 3 if status.phase = Ready", "set spec.replicas = 3 if status.phase = Ready", int64(3)},
		{api.Widget, "set spec.owner = me if spec.owner = null", "set spec.owner = me if spec.owner = null", "me"},
		{api.Widget, "copy status.observedGeneration from metadata.generation", "copy status.observedGeneration from metadata.generation", nil},
		{api.Widget, "  copy   status.readyReplicas   from   spec.size  ", "copy status.readyReplicas from spec.size", nil},
		{api.ConfigMap, `copy data.owner from metadata.labels["app.kubernetes.io/name"] if data.owner = null`, `copy data.owner from metadata.labels["app.kubernetes.io/name"] if data.owner = null`, nil},
	} {
		mu, err := ParseMutation(c.in, c.kind)
		if err != nil {
			t.Fatalf("%q: %v", c.in, err)
		}
		if mu.Value != c.value {
			t.Errorf("%q: value %#v, want %#v", c.in, mu.Value, c.value)
		}
		shown := FormatMutation(mu)
		if shown != c.shown {
			t.Errorf("%q shows as %q, want %q", c.in, shown, c.shown)
		}
		back, err := ParseMutation(shown, c.kind)
		if err != nil || FormatMutation(back) != shown {
			t.Errorf("%q does not read back: %v %q", shown, err, FormatMutation(back))
		}
	}
	for _, bad := range []string{"", "upsert data.x = 1", "set data.x", "set data.x =", "increment data.x by many", "set data..x = 1", "remove"} {
		if _, err := ParseMutation(bad, api.ConfigMap); err == nil {
			t.Errorf("%q was accepted", bad)
		}
	}
}

// TestCopyReadsItsFrom: a copy keeps both of its paths and its
// condition, and the errors say which part is missing or wrong.
func TestCopyReadsItsFrom(t *testing.T) {
	mu, err := ParseMutation("copy status.observedGeneration from metadata.generation if status.phase = Ready", api.Widget)
	if err != nil {
		t.Fatal(err)
	}
	if mu.Op != controller.Copy || mu.Path.String() != "status.observedGeneration" || mu.From.String() != "metadata.generation" ||
		mu.When == nil || mu.When.Path.String() != "status.phase" || mu.When.Equals != "Ready" || mu.Value != nil {
		t.Fatalf("parsed: %+v", mu)
	}
	for _, c := range []struct{ in, want string }{
		{"copy", "copy needs PATH from FROM (FROM: the field whose value it copies)"},
		{"copy status.observedGeneration", "copy needs PATH from FROM"},
		{"copy status.observedGeneration = 3", "copy needs PATH from FROM"},
		{"copy status.observedGeneration from", "copy needs a FROM after from: the field whose value it copies"},
		{"copy status.observedGeneration from   ", "copy needs a FROM after from"},
		{"copy from metadata.generation", "copy needs a PATH before from: the field it sets"},
		{"copy  from  metadata.generation", "copy needs a PATH before from"},
		{"copy status..observedGeneration from metadata.generation", `path "status..observedGeneration": empty segment`},
		{"copy status.observedGeneration from metadata..generation", `from: path "metadata..generation": empty segment`},
		{"copy status.observedGeneration from metadata.generation[", `from: path "metadata.generation[": unclosed [`},
		{"copy status.x from spec.size if status.phase", "if needs PATH = VALUE"},
		{"cpy status.x from spec.size", `"cpy": start with one of set, append, add-to-set, remove-from-list, remove, increment, copy, add-label`},
	} {
		_, err := ParseMutation(c.in, api.Widget)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want one saying %q", c.in, err, c.want)
		}
	}
}

// TestEveryOperationRoundTrips: every operation the controllers know,
// with and without a condition, on plain, quoted-key, index and selector
// paths, is shown in a form that reads back as the same mutation.
func TestEveryOperationRoundTrips(t *testing.T) {
	paths := []string{"spec.size", `metadata.annotations["example.com/owner"]`, "status.conditions[0].status",
		"spec.template.spec.containers[name=app].image"}
	values := []any{"a", "3", "two words", int64(3), true, map[string]any{"k": "v"}, []any{int64(1), "x"}}
	conds := []*controller.Condition{nil, {Path: controller.MustPath("status.phase"), Equals: "Ready"},
		{Path: controller.MustPath("spec.owner"), Equals: nil}, {Path: controller.MustPath("spec.size"), Equals: int64(2)}}
	var all []controller.Mutation
	for i, p := range paths {
		path, from := controller.MustPath(p), controller.MustPath(paths[(i+1)%len(paths)])
		all = append(all, controller.Mutation{Op: controller.Remove, Path: path},
			controller.Mutation{Op: controller.Increment, Path: path, By: 1},
			controller.Mutation{Op: controller.Increment, Path: path, By: -4},
			controller.Mutation{Op: controller.Copy, Path: path, From: from})
		for _, op := range []controller.Op{controller.Set, controller.Append, controller.AddToSet, controller.RemoveFromList} {
			for _, v := range values {
				if _, str := v.(string); !str && stringsOnly(api.Widget, p) {
					continue // annotation values are strings: 3 there reads back as "3"
				}
				all = append(all, controller.Mutation{Op: op, Path: path, Value: v})
			}
		}
	}
	seen := map[controller.Op]bool{}
	for _, base := range all {
		for _, cond := range conds {
			mu := base
			mu.When = cond
			seen[mu.Op] = true
			shown := FormatMutation(mu)
			back, err := ParseMutation(shown, api.Widget)
			if err != nil {
				t.Errorf("%q: %v", shown, err)
				continue
			}
			if !reflect.DeepEqual(back, mu) {
				t.Errorf("%q reads back as %+v, want %+v", shown, back, mu)
			}
		}
	}
	for _, v := range verbs {
		if !seen[v.op] {
			t.Errorf("%s is not covered", v.op)
		}
	}
}

// TestEveryFileFormRoundTrips: every item of a scenario file's mutations
// (each of the format's operations, with and without when) is shown as
// one line that names the file's operation, and that line, typed, is the
// same mutation — and so is the file's own name for the operation.
func TestEveryFileFormRoundTrips(t *testing.T) {
	items := []struct{ yaml, verb string }{
		{`set: {path: data.owner, value: a}`, "set"},
		{`remove: data.owner`, "remove"},
		{`increment: data.count`, "increment"},
		{`increment: {path: data.count, by: -2}`, "increment"},
		{`append: {path: data.log, value: x}`, "append"},
		{`addToSet: {path: data.tags, value: x}`, "add-to-set"},
		{`removeFromList: {path: data.tags, value: x}`, "remove-from-list"},
		{`addLabel: {team: a}`, "add-label"},
		{`addLabel: {app.kubernetes.io/name: web}`, "add-label"},
		{`removeLabel: team`, "remove-label"},
		{`annotate: {example.com/owner: "3"}`, "annotate"},
		{`removeAnnotation: example.com/owner`, "remove-annotation"},
		{`addFinalizer: example.com/cleanup`, "add-finalizer"},
		{`removeFinalizer: example.com/cleanup`, "remove-finalizer"},
		{`copy: {from: metadata.name, path: data.owner}`, "copy"},
	}
	var src strings.Builder
	src.WriteString("name: forms\nobjects:\n- {apiVersion: v1, kind: ConfigMap, metadata: {name: cm1}}\ncontrollers:\n")
	for k, when := range []string{"", "\n    when: {path: data.mode, equals: blue}", "\n    when: {path: data.gone, equals: null}"} {
		fmt.Fprintf(&src, "- name: c%d\n  target: ConfigMap/cm1\n  write: update\n  mutations:\n", k)
		for _, it := range items {
			fmt.Fprintf(&src, "  - %s%s\n", it.yaml, when)
		}
	}
	sc, err := scenario.Parse("forms.yaml", []byte(src.String()))
	if err != nil {
		t.Fatal(err)
	}
	fileNames := map[string]string{"add-to-set": "addToSet", "remove-from-list": "removeFromList", "add-label": "addLabel",
		"remove-label": "removeLabel", "remove-annotation": "removeAnnotation", "add-finalizer": "addFinalizer", "remove-finalizer": "removeFinalizer"}
	var all []controller.Mutation
	for _, c := range sc.Controllers {
		all = append(all, c.Mutations...)
	}
	for i, mu := range all {
		it := items[i%len(items)]
		shown := FormatMutation(mu)
		want := it.verb
		if w, _, _ := strings.Cut(shown, " "); w != want {
			t.Errorf("%s is shown as %q, not with %s", it.yaml, shown, want)
		}
		typed := []string{shown}
		if name, ok := fileNames[want]; ok {
			typed = append(typed, name+strings.TrimPrefix(shown, want))
		}
		for _, in := range typed {
			back, err := ParseMutation(in, api.ConfigMap)
			if err != nil {
				t.Errorf("%q (%s): %v", in, it.yaml, err)
				continue
			}
			if !reflect.DeepEqual(back, mu) {
				t.Errorf("%q reads back as %+v, want %+v", in, back, mu)
			}
		}
	}
}

// The long forms through paths, the two-word and no-space forms read as
// the short form shows them.
func TestOtherSpellingsReadTheSame(t *testing.T) {
	for _, c := range []struct{ in, shown string }{
		{"add-to-set metadata.finalizers = example.com/x", "add-finalizer example.com/x"},
		{"add finalizer example.com/x", "add-finalizer example.com/x"},
		{"Remove Finalizer example.com/x", "remove-finalizer example.com/x"},
		{"set metadata.labels.team = a", "add-label team = a"},
		{`set metadata.labels["app.kubernetes.io/name"] = web`, "add-label app.kubernetes.io/name = web"},
		{"remove metadata.annotations.note", "remove-annotation note"},
		{"addLabel team=a", "add-label team = a"},
		{"set data.owner=a", "set data.owner = a"},
		{"set spec.template.spec.containers[name=app].image=nginx:1.28", "set spec.template.spec.containers[name=app].image = nginx:1.28"},
		{`set data.x = "a if b"`, `set data.x = "a if b"`},
		{`set data.x = "a if b" if data.y = "c"`, `set data.x = "a if b" if data.y = c`},
	} {
		mu, err := ParseMutation(c.in, api.ConfigMap)
		if err != nil {
			t.Errorf("%q: %v", c.in, err)
			continue
		}
		if got := FormatMutation(mu); got != c.shown {
			t.Errorf("%q shows as %q, want %q", c.in, got, c.shown)
		}
	}
}

// TestEveryKindAndSettingMakesAValidRace: whatever the editor offers
// (every kind, two to four controllers, every choice of every setting)
// is a race the file format and the API server accept.
func TestEveryKindAndSettingMakesAValidRace(t *testing.T) {
	for _, k := range Kinds {
		sc := New()
		SetKind(sc, k)
		for len(sc.Controllers) < MaxControllers {
			if err := AddController(sc); err != nil {
				t.Fatal(err)
			}
		}
		if err := AddController(sc); err == nil {
			t.Fatalf("%s: a fifth controller was added", k)
		}
		if err := Check(sc); err != nil {
			t.Fatalf("%s with four controllers: %v", k, err)
		}
		for _, s := range Settings {
			for i := range sc.Controllers {
				if s.Free || !s.Shown(sc, i) {
					continue
				}
				for range s.Choices(sc, i) {
					if err := s.Cycle(sc, i, 1); err != nil {
						t.Fatalf("%s %s: %v", k, s.Key, err)
					}
					if err := Check(sc); err != nil {
						t.Fatalf("%s %s=%s: %v", k, s.Key, s.Get(sc, i), err)
					}
				}
			}
		}
		for len(sc.Controllers) > MinControllers {
			if err := RemoveController(sc, 0); err != nil {
				t.Fatal(err)
			}
		}
		if err := RemoveController(sc, 0); err == nil {
			t.Fatalf("%s: went below %d controllers", k, MinControllers)
		}
	}
}

func TestWriteMethodDropsOptionsItsSuccessorCannotHave(t *testing.T) {
	sc := New()
	for _, a := range []string{"a.write=json-patch", "a.test=values", "a.write=merge-patch", "a.withRV=yes", "a.write=apply", "a.force=yes", "a.fieldManager=shared"} {
		if err := Apply(sc, a); err != nil {
			t.Fatal(err)
		}
	}
	p := sc.Controllers[0].Program
	if p.Test != controller.TestNone || p.WithRV || !p.Force || p.FieldManager != "shared" {
		t.Fatalf("after switching write methods: %+v", p)
	}
	if err := Apply(sc, "a.write=update"); err != nil || sc.Controllers[0].Force {
		t.Fatalf("force survived a switch to update: %v", err)
	}
	if err := Check(sc); err != nil {
		t.Fatal(err)
	}
}

func TestDiffCountsSettingsNotWhatChanges(t *testing.T) {
	a := New()
	b := Clone(a)
	for _, s := range []string{"b.write=merge-patch", "b.withRV=yes", "b.retry=default", "a.lag=manual"} {
		if err := Apply(b, s); err != nil {
			t.Fatal(err)
		}
	}
	got := Diff(a, b)
	var keys []string
	for _, c := range got {
		keys = append(keys, c.String())
	}
	want := "a.lag: 0 → manual|b.write: update → merge-patch|b.withRV: no → yes|b.retry: none → default"
	if strings.Join(keys, "|") != want {
		t.Fatalf("diff:\n%s\nwant\n%s", strings.Join(keys, "|"), want)
	}
	if !SameRace(a, b) {
		t.Fatal("settings alone made it another race")
	}
	b.Controllers[0].Mutations[0], _ = ParseMutation("set data.owner = z", api.ConfigMap)
	if SameRace(a, b) {
		t.Fatal("a changed mutation went unnoticed")
	}
	if len(a.Controllers[0].Mutations) != 1 || FormatMutation(a.Controllers[0].Mutations[0]) != "set data.owner = a" {
		t.Fatal("editing the clone changed the original")
	}
}

func TestObjectYAMLEditing(t *testing.T) {
	sc := New()
	text := strings.Replace(ObjectYAML(sc), "name: cm1", "name: cm2", 1)
	if err := SetObjectYAML(sc, text); err != nil {
		t.Fatal(err)
	}
	if sc.Controllers[1].Target.Name != "cm2" {
		t.Fatalf("the controllers did not follow the object: %v", sc.Controllers[1].Target)
	}
	for _, bad := range []string{"kind: Pod\napiVersion: v1\nmetadata: {name: p}", "{", "apiVersion: v1\nkind: ConfigMap\nmetadata: {}",
		"apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\ndata: {n: 3}"} {
		before := sc.Objects[0].GetName()
		if err := SetObjectYAML(sc, bad); err == nil {
			t.Fatalf("accepted:\n%s", bad)
		}
		if sc.Objects[0].GetName() != before {
			t.Fatal("a refused edit changed the race")
		}
	}
	if err := Editable(&scenario.Scenario{Name: "x"}); err == nil {
		t.Fatal("a race with no object is editable")
	}
}

// TestSameRaceSeesACopysFrom: two copies to the same field from
// different fields are different races (both once showed as the same
// "copy PATH = <nil>").
func TestSameRaceSeesACopysFrom(t *testing.T) {
	a := New()
	SetKind(a, api.Widget)
	var err error
	a.Controllers[0].Mutations[0], err = ParseMutation("copy status.observedGeneration from metadata.generation", api.Widget)
	if err != nil {
		t.Fatal(err)
	}
	b := Clone(a)
	if !SameRace(a, b) {
		t.Fatal("a clone is another race")
	}
	b.Controllers[0].Mutations[0], _ = ParseMutation("copy status.observedGeneration from spec.size", api.Widget)
	if SameRace(a, b) {
		t.Fatal("a changed from went unnoticed")
	}
	if err := Check(b); err != nil {
		t.Fatal(err)
	}
}

// TestDocsShowEveryOperation: the scenario format's table of the editor's
// forms has a line for every operation the editor reads, and its
// examples read.
func TestDocsShowEveryOperation(t *testing.T) {
	data, err := os.ReadFile("../../docs/scenario-format.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(data)
	for _, v := range verbs {
		if !strings.Contains(doc, "`"+v.name+" ") {
			t.Errorf("docs/scenario-format.md does not show the editor's form of %s", v.name)
		}
	}
	for _, ex := range []string{"add-finalizer example.com/x", "addFinalizer example.com/x", "add finalizer example.com/x", "set metadata.labels.team = a"} {
		if !strings.Contains(doc, "`"+ex+"`") {
			t.Errorf("the example %q is no longer in the doc", ex)
		}
		if _, err := ParseMutation(ex, api.ConfigMap); err != nil {
			t.Errorf("the doc's example %q: %v", ex, err)
		}
	}
}

// Completion offers what can be typed next, as whole lines, and every
// line it offers, given a value, reads.
func TestCompletionOffersWhatReads(t *testing.T) {
	sc := New()
	SetKind(sc, api.Deployment)
	sc.Objects[0].SetLabels(map[string]string{"team": "a"})
	sc.Objects[0].SetFinalizers([]string{"example.com/keep"})
	has := func(text, want string) {
		t.Helper()
		for _, s := range Complete(text, sc) {
			if s == want {
				return
			}
		}
		t.Errorf("%q: %q is not offered (%v)", text, want, Complete(text, sc))
	}
	has("", "set ")
	has("add", "add-finalizer ")
	has("set ", "set spec.replicas = ")
	has("set spec.t", "set spec.template.spec.containers[name=app].image = ")
	has("remove-label ", "remove-label team")
	has("remove-finalizer ", "remove-finalizer example.com/keep")
	has("add-finalizer ", "add-finalizer example.com/a")
	has("copy ", "copy spec.replicas from ")
	has("copy spec.replicas from ", "copy spec.replicas from spec.replicas")
	has("set spec.replicas = 3 if ", "set spec.replicas = 3 if metadata.labels.team = ")
	if got := Complete("set spec.replicas = ", sc); len(got) != 0 {
		t.Errorf("a value is offered: %v", got)
	}
	for _, text := range []string{"", "set ", "add-label ", "annotate ", "increment ", "copy spec.replicas from ", "remove-finalizer "} {
		for _, line := range Complete(text, sc) {
			typed := line
			switch {
			case strings.HasSuffix(line, " = "):
				typed += "x"
			case strings.HasSuffix(line, " ") || strings.HasSuffix(line, "."):
				continue // a verb or a map to go on with
			}
			if _, err := ParseMutation(typed, api.Deployment); err != nil {
				t.Errorf("offered %q does not read: %v", typed, err)
			}
		}
	}
}

// An invariant is one line that reads back as itself; a bad one is
// refused with what to write, and the file's own checks apply.
func TestInvariantLines(t *testing.T) {
	sc := New()
	for _, line := range []string{
		"name cm1 is 1: cm1 must survive",
		"selector app=web is 1: the parent needs exactly one child",
		"selector tier in (db, cache),!legacy is 0: nothing old is left",
		"namespace team-a name cm2 is 0: no copy in team-a",
		"Widget selector app=web is 0: no widget",
	} {
		inv, err := ParseInvariant(line, sc)
		if err != nil {
			t.Fatalf("%q: %v", line, err)
		}
		if got := FormatInvariant(inv, sc); got != line {
			t.Errorf("%q shows as %q", line, got)
		}
	}
	if err := SetInvariant(sc, 0, "name cm1 is 1: cm1 must survive"); err != nil || len(sc.Invariants) != 1 || sc.Invariants[0].Name != "cm1" {
		t.Fatalf("add: %v %+v", err, sc.Invariants)
	}
	for _, c := range []struct{ line, want string }{
		{"name cm1 is 1", "ends with : WHY"},
		{"name cm1: why", "is N: WHY"},
		{"name cm1 is many: why", `is "many": want a count`},
		{"count cm1 is 1: why", `"count": an invariant counts`},
		{"selector app in web is 1: why", "is not a label selector"},
		{"name cm1 is 2: why", "invariants[0]"},
	} {
		err := SetInvariant(sc, 0, c.line)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: want %q in %v", c.line, c.want, err)
		}
	}
	if sc.Invariants[0].Name != "cm1" || sc.Invariants[0].Is != 1 {
		t.Fatalf("a refused line changed the invariant: %+v", sc.Invariants[0])
	}
	RemoveInvariant(sc, 0)
	if len(sc.Invariants) != 0 {
		t.Fatal("not removed")
	}
}
