package race

import (
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/conflictlab/conflictlab/sim/api"
	"github.com/conflictlab/conflictlab/sim/controller"
	"github.com/conflictlab/conflictlab/sim/scenario"
)

// The fixtures build scenarios in Go so that this package's tests do not
// depend on the file format.

var cm1 = api.Ref{Kind: api.ConfigMap, Namespace: "default", Name: "cm1"}

func configMap(data map[string]any, finalizers ...string) *unstructured.Unstructured {
	u := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "v1", "kind": "ConfigMap",
		"metadata": map[string]any{"name": "cm1", "namespace": "default"},
	}}
	if data != nil {
		u.Object["data"] = data
	}
	if len(finalizers) > 0 {
		u.SetFinalizers(finalizers)
	}
	return u
}

func set(path string, v any) controller.Mutation {
	return controller.Mutation{Op: controller.Set, Path: controller.MustPath(path), Value: v}
}

func prog(name string, w controller.WriteMethod, muts ...controller.Mutation) scenario.Controller {
	return scenario.Controller{Program: controller.Program{
		Name: name, Target: cm1, Read: controller.FromLister, Mutations: muts, Write: w,
		Retry: controller.NoRetry(),
	}}
}

func twoWriters(obj *unstructured.Unstructured, a, b scenario.Controller) *scenario.Scenario {
	return &scenario.Scenario{Name: "test", StartRV: 100, Objects: []*unstructured.Unstructured{obj},
		Controllers: []scenario.Controller{a, b}, Lag: scenario.Lag{Delay: 5 * time.Millisecond}}
}
