package apiserver

import (
	"encoding/base64"
	"fmt"
	"maps"
	"slices"
	"sort"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/conflictlab/conflictlab/sim/api"
)

// validate runs the checks of the served kinds' strategies (of the status
// strategy for a write to sub "status"), in the order
// the real registry runs them, and reports what a real server reports for
// them. The simulator does not import k8s.io/kubernetes (it would need
// replace directives for every staging module and roughly double the
// build): the rules of its strategies are written out here and
// in validate_*.go, each naming the upstream function it mirrors, and built
// from apimachinery's own validation functions wherever upstream calls
// them.
//
//   - a create runs the kind's strategy.Validate (rest.ValidateCreate);
//   - an update runs validateCommonFields (ValidateObjectMetaAccessor and
//     ValidateObjectMetaAccessorUpdate) and then the strategy's
//     ValidateUpdate (rest.ValidateUpdate).
//
// Several passes can find the same bad field (a ConfigMap update validates
// the new ConfigMap as if created); for a built-in kind kube-apiserver
// v1.37.2 answers it with one cause (measured by the conformance run, which
// compares causes), so the list is kept free of repeats. A custom
// resource's update keeps them: see validateCustomUpdate.
func validate(info api.KindInfo, live, next *unstructured.Unstructured, sub string) field.ErrorList {
	metaPath := field.NewPath("metadata")
	var errs field.ErrorList
	if live == nil {
		// rest.ValidateCreate then runs ValidateObjectMetaAccessor when
		// the strategy found nothing; every served kind's strategy has
		// run the same checks, with a name rule at least as strict, so it
		// would find nothing either.
		return unique(validateCreate(info, next))
	}
	if info.Kind == api.Widget {
		return validateCustomUpdate(live, next)
	}
	errs = append(errs, validateObjectMeta(next, metaPath)...)
	errs = append(errs, validateObjectMetaUpdate(next, live, metaPath)...)
	if info.Kind == api.Deployment && sub == "status" {
		// deploymentStatusStrategy.ValidateUpdate.
		errs = append(errs, validateDeploymentStatusUpdate(live, next)...)
	} else {
		errs = append(errs, validateUpdate(info, live, next)...)
	}
	return unique(errs)
}

// validateCreate is the kind's strategy.Validate.
func validateCreate(info api.KindInfo, next *unstructured.Unstructured) field.ErrorList {
	metaPath := field.NewPath("metadata")
	switch info.Kind {
	case api.ConfigMap:
		return validateConfigMap(next, true)
	case api.Deployment:
		return validateDeployment(nil, next)
	case api.Widget:
		// customResourceStrategy.Validate: the generic metadata check,
		// then the schema.
		return append(validateObjectMeta(next, metaPath), validateWidget(next)...)
	}
	return nil
}

// validateCustomUpdate is rest.ValidateUpdate for a custom resource, main
// resource or /status, as kube-apiserver v1.37.2 answers it: nothing
// dedupes the causes, so a bad metadata field is listed once per pass that
// checks it (measured: a bad label or annotation three times, a changed
// uid twice).
//
//   - validateCommonFields: ValidateObjectMetaAccessor, whose name rule is
//     only the path-segment one (a generateName like "Bad_" passes), then
//     ValidateObjectMetaAccessorUpdate;
//   - customResourceValidator.ValidateUpdate (ValidateStatusUpdate):
//     ValidateObjectMetaUpdate again (validateObjectMetaUpdateDeclaratively;
//     the declarative ObjectMeta rules it adds are alpha, not enforced),
//     then the schema.
func validateCustomUpdate(live, next *unstructured.Unstructured) field.ErrorList {
	metaPath := field.NewPath("metadata")
	errs := validateObjectMetaNamed(next, metaPath, validatePathSegment)
	errs = append(errs, validateObjectMetaUpdate(next, live, metaPath)...)
	errs = append(errs, validateObjectMetaUpdate(next, live, metaPath)...)
	return append(errs, validateWidget(next)...)
}

// validateUpdate is the kind's strategy.ValidateUpdate.
func validateUpdate(info api.KindInfo, live, next *unstructured.Unstructured) field.ErrorList {
	switch info.Kind {
	case api.ConfigMap:
		return validateConfigMapUpdate(live, next)
	case api.Deployment:
		return validateDeployment(live, next)
	case api.Widget:
		// customResourceStrategy.ValidateUpdate: ValidateObjectMetaAccessorUpdate,
		// already run by validateCommonFields, then the schema.
		return validateWidget(next)
	}
	return nil
}

// unique drops an error that repeats an earlier one (same type, field,
// value and detail), keeping the order.
func unique(errs field.ErrorList) field.ErrorList {
	if len(errs) < 2 {
		return errs
	}
	out := errs[:0:0]
	seen := map[string]bool{}
	for _, e := range errs {
		k := e.Error()
		if !seen[k] {
			seen[k] = true
			out = append(out, e)
		}
	}
	return out
}

