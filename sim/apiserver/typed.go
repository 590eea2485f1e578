package apiserver

import (
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	kjson "sigs.k8s.io/json"

	"github.com/conflictlab/conflictlab/sim/api"
)

type typesUID = types.UID

func runtimeDeepCopy(v interface{}) interface{} { return runtime.DeepCopyJSONValue(v) }

// typedFor returns an empty Go value of a built-in kind: strategic merge
// patch reads its struct tags (patchStrategy, patchMergeKey), and the decoder
// uses it to reject bodies that do not fit.
func typedFor(k api.Kind) runtime.Object {
	switch k {
	case api.ConfigMap:
		return &corev1.ConfigMap{}
	case api.Deployment:
		return &appsv1.Deployment{}
	}
	return nil
}

// normalizeTyped decodes a body into the kind's Go type, the way the real
// server's decoder does (same JSON library, same messages), and back to
// unstructured: unknown fields fall away, types are checked.
func normalizeTyped(info api.KindInfo, body []byte) (*unstructured.Unstructured, error) {
	obj := typedFor(info.Kind)
	if err := kjson.UnmarshalCaseSensitivePreserveInts(body, obj); err != nil {
		return nil, cannotDecode(info, err)
	}
	m, err := runtime.DefaultUnstructuredConverter.ToUnstructured(obj)
	if err != nil {
		return nil, cannotDecode(info, err)
	}
	u := &unstructured.Unstructured{Object: m}
	dropNulls(u.Object)
	u.SetAPIVersion(info.APIVersion)
	u.SetKind(string(info.Kind))
	return u, nil
}

// dropNulls removes the zero timestamps and empty structs the converter
// writes as null, so that stored objects look like what a server returns.
func dropNulls(m map[string]interface{}) {
	for k, v := range m {
		switch t := v.(type) {
		case nil:
			delete(m, k)
		case map[string]interface{}:
			dropNulls(t)
			if len(t) == 0 && (k == "metadata" || k == "status" || k == "strategy" || k == "resources" || k == "template" || k == "spec" || k == "selector") {
				delete(m, k)
			}
		case []interface{}:
			for _, e := range t {
				if em, ok := e.(map[string]interface{}); ok {
					dropNulls(em)
				}
			}
		}
	}
}
