package code

import (
	"context"
	"encoding/json"
	"slices"

	jsonpatch "github.com/evanphx/json-patch/v5"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/strategicpatch"
	"k8s.io/client-go/kubernetes"
)

// snippet: merge-patch-diff
// AddFinalizerMergeFrom builds a JSON merge patch the way
// controller-runtime's client.MergeFrom does: the difference between the
// copy it read and the copy it changed, computed on the client.
func AddFinalizerMergeFrom(ctx context.Context, c kubernetes.Interface, ns, name, finalizer string, lister ConfigMapLister) error {
	orig, err := lister.Get(name)
	if err != nil {
		return err
	}
	mod := orig.DeepCopy()
	if !slices.Contains(mod.Finalizers, finalizer) {
		mod.Finalizers = append(mod.Finalizers, finalizer)
	}
	before, err := json.Marshal(orig)
	if err != nil {
		return err
	}
	after, err := json.Marshal(mod)
	if err != nil {
		return err
	}
	patch, err := jsonpatch.CreateMergePatch(before, after) // {"metadata":{"finalizers":[…the whole list…]}}
	if err != nil {
		return err
	}
	_, err = c.CoreV1().ConfigMaps(ns).Patch(ctx, name, types.MergePatchType, patch, metav1.PatchOptions{})
	return err
}

// end snippet

// snippet: strategic-merge-patch
// AddFinalizerStrategic diffs the same two copies into a strategic merge
// patch. The Go type says finalizers is a merge list (patchStrategy
// "merge"), so the server adds the element to the list it holds instead of
// replacing the list. Built-in kinds only: a custom resource answers 415.
func AddFinalizerStrategic(ctx context.Context, c kubernetes.Interface, ns, name, finalizer string, lister ConfigMapLister) error {
	orig, err := lister.Get(name)
	if err != nil {
		return err
	}
	mod := orig.DeepCopy()
	if !slices.Contains(mod.Finalizers, finalizer) {
		mod.Finalizers = append(mod.Finalizers, finalizer)
	}
	before, err := json.Marshal(orig)
	if err != nil {
		return err
	}
	after, err := json.Marshal(mod)
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

// snippet: json-patch-test
// SetTrack moves the track label on, but only from the value it read: the
// patch's first operation tests it. If someone changed the label since,
// the server applies nothing and answers 422 Invalid (not 409).
func SetTrack(ctx context.Context, c kubernetes.Interface, ns, name, to string, lister ConfigMapLister) error {
	cm, err := lister.Get(name)
	if err != nil {
		return err
	}
	from := cm.Labels["track"]
	ops := []map[string]any{
		{"op": "test", "path": "/metadata/labels/track", "value": from},
		{"op": "replace", "path": "/metadata/labels/track", "value": to},
	}
	patch, err := json.Marshal(ops)
	if err != nil {
		return err
	}
	_, err = c.CoreV1().ConfigMaps(ns).Patch(ctx, name, types.JSONPatchType, patch, metav1.PatchOptions{})
	return err
}

// end snippet

// snippet: patch-label
// AddTeamLabel sends only its intent: one label, no resourceVersion. It
// needs no read at all, cannot conflict, and is safe to send twice.
func AddTeamLabel(ctx context.Context, c kubernetes.Interface, ns, name string) error {
	patch := []byte(`{"metadata":{"labels":{"team":"payments"}}}`)
	_, err := c.CoreV1().ConfigMaps(ns).Patch(ctx, name, types.MergePatchType, patch, metav1.PatchOptions{})
	return err
}

// end snippet

// snippet: patch-label-deployment
// LabelDeployment adds one label to a Deployment that other controllers
// keep changing. The patch names the label and nothing else: the
// autoscaler's replicas and the operator's finalizer are not in it.
func LabelDeployment(ctx context.Context, c kubernetes.Interface, ns, name string) error {
	patch := []byte(`{"metadata":{"labels":{"team":"payments"}}}`)
	_, err := c.AppsV1().Deployments(ns).Patch(ctx, name, types.MergePatchType, patch, metav1.PatchOptions{})
	return err
}

// end snippet

// snippet: label-update
// LabelDeploymentUpdate adds the label to the cached copy and sends the
// whole Deployment back: replicas, template, finalizers and all, with the
// copy's resourceVersion. Any change anywhere since the cache was filled
// makes it a 409.
func LabelDeploymentUpdate(ctx context.Context, c kubernetes.Interface, ns, name string, lister DeploymentLister) error {
	d, err := lister.Get(name)
	if err != nil {
		return err
	}
	d = d.DeepCopy()
	if d.Labels == nil {
		d.Labels = map[string]string{}
	}
	d.Labels["team"] = "payments"
	_, err = c.AppsV1().Deployments(ns).Update(ctx, d, metav1.UpdateOptions{})
	return err
}

// end snippet

// snippet: label-update-clear-rv
// LabelDeploymentForce sends the whole cached Deployment without a
// resourceVersion: whatever changed since the cache was filled — replicas,
// finalizers — is put back to what the cache held.
func LabelDeploymentForce(ctx context.Context, c kubernetes.Interface, ns, name string, lister DeploymentLister) error {
	d, err := lister.Get(name)
	if err != nil {
		return err
	}
	d = d.DeepCopy()
	if d.Labels == nil {
		d.Labels = map[string]string{}
	}
	d.Labels["team"] = "payments"
	d.ResourceVersion = "" // DEFECT
	_, err = c.AppsV1().Deployments(ns).Update(ctx, d, metav1.UpdateOptions{})
	return err
}

// end snippet
