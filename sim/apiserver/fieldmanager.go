package apiserver

import (
	"fmt"
	"sort"
	"sync"
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/managedfields"
	"sigs.k8s.io/structured-merge-diff/v6/typed"

	"github.com/conflictlab/conflictlab/sim/api"
	"github.com/conflictlab/conflictlab/sim/apiserver/internal/typeschema"
)

// Schema holds the real field managers of every served kind. A built-in
// kind's field manager needs that kind's OpenAPI types, which used to mean
// parsing client-go's schema of every built-in type (~100 ms, ~19 MB, at the
// first write of any run). Now each kind's manager is built at the first
// write of that kind, from only the types it needs (typeschema_gen.go), once
// per schema. The schema holds no state of any run: which managers exist
// changes no answer, so every run stays a pure function of its inputs. It
// is shared by the explorer's goroutine and the UI, hence the lock.
type Schema struct {
	mu       sync.Mutex
	scheme   *runtime.Scheme
	managers map[managerKey]*managedfields.FieldManager
	// converters counts the type converters built, by kind: each kind's
	// is built once, and only when a run writes that kind.
	converters map[api.Kind]int
}

type managerKey struct {
	kind        api.Kind
	subresource string
}

//go:generate go run gen_typeschema.go

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
	scheme, err := typeschema.Scheme()
	if err != nil {
		return nil, err
	}
	return &Schema{
		scheme:     scheme,
		managers:   map[managerKey]*managedfields.FieldManager{},
		converters: map[api.Kind]int{},
	}, nil
}

// manager returns the field manager of kind k's subresource ("" for the
// object itself), building it and the kind's type converter at first use.
func (s *Schema) manager(k api.Kind, subresource string) *managedfields.FieldManager {
	s.mu.Lock()
	defer s.mu.Unlock()
	if fm, ok := s.managers[managerKey{k, subresource}]; ok {
		return fm
	}
	if err := s.build(k); err != nil {
		// The schemas are compiled into the binary: failing here is a build bug.
		panic(err)
	}
	return s.managers[managerKey{k, subresource}]
}

// build makes kind k's type converter and the field managers of its
// endpoints. Called with s.mu held.
func (s *Schema) build(k api.Kind) error {
	info, ok := api.Lookup(k)
	if !ok {
		return fmt.Errorf("field manager for unknown kind %q", k)
	}
	var converter managedfields.TypeConverter
	if info.Builtin {
		// The real schema of the built-in types: finalizers are a set,
		// containers merge by name. A deduced schema would make every list
		// atomic and invent conflicts a real server does not report.
		name, err := s.scheme.ToOpenAPIDefinitionName(info.GVK())
		if err != nil {
			return fmt.Errorf("field manager for %s: %w", k, err)
		}
		types, ok := builtinTypeSchemas[name]
		if !ok {
			return fmt.Errorf("field manager for %s: no types for %s in typeschema_gen.go (run go generate ./sim/apiserver)", k, name)
		}
		parser, err := typed.NewParser(typed.YAMLObject(types))
		if err != nil {
			return fmt.Errorf("field manager for %s: %w", k, err)
		}
		converter = managedfields.NewSchemeTypeConverter(s.scheme, parser)
	} else {
		// The Widget CRD's structural schema (widgetschema.go).
		wc, err := newWidgetConverter()
		if err != nil {
			return fmt.Errorf("field manager for %s: %w", k, err)
		}
		converter = wc
	}
	s.converters[k]++
	for _, sub := range []string{"", "status"} {
		if sub == "status" && !info.StatusSubresource {
			continue
		}
		var (
			fm  *managedfields.FieldManager
			err error
		)
		reset := resetFields(info, sub)
		if info.Builtin {
			fm, err = managedfields.NewDefaultFieldManager(converter, identity{}, identity{}, creater{}, info.GVK(), info.GVK().GroupVersion(), sub, reset)
		} else {
			fm, err = managedfields.NewDefaultCRDFieldManager(converter, identity{}, identity{}, creater{}, info.GVK(), info.GVK().GroupVersion(), sub, reset)
		}
		if err != nil {
			return fmt.Errorf("field manager for %s: %w", k, err)
		}
		s.managers[managerKey{k, sub}] = fm
	}
	return nil
}

// convertersBuilt reports how many type converters each kind has had built.
func (s *Schema) convertersBuilt() map[api.Kind]int {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := map[api.Kind]int{}
	for k, n := range s.converters {
		out[k] = n
	}
	return out
}

// The store keeps every object as unstructured JSON in its only version, so
// conversion and defaulting are identities.
type identity struct{}

