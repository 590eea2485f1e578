package code

import (
	"context"
	"encoding/json"
	"slices"
	"strconv"

	jsonpatch "github.com/evanphx/json-patch/v5"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/strategicpatch"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/util/retry"
)

// snippet: add-finalizer-update
// AddFinalizerUpdate adds the finalizer to the cached copy and updates the
// whole object: correct, but any change since the cache was filled makes
// it a 409, and there is no retry.
func AddFinalizerUpdate(ctx context.Context, c kubernetes.Interface, ns, name, finalizer string, lister ConfigMapLister) error {
	cm, err := lister.Get(name)
	if err != nil {
		return err
	}
	cm = cm.DeepCopy()
	if slices.Contains(cm.Finalizers, finalizer) {
		return nil
	}
	cm.Finalizers = append(cm.Finalizers, finalizer)
	_, err = c.CoreV1().ConfigMaps(ns).Update(ctx, cm, metav1.UpdateOptions{})
	return err
}

// end snippet

// removed returns a copy of cm without the finalizer.
func removed(cm *corev1.ConfigMap, finalizer string) *corev1.ConfigMap {
	out := cm.DeepCopy()
	out.Finalizers = slices.DeleteFunc(out.Finalizers, func(f string) bool { return f == finalizer })
	return out
}

// snippet: remove-finalizer-merge-patch
// RemoveFinalizerMergeFrom diffs the cached copy against the copy without
// its finalizer: the merge patch carries the rest of the list as the cache
// had it — putting back a finalizer someone else removed meanwhile.
func RemoveFinalizerMergeFrom(ctx context.Context, c kubernetes.Interface, ns, name, finalizer string, lister ConfigMapLister) error {
	orig, err := lister.Get(name)
	if err != nil {
		return err
	}
	before, err := json.Marshal(orig)
	if err != nil {
		return err
	}
	after, err := json.Marshal(removed(orig, finalizer))
	if err != nil {
		return err
	}
	patch, err := jsonpatch.CreateMergePatch(before, after) // DEFECT: {"metadata":{"finalizers":[…stale rest…]}}
	if err != nil {
		return err
	}
	_, err = c.CoreV1().ConfigMaps(ns).Patch(ctx, name, types.MergePatchType, patch, metav1.PatchOptions{})
	return err
}

// end snippet

// snippet: remove-finalizer-by-index
// RemoveFinalizerAt removes the entry at the index it had in the cached
// copy. If someone removed an earlier entry meanwhile, the index now points
// at somebody else's finalizer.
func RemoveFinalizerAt(ctx context.Context, c kubernetes.Interface, ns, name, finalizer string, lister ConfigMapLister) error {
	cm, err := lister.Get(name)
	if err != nil {
		return err
	}
	i := slices.Index(cm.Finalizers, finalizer)
	if i < 0 {
		return nil
	}
	ops := []map[string]any{{"op": "remove", "path": "/metadata/finalizers/" + strconv.Itoa(i)}} // DEFECT: no test
	patch, err := json.Marshal(ops)
	if err != nil {
		return err
	}
	_, err = c.CoreV1().ConfigMaps(ns).Patch(ctx, name, types.JSONPatchType, patch, metav1.PatchOptions{})
	return err
}

// end snippet

// snippet: remove-finalizer-tested
// strategy: write=json-patch test=values read=live retry=test-failed
// RemoveFinalizerTested tests that the index still holds its finalizer
// before removing it. A failed test is 422: the loop reads again and
// recomputes the index (testFailed retries a causeless 422 — which a
// broken patch gets too — at most five times, then returns it).
func RemoveFinalizerTested(ctx context.Context, c kubernetes.Interface, ns, name, finalizer string) error {
	return retry.OnError(retry.DefaultRetry, testFailed, func() error {
		cm, err := c.CoreV1().ConfigMaps(ns).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		i := slices.Index(cm.Finalizers, finalizer)
		if i < 0 {
			return nil
		}
		at := "/metadata/finalizers/" + strconv.Itoa(i)
		ops := []map[string]any{
			{"op": "test", "path": at, "value": finalizer},
			{"op": "remove", "path": at},
		}
		patch, err := json.Marshal(ops)
		if err != nil {
			return err
		}
		_, err = c.CoreV1().ConfigMaps(ns).Patch(ctx, name, types.JSONPatchType, patch, metav1.PatchOptions{})
		return err
	})
}

// end snippet

// snippet: remove-finalizer-strategic
// RemoveFinalizerStrategic diffs into a strategic merge patch. For a merge
// list the diff names only what goes: {"$deleteFromPrimitiveList/finalizers":
// ["example.com/you"]}. The server deletes that element from the list it
// holds, whatever else happened to the list.
func RemoveFinalizerStrategic(ctx context.Context, c kubernetes.Interface, ns, name, finalizer string, lister ConfigMapLister) error {
	orig, err := lister.Get(name)
	if err != nil {
		return err
	}
	before, err := json.Marshal(orig)
	if err != nil {
		return err
	}
	after, err := json.Marshal(removed(orig, finalizer))
	if err != nil {
		return err
	}
	patch, err := strategicpatch.CreateTwoWayMergePatch(before, after, corev1.ConfigMap{})
	if err != nil {
		return err
	}
	_, err = c.CoreV1().ConfigMaps(ns).Patch(ctx, name, types.StrategicMergePatchType, patch, metav1.PatchOptions{})
	return err
}

// end snippet
