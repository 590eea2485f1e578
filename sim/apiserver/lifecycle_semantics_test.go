package apiserver_test

import (
	"net/http"
	"strings"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/conflictlab/conflictlab/sim/api"
	"github.com/conflictlab/conflictlab/sim/apiserver"
)

// ## Create and delete during a race (measured by Conflict Lab against v1.37.2)
//
// These cases reproduce the section of docs/SEMANTICS.md of that name.
func lifecycleCases() []semanticsCase {
	const oldUID = "00000000-0000-4000-8000-000000000001" // cm1's, before it was deleted
	recreated := func(t *testing.T, s *apiserver.Server) {
		seedCM1(t, s)                         // 228, uid …001
		mustDo(t, s, deleteReq(cmRef("cm1"))) // 229
		seedCM1(t, s)                         // 230, uid …002
	}
	generated := func(t *testing.T, s *apiserver.Server) api.Request {
		return createReq(api.Ref{Kind: api.ConfigMap, Namespace: ns}, mustJSON(t, map[string]any{
			"apiVersion": "v1", "kind": "ConfigMap",
			"metadata": map[string]any{"generateName": "child-", "namespace": ns, "labels": map[string]any{"app": "web"}},
			"data":     map[string]any{"x": "1"},
		}))
	}
	return []semanticsCase{
		{
			name:  `Lifecycle/a create of a name that exists → 409 AlreadyExists, configmaps "cm1" already exists — not IsConflict`,
			setup: seedCM1,
			req: func(t *testing.T, s *apiserver.Server) api.Request {
				return createReq(cmRef("cm1"), cmBody(t, "cm1", "", map[string]string{"x": "2"}))
			},
			code:    http.StatusConflict,
			reason:  metav1.StatusReasonAlreadyExists,
			message: `configmaps "cm1" already exists`,
			details: &metav1.StatusDetails{Name: "cm1", Kind: "configmaps"},
			// retry.RetryOnConflict must not retry it.
			is: func(err error) bool { return apierrors.IsAlreadyExists(err) && !apierrors.IsConflict(err) },
		},
		{
			// Measured on kube-apiserver v1.37.2: the name is taken until the
			// last finalizer goes, and the store says so.
			name: `Lifecycle/a create of a name whose object is being deleted → 409 AlreadyExists, object is being deleted: configmaps "cm1" already exists`,
			setup: func(t *testing.T, s *apiserver.Server) {
				mustDo(t, s, createReq(cmRef("cm1"), cmBody(t, "cm1", "", map[string]string{"x": "1"}, "example.com/x")))
				mustDo(t, s, deleteReq(cmRef("cm1")))
			},
			req: func(t *testing.T, s *apiserver.Server) api.Request {
				return createReq(cmRef("cm1"), cmBody(t, "cm1", "", map[string]string{"x": "2"}))
			},
			code:    http.StatusConflict,
			reason:  metav1.StatusReasonAlreadyExists,
			message: `object is being deleted: configmaps "cm1" already exists`,
			details: &metav1.StatusDetails{Name: "cm1", Kind: "configmaps"},
			is:      func(err error) bool { return apierrors.IsAlreadyExists(err) && !apierrors.IsConflict(err) },
		},
		{
			// Measured on kube-apiserver v1.37.2: the garbage collector's
			// finalizer holds an object that had none; no collector runs
			// beside the server, so it stays, being deleted.
			name:  "Lifecycle/DELETE with propagationPolicy Foreground of an object without finalizers marks it, with the finalizer foregroundDeletion",
			setup: seedCM1,
			req: func(t *testing.T, s *apiserver.Server) api.Request {
				return api.Request{Verb: api.Delete, Ref: cmRef("cm1"), Body: []byte(`{"propagationPolicy":"Foreground"}`)}
			},
			code: http.StatusOK,
			check: func(t *testing.T, s *apiserver.Server, before state, resp api.Response) {
				wrote(t, s, before, resp, apiserver.Modified)
				got := mustGet(t, s, cmRef("cm1"))
				if f := got.GetFinalizers(); len(f) != 1 || f[0] != metav1.FinalizerDeleteDependents || got.GetDeletionTimestamp() == nil {
					t.Fatalf("finalizers %v, deletionTimestamp %v: want [foregroundDeletion], set", f, got.GetDeletionTimestamp())
				}
			},
		},
		{
			name: "Lifecycle/DELETE with propagationPolicy Orphan adds orphan beside the object's own finalizer",
			setup: func(t *testing.T, s *apiserver.Server) {
				mustDo(t, s, createReq(cmRef("cm1"), cmBody(t, "cm1", "", map[string]string{"x": "1"}, "example.com/x")))
			},
			req: func(t *testing.T, s *apiserver.Server) api.Request {
				return api.Request{Verb: api.Delete, Ref: cmRef("cm1"), Body: []byte(`{"propagationPolicy":"Orphan"}`)}
			},
			code: http.StatusOK,
			check: func(t *testing.T, s *apiserver.Server, before state, resp api.Response) {
				got := mustGet(t, s, cmRef("cm1"))
				if f := got.GetFinalizers(); len(f) != 2 || f[0] != "example.com/x" || f[1] != metav1.FinalizerOrphanDependents {
					t.Fatalf("finalizers %v, want [example.com/x orphan]", f)
				}
			},
		},
		{
			name: "Lifecycle/DELETE with propagationPolicy Background of an object held only by orphan deletes it",
			setup: func(t *testing.T, s *apiserver.Server) {
				seedCM1(t, s)
				mustDo(t, s, api.Request{Verb: api.Delete, Ref: cmRef("cm1"), Body: []byte(`{"propagationPolicy":"Orphan"}`)})
			},
			req: func(t *testing.T, s *apiserver.Server) api.Request {
				return api.Request{Verb: api.Delete, Ref: cmRef("cm1"), Body: []byte(`{"propagationPolicy":"Background"}`)}
			},
			code: http.StatusOK,
			check: func(t *testing.T, s *apiserver.Server, before state, resp api.Response) {
				if got := s.Do(getReq(cmRef("cm1"))); got.Code != http.StatusNotFound {
					t.Fatalf("GET after the DELETE: %d, want 404", got.Code)
				}
			},
		},
		{
			name: "Lifecycle/generateName: the server appends 5 characters of utilrand's alphabet and keeps generateName",
			req:  generated,
			code: http.StatusCreated,
			check: func(t *testing.T, s *apiserver.Server, before state, resp api.Response) {
				wrote(t, s, before, resp, apiserver.Added)
				name := resp.Object.GetName()
				suffix, ok := strings.CutPrefix(name, "child-")
				if !ok || len(suffix) != 5 || strings.Trim(suffix, "bcdfghjklmnpqrstvwxz2456789") != "" {
					t.Fatalf("generated name %q: want child- and 5 of bcdfghjklmnpqrstvwxz2456789", name)
				}
				if g := resp.Object.GetGenerateName(); g != "child-" {
					t.Fatalf("generateName %q, want child-", g)
				}
				if !strings.Contains(managedFields(resp.Object)["conflictlab/Update"], `"f:generateName"`) {
					t.Fatalf("the creator does not own f:generateName: %v", managedFields(resp.Object))
				}
			},
		},
		{
			name: "Lifecycle/generateName: two creates from the same request make two objects",
			setup: func(t *testing.T, s *apiserver.Server) {
				mustDo(t, s, generated(t, s))
			},
			req:  generated,
			code: http.StatusCreated,
			check: func(t *testing.T, s *apiserver.Server, before state, resp api.Response) {
				wrote(t, s, before, resp, apiserver.Added)
				list := s.Do(api.Request{Verb: api.List, Ref: api.Ref{Kind: api.ConfigMap, Namespace: ns}})
				if len(list.Items) != 2 || list.Items[0].GetName() == list.Items[1].GetName() {
					t.Fatalf("want two children with different names, got %d", len(list.Items))
				}
			},
		},
		{
			name: "Lifecycle/DELETE with a stale resourceVersion precondition → 409 the ResourceVersion in the precondition (228) does not match the ResourceVersion in record (229)",
			setup: func(t *testing.T, s *apiserver.Server) {
				seedCM1(t, s)
				mustDo(t, s, updateReq(cmRef("cm1"), cmBody(t, "cm1", "228", map[string]string{"x": "2"})))
			},
			req: func(t *testing.T, s *apiserver.Server) api.Request {
				return deleteWith(cmRef("cm1"), `{"preconditions":{"resourceVersion":"228"}}`)
			},
			code:   http.StatusConflict,
			reason: metav1.StatusReasonConflict,
			message: `Operation cannot be fulfilled on ConfigMap "cm1": the ResourceVersion in the precondition (228) does not match ` +
				`the ResourceVersion in record (229). The object might have been modified`,
			details: &metav1.StatusDetails{Name: "cm1", Kind: "ConfigMap"},
			is:      apierrors.IsConflict,
		},
		{
			name:  "Lifecycle/DELETE with the uid of an object deleted and created again → 409 the UID in the precondition … does not match the UID in record",
			setup: recreated,
			req: func(t *testing.T, s *apiserver.Server) api.Request {
				return deleteWith(cmRef("cm1"), `{"preconditions":{"uid":"`+oldUID+`","resourceVersion":"228"}}`)
			},
			code:   http.StatusConflict,
			reason: metav1.StatusReasonConflict,
			// The uid is checked before the resourceVersion.
			message: `Operation cannot be fulfilled on ConfigMap "cm1": the UID in the precondition (` + oldUID + `) does not match ` +
				`the UID in record (00000000-0000-4000-8000-000000000002). The object might have been deleted and then recreated`,
			details: &metav1.StatusDetails{Name: "cm1", Kind: "ConfigMap"},
			is:      apierrors.IsConflict,
		},
		{
			name: "Lifecycle/DELETE of a Widget with a stale precondition names Widget.oracle.example.com",
			setup: func(t *testing.T, s *apiserver.Server) {
				seedW1(t, s)
			},
			req: func(t *testing.T, s *apiserver.Server) api.Request {
				return deleteWith(widgetRef("w1"), `{"preconditions":{"resourceVersion":"228"}}`)
			},
			code:   http.StatusConflict,
			reason: metav1.StatusReasonConflict,
			message: `Operation cannot be fulfilled on Widget.oracle.example.com "w1": the ResourceVersion in the precondition (228) does not match ` +
				`the ResourceVersion in record (229). The object might have been modified`,
			details: &metav1.StatusDetails{Name: "w1", Group: api.WidgetGroup, Kind: "Widget"},
			is:      apierrors.IsConflict,
		},
		{
			name:  "Lifecycle/DELETE whose preconditions hold deletes: a DELETED event at a new revision",
			setup: seedCM1,
			req: func(t *testing.T, s *apiserver.Server) api.Request {
				return deleteWith(cmRef("cm1"), `{"preconditions":{"uid":"`+oldUID+`","resourceVersion":"228"}}`)
			},
			code: http.StatusOK,
			check: func(t *testing.T, s *apiserver.Server, before state, resp api.Response) {
				wrote(t, s, before, resp, apiserver.Deleted)
				if got := s.Do(getReq(cmRef("cm1"))); got.Code != http.StatusNotFound {
					t.Fatalf("GET after delete: %d, want 404", got.Code)
				}
			},
		},
		{
			name:  "Lifecycle/a PUT without a resourceVersion carrying the uid of an object deleted and created again → 409 Precondition failed: UID in precondition",
			setup: recreated,
			req: func(t *testing.T, s *apiserver.Server) api.Request {
				body := mustJSON(t, map[string]any{"apiVersion": "v1", "kind": "ConfigMap",
					"metadata": map[string]any{"name": "cm1", "namespace": ns, "uid": oldUID}, "data": map[string]any{"x": "2"}})
				return updateReq(cmRef("cm1"), body)
			},
			code:   http.StatusConflict,
			reason: metav1.StatusReasonConflict,
			message: `Operation cannot be fulfilled on configmaps "cm1": StorageError: invalid object, Code: 4, Key: /registry/configmaps/default/cm1, ` +
				`ResourceVersion: 0, AdditionalErrorMsg: Precondition failed: UID in precondition: ` + oldUID +
				`, UID in object meta: 00000000-0000-4000-8000-000000000002`,
			details: &metav1.StatusDetails{Name: "cm1", Kind: "configmaps"},
			is:      apierrors.IsConflict,
		},
		{
			name:  "Lifecycle/a PUT with a stale resourceVersion and the old uid gets the uid's 409: the precondition is checked first",
			setup: recreated,
			req: func(t *testing.T, s *apiserver.Server) api.Request {
				body := mustJSON(t, map[string]any{"apiVersion": "v1", "kind": "ConfigMap",
					"metadata": map[string]any{"name": "cm1", "namespace": ns, "uid": oldUID, "resourceVersion": "228"}, "data": map[string]any{"x": "2"}})
				return updateReq(cmRef("cm1"), body)
			},
			code:   http.StatusConflict,
			reason: metav1.StatusReasonConflict,
			message: `Operation cannot be fulfilled on configmaps "cm1": StorageError: invalid object, Code: 4, Key: /registry/configmaps/default/cm1, ` +
				`ResourceVersion: 0, AdditionalErrorMsg: Precondition failed: UID in precondition: ` + oldUID +
				`, UID in object meta: 00000000-0000-4000-8000-000000000002`,
			details: &metav1.StatusDetails{Name: "cm1", Kind: "configmaps"},
			is:      apierrors.IsConflict,
		},
		{
			name:  "Lifecycle/a PUT of a deleted object → 404: an update never creates",
			setup: func(t *testing.T, s *apiserver.Server) { seedCM1(t, s); mustDo(t, s, deleteReq(cmRef("cm1"))) },
			req: func(t *testing.T, s *apiserver.Server) api.Request {
				return updateReq(cmRef("cm1"), cmBody(t, "cm1", "228", map[string]string{"x": "2"}))
			},
			code:    http.StatusNotFound,
			reason:  metav1.StatusReasonNotFound,
			message: `configmaps "cm1" not found`,
			details: &metav1.StatusDetails{Name: "cm1", Kind: "configmaps"},
			is:      apierrors.IsNotFound,
		},
	}
}

func deleteWith(r api.Ref, options string) api.Request {
	return api.Request{Verb: api.Delete, Ref: r, Body: []byte(options)}
}
