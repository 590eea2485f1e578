package apiserver_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/conflictlab/conflictlab/sim/api"
	"github.com/conflictlab/conflictlab/sim/apiserver"
)

// measuredCases are the lines of docs/SEMANTICS.md's section "added by
// Conflict Lab's conformance run": answers measured against kube-apiserver
// v1.37.2 that the simulator used to get wrong (issue 12). Each has a
// conformance scenario under conformance/testdata/ too.
func measuredCases() []semanticsCase {
	const labelMsg = `a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')`
	const foreignUID = "00000000-0000-4000-8000-000000000999"
	invalidCM := func(name string, causes ...metav1.StatusCause) *metav1.StatusDetails {
		return &metav1.StatusDetails{Name: name, Kind: "ConfigMap", Causes: causes}
	}
	invalidDeploy := func(name string, causes ...metav1.StatusCause) *metav1.StatusDetails {
		return &metav1.StatusDetails{Name: name, Group: "apps", Kind: "Deployment", Causes: causes}
	}
	cause := func(field, msg string) metav1.StatusCause {
		return metav1.StatusCause{Type: metav1.CauseTypeFieldValueInvalid, Field: field, Message: msg}
	}
	forbidden := func(field, msg string) metav1.StatusCause {
		return metav1.StatusCause{Type: metav1.CauseTypeForbidden, Field: field, Message: "Forbidden: " + msg}
	}
	withLabel := func(t *testing.T, rv, key, value string) []byte {
		var m map[string]any
		if err := json.Unmarshal(cmBody(t, "cm1", rv, map[string]string{"x": "1"}), &m); err != nil {
			t.Fatal(err)
		}
		m["metadata"].(map[string]any)["labels"] = map[string]any{key: value}
		return mustJSON(t, m)
	}
	seedImmutable := func(t *testing.T, s *apiserver.Server) {
		mustDo(t, s, createReq(cmRef("cm1"), []byte(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"cm1"},"data":{"x":"1"},"immutable":true}`)))
	}
	return []semanticsCase{
		{
			name: "Measured/a label value that is not a valid label (équipe) → 422 on create",
			req: func(t *testing.T, s *apiserver.Server) api.Request {
				return createReq(cmRef("cm1"), withLabel(t, "", "team", "équipe"))
			},
			code: 422, reason: metav1.StatusReasonInvalid, is: apierrors.IsInvalid,
			message: `ConfigMap "cm1" is invalid: metadata.labels: Invalid value: "équipe": ` + labelMsg,
			details: invalidCM("cm1", cause("metadata.labels", `Invalid value: "équipe": `+labelMsg)),
		},
		{
			name:  "Measured/the same label value on an update → the same 422",
			setup: seedCM1,
			req: func(t *testing.T, s *apiserver.Server) api.Request {
				return updateReq(cmRef("cm1"), withLabel(t, liveRV(t, s, cmRef("cm1")), "team", "équipe"))
			},
			code: 422, reason: metav1.StatusReasonInvalid, is: apierrors.IsInvalid,
			message: `ConfigMap "cm1" is invalid: metadata.labels: Invalid value: "équipe": ` + labelMsg,
			details: invalidCM("cm1", cause("metadata.labels", `Invalid value: "équipe": `+labelMsg)),
		},
		{
			name: "Measured/an invalid generateName → 422 metadata.generateName",
			req: func(t *testing.T, s *apiserver.Server) api.Request {
				return createReq(cmRef("cm1"), []byte(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"cm1","generateName":"Bad_"}}`))
			},
			code: 422, reason: metav1.StatusReasonInvalid, is: apierrors.IsInvalid,
			message: `ConfigMap "cm1" is invalid: metadata.generateName: Invalid value: "Bad_": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
			details: invalidCM("cm1", cause("metadata.generateName", `Invalid value: "Bad_": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`)),
		},
		{
			name:  "Measured/annotations over 256 KiB → 422 Too long",
			setup: seedCM1,
			req: func(t *testing.T, s *apiserver.Server) api.Request {
				return patchReq(cmRef("cm1"), api.MergePatch, `{"metadata":{"annotations":{"big":"`+strings.Repeat("x", 262145)+`"}}}`)
			},
			code: 422, reason: metav1.StatusReasonInvalid, is: apierrors.IsInvalid,
			message: `ConfigMap "cm1" is invalid: metadata.annotations: Too long: may not be more than 262144 bytes`,
			details: invalidCM("cm1", metav1.StatusCause{Type: metav1.CauseTypeTooLong, Field: "metadata.annotations", Message: "Too long: may not be more than 262144 bytes"}),
		},
		{
			name:  "Measured/a Deployment's selector is immutable → 422",
			setup: seedD1,
			req: func(t *testing.T, s *apiserver.Server) api.Request {
				return patchReq(deployRef("d1"), api.MergePatch, `{"spec":{"selector":{"matchLabels":{"app":"d1","x":"y"}},"template":{"metadata":{"labels":{"x":"y"}}}}}`)
			},
			code: 422, reason: metav1.StatusReasonInvalid, is: apierrors.IsInvalid,
			message: `Deployment.apps "d1" is invalid: spec.selector: Invalid value: {"matchLabels":{"app":"d1","x":"y"}}: field is immutable`,
			details: invalidDeploy("d1", cause("spec.selector", `Invalid value: {"matchLabels":{"app":"d1","x":"y"}}: field is immutable`)),
		},
		{
			name:  "Measured/a Deployment's replicas: -1 → 422 must be greater than or equal to 0",
			setup: seedD1,
			req: func(t *testing.T, s *apiserver.Server) api.Request {
				return patchReq(deployRef("d1"), api.MergePatch, `{"spec":{"replicas":-1}}`)
			},
			code: 422, reason: metav1.StatusReasonInvalid, is: apierrors.IsInvalid,
			message: `Deployment.apps "d1" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0`,
			details: invalidDeploy("d1", cause("spec.replicas", "Invalid value: -1: must be greater than or equal to 0")),
		},
		{
			name:  "Measured/a Deployment's template labels must match its selector → 422",
			setup: seedD1,
			req: func(t *testing.T, s *apiserver.Server) api.Request {
				return patchReq(deployRef("d1"), api.MergePatch, `{"spec":{"template":{"metadata":{"labels":{"app":"other"}}}}}`)
			},
			code: 422, reason: metav1.StatusReasonInvalid, is: apierrors.IsInvalid,
			message: "Deployment.apps \"d1\" is invalid: spec.template.metadata.labels: Invalid value: {\"app\":\"other\"}: `selector` does not match template `labels`",
			details: invalidDeploy("d1", cause("spec.template.metadata.labels", "Invalid value: {\"app\":\"other\"}: `selector` does not match template `labels`")),
		},
		{
			name:  "Measured/an immutable ConfigMap refuses a data change → 422 Forbidden",
			setup: seedImmutable,
			req: func(t *testing.T, s *apiserver.Server) api.Request {
				return patchReq(cmRef("cm1"), api.MergePatch, `{"data":{"x":"2"}}`)
			},
			code: 422, reason: metav1.StatusReasonInvalid, is: apierrors.IsInvalid,
			message: "ConfigMap \"cm1\" is invalid: data: Forbidden: field is immutable when `immutable` is set",
			details: invalidCM("cm1", forbidden("data", "field is immutable when `immutable` is set")),
		},
		{
			name:  "Measured/an immutable ConfigMap stays immutable, and its binaryData too",
			setup: seedImmutable,
			req: func(t *testing.T, s *apiserver.Server) api.Request {
				return patchReq(cmRef("cm1"), api.MergePatch, `{"immutable":false,"binaryData":{"b":"AAA="}}`)
			},
			code: 422, reason: metav1.StatusReasonInvalid, is: apierrors.IsInvalid,
			message: "ConfigMap \"cm1\" is invalid: [immutable: Forbidden: field is immutable when `immutable` is set, binaryData: Forbidden: field is immutable when `immutable` is set]",
			details: invalidCM("cm1", forbidden("immutable", "field is immutable when `immutable` is set"), forbidden("binaryData", "field is immutable when `immutable` is set")),
		},
		{
			name:  "Measured/an immutable ConfigMap's labels can still change",
			setup: seedImmutable,
			req: func(t *testing.T, s *apiserver.Server) api.Request {
				return patchReq(cmRef("cm1"), api.MergePatch, `{"metadata":{"labels":{"a":"b"}}}`)
			},
			code: http.StatusOK,
			check: func(t *testing.T, s *apiserver.Server, before state, resp api.Response) {
				wrote(t, s, before, resp, apiserver.Modified)
			},
		},
		{
			name:  "Measured/a PUT carrying another object's uid → 409, the storage layer's UID precondition",
			setup: seedCM1,
			req: func(t *testing.T, s *apiserver.Server) api.Request {
				var m map[string]any
				_ = json.Unmarshal(cmBody(t, "cm1", liveRV(t, s, cmRef("cm1")), map[string]string{"x": "2"}), &m)
				m["metadata"].(map[string]any)["uid"] = foreignUID
				return updateReq(cmRef("cm1"), mustJSON(t, m))
			},
			code: 409, reason: metav1.StatusReasonConflict, is: apierrors.IsConflict,
			message: `Operation cannot be fulfilled on configmaps "cm1": StorageError: invalid object, Code: 4, Key: /registry/configmaps/default/cm1, ResourceVersion: 0, AdditionalErrorMsg: Precondition failed: UID in precondition: ` + foreignUID + `, UID in object meta: 00000000-0000-4000-8000-000000000001`,
			details: &metav1.StatusDetails{Name: "cm1", Kind: "configmaps"},
		},
		{
			name:  "Measured/a patch carrying another uid → 422 metadata.uid is immutable",
			setup: seedCM1,
			req: func(t *testing.T, s *apiserver.Server) api.Request {
				return patchReq(cmRef("cm1"), api.MergePatch, `{"metadata":{"uid":"`+foreignUID+`"}}`)
			},
			code: 422, reason: metav1.StatusReasonInvalid, is: apierrors.IsInvalid,
			message: `ConfigMap "cm1" is invalid: metadata.uid: Invalid value: "` + foreignUID + `": field is immutable`,
			details: invalidCM("cm1", cause("metadata.uid", `Invalid value: "`+foreignUID+`": field is immutable`)),
		},
		managedFieldsReset("Measured/a PUT with managedFields: [] strips every entry (and, being no apply, adds none)", []any{}),
		managedFieldsReset("Measured/a PUT with managedFields: [{}] (one empty entry) resets them as [] does", []any{map[string]any{}}),
		{
			name: "Measured/a create carrying deletionTimestamp, its grace period and a uid → all cleared",
			req: func(t *testing.T, s *apiserver.Server) api.Request {
				return createReq(cmRef("cm1"), []byte(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"cm1","deletionTimestamp":"2020-01-01T00:00:00Z","deletionGracePeriodSeconds":5,"uid":"11111111-2222-3333-4444-555555555555"},"data":{"x":"1"}}`))
			},
			code: http.StatusCreated,
			check: func(t *testing.T, s *apiserver.Server, before state, resp api.Response) {
				wrote(t, s, before, resp, apiserver.Added)
				got := mustGet(t, s, cmRef("cm1"))
				if got.GetDeletionTimestamp() != nil || got.GetDeletionGracePeriodSeconds() != nil || got.GetUID() == "11111111-2222-3333-4444-555555555555" {
					t.Fatalf("metadata kept what the server owns: %v", got.Object["metadata"])
				}
			},
		},
		{
			name: "Measured/a Deployment's pod template gets the real defaults (probes, httpGet, fieldRef, volumes' defaultMode)",
			req: func(t *testing.T, s *apiserver.Server) api.Request {
				return createReq(deployRef("web"), []byte(templateDefaultsBody))
			},
			code: http.StatusCreated,
			check: func(t *testing.T, s *apiserver.Server, before state, resp api.Response) {
				wrote(t, s, before, resp, apiserver.Added)
				got := mustGet(t, s, deployRef("web"))
				spec, _, _ := unstructured.NestedMap(got.Object, "spec", "template", "spec")
				want := map[string]any{}
				if err := json.Unmarshal([]byte(templateDefaultsWant), &want); err != nil {
					t.Fatal(err)
				}
				if g, w := mustJSON(t, spec), mustJSON(t, want); string(g) != string(w) {
					t.Fatalf("template spec\n got: %s\nwant: %s", g, w)
				}
			},
		},
		{
			name: "Measured/the creator of a Deployment owns no status and no struct as a whole (no \".\" on spec, template, containers)",
			req: func(t *testing.T, s *apiserver.Server) api.Request {
				return createReq(deployRef("d1"), deployBody(t, "d1", "", [2]string{"app", "app:v1"}))
			},
			code: http.StatusCreated,
			check: func(t *testing.T, s *apiserver.Server, before state, resp api.Response) {
				wrote(t, s, before, resp, apiserver.Added)
				mf := mustGet(t, s, deployRef("d1")).GetManagedFields()
				if len(mf) != 1 || mf[0].FieldsV1 == nil {
					t.Fatalf("managedFields %v", mf)
				}
				const want = `{"f:spec":{"f:progressDeadlineSeconds":{},"f:replicas":{},"f:revisionHistoryLimit":{},"f:selector":{},"f:strategy":{"f:rollingUpdate":{".":{},"f:maxSurge":{},"f:maxUnavailable":{}},"f:type":{}},"f:template":{"f:metadata":{"f:labels":{".":{},"f:app":{}}},"f:spec":{"f:containers":{"k:{\"name\":\"app\"}":{".":{},"f:image":{},"f:imagePullPolicy":{},"f:name":{},"f:resources":{},"f:terminationMessagePath":{},"f:terminationMessagePolicy":{}}},"f:dnsPolicy":{},"f:restartPolicy":{},"f:schedulerName":{},"f:securityContext":{},"f:terminationGracePeriodSeconds":{}}}}}`
				if got := mf[0].FieldsV1.GetRawString(); got != want {
					t.Fatalf("creator's fields\n got: %s\nwant: %s", got, want)
				}
			},
		},
		{
			name:  "Measured/a custom resource's finalizers are a set in managedFields, as ObjectMeta's schema says",
			setup: seedW1,
			req: func(t *testing.T, s *apiserver.Server) api.Request {
				r := patchReq(widgetRef("w1"), api.MergePatch, `{"metadata":{"finalizers":["example.com/cleanup"]}}`)
				r.FieldManager = "operator"
				return r
			},
			code: http.StatusOK,
			check: func(t *testing.T, s *apiserver.Server, before state, resp api.Response) {
				wrote(t, s, before, resp, apiserver.Modified)
				for _, e := range mustGet(t, s, widgetRef("w1")).GetManagedFields() {
					if e.Manager == "operator" {
						if got, want := e.FieldsV1.GetRawString(), `{"f:metadata":{"f:finalizers":{".":{},"v:\"example.com/cleanup\"":{}}}}`; got != want {
							t.Fatalf("patcher's fields\n got: %s\nwant: %s", got, want)
						}
						return
					}
				}
				t.Fatal("the patch has no managedFields entry")
			},
		},
	}
}

