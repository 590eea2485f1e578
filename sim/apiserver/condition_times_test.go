package apiserver_test

import (
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
	"testing"

	appsv1 "k8s.io/api/apps/v1"

	"github.com/conflictlab/conflictlab/sim/api"
)

// TestConditionTimesComeBackNull: a DeploymentCondition written without
// its times, by any write to /status, is stored and returned with
// lastUpdateTime: null and lastTransitionTime: null, as kube-apiserver
// v1.37.2 encodes the Go type's zero metav1.Time (conformance
// testdata/measured/condition-*.yaml). No other null appears, and the
// pod template keeps no creationTimestamp (omitzero).
func TestConditionTimesComeBackNull(t *testing.T) {
	const cond = `{"type":"Available","status":"True","lastTransitionTime":"2026-12-01T10:00:00Z"}`
	writes := map[string]func(rv string) api.Request{
		"update": func(rv string) api.Request {
			var d map[string]any
			_ = json.Unmarshal(deployBody(t, "d1", rv, [2]string{"app", "app:v1"}), &d)
			var c map[string]any
			_ = json.Unmarshal([]byte(cond), &c)
			d["status"] = map[string]any{"conditions": []any{c}}
			return statusReq(deployRef("d1"), mustJSON(t, d))
		},
		"merge": func(string) api.Request {
			r := patchReq(deployRef("d1"), api.MergePatch, `{"status":{"conditions":[`+cond+`]}}`)
			r.Subresource = "status"
			return r
		},
		"strategic": func(string) api.Request {
			r := patchReq(deployRef("d1"), api.StrategicPatch, `{"status":{"conditions":[`+cond+`]}}`)
			r.Subresource = "status"
			return r
		},
		"json": func(string) api.Request {
			r := patchReq(deployRef("d1"), api.JSONPatch, `[{"op":"add","path":"/status/conditions","value":[`+cond+`]}]`)
			r.Subresource = "status"
			return r
		},
		"apply": func(string) api.Request {
			r := applyReq(deployRef("d1"), "ctl", false, "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d1}\nstatus: {conditions: ["+cond+"]}\n")
			r.Subresource = "status"
			return r
		},
	}
	for name, req := range writes {
		t.Run(name, func(t *testing.T) {
			s := newServer()
			created := mustDo(t, s, createReq(deployRef("d1"), deployBody(t, "d1", "", [2]string{"app", "app:v1"})))
			written := mustDo(t, s, req(created.GetResourceVersion()))
			for what, obj := range map[string]map[string]any{"response": written.Object, "GET": mustGet(t, s, deployRef("d1")).Object} {
				conds, _ := obj["status"].(map[string]any)["conditions"].([]any)
				if len(conds) != 1 {
					t.Fatalf("%s: conditions %v, want one", what, conds)
				}
				c := conds[0].(map[string]any)
				if v, ok := c["lastUpdateTime"]; !ok || v != nil {
					t.Errorf("%s: lastUpdateTime %v (present %v), want null", what, v, ok)
				}
				if c["lastTransitionTime"] != "2026-12-01T10:00:00Z" {
					t.Errorf("%s: lastTransitionTime %v, want the one sent", what, c["lastTransitionTime"])
				}
				if got := nullPaths("", obj); !reflect.DeepEqual(got, []string{".status.conditions[0].lastUpdateTime"}) {
					t.Errorf("%s: nulls at %v, want only the condition's unset time", what, got)
				}
				// What the server returns is the Go type's JSON encoding.
				var d appsv1.Deployment
				if err := json.Unmarshal(mustJSON(t, obj), &d); err != nil {
					t.Fatal(err)
				}
				var typed map[string]any
				_ = json.Unmarshal(mustJSON(t, d.Status), &typed)
				if !reflect.DeepEqual(typed, jsonRoundTrip(t, obj["status"])) {
					t.Errorf("%s: status %v, the Go type encodes %v", what, obj["status"], typed)
				}
			}
		})
	}
}

// TestConditionNullTimesOwnedByTheWriter: the null is a field the field
// manager sees. An update's manager owns both null times of the condition
// it wrote; an apply owns only what it applied; a later merge patch that
// leaves the list alone takes nothing (measured on v1.37.2).
func TestConditionNullTimesOwnedByTheWriter(t *testing.T) {
	s := newServer()
	mustDo(t, s, createReq(deployRef("d1"), deployBody(t, "d1", "", [2]string{"app", "app:v1"})))
	merge := patchReq(deployRef("d1"), api.MergePatch, `{"status":{"conditions":[{"type":"Available","status":"True"}]}}`)
	merge.Subresource, merge.FieldManager = "status", "merge"
	mustDo(t, s, merge)
	apply := applyReq(deployRef("d1"), "ctl", false, "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d1}\nstatus: {conditions: [{type: Synced, status: \"True\"}]}\n")
	apply.Subresource = "status"
	mustDo(t, s, apply)
	gen := patchReq(deployRef("d1"), api.MergePatch, `{"status":{"observedGeneration":1}}`)
	gen.Subresource, gen.FieldManager = "status", "gen"
	got := managedFields(mustDo(t, s, gen))
	want := map[string]string{
		"merge/Update": `{"f:status":{"f:conditions":{".":{},"k:{\"type\":\"Available\"}":{".":{},"f:lastTransitionTime":{},"f:lastUpdateTime":{},"f:status":{},"f:type":{}}}}}`,
		"ctl/Apply":    `{"f:status":{"f:conditions":{"k:{\"type\":\"Synced\"}":{".":{},"f:status":{},"f:type":{}}}}}`,
		"gen/Update":   `{"f:status":{"f:observedGeneration":{}}}`,
	}
	for m, w := range want {
		if got[m] != w {
			t.Errorf("manager %s owns %s, want %s", m, got[m], w)
		}
	}
}

// nullPaths lists where v holds a JSON null, sorted.
func nullPaths(path string, v any) []string {
	var out []string
	switch x := v.(type) {
	case nil:
		return []string{path}
	case map[string]any:
		for k, e := range x {
			out = append(out, nullPaths(path+"."+k, e)...)
		}
	case []any:
		for i, e := range x {
			out = append(out, nullPaths(fmt.Sprintf("%s[%d]", path, i), e)...)
		}
	}
	sort.Strings(out)
	return out
}

func jsonRoundTrip(t *testing.T, v any) any {
	t.Helper()
	var out any
	if err := json.Unmarshal(mustJSON(t, v), &out); err != nil {
		t.Fatal(err)
	}
	return out
}
