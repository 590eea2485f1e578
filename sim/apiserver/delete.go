package apiserver

import (
	"encoding/json"
	"fmt"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	metav1validation "k8s.io/apimachinery/pkg/apis/meta/v1/validation"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/sets"

	"github.com/conflictlab/conflictlab/sim/api"
)

// delete removes an object, or marks it for deletion while finalizers
// remain. The request's body, when there is one, is the DeleteOptions a
// client sends (client-go puts them in the body of the DELETE); their
// preconditions are checked the way the registry checks them.
func (s *Server) delete(info api.KindInfo, req api.Request) (*unstructured.Unstructured, error) {
	ref := req.Ref
	opts, err := deleteOptions(req.Body)
	if err != nil {
		return nil, err
	}
	// The store reads the object first: a missing one is a 404 whatever
	// the options say.
	live, ok := s.objects[ref]
	if !ok {
		return nil, notFound(info, ref.Name)
	}
	if err := beforeDelete(info, live, opts); err != nil {
		return nil, err
	}
	finalizers, changed := gcFinalizers(live.GetFinalizers(), opts)
	if len(finalizers) == 0 {
		// None of the served kinds deletes gracefully: the object goes at
		// once, in its last state; it never gets a deletionTimestamp.
		// (A real server answers a DELETE of these kinds with a Status
		// naming the uid; the simulator answers with the deleted object at
		// its deletion RV, which is what the DELETED watch event carries
		// and what live mode reports too.)
		return s.remove(ref, live), nil
	}
	next := live.DeepCopy()
	if changed {
		next.SetFinalizers(finalizers)
	}
	markAsDeleting(next, s.now)
	if sameObject(live, next) {
		// A repeated DELETE of an object already being deleted changes
		// nothing, and a write that changes nothing is not written.
		return live, nil
	}
	return s.store(info, live, next), nil
}

// deleteOptions decodes a DELETE's body ("" is no options) as the real
// handler does: a body that is not DeleteOptions is a 400.
func deleteOptions(body []byte) (*metav1.DeleteOptions, error) {
	opts := &metav1.DeleteOptions{}
	if len(body) == 0 {
		return opts, nil
	}
	if err := json.Unmarshal(body, opts); err != nil {
		return nil, apierrors.NewBadRequest(fmt.Sprintf("error decoding DeleteOptions: %v", err))
	}
	return opts, nil
}

// beforeDelete is rest.BeforeDelete's part that can refuse a delete: the
// options must be valid, then the preconditions must hold — the uid first
// (another uid means the name was deleted and taken again), then the
// resourceVersion. Its Conflict names the kind, not the resource
// ("Operation cannot be fulfilled on ConfigMap …"), as the real one does:
// it builds its GroupResource from the object's group and kind.
func beforeDelete(info api.KindInfo, live *unstructured.Unstructured, opts *metav1.DeleteOptions) error {
	if errs := metav1validation.ValidateDeleteOptions(opts); len(errs) > 0 {
		return apierrors.NewInvalid(schema.GroupKind{Group: metav1.GroupName, Kind: "DeleteOptions"}, "", errs)
	}
	p := opts.Preconditions
	if p == nil {
		return nil
	}
	gr := schema.GroupResource{Group: info.Resource.Group, Resource: string(info.Kind)}
	if p.UID != nil && *p.UID != live.GetUID() {
		return apierrors.NewConflict(gr, live.GetName(), fmt.Errorf(
			"the UID in the precondition (%s) does not match the UID in record (%s). The object might have been deleted and then recreated",
			*p.UID, live.GetUID()))
	}
	if p.ResourceVersion != nil && *p.ResourceVersion != live.GetResourceVersion() {
		return apierrors.NewConflict(gr, live.GetName(), fmt.Errorf(
			"the ResourceVersion in the precondition (%s) does not match the ResourceVersion in record (%s). The object might have been modified",
			*p.ResourceVersion, live.GetResourceVersion()))
	}
	return nil
}

// gcFinalizers is the registry's deletionFinalizersForGarbageCollection
// for the served kinds (none defaults to orphaning): a DELETE's
// propagationPolicy (or the older orphanDependents) adds the garbage
// collector's own finalizer — foregroundDeletion (delete the dependents
// first) or orphan (leave them) — and removes the other; without either,
// the finalizers the object carries decide. The garbage collector, which
// runs in kube-controller-manager, removes them; nothing in a race does,
// so such an object stays, being deleted, as it does on an envtest server.
func gcFinalizers(have []string, opts *metav1.DeleteOptions) ([]string, bool) {
	orphan, foreground := false, false
	//lint:ignore SA1019 the registry still honours orphanDependents
	switch od := opts.OrphanDependents; {
	case od != nil:
		orphan = *od
	case opts.PropagationPolicy != nil:
		orphan = *opts.PropagationPolicy == metav1.DeletePropagationOrphan
		foreground = *opts.PropagationPolicy == metav1.DeletePropagationForeground
	default:
		for _, f := range have {
			orphan = orphan || f == metav1.FinalizerOrphanDependents
			foreground = foreground || f == metav1.FinalizerDeleteDependents
		}
	}
	var out []string
	for _, f := range have {
		if f != metav1.FinalizerOrphanDependents && f != metav1.FinalizerDeleteDependents {
			out = append(out, f)
		}
	}
	if orphan {
		out = append(out, metav1.FinalizerOrphanDependents)
	}
	if foreground {
		out = append(out, metav1.FinalizerDeleteDependents)
	}
	if sets.New(have...).Equal(sets.New(out...)) {
		return have, false
	}
	return out, true
}

// markAsDeleting is the registry's (generic/registry/store.go): the first
// DELETE of an object with finalizers bumps its generation (if it has one),
// sets deletionTimestamp to now unless an earlier one is set, and the grace
// period to 0.
func markAsDeleting(u *unstructured.Unstructured, now time.Time) {
	if u.GetDeletionTimestamp() == nil && u.GetGeneration() > 0 {
		u.SetGeneration(u.GetGeneration() + 1)
	}
	if ts := u.GetDeletionTimestamp(); ts == nil || ts.Time.After(now) {
		t := metav1.NewTime(now)
		u.SetDeletionTimestamp(&t)
	}
	var zero int64
	u.SetDeletionGracePeriodSeconds(&zero)
}
