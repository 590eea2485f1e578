package apiserver

import (
	"fmt"
	"sort"
	"strings"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/structured-merge-diff/v6/typed"
)

// The Widget CRD's field manager. A real server builds a custom resource's
// type converter from the CRD's structural schema, in which metadata is
// the standard ObjectMeta (apiextensions' BuildOpenAPIV3 refers to it): so
// metadata.finalizers is a set whose items are owned one by one ("v:"
// entries), as for a built-in kind, and labels and annotations are maps.
// The schema's own lists carry no list-type marker and are atomic. A
// deduced converter made every list atomic, finalizers included, which a
// comparison of field sets with v1.37.2 showed.

const widgetTypeName = "com.example.oracle.v1.Widget"

// widgetTypeSchema is the SMD schema of a Widget: ObjectMeta and its
// dependencies from the ConfigMap's generated schema, plus the Widget type
// built from widgetSchema.
func widgetTypeSchema() string {
	var b strings.Builder
	b.WriteString(builtinTypeSchemas["io.k8s.api.core.v1.ConfigMap"])
	fmt.Fprintf(&b, "\n- name: %s\n  map:\n    fields:\n", widgetTypeName)
	b.WriteString("    - name: apiVersion\n      type:\n        scalar: string\n")
	b.WriteString("    - name: kind\n      type:\n        scalar: string\n")
	b.WriteString("    - name: metadata\n      type:\n        namedType: io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta\n")
	for _, top := range []string{"spec", "status"} {
		fmt.Fprintf(&b, "    - name: %s\n      type:\n        map:\n          fields:\n", top)
		names := make([]string, 0, len(widgetSchema[top]))
		for f := range widgetSchema[top] {
			names = append(names, f)
		}
		sort.Strings(names)
		for _, f := range names {
			fmt.Fprintf(&b, "          - name: %s\n            type:\n", f)
			switch widgetSchema[top][f] {
			case "integer", "number":
				b.WriteString("              scalar: numeric\n")
			case "boolean":
				b.WriteString("              scalar: boolean\n")
			case "array":
				// items: {x-kubernetes-preserve-unknown-fields: true}, no list type.
				b.WriteString("              list:\n                elementType:\n                  namedType: __untyped_deduced_\n                elementRelationship: atomic\n")
			default:
				b.WriteString("              scalar: string\n")
			}
		}
	}
	return b.String()
}

// widgetConverter is the real typeConverter's work for one kind: an
// unstructured object to a typed value of the Widget type and back.
type widgetConverter struct{ t *typed.ParseableType }

func newWidgetConverter() (*widgetConverter, error) {
	parser, err := typed.NewParser(typed.YAMLObject(widgetTypeSchema()))
	if err != nil {
		return nil, err
	}
	t := parser.Type(widgetTypeName)
	return &widgetConverter{t: &t}, nil
}

func (c *widgetConverter) ObjectToTyped(obj runtime.Object, opts ...typed.ValidationOptions) (*typed.TypedValue, error) {
	u, ok := obj.(*unstructured.Unstructured)
	if !ok {
		return nil, fmt.Errorf("widget field manager: unexpected object %T", obj)
	}
	return c.t.FromUnstructured(u.UnstructuredContent(), opts...)
}

func (c *widgetConverter) TypedToObject(value *typed.TypedValue) (runtime.Object, error) {
	m, ok := value.AsValue().Unstructured().(map[string]any)
	if !ok {
		return nil, fmt.Errorf("widget field manager: typed value is not an object")
	}
	return &unstructured.Unstructured{Object: m}, nil
}
