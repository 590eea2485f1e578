package informer

import (
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/labels"

	"github.com/conflictlab/conflictlab/sim/api"
	"github.com/conflictlab/conflictlab/sim/statekey/statekeytest"
)

// TestCacheEncodesEveryField: every field of a cache is written by
// EncodeState; a field added to Cache fails here until it is (or is said
// not to be state).
func TestCacheEncodesEveryField(t *testing.T) {
	cm := func(name string) *unstructured.Unstructured {
		return &unstructured.Unstructured{Object: map[string]any{"apiVersion": "v1", "kind": "ConfigMap",
			"metadata": map[string]any{"name": name, "namespace": "default", "resourceVersion": "101"}}}
	}
	base := func() *Cache { return Synced([]*unstructured.Unstructured{cm("cm1")}, 101) }
	statekeytest.Fields(t, base, (*Cache).EncodeState, map[string]statekeytest.Field[Cache]{
		"objects": {Change: func(c *Cache) { c.objects[api.Ref{Kind: api.ConfigMap, Namespace: "default", Name: "cm2"}] = cm("cm2") }},
		"rv":      {Change: func(c *Cache) { c.rv++ }},
		"sel": {Change: func(c *Cache) { c.sel = labels.SelectorFromSet(labels.Set{"app": "web"}) },
			NotState: "the label selector is fixed for the race, like a program"},
	})
}
