package apiserver

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strconv"

	jsonpatch "gopkg.in/evanphx/json-patch.v4"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	metav1validation "k8s.io/apimachinery/pkg/apis/meta/v1/validation"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/strategicpatch"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	kjson "sigs.k8s.io/json"
	"sigs.k8s.io/yaml"

	"github.com/conflictlab/conflictlab/sim/api"
	"github.com/conflictlab/conflictlab/sim/apiserver/internal/handlers"
)

// update is a PUT to the object or its /status.
func (s *Server) update(info api.KindInfo, req api.Request) (*unstructured.Unstructured, error) {
	if err := checkSubresource(info, req.Subresource); err != nil {
		return nil, err
	}
	if errs := metav1validation.ValidateUpdateOptions(&metav1.UpdateOptions{FieldManager: req.FieldManager}); len(errs) > 0 {
		return nil, invalidOptions("UpdateOptions", errs)
	}
	next, err := s.decode(info, req.Body)
	if err != nil {
		return nil, err
	}
	if err := checkTarget(next, req.Ref); err != nil {
		return nil, err
	}
	live, ok := s.objects[req.Ref]
	if !ok {
		// An update never creates a ConfigMap, a Deployment or a Widget.
		return nil, notFound(info, req.Ref.Name)
	}
	if err := checkUIDPrecondition(info, live, next); err != nil { // precondition.go
		return nil, err
	}
	if err := checkRV(info, live, next.GetResourceVersion()); err != nil {
		return nil, err
	}
	return s.write(info, live, next, req.Subresource, req.FieldManager)
}

// checkRV is the store's optimistic-concurrency precondition (registry
// Store.Update). The RV of the object to write is parsed as the storage
// versioner does: "" and "0" both mean "none". None makes the write
// unconditional where the kind allows it (built-in kinds do); custom
// resources refuse it, for an update or a patch whose result lost its RV.
func checkRV(info api.KindInfo, live *unstructured.Unstructured, sent string) error {
	var n uint64
	if sent != "" {
		var err error
		if n, err = strconv.ParseUint(sent, 10, 64); err != nil {
			return unknownServerError(err)
		}
	}
	if n == 0 {
		if !info.Builtin {
			return fieldErrRVRequired(info, live.GetName())
		}
		return nil
	}
	if strconv.FormatUint(n, 10) != live.GetResourceVersion() {
		return conflict(info, live.GetName())
	}
	return nil
}

func checkSubresource(info api.KindInfo, sub string) error {
	switch {
	case sub == "":
		return nil
	case sub == "status" && info.StatusSubresource:
		return nil
	}
	return noSuchSubresource() // subresource.go
}

// patch applies a patch of any of the four kinds to the live object.
func (s *Server) patch(info api.KindInfo, req api.Request) (*unstructured.Unstructured, bool, error) {
	if err := checkSubresource(info, req.Subresource); err != nil {
		return nil, false, err
	}
	// The real handler checks the content type first, then the options,
	// and only then looks at the object.
	if !slices.Contains(acceptedPatchTypes(info), string(req.PatchType)) {
		return nil, false, unsupportedPatch(info)
	}
	if errs := metav1validation.ValidatePatchOptions(patchOptions(req), req.PatchType); len(errs) > 0 {
		return nil, false, invalidOptions("PatchOptions", errs)
	}
	transcoded, err := validatePatchBody(req.PatchType, req.Body)
	if err != nil {
		return nil, false, err
	}
	if req.PatchType == api.ApplyPatch {
		return s.apply(info, req, transcoded)
	}
	live, ok := s.objects[req.Ref]
	if !ok {
		return nil, false, notFound(info, req.Ref.Name)
	}
	var next *unstructured.Unstructured
	switch req.PatchType {
	case api.JSONPatch, api.MergePatch:
		liveJSON, err := encodeLive(info, live)
		if err != nil {
			return nil, false, apierrors.NewInternalError(err)
		}
		patched, err := applyJSPatch(req.PatchType, liveJSON, req.Body)
		if err != nil {
			return nil, false, err
		}
		if next, err = decodePatched(info, patched); err != nil {
			return nil, false, err
		}
	case api.StrategicPatch:
		var err error
		if next, err = strategicPatch(info, live, req.Body); err != nil {
			return nil, false, err
		}
	}
	if err := checkTarget(next, req.Ref); err != nil {
		return nil, false, err
	}
	// A patch that carries a resourceVersion leaves it in the patched object,
	// where the store's precondition sees it; one that carries none keeps
	// the live RV and so always passes.
	if err := checkRV(info, live, next.GetResourceVersion()); err != nil {
		return nil, false, err
	}
	obj, err := s.write(info, live, next, req.Subresource, req.FieldManager)
	return obj, false, err
}

