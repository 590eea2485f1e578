package raceview

import (
	"strings"
	"testing"

	"github.com/conflictlab/conflictlab/sim/api"
	"github.com/conflictlab/conflictlab/sim/race"
	"github.com/conflictlab/conflictlab/sim/report"
)

// TestLifecycleWords: a child's version is titled with the child's name,
// a create goes to the collection, and a delete's preconditions are named.
func TestLifecycleWords(t *testing.T) {
	target := api.Ref{Kind: api.ConfigMap, Namespace: "default", Name: "parent"}
	v := race.Version{Object: map[string]any{"metadata": map[string]any{"name": "child-x7k2q"}}, Step: -1}
	if got := report.VersionTitle(v, target); !strings.HasPrefix(got, "child-x7k2q @ RV") {
		t.Errorf("version title names %q", got)
	}
	create := race.Step{Kind: race.StepRequest, Verb: api.Create, Request: "CREATE child-*"}
	if got := requestPath(target, create); got != "/api/v1/namespaces/default/configmaps" {
		t.Errorf("create path %q", got)
	}
	del := race.Step{Kind: race.StepRequest, Verb: api.Delete, Request: "DELETE cm1", SentRV: "102",
		Body: []byte(`{"preconditions":{"uid":"u-1","resourceVersion":"102"}}`)}
	got, ok := lifecyclePrecondition(del)
	if !ok || !strings.Contains(got, "uid u-1") || !strings.Contains(got, "resourceVersion 102") {
		t.Errorf("delete precondition %q", got)
	}
	if got := listerGot(race.Step{Kind: race.StepLister, Verb: api.List, Code: 200, Request: "LISTER configmaps app=web", Listed: 2}); !strings.HasPrefix(got, "2 of the cached objects") {
		t.Errorf("lister list %q", got)
	}
}