// templateDefaultsBody is a Deployment whose template leaves out everything
// the server defaults; templateDefaultsWant is its template's spec as
// kube-apiserver v1.37.2 stored it.
const templateDefaultsBody = `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web"},"spec":{"selector":{"matchLabels":{"app":"web"}},"template":{"metadata":{"labels":{"app":"web"}},"spec":{"containers":[{"name":"app","image":"nginx:1.27","livenessProbe":{"httpGet":{"port":8080}},"readinessProbe":{"exec":{"command":["true"]}},"startupProbe":{"tcpSocket":{"port":80}},"env":[{"name":"POD","valueFrom":{"fieldRef":{"fieldPath":"metadata.name"}}}],"ports":[{"containerPort":80}],"volumeMounts":[{"name":"cfg","mountPath":"/cfg"}]}],"volumes":[{"name":"cfg","configMap":{"name":"cfg"}},{"name":"sec","secret":{"secretName":"s"}},{"name":"proj","projected":{"sources":[{"configMap":{"name":"cfg"}}]}},{"name":"dapi","downwardAPI":{"items":[{"path":"name","fieldRef":{"fieldPath":"metadata.name"}}]}},{"name":"empty","emptyDir":{}}]}}}}`

const templateDefaultsWant = `{"containers":[{"env":[{"name":"POD","valueFrom":{"fieldRef":{"apiVersion":"v1","fieldPath":"metadata.name"}}}],"image":"nginx:1.27","imagePullPolicy":"IfNotPresent","livenessProbe":{"failureThreshold":3,"httpGet":{"path":"/","port":8080,"scheme":"HTTP"},"periodSeconds":10,"successThreshold":1,"timeoutSeconds":1},"name":"app","ports":[{"containerPort":80,"protocol":"TCP"}],"readinessProbe":{"exec":{"command":["true"]},"failureThreshold":3,"periodSeconds":10,"successThreshold":1,"timeoutSeconds":1},"resources":{},"startupProbe":{"failureThreshold":3,"periodSeconds":10,"successThreshold":1,"tcpSocket":{"port":80},"timeoutSeconds":1},"terminationMessagePath":"/dev/termination-log","terminationMessagePolicy":"File","volumeMounts":[{"mountPath":"/cfg","name":"cfg"}]}],"dnsPolicy":"ClusterFirst","restartPolicy":"Always","schedulerName":"default-scheduler","securityContext":{},"terminationGracePeriodSeconds":30,"volumes":[{"configMap":{"defaultMode":420,"name":"cfg"},"name":"cfg"},{"name":"sec","secret":{"defaultMode":420,"secretName":"s"}},{"name":"proj","projected":{"defaultMode":420,"sources":[{"configMap":{"name":"cfg"}}]}},{"downwardAPI":{"defaultMode":420,"items":[{"fieldRef":{"apiVersion":"v1","fieldPath":"metadata.name"},"path":"name"}]},"name":"dapi"},{"emptyDir":{},"name":"empty"}]}`

