package apiserver_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/conflictlab/conflictlab/sim/api"
	"github.com/conflictlab/conflictlab/sim/apiserver"
)

// differentialCases are answers of kube-apiserver v1.37.2 that
// conformance's TestDifferential found the simulator getting wrong; each
// has its shrunk race under conformance/testdata/regressions, which the
// differential run replays against the real server.
func differentialCases() []semanticsCase {
	invalidDeploy := func(name string, causes ...metav1.StatusCause) *metav1.StatusDetails {
		return &metav1.StatusDetails{Name: name, Group: "apps", Kind: "Deployment", Causes: causes}
	}
	cause := func(field, msg string) metav1.StatusCause {
		return metav1.StatusCause{Type: metav1.CauseTypeFieldValueInvalid, Field: field, Message: msg}
	}
	// withStatus is d1 as its controller read it, with status set.
	withStatus := func(t *testing.T, s *apiserver.Server, status map[string]any) []byte {
		d := mustGet(t, s, deployRef("d1"))
		d.Object["status"] = status
		return mustJSON(t, d.Object)
	}
	invalidWidget := func(name string, causes ...metav1.StatusCause) *metav1.StatusDetails {
		return &metav1.StatusDetails{Name: name, Group: api.WidgetGroup, Kind: "Widget", Causes: causes}
	}
	times := func(n int, c metav1.StatusCause) []metav1.StatusCause {
		var out []metav1.StatusCause
		for range n {
			out = append(out, c)
		}
		return out
	}
	const badKey = `Invalid value: "bad key!": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`
	const immutableUID = `Invalid value: "00000000-0000-4000-8000-000000000999": field is immutable`
	widgetWith := func(t *testing.T, s *apiserver.Server, md map[string]any) []byte {
		w := mustGet(t, s, widgetRef("w1"))
		for k, v := range md {
			w.Object["metadata"].(map[string]any)[k] = v
		}
		return mustJSON(t, w.Object)
	}
	const negative = "must be greater than or equal to 0"
	const overReplicas = "cannot be greater than status.replicas"
	return []semanticsCase{
		{
			// seed-5494: the real handler applies JSON patches with
			// gopkg.in/evanphx/json-patch.v4, whose replace sets a key
			// that an existing object lacks (json-patch/v5, RFC 6902,
			// answers 422).
			name: "Differential/a JSON patch replace of a key the object lacks sets it → 200",
			setup: func(t *testing.T, s *apiserver.Server) {
				seedCM1(t, s) // data {x: 1}
			},
			req: func(t *testing.T, s *apiserver.Server) api.Request {
				return patchReq(cmRef("cm1"), api.JSONPatch, `[{"op":"replace","path":"/data/count","value":"5"}]`)
			},
			code: http.StatusOK,
			check: func(t *testing.T, s *apiserver.Server, before state, resp api.Response) {
				wrote(t, s, before, resp, apiserver.Modified)
				if got, want := dataOf(t, mustGet(t, s, cmRef("cm1"))), map[string]string{"x": "1", "count": "5"}; !equal(got, want) {
					t.Fatalf("data %v, want %v", got, want)
				}
			},
		},
		{
			// seed-181: spec.paused false is stored as absent (omitempty);
			// replacing it is the same v4 rule.
			name:  "Differential/a JSON patch replace of a Deployment's absent spec.paused sets it → 200",
			setup: seedD1,
			req: func(t *testing.T, s *apiserver.Server) api.Request {
				return patchReq(deployRef("d1"), api.JSONPatch, `[{"op":"replace","path":"/spec/paused","value":true}]`)
			},
			code: http.StatusOK,
			check: func(t *testing.T, s *apiserver.Server, before state, resp api.Response) {
				wrote(t, s, before, resp, apiserver.Modified)
				if got := widgetField(t, mustGet(t, s, deployRef("d1")), "spec", "paused"); got != true {
					t.Fatalf("spec.paused %v, want true", got)
				}
			},
		},
		{
			// v4 still refuses a replace under a missing parent.
			name:  "Differential/a JSON patch replace under a missing parent object → 422",
			setup: seedCM1,
			req: func(t *testing.T, s *apiserver.Server) api.Request {
				return patchReq(cmRef("cm1"), api.JSONPatch, `[{"op":"replace","path":"/spec/x/y","value":"5"}]`)
			},
			code: http.StatusUnprocessableEntity, reason: metav1.StatusReasonInvalid, is: apierrors.IsInvalid,
			message: "the server rejected our request due to an error in our request",
			details: &metav1.StatusDetails{},
		},
		{
			// seed-5191: the CR decoder writes the metadata back from an
			// ObjectMeta, whose omitempty drops the empty map, and with it
			// the creator's f:annotations.
			name: "Differential/removing a custom resource's last annotation leaves no annotations and no f:annotations",
			setup: func(t *testing.T, s *apiserver.Server) {
				body := `{"apiVersion":"` + api.WidgetGroup + `/v1","kind":"Widget","metadata":{"name":"w1","annotations":{"example.com/reviewed-by":"two words"}},"spec":{}}`
				mustDo(t, s, api.Request{Verb: api.Create, Ref: widgetRef("w1"), Body: []byte(body), FieldManager: "creator"})
			},
			req: func(t *testing.T, s *apiserver.Server) api.Request {
				w := mustGet(t, s, widgetRef("w1"))
				w.Object["metadata"].(map[string]any)["annotations"] = map[string]any{}
				return api.Request{Verb: api.Update, Ref: widgetRef("w1"), Body: mustJSON(t, w.Object), FieldManager: "a"}
			},
			code: http.StatusOK,
			check: func(t *testing.T, s *apiserver.Server, before state, resp api.Response) {
				wrote(t, s, before, resp, apiserver.Modified)
				w := mustGet(t, s, widgetRef("w1"))
				if a, found, _ := unstructured.NestedFieldNoCopy(w.Object, "metadata", "annotations"); found {
					t.Fatalf("metadata.annotations %v kept, want it gone", a)
				}
				for m, f := range managedFields(w) {
					if strings.Contains(f, "f:annotations") {
						t.Fatalf("manager %s still owns %s", m, f)
					}
				}
			},
		},
		{
			// seed-5421: deploymentStatusStrategy.ValidateUpdate is
			// ValidateDeploymentStatusUpdate.
			name:  "Differential/a Deployment status with observedGeneration -1 → 422",
			setup: seedD1,
			req: func(t *testing.T, s *apiserver.Server) api.Request {
				return statusReq(deployRef("d1"), withStatus(t, s, map[string]any{"observedGeneration": -1}))
			},
			code: http.StatusUnprocessableEntity, reason: metav1.StatusReasonInvalid, is: apierrors.IsInvalid,
			message: `Deployment.apps "d1" is invalid: status.observedGeneration: Invalid value: -1: ` + negative,
			details: invalidDeploy("d1", cause("status.observedGeneration", "Invalid value: -1: "+negative)),
		},
		{
			// seed-105.
			name:  "Differential/a Deployment status with more ready replicas than replicas → 422",
			setup: seedD1,
			req: func(t *testing.T, s *apiserver.Server) api.Request {
				return statusReq(deployRef("d1"), withStatus(t, s, map[string]any{"replicas": 1, "readyReplicas": 5}))
			},
			code: http.StatusUnprocessableEntity, reason: metav1.StatusReasonInvalid, is: apierrors.IsInvalid,
			message: `Deployment.apps "d1" is invalid: status.readyReplicas: Invalid value: 5: ` + overReplicas,
			details: invalidDeploy("d1", cause("status.readyReplicas", "Invalid value: 5: "+overReplicas)),
		},
		{
			name:  "Differential/a Deployment status with a negative count and more available than ready → 422 listing both",
			setup: seedD1,
			req: func(t *testing.T, s *apiserver.Server) api.Request {
				return statusReq(deployRef("d1"), withStatus(t, s, map[string]any{"replicas": 3, "updatedReplicas": -2, "readyReplicas": 1, "availableReplicas": 2}))
			},
			code: http.StatusUnprocessableEntity, reason: metav1.StatusReasonInvalid, is: apierrors.IsInvalid,
			message: `Deployment.apps "d1" is invalid: [status.updatedReplicas: Invalid value: -2: ` + negative +
				`, status.availableReplicas: Invalid value: 2: cannot be greater than readyReplicas]`,
			details: invalidDeploy("d1",
				cause("status.updatedReplicas", "Invalid value: -2: "+negative),
				cause("status.availableReplicas", "Invalid value: 2: cannot be greater than readyReplicas")),
		},
		{
			name:  "Differential/a consistent Deployment status → 200",
			setup: seedD1,
			req: func(t *testing.T, s *apiserver.Server) api.Request {
				return statusReq(deployRef("d1"), withStatus(t, s, map[string]any{"observedGeneration": 1, "replicas": 1, "updatedReplicas": 1, "readyReplicas": 1, "availableReplicas": 1}))
			},
			code: http.StatusOK,
			check: func(t *testing.T, s *apiserver.Server, before state, resp api.Response) {
				wrote(t, s, before, resp, apiserver.Modified)
				if got := widgetField(t, mustGet(t, s, deployRef("d1")), "status", "readyReplicas"); got != int64(1) {
					t.Fatalf("status.readyReplicas %v (%T), want 1", got, got)
				}
			},
		},
		{
			// seed-9165: validateCommonFields checks the labels twice
			// (ValidateObjectMetaAccessor, ...AccessorUpdate), the CR
			// strategy once more, and nothing dedupes the causes
			// (measured on v1.37.2; a ConfigMap's 422 lists it once).
			name:  "Differential/a bad label key on a custom resource's update → 422 listing the cause three times",
			setup: seedW1,
			req: func(t *testing.T, s *apiserver.Server) api.Request {
				return updateReq(widgetRef("w1"), widgetWith(t, s, map[string]any{"labels": map[string]any{"bad key!": "v"}}))
			},
			code: http.StatusUnprocessableEntity, reason: metav1.StatusReasonInvalid, is: apierrors.IsInvalid,
			message: `Widget.` + api.WidgetGroup + ` "w1" is invalid: metadata.labels: ` + badKey,
			details: invalidWidget("w1", times(3, cause("metadata.labels", badKey))...),
		},
		{
			// seed-5024: the uid is checked by ...AccessorUpdate only:
			// twice.
			name:  "Differential/a merge patch changing a custom resource's uid → 422 listing the cause twice",
			setup: seedW1,
			req: func(t *testing.T, s *apiserver.Server) api.Request {
				return patchReq(widgetRef("w1"), api.MergePatch, `{"metadata":{"uid":"00000000-0000-4000-8000-000000000999"}}`)
			},
			code: http.StatusUnprocessableEntity, reason: metav1.StatusReasonInvalid, is: apierrors.IsInvalid,
			message: `Widget.` + api.WidgetGroup + ` "w1" is invalid: metadata.uid: ` + immutableUID,
			details: invalidWidget("w1", times(2, cause("metadata.uid", immutableUID))...),
		},
		{
			// On a custom resource's update only the path-segment name
			// rule applies to generateName (a ConfigMap's strategy
			// refuses "Bad_").
			name:  "Differential/a custom resource's update with generateName Bad_ and a bad annotation key → 422 on the annotation only",
			setup: seedW1,
			req: func(t *testing.T, s *apiserver.Server) api.Request {
				return patchReq(widgetRef("w1"), api.MergePatch, `{"metadata":{"generateName":"Bad_","annotations":{"bad key!":"v"}}}`)
			},
			code: http.StatusUnprocessableEntity, reason: metav1.StatusReasonInvalid, is: apierrors.IsInvalid,
			message: `Widget.` + api.WidgetGroup + ` "w1" is invalid: metadata.annotations: ` + badKey,
			details: invalidWidget("w1", times(3, cause("metadata.annotations", badKey))...),
		},
		{
			// A create runs the strategy's ObjectMeta check alone.
			name: "Differential/a bad label key on a custom resource's create → 422 listing it once",
			req: func(t *testing.T, s *apiserver.Server) api.Request {
				return createReq(widgetRef("w1"), []byte(`{"apiVersion":"`+api.WidgetGroup+`/v1","kind":"Widget","metadata":{"name":"w1","labels":{"bad key!":"v"}},"spec":{}}`))
			},
			code: http.StatusUnprocessableEntity, reason: metav1.StatusReasonInvalid, is: apierrors.IsInvalid,
			message: `Widget.` + api.WidgetGroup + ` "w1" is invalid: metadata.labels: ` + badKey,
			details: invalidWidget("w1", cause("metadata.labels", badKey)),
		},
		{
			// seed-5124, seed-5252: the CR decoder's ObjectMeta round
			// trip drops the empty list before the field manager sees
			// it, which then keeps the live entries (a ConfigMap's
			// managedFields: [] clears them).
			name: "Differential/a custom resource's update with managedFields: [] keeps the other managers' entries",
			setup: func(t *testing.T, s *apiserver.Server) {
				body := `{"apiVersion":"` + api.WidgetGroup + `/v1","kind":"Widget","metadata":{"name":"w1","labels":{"a":"b"}},"spec":{}}`
				mustDo(t, s, api.Request{Verb: api.Create, Ref: widgetRef("w1"), Body: []byte(body), FieldManager: "creator"})
			},
			req: func(t *testing.T, s *apiserver.Server) api.Request {
				return api.Request{Verb: api.Update, Ref: widgetRef("w1"), FieldManager: "b",
					Body: widgetWith(t, s, map[string]any{"managedFields": []any{}, "annotations": map[string]any{"x": "1"}})}
			},
			code: http.StatusOK,
			check: func(t *testing.T, s *apiserver.Server, before state, resp api.Response) {
				wrote(t, s, before, resp, apiserver.Modified)
				got := managedFields(mustGet(t, s, widgetRef("w1")))
				want := map[string]string{
					"creator/Update": `{"f:metadata":{"f:labels":{".":{},"f:a":{}}},"f:spec":{}}`,
					"b/Update":       `{"f:metadata":{"f:annotations":{".":{},"f:x":{}}}}`,
				}
				if !equal(got, want) {
					t.Fatalf("managedFields %v, want %v", got, want)
				}
			},
		},
		{
			// seed-9035: the field manager runs before the main
			// resource's strategy drops the status, cannot type a list
			// in a string field, and UpdateNoErrors keeps the live
			// managedFields: the annotation is written, its writer
			// gets no entry.
			name:  "Differential/a JSON patch to a custom resource that also puts a list in status.message leaves managedFields as they were",
			setup: seedW1,
			req: func(t *testing.T, s *apiserver.Server) api.Request {
				r := patchReq(widgetRef("w1"), api.JSONPatch,
					`[{"op":"add","path":"/status/message","value":["p"]},{"op":"add","path":"/metadata/annotations","value":{"example.com/reviewed-by":"ok"}}]`)
				r.FieldManager = "b"
				return r
			},
			code: http.StatusOK,
			check: func(t *testing.T, s *apiserver.Server, before state, resp api.Response) {
				wrote(t, s, before, resp, apiserver.Modified)
				w := mustGet(t, s, widgetRef("w1"))
				if got := w.GetAnnotations()["example.com/reviewed-by"]; got != "ok" {
					t.Fatalf("annotation %q, want ok", got)
				}
				if got := widgetField(t, w, "status"); !equal(got, map[string]any{"phase": "Ready"}) {
					t.Fatalf("status %v, want the live one", got)
				}
				was := &unstructured.Unstructured{}
				if err := was.UnmarshalJSON([]byte(before.Objects[widgetRef("w1").String()])); err != nil {
					t.Fatal(err)
				}
				if got, want := managedFields(w), managedFields(was); len(want) == 0 || !equal(got, want) {
					t.Fatalf("managedFields %v, want them unchanged: %v", got, want)
				}
			},
		},
	}
}