// validateConfigMap is core validation's ValidateConfigMap (generic: see
// validateKubeObjectMeta).
func validateConfigMap(u *unstructured.Unstructured, generic bool) field.ErrorList {
	errs := validateKubeObjectMeta(u, field.NewPath("metadata"), generic)
	data, _, _ := unstructured.NestedStringMap(u.Object, "data")
	binary, _, _ := unstructured.NestedStringMap(u.Object, "binaryData")
	total := 0
	for _, k := range slices.Sorted(maps.Keys(data)) {
		for _, msg := range validation.IsConfigMapKey(k) {
			errs = append(errs, field.Invalid(field.NewPath("data").Key(k), k, msg))
		}
		if _, dup := binary[k]; dup {
			errs = append(errs, field.Invalid(field.NewPath("data").Key(k), k, "duplicate of key present in binaryData"))
		}
		total += len(data[k])
	}
	for _, k := range slices.Sorted(maps.Keys(binary)) {
		for _, msg := range validation.IsConfigMapKey(k) {
			errs = append(errs, field.Invalid(field.NewPath("binaryData").Key(k), k, msg))
		}
		// binaryData is base64 on the wire: its size is the decoded bytes'.
		raw, _ := base64.StdEncoding.DecodeString(binary[k])
		total += len(raw)
	}
	if total > maxConfigMapSize {
		errs = append(errs, field.TooLong(field.NewPath(""), "", maxConfigMapSize))
	}
	return errs
}

// maxConfigMapSize is core.MaxSecretSize, which ValidateConfigMap uses.
const maxConfigMapSize = 1 * 1024 * 1024

// validateConfigMapUpdate is ValidateConfigMapUpdate: an immutable
// ConfigMap keeps its data, its binaryData and its immutability.
func validateConfigMapUpdate(live, next *unstructured.Unstructured) field.ErrorList {
	errs := validateKubeObjectMetaUpdate(next, field.NewPath("metadata"))
	if immutable(live) {
		const msg = "field is immutable when `immutable` is set"
		if !immutable(next) {
			errs = append(errs, field.Forbidden(field.NewPath("immutable"), msg))
		}
		for _, f := range []string{"data", "binaryData"} {
			if !sameStringMap(live, next, f) {
				errs = append(errs, field.Forbidden(field.NewPath(f), msg))
			}
		}
	}
	return append(errs, validateConfigMap(next, false)...)
}

func immutable(u *unstructured.Unstructured) bool {
	b, _, _ := unstructured.NestedBool(u.Object, "immutable")
	return b
}

// sameStringMap compares a map field of two objects as the typed
// ConfigMaps compare (reflect.DeepEqual after decoding, where the
// ConfigMap's defaulting makes a missing data an empty map).
func sameStringMap(a, b *unstructured.Unstructured, f string) bool {
	ma, _, _ := unstructured.NestedStringMap(a.Object, f)
	mb, _, _ := unstructured.NestedStringMap(b.Object, f)
	if len(ma) != len(mb) {
		return false
	}
	for k, v := range ma {
		if w, ok := mb[k]; !ok || w != v {
			return false
		}
	}
	return true
}

func fieldErrRVRequired(info api.KindInfo, name string) error {
	// The store reports the resource where the kind belongs: "widgets.oracle.example.com".
	qualified := schema.GroupKind{Group: info.Resource.Group, Kind: info.Resource.Resource}
	var zero uint64
	return invalidGK(qualified, name, field.ErrorList{field.Invalid(field.NewPath("metadata", "resourceVersion"), zero, "must be specified for an update")})
}

// widgetSchema is the structural schema of the Widget CRD: field -> JSON type.
// Fields not listed are pruned, as a real server prunes unknown fields.
var widgetSchema = map[string]map[string]string{
	"spec": {
		"size": "integer", "color": "string", "replicas": "integer", "paused": "boolean",
		"items": "array", "owner": "string",
	},
	"status": {
		"phase": "string", "observedGeneration": "integer", "count": "integer",
		"conditions": "array", "message": "string", "readyReplicas": "integer",
	},
}

func pruneWidget(u *unstructured.Unstructured) {
	for k := range u.Object {
		switch k {
		case "apiVersion", "kind", "metadata":
		default:
			fields, known := widgetSchema[k]
			if !known {
				delete(u.Object, k)
				continue
			}
			m, ok := u.Object[k].(map[string]any)
			if !ok {
				continue
			}
			for f := range m {
				if _, ok := fields[f]; !ok {
					delete(m, f)
				}
			}
		}
	}
}

func validateWidget(u *unstructured.Unstructured) field.ErrorList {
	var errs field.ErrorList
	for _, top := range []string{"spec", "status"} {
		v, ok := u.Object[top]
		if !ok {
			continue
		}
		m, ok := v.(map[string]any)
		if !ok {
			errs = append(errs, typeError(field.NewPath(top), v, "object"))
			continue
		}
		names := make([]string, 0, len(m))
		for f := range m {
			names = append(names, f)
		}
		sort.Strings(names)
		for _, f := range names {
			want := widgetSchema[top][f]
			if got := jsonType(m[f]); got != want && !(want == "number" && got == "integer") {
				errs = append(errs, typeError(field.NewPath(top, f), m[f], want))
			}
		}
	}
	return errs
}

// typeError is the OpenAPI validator's message, as the CRD handler wraps it
// (apiextensions' ValidateCustomResource: a TypeInvalid error, whose reason
// in the Status causes is FieldValueTypeInvalid).
func typeError(p *field.Path, v any, want string) *field.Error {
	got := jsonType(v)
	return field.TypeInvalid(p, got, fmt.Sprintf("%s in body must be of type %s: %q", p.String(), want, got))
}

func jsonType(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case string:
		return "string"
	case bool:
		return "boolean"
	case int64, int, int32:
		return "integer"
	case float64, float32:
		return "number"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	}
	return fmt.Sprintf("%T", v)
}
