package code

import (
	"context"
	"encoding/json"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/util/retry"
)

// snippet: widget-update-from-lister
// strategy: write=update read=lister retry=none
// ResizeWidget changes spec.size on the copy the informer's cache holds
// and sends the whole object back with that copy's resourceVersion. One
// attempt: a 409 is returned as it is.
func ResizeWidget(ctx context.Context, dc dynamic.Interface, ns, name string, lister WidgetLister) error {
	w, err := lister.Get(name)
	if err != nil {
		return err
	}
	w = w.DeepCopy() // never change the cache's copy
	if err := unstructured.SetNestedField(w.Object, int64(3), "spec", "size"); err != nil {
		return err
	}
	_, err = dc.Resource(Widgets).Namespace(ns).Update(ctx, w, metav1.UpdateOptions{})
	return err
}

// end snippet

// snippet: widget-retry-on-conflict
// strategy: write=update read=live retry=default
// ResizeWidgetWithRetry expects the 409: on a conflict it reads the widget
// again from the API server and makes its change to that fresh copy.
func ResizeWidgetWithRetry(ctx context.Context, dc dynamic.Interface, ns, name string) error {
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		w, err := dc.Resource(Widgets).Namespace(ns).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		if err := unstructured.SetNestedField(w.Object, int64(3), "spec", "size"); err != nil {
			return err
		}
		_, err = dc.Resource(Widgets).Namespace(ns).Update(ctx, w, metav1.UpdateOptions{})
		return err
	})
}

// end snippet

// snippet: widget-update-clear-rv
// ResizeWidgetForce tries to make the update "always work" by sending it
// without a resourceVersion. A ConfigMap would accept that and be
// overwritten; a custom resource refuses it (422: must be specified).
func ResizeWidgetForce(ctx context.Context, dc dynamic.Interface, ns, name string, lister WidgetLister) error {
	w, err := lister.Get(name)
	if err != nil {
		return err
	}
	w = w.DeepCopy()
	if err := unstructured.SetNestedField(w.Object, int64(3), "spec", "size"); err != nil {
		return err
	}
	w.SetResourceVersion("") // DEFECT
	_, err = dc.Resource(Widgets).Namespace(ns).Update(ctx, w, metav1.UpdateOptions{})
	return err
}

// end snippet

// snippet: widget-strategic-merge-patch
// AddWidgetFinalizerStrategic adds a finalizer to a Widget with a
// strategic merge patch, the way it would to a ConfigMap. The merge rules
// of a strategic merge patch are the patch tags of a built-in type's Go
// struct (patchStrategy:"merge" on a ConfigMap's finalizers).
func AddWidgetFinalizerStrategic(ctx context.Context, dc dynamic.Interface, ns, name, finalizer string) error {
	patch, err := json.Marshal(map[string]any{"metadata": map[string]any{"finalizers": []string{finalizer}}})
	if err != nil {
		return err
	}
	_, err = dc.Resource(Widgets).Namespace(ns).Patch(ctx, name, types.StrategicMergePatchType, patch, metav1.PatchOptions{}) // DEFECT: not for a custom resource
	return err
}

// end snippet
