package code

import (
	"context"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	dynamicfake "k8s.io/client-go/dynamic/fake"
	k8stesting "k8s.io/client-go/testing"
)

// AddWidgetFinalizerStrategic sends one strategic merge patch naming just
// its finalizer (a fake has no 415 to give: the simulator and the
// conformance test show the server's answer).
func TestWidgetStrategicPatchIsSent(t *testing.T) {
	w := &unstructured.Unstructured{Object: map[string]interface{}{
		"apiVersion": "oracle.example.com/v1", "kind": "Widget",
		"metadata": map[string]interface{}{"name": "w1", "namespace": ns},
	}}
	dc := dynamicfake.NewSimpleDynamicClientWithCustomListKinds(runtime.NewScheme(),
		map[schema.GroupVersionResource]string{Widgets: "WidgetList"}, w)
	_ = AddWidgetFinalizerStrategic(context.Background(), dc, ns, "w1", "example.com/c")
	var patches []k8stesting.PatchAction
	for _, a := range dc.Actions() {
		if p, ok := a.(k8stesting.PatchAction); ok {
			patches = append(patches, p)
		}
	}
	if len(patches) != 1 || patches[0].GetPatchType() != types.StrategicMergePatchType ||
		string(patches[0].GetPatch()) != `{"metadata":{"finalizers":["example.com/c"]}}` {
		t.Fatalf("patches %+v", patches)
	}
}