// TestPatchResultQuotesTypedOrder: a patch whose result a built-in kind
// cannot decode is quoted in the 422 as the real handler has it: the live
// object encoded in its Go type's field order, the objects the patch
// touched re-encoded with sorted keys (json-patch.v4's merge). The want is
// kube-apiserver v1.37.2's answer (seed-9079's request, measured with
// plain client-go), with the simulator's uid, times and resourceVersion.
func TestPatchResultQuotesTypedOrder(t *testing.T) {
	const real = `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web","namespace":"default","uid":"UID","resourceVersion":"RV","generation":1,"creationTimestamp":"TIME","managedFields":[{"manager":"creator","operation":"Update","apiVersion":"apps/v1","time":"TIME","fieldsType":"FieldsV1","fieldsV1":{"f:spec":{"f:progressDeadlineSeconds":{},"f:replicas":{},"f:revisionHistoryLimit":{},"f:selector":{},"f:strategy":{"f:rollingUpdate":{".":{},"f:maxSurge":{},"f:maxUnavailable":{}},"f:type":{}},"f:template":{"f:metadata":{"f:labels":{".":{},"f:app":{}}},"f:spec":{"f:containers":{"k:{\"name\":\"app\"}":{".":{},"f:image":{},"f:imagePullPolicy":{},"f:name":{},"f:resources":{},"f:terminationMessagePath":{},"f:terminationMessagePolicy":{}}},"f:dnsPolicy":{},"f:restartPolicy":{},"f:schedulerName":{},"f:securityContext":{},"f:terminationGracePeriodSeconds":{}}}}}}]},"spec":{"progressDeadlineSeconds":600,"replicas":1,"revisionHistoryLimit":10,"selector":{"matchLabels":{"app":"web"}},"strategy":{"type":"RollingUpdate","rollingUpdate":{"maxUnavailable":"25%","maxSurge":"25%"}},"template":{"metadata":{"annotations":{"example.com/restartedAt":["q"]},"labels":{"app":"web"}},"spec":{"containers":[{"name":"app","image":"nginx:1.0","resources":{},"terminationMessagePath":"/dev/termination-log","terminationMessagePolicy":"File","imagePullPolicy":"IfNotPresent"}],"restartPolicy":"Always","terminationGracePeriodSeconds":30,"dnsPolicy":"ClusterFirst","securityContext":{},"schedulerName":"default-scheduler"}}},"status":{}}`
	const detail = "json: cannot unmarshal array into Go struct field ObjectMeta.spec.template.metadata.annotations of type string"
	s := newServer()
	s.SetTime(42 * time.Second)
	d := mustDo(t, s, api.Request{Verb: api.Create, Ref: deployRef("web"), FieldManager: "creator",
		Body: []byte(`{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web"},"spec":{"selector":{"matchLabels":{"app":"web"}},"template":{"metadata":{"labels":{"app":"web"}},"spec":{"containers":[{"image":"nginx:1.0","name":"app"}]}}}}`)})
	created := d.GetCreationTimestamp().UTC().Format(time.RFC3339)
	want := strings.NewReplacer("UID", string(d.GetUID()), "RV", d.GetResourceVersion(), "TIME", created).Replace(real)
	resp := s.Do(patchReq(deployRef("web"), api.MergePatch, `{"spec":{"template":{"metadata":{"annotations":{"example.com/restartedAt":["q"]}}}}}`))
	if resp.Code != http.StatusUnprocessableEntity {
		t.Fatalf("code %d (%v), want 422", resp.Code, resp.Err)
	}
	quoted, _ := json.Marshal(want)
	if got, want := resp.Err.Error(), ` "" is invalid: patch: Invalid value: `+string(quoted)+`: `+detail; got != want {
		t.Fatalf("message\n got: %s\nwant: %s", got, want)
	}
}