// validatePatchBody is the real handler's validateAndTranscodePatch, run
// (for the audit log) before the object is looked at: a body that is not
// JSON, or for apply not YAML, is a 400 whatever the object. It returns
// an apply body transcoded to JSON.
func validatePatchBody(pt types.PatchType, body []byte) ([]byte, error) {
	if pt == api.ApplyPatch {
		transcoded, err := utilyaml.ToJSON(body)
		if err != nil {
			return nil, apierrors.NewBadRequest(fmt.Sprintf("error encoding patch: %v", err))
		}
		return transcoded, nil
	}
	if !json.Valid(body) {
		return nil, apierrors.NewBadRequest("invalid JSON patch")
	}
	return body, nil
}

// encodeLive is the live object as the real handler encodes it for a JSON
// or merge patch (runtime.Encode with the kind's codec): a built-in kind in
// its Go type's field order, a custom resource's map with sorted keys. The
// patch library re-encodes only the objects a patch touches (sorting their
// keys), so the order shows in the 422 that quotes a result the kind
// cannot decode.
func encodeLive(info api.KindInfo, live *unstructured.Unstructured) ([]byte, error) {
	if !info.Builtin {
		return json.Marshal(live.Object)
	}
	obj := api.NewTyped(info.Kind)
	if err := runtime.DefaultUnstructuredConverter.FromUnstructured(live.Object, obj); err != nil {
		return nil, err
	}
	return json.Marshal(obj)
}

// maxJSONPatchOperations is the real server's cap on the operations of one
// JSON patch.
const maxJSONPatchOperations = 10000

// applyJSPatch applies a JSON patch or a JSON merge patch to the live
// object's JSON, with the real handler's checks and error classes
// (jsonPatcher.applyJSPatch; the server's default field validation, Warn,
// decodes the body strictly first).
func applyJSPatch(pt types.PatchType, doc, body []byte) ([]byte, error) {
	switch pt {
	case api.JSONPatch:
		if err := handlers.CheckJSONPatchShape(body); err != nil {
			return nil, apierrors.NewBadRequest(fmt.Sprintf("error decoding patch: %v", err))
		}
		p, err := jsonpatch.DecodePatch(body)
		if err != nil {
			return nil, apierrors.NewBadRequest(err.Error())
		}
		if len(p) > maxJSONPatchOperations {
			return nil, apierrors.NewRequestEntityTooLargeError(fmt.Sprintf(
				"The allowed maximum operations in a JSON patch is %d, got %d", maxJSONPatchOperations, len(p)))
		}
		patched, err := p.Apply(doc)
		if err != nil {
			return nil, patchRejected(err)
		}
		return patched, nil
	default: // api.MergePatch
		var m map[string]any
		if _, err := kjson.UnmarshalStrict(body, &m); err != nil {
			return nil, apierrors.NewBadRequest(fmt.Sprintf("error decoding patch: %v", err))
		}
		patched, err := jsonpatch.MergePatch(doc, body)
		switch {
		case errors.Is(err, jsonpatch.ErrBadJSONPatch):
			return nil, apierrors.NewBadRequest(err.Error())
		case err != nil:
			return nil, unknownServerError(err)
		}
		return patched, nil
	}
}

// decodePatched decodes the result of a JSON or merge patch. A result the
// kind cannot hold is the patch's fault: 422 on the field "patch", whose
// value is the patched document (jsonPatcher.applyPatchToCurrentObject).
func decodePatched(info api.KindInfo, patched []byte) (*unstructured.Unstructured, error) {
	var (
		next *unstructured.Unstructured
		err  error
	)
	if info.Builtin {
		next, err = decodeTyped(info, patched)
	} else {
		next, err = decodeCustom(patched)
	}
	if err != nil {
		return nil, patchInvalid(string(patched), err)
	}
	return next, nil
}

