package code

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"
	corev1ac "k8s.io/client-go/applyconfigurations/core/v1"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/util/retry"

	jsonpatch "github.com/evanphx/json-patch/v5"
)

// snippet: counter-merge-patch
// strategy: write=merge-patch withRV=false read=lister retry=none
// CountEvent adds one to a counter it read from the cache and patches the
// result in. The patch says "count is now 5", not "add one": if someone
// else counted since the read, their increment is overwritten — with a 200.
func CountEvent(ctx context.Context, c kubernetes.Interface, ns, name, key string, lister ConfigMapLister) error {
	cm, err := lister.Get(name)
	if err != nil {
		return err
	}
	n, err := strconv.Atoi(cm.Data[key])
	if err != nil {
		return err
	}
	patch := fmt.Sprintf(`{"data":{%q:%q}}`, key, strconv.Itoa(n+1)) // DEFECT: no resourceVersion
	_, err = c.CoreV1().ConfigMaps(ns).Patch(ctx, name, types.MergePatchType, []byte(patch), metav1.PatchOptions{})
	return err
}

// end snippet

// snippet: counter-conditional
// strategy: write=update read=live retry=default
// Count reads the counter, adds one and writes it back with the
// resourceVersion it read. If anyone counted in between, the server says
// 409 and nothing is written; the retry reads the new value and adds one
// to that.
func Count(ctx context.Context, c kubernetes.Interface, ns, name, key string) error {
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		cm, err := c.CoreV1().ConfigMaps(ns).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		n, err := strconv.Atoi(cm.Data[key])
		if err != nil {
			return err
		}
		cm.Data[key] = strconv.Itoa(n + 1)
		_, err = c.CoreV1().ConfigMaps(ns).Update(ctx, cm, metav1.UpdateOptions{})
		return err
	})
}

// end snippet

// snippet: counter-json-patch-test
// strategy: write=json-patch test=values read=live retry=test-failed
// CountWithTest is the patch-shaped version: test that the counter still
// holds the value read, then replace it. A failed test is 422 Invalid, not
// 409, so RetryOnConflict would not retry it: this loop retries a 422
// without field causes. The server answers a patch that decodes but cannot
// be applied (an op on a path that is not there) with the same causeless
// 422, so that one is retried too — a body that does not decode is a 400 —
// and the bound (five calls) is what keeps such a bug from looping; the
// error is returned when it is hit.
func CountWithTest(ctx context.Context, c kubernetes.Interface, ns, name, key string) error {
	return retry.OnError(retry.DefaultRetry, testFailed, func() error {
		cm, err := c.CoreV1().ConfigMaps(ns).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		read := cm.Data[key]
		n, err := strconv.Atoi(read)
		if err != nil {
			return err
		}
		ops := []map[string]any{
			{"op": "test", "path": "/data/" + key, "value": read},
			{"op": "replace", "path": "/data/" + key, "value": strconv.Itoa(n + 1)},
		}
		patch, err := json.Marshal(ops)
		if err != nil {
			return err
		}
		_, err = c.CoreV1().ConfigMaps(ns).Patch(ctx, name, types.JSONPatchType, patch, metav1.PatchOptions{})
		return err
	})
}

// testFailed recognises the 422 a failed JSON patch test gets: Invalid,
// with no field causes (a validation error names the fields it rejects).
// It cannot tell a failed test from another op the server could not apply:
// both get this answer, so only a bounded loop may use it.
func testFailed(err error) bool {
	var st apierrors.APIStatus
	if !apierrors.IsInvalid(err) || !errors.As(err, &st) {
		return false
	}
	d := st.Status().Details
	return d == nil || len(d.Causes) == 0
}

// end snippet

