package code

import (
	"context"
	"encoding/json"
	"slices"
	"strconv"

	jsonpatch "github.com/evanphx/json-patch/v5"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/util/retry"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
)

// snippet: delete-widget
// strategy: write=delete read=live retry=none
// DeleteWidget deletes w1. With a finalizer on it, the answer is 200 and
// the object is still there: only metadata.deletionTimestamp is set, and
// it goes when the last finalizer is removed.
func DeleteWidget(ctx context.Context, dc dynamic.Interface, ns, name string) error {
	w, err := dc.Resource(Widgets).Namespace(ns).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return ignoreNotFound(err)
	}
	if w.GetDeletionTimestamp() != nil {
		return nil // already being deleted: nothing to ask for
	}
	return ignoreNotFound(dc.Resource(Widgets).Namespace(ns).Delete(ctx, name, metav1.DeleteOptions{}))
}

// end snippet

// ignoreNotFound treats NotFound as done, as client.IgnoreNotFound does.
func ignoreNotFound(err error) error {
	if apierrors.IsNotFound(err) {
		return nil
	}
	return err
}

// snippet: add-finalizer-widget-merge
// strategy: write=merge-patch read=live withRV=false
// AddBackupFinalizer adds its finalizer to a Widget with a JSON merge
// patch of the list. On an object being deleted the server refuses any
// new finalizer: 422, whatever the patch type.
func AddBackupFinalizer(ctx context.Context, dc dynamic.Interface, ns, name string) error {
	w, err := dc.Resource(Widgets).Namespace(ns).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return err
	}
	// Check first: if w.GetDeletionTimestamp() != nil, do not add — clean up.
	if !controllerutil.AddFinalizer(w, "example.com/backup") {
		return nil
	}
	patch, err := json.Marshal(map[string]any{"metadata": map[string]any{"finalizers": w.GetFinalizers()}})
	if err != nil {
		return err
	}
	_, err = dc.Resource(Widgets).Namespace(ns).Patch(ctx, name, types.MergePatchType, patch, metav1.PatchOptions{})
	return err // 422: no new finalizers can be added if the object is being deleted
}

// end snippet

// snippet: remove-finalizer-widget-tested
// strategy: write=json-patch test=values read=live retry=test-failed
// RemoveWidgetFinalizer removes its entry with a JSON patch that first
// tests the index still holds it: only that entry goes, whatever else is
// in the list, and a moved entry is a 422 to re-read and try again. The
// last entry goes with the list: a test that the list is just ours, then
// a remove of the list.
func RemoveWidgetFinalizer(ctx context.Context, dc dynamic.Interface, ns, name, finalizer string) error {
	return retry.OnError(retry.DefaultRetry, testFailed, func() error {
		w, err := dc.Resource(Widgets).Namespace(ns).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return ignoreNotFound(err)
		}
		i := slices.Index(w.GetFinalizers(), finalizer)
		if i < 0 {
			return nil
		}
		at, was := "/metadata/finalizers/"+strconv.Itoa(i), any(finalizer)
		if len(w.GetFinalizers()) == 1 {
			at, was = "/metadata/finalizers", []string{finalizer}
		}
		patch, err := json.Marshal([]map[string]any{
			{"op": "test", "path": at, "value": was},
			{"op": "remove", "path": at},
		})
		if err != nil {
			return err
		}
		_, err = dc.Resource(Widgets).Namespace(ns).Patch(ctx, name, types.JSONPatchType, patch, metav1.PatchOptions{})
		return ignoreNotFound(err) // the last finalizer of an object being deleted: it is gone
	})
}

// end snippet

// snippet: remove-finalizer-widget-merge
// strategy: write=merge-patch read=lister withRV=false
// ReleaseWidgetMergeFrom diffs the cached copy against the copy without
// its finalizer, as client.MergeFrom does. A JSON merge patch replaces
// the whole list: a finalizer added since the cache was filled is erased.
func ReleaseWidgetMergeFrom(ctx context.Context, dc dynamic.Interface, ns, name string, lister WidgetLister) error {
	orig, err := lister.Get(name)
	if err != nil {
		return ignoreNotFound(err)
	}
	changed := orig.DeepCopy()
	controllerutil.RemoveFinalizer(changed, "example.com/you")
	before, err := json.Marshal(orig)
	if err != nil {
		return err
	}
	after, err := json.Marshal(changed)
	if err != nil {
		return err
	}
	patch, err := jsonpatch.CreateMergePatch(before, after) // DEFECT: the list as the cache had it, minus ours
	if err != nil {
		return err
	}
	_, err = dc.Resource(Widgets).Namespace(ns).Patch(ctx, name, types.MergePatchType, patch, metav1.PatchOptions{})
	return err
}

