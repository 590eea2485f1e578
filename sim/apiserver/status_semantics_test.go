package apiserver_test

import (
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/conflictlab/conflictlab/sim/api"
	"github.com/conflictlab/conflictlab/sim/apiserver"
)

// ## Patches and applies to /status, hand-written bodies, no-op writes
// (docs/SEMANTICS.md, the section measured by Conflict Lab against v1.37.2).
func statusWriteCases() []semanticsCase {
	toStatus := func(r api.Request) api.Request { r.Subresource = "status"; return r }
	return []semanticsCase{
		{
			name:  "StatusWrites/apply to a Widget's /status with spec and status → 200, status applied, spec ignored and not owned, no conflict on it",
			setup: seedW1, // spec.size 1 owned by the creator's Update
			req: func(t *testing.T, s *apiserver.Server) api.Request {
				return toStatus(applyReq(widgetRef("w1"), "st", false,
					"apiVersion: oracle.example.com/v1\nkind: Widget\nmetadata: {name: w1}\nspec: {size: 5}\nstatus: {message: hi}\n"))
			},
			code: http.StatusOK,
			check: func(t *testing.T, s *apiserver.Server, before state, resp api.Response) {
				wrote(t, s, before, resp, apiserver.Modified)
				live := mustGet(t, s, widgetRef("w1"))
				if got := widgetField(t, live, "spec", "size"); got != int64(1) {
					t.Fatalf("spec.size %v, want 1 (/status ignores spec)", got)
				}
				if got := widgetField(t, live, "status", "message"); got != "hi" {
					t.Fatalf("status.message %v, want hi", got)
				}
				if live.GetGeneration() != 1 {
					t.Fatalf("generation %d, want 1", live.GetGeneration())
				}
				e := entry(t, live, "st", metav1.ManagedFieldsOperationApply)
				if e.Subresource != "status" || e.FieldsV1.GetRawString() == "" || strings.Contains(e.FieldsV1.GetRawString(), "f:spec") {
					t.Fatalf("st's entry %+v: want subresource status and no spec field", e)
				}
			},
		},
		{
			name: "StatusWrites/apply to the main resource with status → the status is ignored and not owned",
			setup: func(t *testing.T, s *apiserver.Server) {
				seedW1(t, s)
			},
			req: func(t *testing.T, s *apiserver.Server) api.Request {
				return applyReq(widgetRef("w1"), "main", false,
					"apiVersion: oracle.example.com/v1\nkind: Widget\nmetadata: {name: w1}\nspec: {color: red}\nstatus: {phase: Hacked}\n")
			},
			code: http.StatusOK,
			check: func(t *testing.T, s *apiserver.Server, before state, resp api.Response) {
				wrote(t, s, before, resp, apiserver.Modified)
				live := mustGet(t, s, widgetRef("w1"))
				if got := widgetField(t, live, "status", "phase"); got != "Ready" {
					t.Fatalf("status.phase %v, want Ready", got)
				}
				if raw := entry(t, live, "main", metav1.ManagedFieldsOperationApply).FieldsV1.GetRawString(); strings.Contains(raw, "f:status") {
					t.Fatalf("main's entry owns status: %s", raw)
				}
			},
		},
		{
			name:  "StatusWrites/a strategic merge patch to a Deployment's /status writes annotations and finalizers, not spec or labels; generation unchanged",
			setup: seedD1,
			req: func(t *testing.T, s *apiserver.Server) api.Request {
				r := patchReq(deployRef("d1"), api.StrategicPatch,
					`{"metadata":{"labels":{"x":"y"},"annotations":{"b":"2"},"finalizers":["x.io/f"]},"spec":{"replicas":5},"status":{"replicas":3}}`)
				r.FieldManager = "st"
				return toStatus(r)
			},
			code: http.StatusOK,
			check: func(t *testing.T, s *apiserver.Server, before state, resp api.Response) {
				wrote(t, s, before, resp, apiserver.Modified)
				live := mustGet(t, s, deployRef("d1"))
				if live.GetAnnotations()["b"] != "2" || !equal(live.GetFinalizers(), []string{"x.io/f"}) {
					t.Fatalf("annotations %v finalizers %v: a Deployment's /status writes them", live.GetAnnotations(), live.GetFinalizers())
				}
				if _, ok := live.GetLabels()["x"]; ok {
					t.Fatalf("labels %v: /status keeps the labels", live.GetLabels())
				}
				if got := widgetField(t, live, "spec", "replicas"); got != int64(1) {
					t.Fatalf("spec.replicas %v, want 1", got)
				}
				if got := widgetField(t, live, "status", "replicas"); got != int64(3) {
					t.Fatalf("status.replicas %v, want 3", got)
				}
				if live.GetGeneration() != 1 {
					t.Fatalf("generation %d, want 1 (only the main resource counts)", live.GetGeneration())
				}
				got := entry(t, live, "st", metav1.ManagedFieldsOperationUpdate)
				want := `{"f:metadata":{"f:annotations":{".":{},"f:b":{}},"f:finalizers":{".":{},"v:\"x.io/f\"":{}}},"f:status":{"f:replicas":{}}}`
				if got.Subresource != "status" || got.FieldsV1.GetRawString() != want {
					t.Fatalf("st's entry %s %s, want status %s", got.Subresource, got.FieldsV1.GetRawString(), want)
				}
			},
		},
		{
			name:  "StatusWrites/apply to a Deployment's /status: spec and labels ignored, the entry owns the status and annotations it set",
			setup: seedD1,
			req: func(t *testing.T, s *apiserver.Server) api.Request {
				return toStatus(applyReq(deployRef("d1"), "ap", false,
					"apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d1, labels: {z: \"1\"}, annotations: {c: \"3\"}}\nspec: {replicas: 7}\nstatus: {replicas: 3, readyReplicas: 2}\n"))
			},
			code: http.StatusOK,
			check: func(t *testing.T, s *apiserver.Server, before state, resp api.Response) {
				wrote(t, s, before, resp, apiserver.Modified)
				live := mustGet(t, s, deployRef("d1"))
				if got := widgetField(t, live, "spec", "replicas"); got != int64(1) {
					t.Fatalf("spec.replicas %v, want 1", got)
				}
				if live.GetAnnotations()["c"] != "3" || live.GetLabels()["z"] != "" || live.GetGeneration() != 1 {
					t.Fatalf("annotations %v labels %v generation %d", live.GetAnnotations(), live.GetLabels(), live.GetGeneration())
				}
				got := entry(t, live, "ap", metav1.ManagedFieldsOperationApply)
				want := `{"f:metadata":{"f:annotations":{"f:c":{}}},"f:status":{"f:readyReplicas":{},"f:replicas":{}}}`
				if got.Subresource != "status" || got.FieldsV1.GetRawString() != want {
					t.Fatalf("ap's entry %s %s, want status %s", got.Subresource, got.FieldsV1.GetRawString(), want)
				}
			},
		},
		{
			name:  "StatusWrites/a JSON patch to /status: the spec operation is ignored, the status one applied",
			setup: seedW1,
			req: func(t *testing.T, s *apiserver.Server) api.Request {
				r := patchReq(widgetRef("w1"), api.JSONPatch, `[{"op":"replace","path":"/spec/size","value":8},{"op":"add","path":"/status/message","value":"hi"}]`)
				r.FieldManager = "jp"
				return toStatus(r)
			},
			code: http.StatusOK,
			check: func(t *testing.T, s *apiserver.Server, before state, resp api.Response) {
				wrote(t, s, before, resp, apiserver.Modified)
				live := mustGet(t, s, widgetRef("w1"))
				if widgetField(t, live, "spec", "size") != int64(1) || widgetField(t, live, "status", "message") != "hi" {
					t.Fatalf("spec %v status %v", live.Object["spec"], live.Object["status"])
				}
				if got := entry(t, live, "jp", metav1.ManagedFieldsOperationUpdate); got.Subresource != "status" || got.FieldsV1.GetRawString() != `{"f:status":{"f:message":{}}}` {
					t.Fatalf("jp's entry %+v", got)
				}
			},
		},
		{
			name:  "StatusWrites/a patch to /status with a stale resourceVersion → 409, as on the main resource",
			setup: seedW1,
			req: func(t *testing.T, s *apiserver.Server) api.Request {
				return toStatus(patchReq(widgetRef("w1"), api.MergePatch, `{"metadata":{"resourceVersion":"228"},"status":{"phase":"Done"}}`))
			},
			code:    http.StatusConflict,
			reason:  metav1.StatusReasonConflict,
			message: `Operation cannot be fulfilled on widgets.oracle.example.com "w1": ` + staleMsg,
			details: &metav1.StatusDetails{Name: "w1", Group: api.WidgetGroup, Kind: "widgets"},
			is:      apierrors.IsConflict,
		},
		{
			name:  "StatusWrites/apply to /status without fieldManager → 422 PatchOptions.meta.k8s.io \"\" is invalid",
			setup: seedW1,
			req: func(t *testing.T, s *apiserver.Server) api.Request {
				return toStatus(applyReq(widgetRef("w1"), "", false, "apiVersion: oracle.example.com/v1\nkind: Widget\nmetadata: {name: w1}\nstatus: {phase: X}\n"))
			},
			code:    http.StatusUnprocessableEntity,
			reason:  metav1.StatusReasonInvalid,
			message: `PatchOptions.meta.k8s.io "" is invalid: fieldManager: Required value: is required for apply patch`,
			details: &metav1.StatusDetails{Group: "meta.k8s.io", Kind: "PatchOptions", Causes: []metav1.StatusCause{{
				Type: metav1.CauseTypeFieldValueRequired, Message: "Required value: is required for apply patch", Field: "fieldManager",
			}}},
			is: apierrors.IsInvalid,
		},
		{
			name:  "StatusWrites/a patch to a ConfigMap's /status → 404 the server could not find the requested resource (no such route)",
			setup: seedCM1,
			req: func(t *testing.T, s *apiserver.Server) api.Request {
				return toStatus(patchReq(cmRef("cm1"), api.MergePatch, `{"data":{"x":"2"}}`))
			},
			code:    http.StatusNotFound,
			reason:  metav1.StatusReasonNotFound,
			message: "the server could not find the requested resource",
			details: &metav1.StatusDetails{},
			is:      apierrors.IsNotFound,
		},
		{
			name:  "StatusWrites/an update to a ConfigMap's /status → the same 404",
			setup: seedCM1,
			req: func(t *testing.T, s *apiserver.Server) api.Request {
				return statusReq(cmRef("cm1"), cmBody(t, "cm1", "", map[string]string{"x": "2"}))
			},
			code:    http.StatusNotFound,
			reason:  metav1.StatusReasonNotFound,
			message: "the server could not find the requested resource",
			details: &metav1.StatusDetails{},
			is:      apierrors.IsNotFound,
		},
		{
			name: "NoOp/an update that changes nothing, under another field manager, leaves managedFields and their times as they were",
			setup: func(t *testing.T, s *apiserver.Server) {
				seedCM1(t, s)
				s.SetTime(time.Hour)
			},
			req: func(t *testing.T, s *apiserver.Server) api.Request {
				r := updateReq(cmRef("cm1"), cmBody(t, "cm1", liveRV(t, s, cmRef("cm1")), map[string]string{"x": "1"}))
				r.FieldManager = "other"
				return r
			},
			code:  http.StatusOK,
			check: noop,
		},
		{
			name: "NoOp/an update that would change nothing still checks its resourceVersion: stale → 409",
			setup: func(t *testing.T, s *apiserver.Server) {
				seedCM1(t, s)                                                                             // 228
				mustDo(t, s, patchReq(cmRef("cm1"), api.MergePatch, `{"data":{"y":"1"}}`))                // 229
				mustDo(t, s, patchReq(cmRef("cm1"), api.JSONPatch, `[{"op":"remove","path":"/data/y"}]`)) // 230
			},
			req: func(t *testing.T, s *apiserver.Server) api.Request {
				return updateReq(cmRef("cm1"), cmBody(t, "cm1", "228", map[string]string{"x": "1"}))
			},
			code:    http.StatusConflict,
			reason:  metav1.StatusReasonConflict,
			message: `Operation cannot be fulfilled on configmaps "cm1": ` + staleMsg,
			details: &metav1.StatusDetails{Name: "cm1", Kind: "configmaps"},
			is:      apierrors.IsConflict,
		},
		{
			name:  "NoOp/an empty JSON patch [] is a no-op",
			setup: seedCM1,
			req: func(t *testing.T, s *apiserver.Server) api.Request {
				return patchReq(cmRef("cm1"), api.JSONPatch, `[]`)
			},
			code:  http.StatusOK,
			check: noop,
		},
		{
			name:  "NoOp/an empty merge patch {} to /status is a no-op",
			setup: seedW1,
			req: func(t *testing.T, s *apiserver.Server) api.Request {
				return toStatus(patchReq(widgetRef("w1"), api.MergePatch, `{}`))
			},
			code:  http.StatusOK,
			check: noop,
		},
		{
			name: "NoOp/an apply of values already there by a new manager is not a no-op: new RV, the manager joins without a time",
			setup: func(t *testing.T, s *apiserver.Server) {
				seedCM1(t, s)
				s.SetTime(time.Hour)
			},
			req: func(t *testing.T, s *apiserver.Server) api.Request {
				return applyReq(cmRef("cm1"), "ap", false, applyCM1("1"))
			},
			code: http.StatusOK,
			check: func(t *testing.T, s *apiserver.Server, before state, resp api.Response) {
				wrote(t, s, before, resp, apiserver.Modified)
				live := mustGet(t, s, cmRef("cm1"))
				e := entry(t, live, "ap", metav1.ManagedFieldsOperationApply)
				if e.Time != nil || e.FieldsV1.GetRawString() != `{"f:data":{"f:x":{}}}` {
					t.Fatalf("ap's entry %+v, want {f:data:{f:x}} and no time", e)
				}
				if rv, _ := strconv.ParseInt(live.GetResourceVersion(), 10, 64); rv != before.RV+1 {
					t.Fatalf("RV %d", rv)
				}
			},
		},
		{
			name:  "Bodies/a strategic merge patch whose list is not in its $setElementOrder → 500 with the library's text",
			setup: seedCM4,
			req: func(t *testing.T, s *apiserver.Server) api.Request {
				return patchReq(cmRef("cm4"), api.StrategicPatch,
					`{"metadata":{"$setElementOrder/finalizers":["x.io/c","x.io/b"],"finalizers":["x.io/b","x.io/c"]}}`)
			},
			code:    http.StatusInternalServerError,
			reason:  metav1.StatusReasonUnknown,
			message: "The order in patch list:\n[x.io/b x.io/c]\n doesn't match $setElementOrder list:\n[x.io/c x.io/b]\n",
			is:      not(apierrors.IsConflict),
		},
		{
			name:  "Bodies/a strategic merge patch with $deleteFromPrimitiveList and $setElementOrder on finalizers",
			setup: seedCM4, // finalizers [x.io/a]
			req: func(t *testing.T, s *apiserver.Server) api.Request {
				return patchReq(cmRef("cm4"), api.StrategicPatch,
					`{"metadata":{"$deleteFromPrimitiveList/finalizers":["x.io/a"],"$setElementOrder/finalizers":["x.io/c","x.io/b"],"finalizers":["x.io/c","x.io/b"]}}`)
			},
			code: http.StatusOK,
			check: func(t *testing.T, s *apiserver.Server, before state, resp api.Response) {
				wrote(t, s, before, resp, apiserver.Modified)
				if got := mustGet(t, s, cmRef("cm4")).GetFinalizers(); !equal(got, []string{"x.io/c", "x.io/b"}) {
					t.Fatalf("finalizers %v, want [x.io/c x.io/b]", got)
				}
			},
		},
		{
			name:  "Bodies/a strategic merge patch with $patch: delete removes one container by its name",
			setup: seedD1, // containers app, sidecar
			req: func(t *testing.T, s *apiserver.Server) api.Request {
				return patchReq(deployRef("d1"), api.StrategicPatch,
					`{"spec":{"template":{"spec":{"containers":[{"name":"sidecar","$patch":"delete"}]}}}}`)
			},
			code: http.StatusOK,
			check: func(t *testing.T, s *apiserver.Server, before state, resp api.Response) {
				wrote(t, s, before, resp, apiserver.Modified)
				cs, _, _ := unstructured.NestedSlice(mustGet(t, s, deployRef("d1")).Object, "spec", "template", "spec", "containers")
				if len(cs) != 1 || cs[0].(map[string]any)["name"] != "app" {
					t.Fatalf("containers %v, want only app", cs)
				}
			},
		},
		{
			name:  "Bodies/null in a merge patch deletes the field",
			setup: seedCM1,
			req: func(t *testing.T, s *apiserver.Server) api.Request {
				return patchReq(cmRef("cm1"), api.MergePatch, `{"data":{"x":null,"y":"2"}}`)
			},
			code: http.StatusOK,
			check: func(t *testing.T, s *apiserver.Server, before state, resp api.Response) {
				wrote(t, s, before, resp, apiserver.Modified)
				if d := dataOf(t, mustGet(t, s, cmRef("cm1"))); !equal(d, map[string]string{"y": "2"}) {
					t.Fatalf("data %v, want only y", d)
				}
			},
		},
	}
}

// entry is the managedFields entry of manager with operation op.
func entry(t *testing.T, u *unstructured.Unstructured, manager string, op metav1.ManagedFieldsOperationType) metav1.ManagedFieldsEntry {
	t.Helper()
	for _, e := range u.GetManagedFields() {
		if e.Manager == manager && e.Operation == op {
			return e
		}
	}
	t.Fatalf("no %s entry of %s in %v", op, manager, managedFields(u))
	return metav1.ManagedFieldsEntry{}
}