// snippet: counter-json-patch-retry-on-conflict
// strategy: write=json-patch test=values read=live retry=default
// CountWithTestRetry tests the value it read before replacing it, and
// wraps it in RetryOnConflict. A failed test is answered 422 Invalid, and
// IsConflict is false for a 422: the loop returns at the first refusal.
func CountWithTestRetry(ctx context.Context, c kubernetes.Interface, ns, name, key string) error {
	return retry.RetryOnConflict(retry.DefaultRetry, func() error { // DEFECT: a failed test is not a conflict
		cm, err := c.CoreV1().ConfigMaps(ns).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		read := cm.Data[key]
		n, err := strconv.Atoi(read)
		if err != nil {
			return err
		}
		ops := []map[string]any{
			{"op": "test", "path": "/data/" + key, "value": read},
			{"op": "replace", "path": "/data/" + key, "value": strconv.Itoa(n + 1)},
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

// snippet: counter-update-requeue
// strategy: write=update read=lister retry=none
// CountReconcile reads the counter from the cache, adds one and updates
// with the resourceVersion of that copy. A 409 is returned: the workqueue
// brings the key back after its backoff, and the next reconcile reads the
// count again, from a cache that has heard of the other increment by
// then, and adds one to that.
func CountReconcile(ctx context.Context, c kubernetes.Interface, ns, name, key string, lister ConfigMapLister) error {
	cm, err := lister.Get(name)
	if err != nil {
		return err
	}
	cm = cm.DeepCopy()
	n, err := strconv.Atoi(cm.Data[key])
	if err != nil {
		return err
	}
	cm.Data[key] = strconv.Itoa(n + 1)
	_, err = c.CoreV1().ConfigMaps(ns).Update(ctx, cm, metav1.UpdateOptions{})
	return err // a 409 included: the queue retries, and the count is computed again
}

// end snippet

// snippet: counter-update-clear-rv
// strategy: write=update-clear-rv read=lister retry=none
// CountForce reads the counter from the cache, adds one, and updates with
// the resourceVersion cleared so that the write cannot be refused. Nothing
// then checks that the count it computed from is still the count.
func CountForce(ctx context.Context, c kubernetes.Interface, ns, name, key string, lister ConfigMapLister) error {
	cm, err := lister.Get(name)
	if err != nil {
		return err
	}
	cm = cm.DeepCopy()
	n, err := strconv.Atoi(cm.Data[key])
	if err != nil {
		return err
	}
	cm.Data[key] = strconv.Itoa(n + 1)
	cm.ResourceVersion = "" // DEFECT: a value computed from a read, written unconditionally
	_, err = c.CoreV1().ConfigMaps(ns).Update(ctx, cm, metav1.UpdateOptions{})
	return err
}

// end snippet

// snippet: counter-json-patch-once
// strategy: write=json-patch test=values read=lister retry=none
// CountWithTestOnce tests the value it read before replacing it, so a
// stale increment is refused (422) instead of written. But nothing retries
// the refusal: that increment is simply not counted.
func CountWithTestOnce(ctx context.Context, c kubernetes.Interface, ns, name, key string, lister ConfigMapLister) error {
	cm, err := lister.Get(name)
	if err != nil {
		return err
	}
	read := cm.Data[key]
	n, err := strconv.Atoi(read)
	if err != nil {
		return err
	}
	ops := []map[string]any{
		{"op": "test", "path": "/data/" + key, "value": read},
		{"op": "replace", "path": "/data/" + key, "value": strconv.Itoa(n + 1)},
	}
	patch, err := json.Marshal(ops)
	if err != nil {
		return err
	}
	_, err = c.CoreV1().ConfigMaps(ns).Patch(ctx, name, types.JSONPatchType, patch, metav1.PatchOptions{})
	return err // DEFECT: a 422 here is a lost count unless something retries it
}

// end snippet

// snippet: counter-apply
// CountApply declares the counter's next value with server-side apply,
// forcing ownership as controllers usually do. Apply checks who owns a
// field, not which version was read: two managers that read 4 both declare
// 5, the server takes it, and one increment is gone.
func CountApply(ctx context.Context, c kubernetes.Interface, ns, name, key, manager string, lister ConfigMapLister) error {
	cm, err := lister.Get(name)
	if err != nil {
		return err
	}
	n, err := strconv.Atoi(cm.Data[key])
	if err != nil {
		return err
	}
	cfg := corev1ac.ConfigMap(name, ns).WithData(map[string]string{key: strconv.Itoa(n + 1)}) // DEFECT: a value computed from a read
	_, err = c.CoreV1().ConfigMaps(ns).Apply(ctx, cfg, metav1.ApplyOptions{FieldManager: manager, Force: true})
	return err
}

// end snippet

// snippet: append-json-patch
// strategy: write=json-patch test=none read=lister retry=none
// AppendItemJSONPatch appends with a JSON patch "add" to the end of the
// list, "/spec/items/-": the patch names the new item and where it goes,
// not the list it was read with, so the server appends it to whatever
// list it holds.
func AppendItemJSONPatch(ctx context.Context, dc dynamic.Interface, ns, name, item string) error {
	patch, err := json.Marshal([]map[string]any{{"op": "add", "path": "/spec/items/-", "value": item}})
	if err != nil {
		return err
	}
	_, err = dc.Resource(Widgets).Namespace(ns).Patch(ctx, name, types.JSONPatchType, patch, metav1.PatchOptions{})
	return err
}

// end snippet

// snippet: append-merge-patch
// AppendItem appends to spec.items of the cached copy and sends the
// difference as a merge patch. A merge patch replaces a list: the patch
// holds the cached list plus one, and an item appended meanwhile is gone.
func AppendItem(ctx context.Context, dc dynamic.Interface, ns, name, item string, lister WidgetLister) error {
	orig, err := lister.Get(name)
	if err != nil {
		return err
	}
	mod := orig.DeepCopy()
	items, _, err := unstructured.NestedStringSlice(mod.Object, "spec", "items")
	if err != nil {
		return err
	}
	if err := unstructured.SetNestedStringSlice(mod.Object, append(items, item), "spec", "items"); err != nil {
		return err
	}
	before, err := json.Marshal(orig.Object)
	if err != nil {
		return err
	}
	after, err := json.Marshal(mod.Object)
	if err != nil {
		return err
	}
	patch, err := jsonpatch.CreateMergePatch(before, after) // DEFECT: the whole list, from a stale copy
	if err != nil {
		return err
	}
	_, err = dc.Resource(Widgets).Namespace(ns).Patch(ctx, name, types.MergePatchType, patch, metav1.PatchOptions{})
	return err
}

// end snippet
