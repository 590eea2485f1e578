// Package draft is the sandbox's race under construction: a
// scenario.Scenario on one object with one to four controllers, the
// settings the editor offers for each controller (every choice with its
// one-line explanation), the one-line mutation syntax, and the count of
// settings two races differ by, which scores the "fix it" challenges.
//
// The draft is the public scenario type itself, not a copy of it: what
// the editor builds is exactly what Save writes and what the simulator
// runs, so nothing can be lost in a conversion.
package draft

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/yaml"

	"github.com/conflictlab/conflictlab/sim/api"
	"github.com/conflictlab/conflictlab/sim/controller"
	"github.com/conflictlab/conflictlab/sim/race"
	"github.com/conflictlab/conflictlab/sim/scenario"
)

// Bounds on the number of controllers the editor composes. A file may
// bring a race with one controller; the editor never goes below two.
const (
	MinControllers = 2
	MaxControllers = 4
)

// Kinds are the object kinds the sandbox offers, in the order the editor
// cycles through them.
var Kinds = []api.Kind{api.ConfigMap, api.Deployment, api.Widget}

// KindExplain says in one line what racing on each kind shows.
var KindExplain = map[api.Kind]string{
	api.ConfigMap:  "built-in: data is strings, strategic merge patch works, an update may clear the RV",
	api.Deployment: "built-in and typed: replicas, labels, containers merged by name",
	api.Widget:     "a custom resource with a status subresource: updates ignore status, /status ignores the rest",
}

// startObject is each kind's starting content.
func startObject(k api.Kind) map[string]any {
	meta := func(name string) map[string]any {
		return map[string]any{"name": name, "namespace": scenario.DefaultNamespace}
	}
	switch k {
	case api.Deployment:
		labels := map[string]any{"app": "web"}
		return map[string]any{"apiVersion": "apps/v1", "kind": "Deployment", "metadata": meta("web"),
			"spec": map[string]any{
				"replicas": int64(1),
				"selector": map[string]any{"matchLabels": labels},
				"template": map[string]any{
					"metadata": map[string]any{"labels": map[string]any{"app": "web"}},
					"spec": map[string]any{"containers": []any{
						map[string]any{"name": "app", "image": "nginx:1.27"}}},
				},
			}}
	case api.Widget:
		return map[string]any{"apiVersion": api.WidgetGroup + "/v1", "kind": "Widget", "metadata": meta("w1"),
			"spec":   map[string]any{"size": int64(1), "color": "red"},
			"status": map[string]any{"phase": "Pending"}}
	}
	return map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "metadata": meta("cm1"),
		"data": map[string]any{"owner": "nobody", "count": "0"}}
}

// slotProgram is what the i-th controller does by default on a kind: a
// different field each, so that a lost one shows whose it was.
func slotProgram(k api.Kind, i int, name string) controller.Program {
	p := controller.Program{Name: name, Read: controller.FromLister, Write: controller.Update,
		Retry: controller.NoRetry(), Reconciles: 1}
	mu := func(text string) {
		m, err := ParseMutation(text, k)
		if err != nil {
			panic("draft: bad default mutation " + text + ": " + err.Error())
		}
		p.Mutations = append(p.Mutations, m)
	}
	switch k {
	case api.Deployment:
		mu([]string{"set spec.replicas = 3", "set spec.template.spec.containers[name=app].image = nginx:1.28",
			"set metadata.labels.team = " + name, "set metadata.annotations.owner = " + name}[i%4])
	case api.Widget:
		mu([]string{"set spec.color = blue", "set status.phase = Ready", "increment spec.size", "set status.message = " + name}[i%4])
		if i%4 == 1 || i%4 == 3 {
			p.Write = controller.UpdateStatus
		}
	default:
		mu([]string{"set data.owner = " + name, "increment data.count",
			"add-to-set metadata.finalizers = example.com/" + name, "set data." + name + " = set by " + name}[i%4])
	}
	return p
}

// New is the race the sandbox opens with: two controllers on a
// ConfigMap, each writing its own field with a conditional update.
func New() *scenario.Scenario {
	sc := &scenario.Scenario{Name: "sandbox", StartRV: scenario.DefaultStartRV, MaxSteps: scenario.DefaultMaxSteps}
	SetKind(sc, api.ConfigMap)
	return sc
}

// Kind is the kind of the race's object.
func Kind(sc *scenario.Scenario) api.Kind {
	if len(sc.Objects) == 0 {
		return ""
	}
	return api.Kind(sc.Objects[0].GetKind())
}

// SetKind replaces the object with the kind's starting content and gives
// every controller the kind's default mutations: a field of a ConfigMap
// means nothing on a Deployment.
func SetKind(sc *scenario.Scenario, k api.Kind) {
	n := max(MinControllers, len(sc.Controllers))
	sc.Objects = []*unstructured.Unstructured{{Object: startObject(k)}}
	ref := api.RefOf(sc.Objects[0])
	old := sc.Controllers
	sc.Controllers = make([]scenario.Controller, n)
	for i := range sc.Controllers {
		name := string(rune('a' + i))
		if i < len(old) {
			name = old[i].Name
		}
		sc.Controllers[i] = scenario.Controller{Program: slotProgram(k, i, name)}
		sc.Controllers[i].Target = ref
	}
}