// strategicPatch is the real smpPatcher: the patch is decoded to a map,
// merged into the live object's map with the Go type's patch strategies,
// and the result converted to the Go type (strategicPatchObject and
// applyPatchToObject in the real handler). Working on maps, as the real
// handler does, spares two JSON round trips.
func strategicPatch(info api.KindInfo, live *unstructured.Unstructured, body []byte) (*unstructured.Unstructured, error) {
	patchMap := map[string]any{}
	if _, err := kjson.UnmarshalStrict(body, &patchMap); err != nil {
		return nil, apierrors.NewBadRequest(err.Error())
	}
	if patchMap == nil {
		// A "null" body: UnmarshalStrict leaves a nil map, which the
		// patch library would write into.
		patchMap = map[string]any{}
	}
	// The merge writes into the original map: give it a copy of the live
	// object, as the real handler gives it a fresh conversion.
	patchedMap, err := strategicpatch.StrategicMergeMapPatch(runtime.DeepCopyJSON(live.Object), patchMap, api.NewTyped(info.Kind))
	if err != nil {
		return nil, interpretStrategicMergePatchError(err)
	}
	obj := api.NewTyped(info.Kind)
	if err := runtime.DefaultUnstructuredConverter.FromUnstructuredWithValidation(patchedMap, obj, false); err != nil {
		return nil, patchInvalid(fmt.Sprintf("%+v", patchMap), err)
	}
	return typedToUnstructured(info, obj)
}

// patchOptions are the query parameters of a PATCH. Force is a *bool on the
// wire; the request's false means "not given".
func patchOptions(req api.Request) *metav1.PatchOptions {
	o := &metav1.PatchOptions{FieldManager: req.FieldManager}
	if req.Force {
		o.Force = &req.Force
	}
	return o
}

// apply is server-side apply through the real field manager. transcoded
// is the body as validatePatchBody turned it into JSON.
func (s *Server) apply(info api.KindInfo, req api.Request, transcoded []byte) (*unstructured.Unstructured, bool, error) {
	// The real applyPatcher decodes the body with sigs.k8s.io/yaml into a
	// plain map; the field manager then checks its apiVersion and kind.
	// yaml.Unmarshal is YAMLToJSON followed by a JSON decode, and the YAML
	// was already converted: decode that JSON rather than parse the YAML
	// twice. Only a body ToJSON passed through untouched (one that looks
	// like JSON: it starts with "{") may still be YAML, such as {a: 1}.
	applied := &unstructured.Unstructured{Object: map[string]any{}}
	var err error
	if utilyaml.IsJSONBuffer(req.Body) {
		err = yaml.Unmarshal(req.Body, &applied.Object)
	} else if err = json.Unmarshal(transcoded, &applied.Object); err != nil {
		err = fmt.Errorf("error unmarshaling JSON: while decoding JSON: %v", err)
	}
	if err != nil {
		return nil, false, apierrors.NewBadRequest(fmt.Sprintf("error decoding patch: %v", err))
	}
	if applied.Object == nil {
		applied.Object = map[string]any{}
	}
	live, exists := s.objects[req.Ref]
	base := live
	if !exists {
		if req.Subresource != "" {
			// A subresource never creates its object.
			return nil, false, notFound(info, req.Ref.Name)
		}
		base = zeroObject(info)
		base.SetNamespace(req.Ref.Namespace)
	}
	fm := s.schema.manager(info.Kind, req.Subresource)
	base = base.DeepCopy()
	marks := markManagedTimes(base)
	out, err := fm.Apply(base, applied, req.FieldManager, req.Force)
	if err != nil {
		// Conflicts and the field manager's own 400s are Status errors;
		// anything else (an applied value of the wrong type) reaches the
		// client as the real server sends a plain error: 500, its text.
		var st apierrors.APIStatus
		if errors.As(err, &st) {
			return nil, false, applyConflictInOrder(err)
		}
		return nil, false, unknownServerError(err)
	}
	merged := out.(*unstructured.Unstructured)
	marks.restore(merged, s.now)
	next, err := typedApplyResult(info, merged)
	if err != nil {
		return nil, false, err
	}
	// The real patcher checks the namespace and name on the merged object:
	// an apply configuration may leave the name out of an object that exists.
	if err := checkTarget(next, req.Ref); err != nil {
		return nil, false, err
	}
	if !exists {
		wipeSystemFields(next)
		if info.StatusSubresource {
			resetStatus(info, next)
		}
		if errs := validate(info, nil, next, ""); len(errs) > 0 {
			return nil, false, invalid(info, next.GetName(), errs)
		}
		return s.store(info, nil, next), true, nil
	}
	if err := checkRV(info, live, next.GetResourceVersion()); err != nil {
		return nil, false, err
	}
	next = s.subresourceView(info, live, next, req.Subresource) // subresource.go
	obj, err := s.finish(info, live, next, req.Subresource)
	return obj, false, err
}