// managedFieldsReset is a PUT that sends mf as metadata.managedFields, a
// list the field manager takes as "drop every entry": none is left (an
// update that is no apply adds none back), so the next apply of a field
// the object already has conflicts with the manager that stands for
// everything written before the first apply.
func managedFieldsReset(name string, mf []any) semanticsCase {
	return semanticsCase{
		name:  name,
		setup: seedCM1,
		req: func(t *testing.T, s *apiserver.Server) api.Request {
			live := mustGet(t, s, cmRef("cm1"))
			live.Object["metadata"].(map[string]any)["managedFields"] = mf
			_ = unstructured.SetNestedField(live.Object, "2", "data", "y")
			return api.Request{Verb: api.Update, Ref: cmRef("cm1"), Body: mustJSON(t, live.Object), FieldManager: "resetter"}
		},
		code: http.StatusOK,
		check: func(t *testing.T, s *apiserver.Server, before state, resp api.Response) {
			wrote(t, s, before, resp, apiserver.Modified)
			if got := mustGet(t, s, cmRef("cm1")).GetManagedFields(); len(got) != 0 {
				t.Fatalf("managedFields %v, want none", got)
			}
			r := s.Do(applyReq(cmRef("cm1"), "applier", false, "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: cm1}\ndata: {x: \"9\"}\n"))
			if r.Code != 409 || !strings.Contains(r.Err.Error(), `Apply failed with 1 conflict: conflict with "before-first-apply" using v1: .data.x`) {
				t.Fatalf("apply after the reset: %d %v", r.Code, r.Err)
			}
		},
	}
}
