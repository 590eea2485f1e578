package apiserver

import (
	"encoding/json"
	"fmt"
	"strconv"

	jsonpatch "github.com/evanphx/json-patch/v5"
	apiequality "k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/util/strategicpatch"
	"sigs.k8s.io/yaml"

	"github.com/conflictlab/conflictlab/sim/api"
	"github.com/conflictlab/conflictlab/sim/apiserver/internal/handlers"
)

// update is a PUT to the object or its /status.
func (s *Server) update(info api.KindInfo, req api.Request) (*unstructured.Unstructured, error) {
	if err := checkSubresource(info, req.Subresource); err != nil {
		return nil, err
	}
	next, err := s.decode(info, req.Body)
	if err != nil {
		return nil, err
	}
	if next.GetName() != req.Ref.Name {
		return nil, nameMismatch(next.GetName(), req.Ref.Name)
	}
	live, ok := s.objects[req.Ref]
	if !ok {
		// An update never creates a ConfigMap, a Deployment or a Widget.
		return nil, notFound(info, req.Ref.Name)
	}
	if err := checkRV(info, live, next.GetResourceVersion(), true); err != nil {
		return nil, err
	}
	return s.write(info, live, next, req.Subresource, req.FieldManager)
}

// checkRV is the store's optimistic-concurrency precondition. An empty RV
// makes the write unconditional where the kind allows it (built-in kinds
// do; custom resources reject it on update).
func checkRV(info api.KindInfo, live *unstructured.Unstructured, sent string, isUpdate bool) error {
	if sent == "" {
		if isUpdate && !info.Builtin {
			return fieldErrRVRequired(info, live.GetName())
		}
		return nil
	}
	n, err := strconv.ParseUint(sent, 10, 64)
	if err != nil {
		return unknownServerError(err)
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
	return apierrors.NewNotFound(info.Resource, sub)
}

// patch applies a patch of any of the four kinds to the live object.
func (s *Server) patch(info api.KindInfo, req api.Request) (*unstructured.Unstructured, bool, error) {
	if err := checkSubresource(info, req.Subresource); err != nil {
		return nil, false, err
	}
	if req.PatchType == api.ApplyPatch {
		return s.apply(info, req)
	}
	live, ok := s.objects[req.Ref]
	if !ok {
		return nil, false, notFound(info, req.Ref.Name)
	}
	liveJSON, err := json.Marshal(live.Object)
	if err != nil {
		return nil, false, apierrors.NewInternalError(err)
	}
	var patched []byte
	switch req.PatchType {
	case api.JSONPatch:
		if err := handlers.CheckJSONPatchShape(req.Body); err != nil {
			return nil, false, apierrors.NewBadRequest(fmt.Sprintf("error decoding patch: %v", err))
		}
		p, err := jsonpatch.DecodePatch(req.Body)
		if err != nil {
			return nil, false, apierrors.NewBadRequest(err.Error())
		}
		patched, err = p.Apply(liveJSON)
		if err != nil {
			return nil, false, patchRejected(err)
		}
	case api.MergePatch:
		patched, err = jsonpatch.MergePatch(liveJSON, req.Body)
		if err != nil {
			return nil, false, apierrors.NewBadRequest(err.Error())
		}
	case api.StrategicPatch:
		if !info.Builtin {
			return nil, false, unsupportedPatch()
		}
		patched, err = strategicpatch.StrategicMergePatch(liveJSON, req.Body, typedFor(info.Kind))
		if err != nil {
			return nil, false, apierrors.NewBadRequest(err.Error())
		}
	default:
		return nil, false, apierrors.NewGenericServerResponse(415, "", info.Resource, "", "unsupported patch type "+string(req.PatchType), 0, false)
	}
	next, err := s.decode(info, patched)
	if err != nil {
		return nil, false, err
	}
	if next.GetName() != req.Ref.Name {
		return nil, false, nameMismatch(next.GetName(), req.Ref.Name)
	}
	// A patch that carries a resourceVersion leaves it in the patched object,
	// where the store's precondition sees it; one that carries none keeps
	// the live RV and so always passes.
	if err := checkRV(info, live, next.GetResourceVersion(), false); err != nil {
		return nil, false, err
	}
	obj, err := s.write(info, live, next, req.Subresource, req.FieldManager)
	return obj, false, err
}

// apply is server-side apply through the real field manager.
func (s *Server) apply(info api.KindInfo, req api.Request) (*unstructured.Unstructured, bool, error) {
	if req.FieldManager == "" {
		return nil, false, fieldManagerRequired()
	}
	jsonBody, err := yaml.YAMLToJSON(req.Body)
	if err != nil {
		return nil, false, apierrors.NewBadRequest(fmt.Sprintf("error decoding YAML: %v", err))
	}
	applied := &unstructured.Unstructured{}
	if err := applied.UnmarshalJSON(jsonBody); err != nil {
		return nil, false, apierrors.NewBadRequest(err.Error())
	}
	if applied.GetName() != req.Ref.Name {
		return nil, false, nameMismatch(applied.GetName(), req.Ref.Name)
	}
	live, exists := s.objects[req.Ref]
	base := live
	if !exists {
		base = &unstructured.Unstructured{Object: map[string]interface{}{}}
		base.SetGroupVersionKind(info.GVK())
		base.SetName(req.Ref.Name)
		base.SetNamespace(req.Ref.Namespace)
	}
	fm := s.schema.manager(info.Kind, req.Subresource)
	out, err := fm.Apply(base.DeepCopy(), applied, req.FieldManager, req.Force)
	if err != nil {
		if apierrors.IsConflict(err) {
			return nil, false, err
		}
		return nil, false, apierrors.NewBadRequest(err.Error())
	}
	merged := out.(*unstructured.Unstructured)
	// Round-trip through the typed decoder, as the real patcher does.
	raw, err := json.Marshal(merged.Object)
	if err != nil {
		return nil, false, apierrors.NewInternalError(err)
	}
	next, err := s.decode(info, raw)
	if err != nil {
		return nil, false, err
	}
	if !exists {
		if info.StatusSubresource {
			unstructured.RemoveNestedField(next.Object, "status")
		}
		if errs := validate(info, nil, next); len(errs) > 0 {
			return nil, false, invalid(info, next.GetName(), errs)
		}
		stampManagedFields(nil, next, s.now)
		return s.store(info, nil, next), true, nil
	}
	if err := checkRV(info, live, next.GetResourceVersion(), false); err != nil {
		return nil, false, err
	}
	obj, err := s.finish(info, live, next, req.Subresource)
	return obj, false, err
}

// write completes an update or a non-apply patch: the subresource decides
// which part of the body counts, then the field manager records who changed
// what, then finish.
func (s *Server) write(info api.KindInfo, live, next *unstructured.Unstructured, sub, manager string) (*unstructured.Unstructured, error) {
	next = s.subresourceView(info, live, next, sub)
	out, err := s.schema.manager(info.Kind, sub).Update(live.DeepCopy(), next, managerName(manager))
	if err != nil {
		return nil, apierrors.NewInternalError(err)
	}
	return s.finish(info, live, out.(*unstructured.Unstructured), sub)
}

// subresourceView keeps only the part of the body the endpoint owns: a write
// to the main resource keeps the live status; a write to /status keeps
// everything but the status (and the managed fields it carries).
func (s *Server) subresourceView(info api.KindInfo, live, next *unstructured.Unstructured, sub string) *unstructured.Unstructured {
	if !info.StatusSubresource {
		return next
	}
	if sub == "status" {
		out := live.DeepCopy()
		if st, ok := next.Object["status"]; ok {
			out.Object["status"] = st
		} else {
			delete(out.Object, "status")
		}
		out.SetManagedFields(next.GetManagedFields())
		out.SetResourceVersion(next.GetResourceVersion())
		return out
	}
	if st, ok := live.Object["status"]; ok {
		next.Object["status"] = runtimeDeepCopy(st)
	} else {
		delete(next.Object, "status")
	}
	return next
}

// finish is common to every write of an existing object: server-owned
// metadata, generation, validation, timestamps, the no-op rule, the store.
func (s *Server) finish(info api.KindInfo, live, next *unstructured.Unstructured, sub string) (*unstructured.Unstructured, error) {
	if info.StatusSubresource && sub == "" {
		if st, ok := live.Object["status"]; ok {
			next.Object["status"] = runtimeDeepCopy(st)
		} else {
			delete(next.Object, "status")
		}
	}
	keepServerMetadata(live, next)
	if tracksGeneration(info) && specChanged(live, next) {
		next.SetGeneration(live.GetGeneration() + 1)
	}
	if errs := validate(info, live, next); len(errs) > 0 {
		return nil, invalid(info, next.GetName(), errs)
	}
	stampManagedFields(live, next, s.now)
	next.SetResourceVersion(live.GetResourceVersion())
	if apiequality.Semantic.DeepEqual(live.Object, next.Object) {
		// Nothing changed: 200 with the live object, no new RV, no event.
		return live, nil
	}
	return s.store(info, live, next), nil
}

// keepServerMetadata: a client cannot set what the server owns.
func keepServerMetadata(live, next *unstructured.Unstructured) {
	next.SetUID(live.GetUID())
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
	strip := func(u *unstructured.Unstructured) map[string]interface{} {
		m := map[string]interface{}{}
		for k, v := range u.Object {
			if k != "metadata" && k != "status" {
				m[k] = v
			}
		}
		return m
	}
	return !apiequality.Semantic.DeepEqual(strip(live), strip(next))
}

// store advances the cluster-wide revision and records the watch event. An
// object being deleted whose last finalizer just went is removed instead.
func (s *Server) store(info api.KindInfo, live, next *unstructured.Unstructured) *unstructured.Unstructured {
	s.rv++
	rv := strconv.FormatInt(s.rv, 10)
	next.SetResourceVersion(rv)
	ref := api.RefOf(next)
	ref.Kind = info.Kind
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
	if next.GetDeletionTimestamp() != nil && len(next.GetFinalizers()) == 0 {
		delete(s.objects, ref)
		s.events = append(s.events, Event{Type: Deleted, RV: s.rv, Object: next})
		return next
	}
	s.objects[ref] = next
	s.events = append(s.events, Event{Type: Modified, RV: s.rv, Object: next})
	return next
}

// uidFor makes deterministic UIDs shaped like real ones.
func uidFor(n int) typesUID {
	return typesUID(fmt.Sprintf("00000000-0000-4000-8000-%012d", n))
}

// delete removes an object, or marks it for deletion while finalizers remain.
func (s *Server) delete(info api.KindInfo, ref api.Ref) (*unstructured.Unstructured, error) {
	live, ok := s.objects[ref]
	if !ok {
		return nil, notFound(info, ref.Name)
	}
	next := live.DeepCopy()
	if len(live.GetFinalizers()) > 0 {
		if live.GetDeletionTimestamp() != nil {
			return live, nil
		}
		now := metav1.NewTime(s.now)
		next.SetDeletionTimestamp(&now)
		var zero int64
		next.SetDeletionGracePeriodSeconds(&zero)
		return s.store(info, live, next), nil
	}
	now := metav1.NewTime(s.now)
	next.SetDeletionTimestamp(&now)
	return s.store(info, live, next), nil
}