// typedApplyResult turns the field manager's merged object into the stored
// form. A built-in kind goes through its Go type, as the real field
// manager's converter takes it (FromUnstructured: unknown fields fall away,
// YAML's float64 integers become ints). A custom resource is round-tripped
// through JSON, which also gives its integers back their int64 form.
func typedApplyResult(info api.KindInfo, merged *unstructured.Unstructured) (*unstructured.Unstructured, error) {
	if !info.Builtin {
		raw, err := json.Marshal(merged.Object)
		if err != nil {
			return nil, apierrors.NewInternalError(err)
		}
		return decodePatched(info, raw)
	}
	obj := api.NewTyped(info.Kind)
	if err := runtime.DefaultUnstructuredConverter.FromUnstructured(merged.Object, obj); err != nil {
		// The real field manager fails the same conversion with a plain
		// error: 500.
		return nil, unknownServerError(fmt.Errorf("failed to convert new object (%s) to proper version: %v", info.GVK(), err))
	}
	next, err := typedToUnstructured(info, obj)
	if err != nil {
		return nil, apierrors.NewInternalError(err)
	}
	return next, nil
}

// write completes an update or a non-apply patch: the field manager
// records who changed what, then the subresource decides which part of
// the body counts, then finish. The order is the real one: the field
// manager is a transformer of the request's object (UpdatedObjectInfo),
// the strategy's PrepareForUpdate runs after it, so the field manager
// sees what the body carries where the endpoint ignores it (a custom
// resource's status sent to the main resource), and a value there it
// cannot type leaves managedFields as they were (UpdateNoErrors).
func (s *Server) write(info api.KindInfo, live, next *unstructured.Unstructured, sub, manager string) (*unstructured.Unstructured, error) {
	base := live.DeepCopy()
	marks := markManagedTimes(base, next)
	obj := updateManaged(s.schema.manager(info.Kind, sub), base, next, managerName(manager))
	marks.restore(obj, s.now)
	obj = s.subresourceView(info, live, obj, sub)
	return s.finish(info, live, obj, sub)
}

// finish is common to every write of an existing object: server-owned
// metadata, generation, validation, the no-op rule, the store.
func (s *Server) finish(info api.KindInfo, live, next *unstructured.Unstructured, sub string) (*unstructured.Unstructured, error) {
	if info.StatusSubresource && sub == "" {
		if st, ok := live.Object["status"]; ok {
			next.Object["status"] = runtimeDeepCopy(st)
		} else {
			delete(next.Object, "status")
		}
	}
	keepServerMetadata(live, next)
	// Only the main resource's strategy counts generations: a /status
	// write that changes a Deployment's annotations leaves it (subresource.go).
	if sub == "" && tracksGeneration(info) && (specChanged(live, next) || (info.Kind == api.Deployment && annotationsChanged(live, next))) {
		next.SetGeneration(live.GetGeneration() + 1)
	}
	// The store has checked the RV the write carried; an unconditional
	// write is given the live one before validation (which would refuse
	// an update without one).
	next.SetResourceVersion(live.GetResourceVersion())
	if errs := validate(info, live, next, sub); len(errs) > 0 {
		return nil, invalid(info, next.GetName(), errs)
	}
	if sameObject(live, next) {
		// Nothing changed: 200 with the live object, no new RV, no event.
		return live, nil
	}
	return s.store(info, live, next), nil
}

// keepServerMetadata: a client cannot set what the server owns
// (rest.BeforeUpdate). A uid the write left out is the live one; a uid it
// carries stays, for validation to refuse if it is another (a PUT never
// gets there: its uid is a precondition, see checkUIDPrecondition).
func keepServerMetadata(live, next *unstructured.Unstructured) {
	if next.GetUID() == "" {
		next.SetUID(live.GetUID())
	}
	next.SetCreationTimestamp(live.GetCreationTimestamp())
	next.SetDeletionTimestamp(live.GetDeletionTimestamp())
	next.SetDeletionGracePeriodSeconds(live.GetDeletionGracePeriodSeconds())
	next.SetGeneration(live.GetGeneration())
	next.SetAPIVersion(live.GetAPIVersion())
	next.SetKind(live.GetKind())
	next.SetNamespace(live.GetNamespace())
}