// Clone copies a scenario deeply enough that editing the copy never
// touches the original (mutation values are replaced, never changed in
// place, so they may be shared).
func Clone(sc *scenario.Scenario) *scenario.Scenario {
	c := *sc
	c.Objects = make([]*unstructured.Unstructured, len(sc.Objects))
	for i, o := range sc.Objects {
		c.Objects[i] = o.DeepCopy()
	}
	c.Controllers = make([]scenario.Controller, len(sc.Controllers))
	for i, ctl := range sc.Controllers {
		ctl.Mutations = append([]controller.Mutation(nil), ctl.Mutations...)
		if ctl.Lag != nil {
			l := *ctl.Lag
			ctl.Lag = &l
		}
		c.Controllers[i] = ctl
	}
	c.Schedule = append([]scenario.Move(nil), sc.Schedule...)
	c.Invariants = append([]scenario.Invariant(nil), sc.Invariants...)
	if sc.Seed != nil {
		s := *sc.Seed
		c.Seed = &s
	}
	return &c
}

// Editable reports whether the editor can show the race: one object that
// every controller targets, and at most MaxControllers of them.
func Editable(sc *scenario.Scenario) error {
	if len(sc.Objects) != 1 {
		return fmt.Errorf("the sandbox races on one object; %s has %d (conflictlab sim runs it)", sc.Name, len(sc.Objects))
	}
	if n := len(sc.Controllers); n < 1 || n > MaxControllers {
		return fmt.Errorf("the sandbox races 1 to %d controllers; %s has %d (conflictlab sim runs it)", MaxControllers, sc.Name, n)
	}
	ref := api.RefOf(sc.Objects[0])
	for _, c := range sc.Controllers {
		if c.Target != ref {
			return fmt.Errorf("controller %s targets %s, not the race's object %s", c.Name, c.Target, ref)
		}
	}
	return nil
}

// AddController appends a controller with the next free letter as its
// name and the kind's default program for its slot. Letters in avoid
// (the keys a screen binds) are skipped, so that a controller's initial
// is a key that steps it.
func AddController(sc *scenario.Scenario, avoid ...string) error {
	if len(sc.Controllers) >= MaxControllers {
		return fmt.Errorf("a race has at most %d controllers", MaxControllers)
	}
	name := ""
	for r := 'a'; r <= 'z' && name == ""; r++ {
		if index(sc, string(r)) < 0 && !slices.Contains(avoid, string(r)) {
			name = string(r)
		}
	}
	if name == "" {
		name = fmt.Sprintf("c%d", len(sc.Controllers)+1)
	}
	c := scenario.Controller{Program: slotProgram(Kind(sc), len(sc.Controllers), name)}
	c.Target = api.RefOf(sc.Objects[0])
	sc.Controllers = append(sc.Controllers, c)
	return nil
}

// RemoveController drops controller i.
func RemoveController(sc *scenario.Scenario, i int) error {
	if len(sc.Controllers) <= MinControllers {
		return fmt.Errorf("a race needs at least %d controllers", MinControllers)
	}
	sc.Controllers = append(sc.Controllers[:i:i], sc.Controllers[i+1:]...)
	return nil
}

func index(sc *scenario.Scenario, name string) int {
	for i, c := range sc.Controllers {
		if c.Name == name {
			return i
		}
	}
	return -1
}

// nameRE is the scenario format's rule for controller names.
var nameRE = controller.NameRule

// Rename gives controller i a new name.
func Rename(sc *scenario.Scenario, i int, name string) error {
	name = strings.TrimSpace(name)
	if !nameRE.MatchString(name) {
		return fmt.Errorf("%q: a name is letters, digits and dashes", name)
	}
	if j := index(sc, name); j >= 0 && j != i {
		return fmt.Errorf("another controller is called %s", name)
	}
	sc.Controllers[i].Name = name
	return nil
}

// ObjectYAML is the starting object as the editor shows it.
func ObjectYAML(sc *scenario.Scenario) string {
	b, err := yaml.Marshal(sc.Objects[0].Object)
	if err != nil {
		return fmt.Sprintf("# cannot show the object: %v", err)
	}
	return string(b)
}

// SetObjectYAML replaces the starting object with the YAML text; the
// controllers follow it if its name changes. The kind must be one the
// sandbox offers; the API server's own checks run in Check.
func SetObjectYAML(sc *scenario.Scenario, text string) error {
	js, err := yaml.YAMLToJSON([]byte(text))
	if err != nil {
		return fmt.Errorf("not YAML: %v", err)
	}
	u := &unstructured.Unstructured{}
	if err := u.UnmarshalJSON(js); err != nil {
		// The JSON decoder keeps integers as int64, as the simulator wants.
		return fmt.Errorf("not a Kubernetes object: %v", err)
	}
	known := false
	for _, k := range Kinds {
		known = known || api.Kind(u.GetKind()) == k
	}
	if !known {
		return fmt.Errorf("kind %q: the sandbox races on ConfigMap, Deployment or Widget", u.GetKind())
	}
	if u.GetName() == "" {
		return fmt.Errorf("metadata.name is missing")
	}
	if u.GetNamespace() == "" {
		u.SetNamespace(scenario.DefaultNamespace)
	}
	cand := Clone(sc)
	cand.Objects = []*unstructured.Unstructured{u}
	for i := range cand.Controllers {
		cand.Controllers[i].Target = api.RefOf(u)
	}
	if err := Check(cand); err != nil {
		return err
	}
	*sc = *cand
	return nil
}

// Check reports what would stop the race from being saved or run: the
// file format's own checks (by writing the scenario and reading it back)
// and the API server's, which creates the object.
func Check(sc *scenario.Scenario) error {
	if _, err := scenario.Marshal(sc); err != nil {
		return err
	}
	_, err := race.New(sc)
	return err
}

// jsonEqual compares two JSON-shaped values.
func jsonEqual(a, b any) bool {
	x, err1 := json.Marshal(a)
	y, err2 := json.Marshal(b)
	return err1 == nil && err2 == nil && string(x) == string(y)
}
