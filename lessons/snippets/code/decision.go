package code

import (
	"context"
	"fmt"

	appsv1 "k8s.io/api/apps/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	appsv1ac "k8s.io/client-go/applyconfigurations/apps/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/util/retry"
)

// loadAnnotation is where the metrics adapter writes the load it measured.
const loadAnnotation = "example.com/load"

// wantReplicas is the scaling decision: it depends on what was read.
func wantReplicas(d *appsv1.Deployment) (int32, bool) {
	if d.Annotations[loadAnnotation] == "high" {
		return 5, true
	}
	return 0, false
}

// snippet: scale-merge-patch
// ScaleOnLoad decides from the cached copy and patches the decision in. The
// patch carries no resourceVersion, so nothing checks that the load it
// decided on is still the load the Deployment shows.
func ScaleOnLoad(ctx context.Context, c kubernetes.Interface, ns, name string, lister DeploymentLister) error {
	d, err := lister.Get(name)
	if err != nil {
		return err
	}
	n, ok := wantReplicas(d)
	if !ok {
		return nil
	}
	patch := fmt.Sprintf(`{"spec":{"replicas":%d}}`, n) // DEFECT: a decision without its precondition
	_, err = c.AppsV1().Deployments(ns).Patch(ctx, name, types.MergePatchType, []byte(patch), metav1.PatchOptions{})
	return err
}

// end snippet

// snippet: scale-apply
// ScaleApply declares the decision with server-side apply, forcing
// ownership as controllers usually do. Apply guards ownership of
// spec.replicas, not the freshness of the annotation the decision came
// from.
func ScaleApply(ctx context.Context, c kubernetes.Interface, ns, name string, lister DeploymentLister) error {
	d, err := lister.Get(name)
	if err != nil {
		return err
	}
	n, ok := wantReplicas(d)
	if !ok {
		return nil
	}
	cfg := appsv1ac.Deployment(name, ns).WithSpec(appsv1ac.DeploymentSpec().WithReplicas(n)) // DEFECT: decided from a stale read
	_, err = c.AppsV1().Deployments(ns).Apply(ctx, cfg, metav1.ApplyOptions{FieldManager: "scaler", Force: true})
	return err
}

// end snippet

// snippet: scale-conditional
// strategy: write=update read=live retry=default
// Scale decides from a copy and writes the decision with that copy's
// resourceVersion. If the Deployment changed since — the load annotation
// included — the server answers 409, and the retry decides again from a
// fresh read: when the load is no longer high, there is nothing to write.
func Scale(ctx context.Context, c kubernetes.Interface, ns, name string) error {
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		d, err := c.AppsV1().Deployments(ns).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		n, ok := wantReplicas(d)
		if !ok {
			return nil
		}
		d.Spec.Replicas = &n
		_, err = c.AppsV1().Deployments(ns).Update(ctx, d, metav1.UpdateOptions{})
		return err
	})
}

// end snippet

// snippet: scale-patch-with-rv
// strategy: write=merge-patch withRV=true read=live retry=default
// ScalePatchWithRV keeps the patch small but makes it conditional: a merge
// patch that carries metadata.resourceVersion is refused with 409 when the
// Deployment has moved on (controller-runtime's MergeFromWithOptimisticLock
// builds the same).
func ScalePatchWithRV(ctx context.Context, c kubernetes.Interface, ns, name string) error {
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		d, err := c.AppsV1().Deployments(ns).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		n, ok := wantReplicas(d)
		if !ok {
			return nil
		}
		patch := fmt.Sprintf(`{"metadata":{"resourceVersion":%q},"spec":{"replicas":%d}}`, d.ResourceVersion, n)
		_, err = c.AppsV1().Deployments(ns).Patch(ctx, name, types.MergePatchType, []byte(patch), metav1.PatchOptions{})
		return err
	})
}

// end snippet
