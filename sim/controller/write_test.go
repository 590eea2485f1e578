package controller

import (
	"encoding/json"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/conflictlab/conflictlab/sim/api"
)

// An apply sends no resourceVersion unless the program says it carries the
// one it read; then the configuration carries exactly that one.
func TestApplyCarriesTheRVOnlyWhenAsked(t *testing.T) {
	read := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "v1", "kind": "ConfigMap",
		"metadata": map[string]any{"name": "cm1", "namespace": "default", "resourceVersion": "101"},
	}}
	path, err := ParsePath("data.x")
	if err != nil {
		t.Fatal(err)
	}
	p := Program{Name: "c", Target: api.Ref{Kind: api.ConfigMap, Namespace: "default", Name: "cm1"}, Read: FromLister,
		Write: ServerSideApply, Mutations: []Mutation{{Op: Set, Path: path, Value: "2"}}, Retry: NoRetry()}
	for _, withRV := range []bool{false, true} {
		p.WithRV = withRV
		mutated, err := Mutate(p, read)
		if err != nil {
			t.Fatal(err)
		}
		req, err := BuildWrite(p, read, mutated)
		if err != nil {
			t.Fatal(err)
		}
		var body struct {
			Metadata map[string]any `json:"metadata"`
		}
		if err := json.Unmarshal(req.Body, &body); err != nil {
			t.Fatal(err)
		}
		rv, has := body.Metadata["resourceVersion"]
		if has != withRV || withRV && rv != "101" {
			t.Errorf("withRV %v: apply body metadata %v", withRV, body.Metadata)
		}
	}
}
