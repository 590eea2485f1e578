package apiserver

import (
	"fmt"
	"sync"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/managedfields"
	"k8s.io/client-go/applyconfigurations"

	"github.com/conflictlab/conflictlab/sim/api"
)

// Schema holds the real field managers of every served kind. Building it
// parses the OpenAPI models of the built-in types (tens of milliseconds), so
// it is built once, lazily, and shared: it is immutable and holds no state of
// any run, which keeps every run a pure function of its inputs.
type Schema struct {
	managers map[managerKey]*managedfields.FieldManager
}

type managerKey struct {
	kind        api.Kind
	subresource string
}

var defaultSchema = sync.OnceValues(newSchema)

// DefaultSchema returns the shared schema, building it on first use.
func DefaultSchema() *Schema {
	s, err := defaultSchema()
	if err != nil {
		// The inputs are compiled into the binary: failing here is a build bug.
		panic(err)
	}
	return s
}

func newSchema() (*Schema, error) {
	scheme := runtime.NewScheme()
	if err := corev1.AddToScheme(scheme); err != nil {
		return nil, err
	}
	if err := appsv1.AddToScheme(scheme); err != nil {
		return nil, err
	}
	// The real schema of the built-in types: finalizers are a set,
	// containers merge by name. A deduced schema would make every list
	// atomic and invent conflicts a real server does not report.
	builtin := applyconfigurations.NewTypeConverter(scheme)
	// The Widget CRD declares no list-type markers, and a real server
	// treats such lists as atomic, which is what the deduced converter does.
	custom := managedfields.NewDeducedTypeConverter()

	s := &Schema{managers: map[managerKey]*managedfields.FieldManager{}}
	for _, k := range api.Kinds() {
		info, _ := api.Lookup(k)
		for _, sub := range []string{"", "status"} {
			if sub == "status" && !info.StatusSubresource {
				continue
			}
			var (
				fm  *managedfields.FieldManager
				err error
			)
			if info.Builtin {
				fm, err = managedfields.NewDefaultFieldManager(builtin, identity{}, identity{}, creater{}, info.GVK(), info.GVK().GroupVersion(), sub, nil)
			} else {
				fm, err = managedfields.NewDefaultCRDFieldManager(custom, identity{}, identity{}, creater{}, info.GVK(), info.GVK().GroupVersion(), sub, nil)
			}
			if err != nil {
				return nil, fmt.Errorf("field manager for %s: %w", k, err)
			}
			s.managers[managerKey{k, sub}] = fm
		}
	}
	return s, nil
}

func (s *Schema) manager(k api.Kind, subresource string) *managedfields.FieldManager {
	return s.managers[managerKey{k, subresource}]
}

// The store keeps every object as unstructured JSON in its only version, so
// conversion and defaulting are identities.
type identity struct{}

func (identity) Convert(in, out, context interface{}) error { return fmt.Errorf("conversion is not supported") }
func (identity) ConvertToVersion(in runtime.Object, _ runtime.GroupVersioner) (runtime.Object, error) {
	return in, nil
}
func (identity) ConvertFieldLabel(_ schema.GroupVersionKind, _, _ string) (string, string, error) {
	return "", "", fmt.Errorf("field labels are not supported")
}
func (identity) Default(runtime.Object) {}

type creater struct{}

func (creater) New(gvk schema.GroupVersionKind) (runtime.Object, error) {
	u := &unstructured.Unstructured{Object: map[string]interface{}{}}
	u.SetGroupVersionKind(gvk)
	return u, nil
}

// stampManagedFields gives every managedFields entry that changed in this
// write the virtual time of the write, and keeps the time of entries that did
// not. The field manager stamps the wall clock; a real server only moves an
// entry's time when the entry changes, which is what keeps a no-op write a
// no-op.
func stampManagedFields(live, next *unstructured.Unstructured, now time.Time) {
	old := map[string]metav1.ManagedFieldsEntry{}
	if live != nil {
		for _, e := range live.GetManagedFields() {
			old[entryKey(e)] = e
		}
	}
	entries := next.GetManagedFields()
	if len(entries) == 0 {
		return
	}
	for i, e := range entries {
		prev, ok := old[entryKey(e)]
		if ok && prev.FieldsV1 != nil && e.FieldsV1 != nil && string(prev.FieldsV1.Raw) == string(e.FieldsV1.Raw) {
			entries[i].Time = prev.Time
			continue
		}
		t := metav1.NewTime(now)
		entries[i].Time = &t
	}
	next.SetManagedFields(entries)
}

func entryKey(e metav1.ManagedFieldsEntry) string {
	return e.Manager + "\x00" + string(e.Operation) + "\x00" + e.Subresource + "\x00" + e.APIVersion
}
