package gen

import (
	"math/rand/v2"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/conflictlab/conflictlab/sim/api"
	"github.com/conflictlab/conflictlab/sim/scenario"
)

// Object is a drawn object and what its controllers can change in it.
type Object struct {
	Obj *unstructured.Unstructured
	// Fields are the paths mutations pick from, by type.
	Fields []Field
	// Status: the kind has a status subresource.
	Status bool
}

// Ref names the object as a controller's target.
func (o *Object) Ref() api.Ref { return api.RefOf(o.Obj) }

// FieldType is what a field holds, which says what a mutation can do to it.
type FieldType int

const (
	Str     FieldType = iota // a string: set, append (as a comma list)
	Int                      // an integer: set, increment
	Bool                     // a boolean: set
	List                     // a list of strings: set, append, addToSet, removeFromList
	Counter                  // a decimal string (ConfigMap data): increment keeps it a string
	Conds                    // a list of {type, status} conditions: set, append
)

// Field is one path of an object a mutation may change.
type Field struct {
	Path string
	Type FieldType
	// Status: under status (an update of the main resource drops it).
	Status bool
	// Values are what a set writes or a condition compares with.
	Values []any
}

// value draws a value for the field.
func (f Field) value(r *rand.Rand) any { return f.Values[r.IntN(len(f.Values))] }

// The metadata every kind shares: label and annotation keys (plain and
// prefixed), and qualified finalizer names.
var (
	labelKeys      = []string{"team", "tier", "example.com/owner", "app.kubernetes.io/version"}
	labelValues    = []string{"a", "b", "web", "v2", ""}
	annotationKeys = []string{"note", "example.com/reviewed-by", "checksum"}
	annotationVals = []string{"a", "b", "ok", "two words", "1"}
	finalizerNames = []string{"example.com/a", "example.com/b", "example.com/keep"}
)

func strs(xs ...string) []any {
	out := make([]any, len(xs))
	for i, x := range xs {
		out[i] = x
	}
	return out
}

func ints(xs ...int64) []any {
	out := make([]any, len(xs))
	for i, x := range xs {
		out[i] = x
	}
	return out
}

// meta is an object's metadata before the tables of MetaSlots add
// labels, annotations or finalizers.
func meta(name string) map[string]any {
	return map[string]any{"name": name, "namespace": scenario.DefaultNamespace}
}

func configMap(r *rand.Rand, name string, immutable bool) *Object {
	data := map[string]any{"mode": oneOf(r, "blue", "red"), "count": oneOf(r, "0", "7")}
	if r.IntN(2) == 0 {
		data["items"] = "x"
	}
	obj := map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "metadata": meta(name), "data": data}
	if immutable {
		obj["immutable"] = true
	}
	return &Object{Obj: &unstructured.Unstructured{Object: obj}, Fields: []Field{
		{Path: "data.a", Type: Str, Values: strs("1", "set by a", "")},
		{Path: "data.b", Type: Str, Values: strs("2", "set by b")},
		{Path: "data.mode", Type: Str, Values: strs("blue", "red", "green")},
		{Path: "data.count", Type: Counter, Values: strs("0", "5")},
		{Path: "data.items", Type: Str, Values: strs("x", "y,z")},
	}}
}

func deployment(r *rand.Rand, name string, probes bool) *Object {
	container := map[string]any{"name": "app", "image": oneOf(r, "nginx:1.0", "api:1.0")}
	if probes {
		container["livenessProbe"] = map[string]any{
			"httpGet": map[string]any{"port": int64(8080)},
		}
		container["env"] = []any{map[string]any{"name": "POD", "valueFrom": map[string]any{
			"fieldRef": map[string]any{"fieldPath": "metadata.name"}}}}
	}
	if r.IntN(2) == 0 {
		container["args"] = []any{"--v=1"}
	}
	spec := map[string]any{
		"replicas": oneOf(r, int64(1), int64(3)),
		"selector": map[string]any{"matchLabels": map[string]any{"app": name}},
		"template": map[string]any{
			"metadata": map[string]any{"labels": map[string]any{"app": name}},
			"spec":     map[string]any{"containers": []any{container}},
		},
	}
	if r.IntN(3) == 0 {
		spec["paused"] = true
	}
	obj := map[string]any{"apiVersion": "apps/v1", "kind": "Deployment", "metadata": meta(name), "spec": spec}
	return &Object{Obj: &unstructured.Unstructured{Object: obj}, Status: true, Fields: []Field{
		{Path: "spec.replicas", Type: Int, Values: ints(0, 2, 5)},
		// Not false or 0: a Deployment stores those as absent (omitempty),
		// which odd/zero-values draws on its own.
		{Path: "spec.paused", Type: Bool, Values: []any{true}},
		{Path: "spec.minReadySeconds", Type: Int, Values: ints(5, 10)},
		{Path: "spec.revisionHistoryLimit", Type: Int, Values: ints(1, 10)},
		{Path: "spec.template.spec.containers[name=app].image", Type: Str, Values: strs("nginx:1.1", "api:2.0")},
		{Path: "spec.template.spec.containers[name=app].args", Type: List, Values: strs("--v=2", "--fast")},
		{Path: `spec.template.metadata.annotations["example.com/restartedAt"]`, Type: Str, Values: strs("1", "2")},
		// Status counts a Deployment's validation accepts in any order
		// (ready ≤ replicas is odd/status-over-replicas's).
		{Path: "status.observedGeneration", Type: Int, Status: true, Values: ints(1, 2)},
		{Path: "status.replicas", Type: Int, Status: true, Values: ints(1, 3)},
		{Path: "status.collisionCount", Type: Int, Status: true, Values: ints(1)},
	}}
}

func widget(r *rand.Rand, name string) *Object {
	spec := map[string]any{"size": oneOf(r, int64(1), int64(3))}
	if r.IntN(2) == 0 {
		spec["color"] = oneOf(r, "blue", "red")
	}
	if r.IntN(2) == 0 {
		spec["items"] = []any{"x"}
	}
	obj := map[string]any{"apiVersion": api.WidgetGroup + "/v1", "kind": "Widget", "metadata": meta(name), "spec": spec}
	if r.IntN(3) == 0 {
		// A status in the create: a custom resource's create drops it.
		obj["status"] = map[string]any{"phase": "Pending"}
	}
	return &Object{Obj: &unstructured.Unstructured{Object: obj}, Status: true, Fields: []Field{
		{Path: "spec.size", Type: Int, Values: ints(2, 5)},
		{Path: "spec.color", Type: Str, Values: strs("blue", "red", "green")},
		{Path: "spec.replicas", Type: Int, Values: ints(1, 4)},
		{Path: "spec.paused", Type: Bool, Values: []any{true, false}},
		{Path: "spec.items", Type: List, Values: strs("x", "y")},
		{Path: "spec.owner", Type: Str, Values: strs("a", "b")},
		{Path: "status.phase", Type: Str, Status: true, Values: strs("Pending", "Ready")},
		{Path: "status.observedGeneration", Type: Int, Status: true, Values: ints(1, 2)},
		{Path: "status.count", Type: Int, Status: true, Values: ints(0, 1)},
		{Path: "status.message", Type: Str, Status: true, Values: strs("ok", "busy")},
		{Path: "status.conditions", Type: Conds, Status: true, Values: []any{
			map[string]any{"type": "Ready", "status": "True"},
			map[string]any{"type": "Synced", "status": "False"},
		}},
	}}
}
