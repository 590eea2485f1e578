package code

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	corev1ac "k8s.io/client-go/applyconfigurations/core/v1"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"
)

// The capstone's reconcilers that keep the precondition and let the
// workqueue handle its 409: they read from the cache, write with what
// they read, and return the error, so the requeued reconcile reads again
// — by then from a cache that has caught up — and decides again. (The
// race plays the requeue; the strategy line cannot say it.)

// snippet: apply-finalizer-with-rv
// strategy: write=apply withRV=true read=lister
// ApplyFinalizerWithRV declares its finalizer "to be safe" with the
// resourceVersion of its cached copy. The apply now fails whenever the
// cache is behind — a 409 that has nothing to do with the finalizer — and
// this code logs it and moves on.
func ApplyFinalizerWithRV(ctx context.Context, c kubernetes.Interface, ns, name string, lister ConfigMapLister) error {
	cm, err := lister.Get(name)
	if err != nil {
		return err
	}
	cfg := corev1ac.ConfigMap(name, ns).WithResourceVersion(cm.ResourceVersion).WithFinalizers("example.com/you")
	if _, err := c.CoreV1().ConfigMaps(ns).Apply(ctx, cfg, metav1.ApplyOptions{FieldManager: "you"}); err != nil {
		fmt.Println("finalizer:", err) // DEFECT: a stale cache is a 409, and it ends here
	}
	return nil
}

// end snippet

// snippet: counter-requeue
// strategy: write=update read=lister retry=none
// CountRestart adds one to the count its cache holds and writes it back
// with that copy's resourceVersion. If anyone counted in between, the 409
// is returned: the workqueue brings the key back, and the next reconcile
// adds one to the count as it is then.
func CountRestart(ctx context.Context, c kubernetes.Interface, ns, name string, lister ConfigMapLister) error {
	cm, err := lister.Get(name)
	if err != nil {
		return err
	}
	cm = cm.DeepCopy()
	n, err := strconv.Atoi(cm.Data["restarts"])
	if err != nil {
		return err
	}
	cm.Data["restarts"] = strconv.Itoa(n + 1)
	_, err = c.CoreV1().ConfigMaps(ns).Update(ctx, cm, metav1.UpdateOptions{})
	return err // a 409: counted again on the requeue
}

// end snippet

// snippet: set-condition-status-requeue
// strategy: write=update-status read=lister retry=none
// MarkReadyRequeue sets Ready on the cached copy and writes /status with
// its resourceVersion. A 409 means the list it sent was built from an old
// one; it is returned, and the requeued reconcile sets Ready on the list
// as it is then — the other controller's condition included.
func MarkReadyRequeue(ctx context.Context, dc dynamic.Interface, ns, name string, lister WidgetLister) error {
	w, err := lister.Get(name)
	if err != nil {
		return err
	}
	w = w.DeepCopy()
	if err := setCondition(w, "Ready", metav1.ConditionTrue); err != nil {
		return err
	}
	_, err = dc.Resource(Widgets).Namespace(ns).UpdateStatus(ctx, w, metav1.UpdateOptions{})
	return err
}

// end snippet

// snippet: scale-requeue
// strategy: write=update read=lister retry=none
// ScaleRequeue decides from its cached copy and writes the decision with
// that copy's resourceVersion. If the Deployment changed since — the load
// annotation included — the 409 is returned, and the requeued reconcile
// decides again: when the load is no longer high, there is nothing to
// write.
func ScaleRequeue(ctx context.Context, c kubernetes.Interface, ns, name string, lister DeploymentLister) error {
	d, err := lister.Get(name)
	if err != nil {
		return err
	}
	n, ok := wantReplicas(d)
	if !ok {
		return nil
	}
	d = d.DeepCopy()
	d.Spec.Replicas = &n
	_, err = c.AppsV1().Deployments(ns).Update(ctx, d, metav1.UpdateOptions{})
	return err
}

// end snippet

// snippet: scale-patch-with-rv-once
// strategy: write=merge-patch withRV=true read=lister retry=none
// ScalePatchOnce sends the decision as a merge patch carrying the cached
// copy's resourceVersion, and logs a 409 instead of returning it.
func ScalePatchOnce(ctx context.Context, c kubernetes.Interface, ns, name string, lister DeploymentLister) error {
	d, err := lister.Get(name)
	if err != nil {
		return err
	}
	n, ok := wantReplicas(d)
	if !ok {
		return nil
	}
	patch := fmt.Sprintf(`{"metadata":{"resourceVersion":%q},"spec":{"replicas":%d}}`, d.ResourceVersion, n)
	if _, err := c.AppsV1().Deployments(ns).Patch(ctx, name, types.MergePatchType, []byte(patch), metav1.PatchOptions{}); err != nil {
		fmt.Println("scale:", err) // DEFECT: the 409 ends here
	}
	return nil
}

// end snippet

// snippet: remove-finalizer-tested-once
// strategy: write=json-patch test=values read=lister retry=none
// RemoveFinalizerTestedOnce tests the index its cached copy had before
// removing the entry there, and logs the first failed test (422) and
// moves on.
func RemoveFinalizerTestedOnce(ctx context.Context, c kubernetes.Interface, ns, name string, lister ConfigMapLister) error {
	cm, err := lister.Get(name)
	if err != nil {
		return err
	}
	i := slices.Index(cm.Finalizers, "example.com/you")
	if i < 0 {
		return nil
	}
	at := "/metadata/finalizers/" + strconv.Itoa(i)
	patch, err := json.Marshal([]map[string]any{{"op": "test", "path": at, "value": "example.com/you"}, {"op": "remove", "path": at}})
	if err != nil {
		return err
	}
	if _, err := c.CoreV1().ConfigMaps(ns).Patch(ctx, name, types.JSONPatchType, patch, metav1.PatchOptions{}); err != nil {
		fmt.Println("finalizer:", err) // DEFECT: a moved entry is a 422, and it ends here
	}
	return nil
}

// end snippet