// end snippet

// snippet: remove-finalizer-widget-strategic
// strategy: write=strategic-patch
// ReleaseWidgetStrategic would name just the element to delete
// ($deleteFromPrimitiveList) — but a custom resource has no Go type to
// take merge keys from, and the server answers 415.
func ReleaseWidgetStrategic(ctx context.Context, dc dynamic.Interface, ns, name string) error {
	patch := []byte(`{"metadata":{"$deleteFromPrimitiveList/finalizers":["example.com/you"]}}`)
	_, err := dc.Resource(Widgets).Namespace(ns).Patch(ctx, name, types.StrategicMergePatchType, patch, metav1.PatchOptions{})
	return err // 415 Unsupported Media Type on a custom resource
}

// end snippet

// snippet: remove-finalizer-widget-update
// strategy: write=update read=live retry=default
// ReleaseWidgetUpdate removes its finalizer from a fresh copy and sends
// the whole object with its resourceVersion: any change since the read,
// a finalizer added included, is a 409, and the loop reads again.
func ReleaseWidgetUpdate(ctx context.Context, dc dynamic.Interface, ns, name string) error {
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		w, err := dc.Resource(Widgets).Namespace(ns).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return ignoreNotFound(err)
		}
		if !controllerutil.RemoveFinalizer(w, "example.com/you") {
			return nil
		}
		_, err = dc.Resource(Widgets).Namespace(ns).Update(ctx, w, metav1.UpdateOptions{})
		return err
	})
}

// end snippet

// snippet: delete-foreground
// strategy: write=delete read=live retry=none
// DeleteForeground deletes w1 as kubectl delete --cascade=foreground
// does: the server adds the garbage collector's own finalizer,
// foregroundDeletion, and only marks the object — a deletionTimestamp, a
// new generation — until the collector has deleted its dependents and
// removed that finalizer. envtest runs no garbage collector: there the
// object stays, being deleted, for good.
func DeleteForeground(ctx context.Context, dc dynamic.Interface, ns, name string) error {
	policy := metav1.DeletePropagationForeground
	return ignoreNotFound(dc.Resource(Widgets).Namespace(ns).Delete(ctx, name, metav1.DeleteOptions{PropagationPolicy: &policy}))
}

// end snippet

// snippet: create-config
// strategy: write=create retry=none
// CreateConfig creates cm1 anew. While an older cm1 is being deleted —
// its DELETE answered, a finalizer still holding it — the name is
// taken: AlreadyExists, "object is being deleted". Return it; the
// requeue tries again once the old one is gone.
func CreateConfig(ctx context.Context, c kubernetes.Interface, ns string) error {
	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "cm1", Namespace: ns}, Data: map[string]string{"generation": "new"}}
	_, err := c.CoreV1().ConfigMaps(ns).Create(ctx, cm, metav1.CreateOptions{})
	return err
}

// end snippet

// snippet: delete-by-name
// strategy: write=delete read=lister retry=none
// DeleteStale deletes by name the ConfigMap its cache shows. A name
// says nothing about which object holds it now: if cm1 was deleted and
// created again, this deletes the new one.
func DeleteStale(ctx context.Context, c kubernetes.Interface, ns, name string, lister ConfigMapLister) error {
	if _, err := lister.Get(name); err != nil {
		return ignoreNotFound(err)
	}
	return ignoreNotFound(c.CoreV1().ConfigMaps(ns).Delete(ctx, name, metav1.DeleteOptions{})) // DEFECT: any cm1
}

// end snippet

// snippet: delete-with-preconditions
// strategy: write=delete read=lister retry=none
// DeleteExactly deletes only the object it decided on: the uid says
// "this very object, not one created again under its name", the
// resourceVersion "unchanged since I read it". A mismatch is 409.
func DeleteExactly(ctx context.Context, c kubernetes.Interface, ns, name string, lister ConfigMapLister, pinRV bool) error {
	cm, err := lister.Get(name)
	if err != nil {
		return ignoreNotFound(err)
	}
	pre := metav1.Preconditions{UID: &cm.UID}
	if pinRV {
		pre.ResourceVersion = &cm.ResourceVersion
	}
	err = c.CoreV1().ConfigMaps(ns).Delete(ctx, name, metav1.DeleteOptions{Preconditions: &pre})
	return ignoreNotFound(err) // 409: not the object we read — look again
}

// end snippet
