package draft

import (
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
		value     interface{}
	}{
		{api.ConfigMap, "set data.owner = a", "set data.owner = a", "a"},
		{api.ConfigMap, "set data.count = 3", `set data.count = "3"`, "3"}, // ConfigMap data is strings
		{api.Widget, "set spec.size = 3", "set spec.size = 3", int64(3)},
		{api.Widget, `set spec.color = "3"`, `set spec.color = "3"`, "3"},
		{api.Widget, "set spec.paused = true", "set spec.paused = true", true},
		{api.ConfigMap, "remove data.x", "remove data.x", nil},
		{api.ConfigMap, "increment data.count by -2", "increment data.count by -2", nil},
		{api.ConfigMap, "add-to-set metadata.finalizers = example.com/a", "add-to-set metadata.finalizers = example.com/a", "example.com/a"},
		{api.Deployment, "set spec.template.spec.containers[name=app].image = nginx:1.28", "set spec.template.spec.containers[name=app].image = nginx:1.28", "nginx:1.28"},
		{api.Widget, "set spec.replicas = 3 if status.phase = Ready", "set spec.replicas = 3 if status.phase = Ready", int64(3)},
		{api.Widget, "set spec.owner = me if spec.owner = null", "set spec.owner = me if spec.owner = null", "me"},
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