func (identity) Convert(in, out, context any) error {
	return fmt.Errorf("conversion is not supported")
}
func (identity) ConvertToVersion(in runtime.Object, _ runtime.GroupVersioner) (runtime.Object, error) {
	return in, nil
}
func (identity) ConvertFieldLabel(_ schema.GroupVersionKind, _, _ string) (string, string, error) {
	return "", "", fmt.Errorf("field labels are not supported")
}
func (identity) Default(runtime.Object) {}

// creater is the field manager's ObjectCreater. It makes the "empty"
// object the first apply to an object without managedFields compares the
// live one with (skipNonAppliedManager, for "before-first-apply"): a real
// server's is its scheme's typed zero object, which zeroObject is.
type creater struct{}

func (creater) New(gvk schema.GroupVersionKind) (runtime.Object, error) {
	if info, ok := api.Lookup(api.Kind(gvk.Kind)); ok && info.GVK() == gvk {
		return zeroObject(info), nil
	}
	u := &unstructured.Unstructured{Object: map[string]any{}}
	u.SetGroupVersionKind(gvk)
	return u, nil
}

// The field manager stamps managedFields times with the wall clock: it
// restamps the entry of the manager whose write changed the object (an
// update that changed any field, an apply that changed anything) and leaves
// every other entry's time as it was. The simulator keeps that rule but
// stamps its virtual clock instead, so that runs stay deterministic:
// markManagedTimes replaces every entry's time with a marker (a time in
// 1970, which the wall clock never is) before the field manager runs, and
// timeMarks.restore afterwards gives marked entries their time back and
// every freshly stamped entry the virtual now.
//
// Both work on the raw metadata.managedFields list, where a time is the
// RFC 3339 string metav1.Time encodes to: going through
// Get/SetManagedFields converts every entry to and from its Go type, which
// was a fifth of the cost of a write.
type timeMarks map[string]any

func markManagedTimes(objs ...*unstructured.Unstructured) timeMarks {
	marks := timeMarks{}
	for _, u := range objs {
		for _, e := range rawManagedFields(u) {
			if len(e) == 0 {
				// An empty entry stays empty: alone in the list it asks the
				// field manager to drop every entry (isResetManagedFields,
				// as [] does), and a time would make it an entry.
				continue
			}
			mark := time.Unix(int64(len(marks)+1), 0).UTC().Format(time.RFC3339)
			marks[mark] = e["time"] // nil when the entry had no time
			e["time"] = mark
		}
	}
	return marks
}

func (m timeMarks) restore(u *unstructured.Unstructured, now time.Time) {
	stamp := now.UTC().Format(time.RFC3339)
	for _, e := range rawManagedFields(u) {
		t, ok := e["time"].(string)
		if !ok {
			// An entry the field manager left without a time keeps none: a
			// manager whose apply changed nothing joins untimed (measured on
			// v1.37.2: managedFieldsUpdater stamps only a changing write).
			continue
		}
		if orig, marked := m[t]; marked {
			if orig == nil {
				delete(e, "time")
			} else {
				e["time"] = orig
			}
			continue
		}
		e["time"] = stamp
	}
	sortManagedFields(u)
}

// sortManagedFields puts the entries in the order the real field manager
// encodes them (sortEncodedManagedFields): by operation, then time to the
// second, then manager, API version and subresource. The markers above
// made the freshly stamped entry sort last; with the virtual times back, a
// real server would order them by these keys.
func sortManagedFields(u *unstructured.Unstructured) {
	md, _ := u.Object["metadata"].(map[string]any)
	list, _ := md["managedFields"].([]any)
	str := func(e any, k string) string {
		m, _ := e.(map[string]any)
		s, _ := m[k].(string)
		return s
	}
	seconds := func(e any) int64 {
		t, err := time.Parse(time.RFC3339, str(e, "time"))
		if err != nil {
			return 0
		}
		return t.Unix()
	}
	sort.SliceStable(list, func(i, j int) bool {
		p, q := list[i], list[j]
		if a, b := str(p, "operation"), str(q, "operation"); a != b {
			return a < b
		}
		if a, b := seconds(p), seconds(q); a != b {
			return a < b
		}
		if a, b := str(p, "manager"), str(q, "manager"); a != b {
			return a < b
		}
		if a, b := str(p, "apiVersion"), str(q, "apiVersion"); a != b {
			return a < b
		}
		return str(p, "subresource") < str(q, "subresource")
	})
}

// rawManagedFields returns the entries of metadata.managedFields as the
// maps they are stored as (writes to them change the object).
func rawManagedFields(u *unstructured.Unstructured) []map[string]any {
	md, _ := u.Object["metadata"].(map[string]any)
	list, _ := md["managedFields"].([]any)
	out := make([]map[string]any, 0, len(list))
	for _, e := range list {
		if m, ok := e.(map[string]any); ok {
			out = append(out, m)
		}
	}
	return out
}