func tracksGeneration(info api.KindInfo) bool { return info.Kind != api.ConfigMap }

// specChanged: generation counts changes to anything but metadata and status.
func specChanged(live, next *unstructured.Unstructured) bool {
	return !sameFields(live.Object, next.Object, func(k string) bool { return k != "metadata" && k != "status" })
}

// annotationsChanged: a Deployment's generation also counts annotation
// changes, "because annotations are copied from deployments to their
// replica sets" (deploymentStrategy.PrepareForUpdate; Semantic equality, so
// no annotations and an empty map are the same).
func annotationsChanged(live, next *unstructured.Unstructured) bool {
	a, b := live.GetAnnotations(), next.GetAnnotations()
	if len(a) != len(b) {
		return true
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return true
		}
	}
	return false
}

// sameObject is the store's no-op test: would writing next change what is
// stored? The real store compares the encoded bytes. Stored objects hold
// only JSON values, so reflect.DeepEqual is the closest match (unlike
// apimachinery's Semantic equality it keeps [] and null apart, as bytes
// do) and much cheaper. The metadata, which carries the bulky
// managedFields, is compared last: a real change usually shows in the rest.
func sameObject(live, next *unstructured.Unstructured) bool {
	if len(live.Object) != len(next.Object) {
		return false
	}
	return sameFields(live.Object, next.Object, func(k string) bool { return k != "metadata" }) &&
		reflect.DeepEqual(live.Object["metadata"], next.Object["metadata"])
}

// sameFields compares the top-level fields of a and b that keep selects.
func sameFields(a, b map[string]any, keep func(string) bool) bool {
	for k, va := range a {
		if !keep(k) {
			continue
		}
		vb, ok := b[k]
		if !ok || !reflect.DeepEqual(va, vb) {
			return false
		}
	}
	for k := range b {
		if _, ok := a[k]; keep(k) && !ok {
			return false
		}
	}
	return true
}

// store advances the cluster-wide revision and records the watch event. An
// object being deleted whose last finalizer just went is removed instead.
func (s *Server) store(info api.KindInfo, live, next *unstructured.Unstructured) *unstructured.Unstructured {
	ref := api.RefOf(next)
	ref.Kind = info.Kind
	if live != nil && live.GetDeletionTimestamp() != nil && len(next.GetFinalizers()) == 0 {
		// The registry's ShouldDeleteDuringUpdate/deleteWithoutFinalizers:
		// the update is never written, the stored object is deleted. The
		// DELETED event carries what was stored (still listing its
		// finalizers), and the client gets back the object of its request,
		// at the resourceVersion it was read at.
		s.remove(ref, live)
		next.SetResourceVersion(live.GetResourceVersion())
		return next
	}
	s.rv++
	next.SetResourceVersion(strconv.FormatInt(s.rv, 10))
	if live == nil {
		s.uids++
		next.SetUID(uidFor(s.uids))
		next.SetCreationTimestamp(metav1.NewTime(s.now))
		if tracksGeneration(info) {
			next.SetGeneration(1)
		}
		s.objects[ref] = next
		s.events = append(s.events, Event{Type: Added, RV: s.rv, Object: next})
		return next
	}
	s.objects[ref] = next
	s.events = append(s.events, Event{Type: Modified, RV: s.rv, Object: next})
	return next
}

// remove deletes the stored object: a write of its own (etcd's delete is a
// revision), whose DELETED event carries the object's last stored state at
// that new revision, as etcd's watch reports a delete. It returns that state.
func (s *Server) remove(ref api.Ref, live *unstructured.Unstructured) *unstructured.Unstructured {
	s.rv++
	last := live.DeepCopy()
	last.SetResourceVersion(strconv.FormatInt(s.rv, 10))
	delete(s.objects, ref)
	s.events = append(s.events, Event{Type: Deleted, RV: s.rv, Object: last})
	return last
}

// uidFor makes deterministic UIDs shaped like real ones.
func uidFor(n int) typesUID {
	return typesUID(fmt.Sprintf("00000000-0000-4000-8000-%012d", n))
}
