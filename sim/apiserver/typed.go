package apiserver

import (
	"encoding/json"

	appsv1 "k8s.io/api/apps/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	kjson "sigs.k8s.io/json"

	"github.com/conflictlab/conflictlab/sim/api"
)

type typesUID = types.UID

func runtimeDeepCopy(v any) any { return runtime.DeepCopyJSONValue(v) }

// decodeTyped decodes a body into the kind's Go type, the way the real
// server's decoder does (same JSON library, same messages), and back to
// unstructured: unknown fields fall away, types are checked. Its error is
// the decoder's own text; the caller says which request it failed.
func decodeTyped(info api.KindInfo, body []byte) (*unstructured.Unstructured, error) {
	obj := api.NewTyped(info.Kind)
	if err := kjson.UnmarshalCaseSensitivePreserveInts(body, obj); err != nil {
		return nil, err
	}
	return typedToUnstructured(info, obj)
}

// typedToUnstructured is the stored form of a typed object.
func typedToUnstructured(info api.KindInfo, obj runtime.Object) (*unstructured.Unstructured, error) {
	if d, ok := obj.(*appsv1.Deployment); ok {
		defaultDeployment(d)
	}
	m, err := runtime.DefaultUnstructuredConverter.ToUnstructured(obj)
	if err != nil {
		return nil, err
	}
	u := &unstructured.Unstructured{Object: m}
	dropNulls(u.Object)
	keepManagedFieldsReset(obj, u)
	u.SetAPIVersion(info.APIVersion)
	u.SetKind(string(info.Kind))
	return u, nil
}

// decodeCustom decodes a custom resource: any JSON object, pruned to the
// CRD's schema.
func decodeCustom(body []byte) (*unstructured.Unstructured, error) {
	var m map[string]any
	if err := kjson.UnmarshalCaseSensitivePreserveInts(body, &m); err != nil {
		return nil, err
	}
	if m == nil {
		m = map[string]any{} // the body was null
	}
	// The real CR decoder reads the metadata as an ObjectMeta and refuses
	// what does not fit (a list, a number for a name, ...): apiextensions'
	// GetObjectMetaWithOptions, strict as under the default field
	// validation. Unchecked, a malformed metadata would make every metadata
	// setter silently fail.
	if md, ok := m["metadata"]; ok {
		raw, err := json.Marshal(md)
		if err != nil {
			return nil, err
		}
		om := &metav1.ObjectMeta{}
		if _, err := kjson.UnmarshalStrict(raw, om); err != nil {
			return nil, &metadataError{err}
		}
		if err := coerceObjectMeta(m, om); err != nil {
			return nil, &metadataError{err}
		}
	}
	u := &unstructured.Unstructured{Object: m}
	pruneWidget(u)
	return u, nil
}

// coerceObjectMeta writes the decoded ObjectMeta back as the object's
// metadata, as the real CR decoder does (unstructuredSchemaCoercer.apply,
// objectmeta.SetObjectMeta): what ObjectMeta's omitempty leaves out goes,
// so removing a custom resource's last annotation or label leaves no
// empty map behind (measured on v1.37.2), and unknown metadata fields are
// dropped. So does an empty managedFields list: on a custom resource
// "managedFields: []" resets nothing, the field manager keeps the live
// entries (measured on v1.37.2; on a built-in kind it clears them). A
// non-empty list stays as sent, for the field manager to read raw
// (fieldmanager.go).
func coerceObjectMeta(obj map[string]any, om *metav1.ObjectMeta) error {
	md, err := runtime.DefaultUnstructuredConverter.ToUnstructured(om)
	if err != nil {
		return err
	}
	if old, ok := obj["metadata"].(map[string]any); ok {
		if mf, ok := old["managedFields"].([]any); ok && len(mf) > 0 {
			md["managedFields"] = mf
		}
	}
	// A zero creationTimestamp converts to null; the server sets it.
	if md["creationTimestamp"] == nil {
		delete(md, "creationTimestamp")
	}
	obj["metadata"] = md
	return nil
}

// dropNulls removes the zero timestamps and empty structs the converter
// writes as null, so that stored objects look like what a server returns.
// The exception is a condition's unset time: a DeploymentCondition's
// lastUpdateTime and lastTransitionTime are metav1.Time values without
// omitzero, which the real server's JSON encoder writes as null, and the
// server returns and stores them so (measured on v1.37.2: conformance
// testdata/measured/condition-*.yaml). The null is a field the field
// manager sees: the manager that wrote the condition owns it.
func dropNulls(m map[string]any) { dropNullsIn(m, false) }

// dropNullsIn is dropNulls on a map; inCondition says it is an item of a
// conditions list, whose null times stay.
func dropNullsIn(m map[string]any, inCondition bool) {
	for k, v := range m {
		switch t := v.(type) {
		case nil:
			if inCondition && (k == "lastUpdateTime" || k == "lastTransitionTime") {
				continue
			}
			delete(m, k)
		case map[string]any:
			dropNullsIn(t, false)
			// A Deployment's "status": {} and a container's "resources": {}
			// stay: a real server returns them (measured on v1.37.2).
			if len(t) == 0 && (k == "metadata" || k == "strategy" || k == "template" || k == "spec" || k == "selector") {
				delete(m, k)
			}
		case []any:
			for _, e := range t {
				if em, ok := e.(map[string]any); ok {
					dropNullsIn(em, k == "conditions")
				}
			}
		}
	}
}

// metadataError is a custom resource whose metadata is not an ObjectMeta.
type metadataError struct{ err error }

func (e *metadataError) Error() string { return e.err.Error() }

// keepManagedFieldsReset: a body whose metadata.managedFields is an empty
// list asks the field manager to drop every entry (isResetManagedFields in
// apimachinery's managedfields), but the converter leaves an empty list
// out (omitempty), which would make it mean "keep them". The typed object
// still tells the two apart; put the empty list back.
func keepManagedFieldsReset(obj runtime.Object, u *unstructured.Unstructured) {
	acc, err := meta.Accessor(obj)
	if err != nil {
		return
	}
	if mf := acc.GetManagedFields(); mf != nil && len(mf) == 0 {
		md, _ := u.Object["metadata"].(map[string]any)
		if md == nil {
			md = map[string]any{}
			u.Object["metadata"] = md
		}
		md["managedFields"] = []any{}
	}
}
