package code

import (
	"context"
	"encoding/json"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/util/retry"
)

// snippet: update-spec-and-status
// ResizeAndReport changes spec and status and sends one update to the
// widget. The widget has a status subresource: the main endpoint keeps the
// old status, so status.phase is dropped — with a 200.
func ResizeAndReport(ctx context.Context, dc dynamic.Interface, ns, name string) error {
	w, err := dc.Resource(Widgets).Namespace(ns).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return err
	}
	if err := unstructured.SetNestedField(w.Object, int64(2), "spec", "size"); err != nil {
		return err
	}
	if err := unstructured.SetNestedField(w.Object, "Ready", "status", "phase"); err != nil {
		return err
	}
	_, err = dc.Resource(Widgets).Namespace(ns).Update(ctx, w, metav1.UpdateOptions{}) // DEFECT: status ignored here
	return err
}

// end snippet

// snippet: update-status-with-spec
// ReportAndResize makes the same two changes, labels the widget too, and
// sends it all to /status. A custom resource's /status keeps everything
// but the status from the object the server holds: spec.size and the
// label are dropped. (A Deployment's /status resets the spec and the
// labels, and writes annotations and finalizers.)
func ReportAndResize(ctx context.Context, dc dynamic.Interface, ns, name string) error {
	w, err := dc.Resource(Widgets).Namespace(ns).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return err
	}
	if err := unstructured.SetNestedField(w.Object, int64(3), "spec", "size"); err != nil {
		return err
	}
	if err := unstructured.SetNestedField(w.Object, "Ready", "status", "phase"); err != nil {
		return err
	}
	labels := w.GetLabels()
	if labels == nil {
		labels = map[string]string{}
	}
	labels["phase"] = "ready"
	w.SetLabels(labels)
	_, err = dc.Resource(Widgets).Namespace(ns).UpdateStatus(ctx, w, metav1.UpdateOptions{}) // DEFECT: only the status is written here
	return err
}

// end snippet

// snippet: update-then-status-stale
// ResizeThenReportStale makes two calls — right — but builds both from the
// copy it read at the start. The first call moved the resourceVersion on,
// so the second one is a conflict it caused itself.
func ResizeThenReportStale(ctx context.Context, dc dynamic.Interface, ns, name string, lister WidgetLister) error {
	w, err := lister.Get(name)
	if err != nil {
		return err
	}
	spec := w.DeepCopy()
	if err := unstructured.SetNestedField(spec.Object, int64(2), "spec", "size"); err != nil {
		return err
	}
	if _, err := dc.Resource(Widgets).Namespace(ns).Update(ctx, spec, metav1.UpdateOptions{}); err != nil {
		return err
	}
	status := w.DeepCopy() // DEFECT: the RV from before the first call
	if err := unstructured.SetNestedField(status.Object, "Ready", "status", "phase"); err != nil {
		return err
	}
	_, err = dc.Resource(Widgets).Namespace(ns).UpdateStatus(ctx, status, metav1.UpdateOptions{})
	return err
}

// end snippet

// snippet: update-spec-then-status
// ResizeThenReport writes each half to its own endpoint, the second one on
// the object the first call returned (its resourceVersion is current).
func ResizeThenReport(ctx context.Context, dc dynamic.Interface, ns, name string) error {
	w, err := dc.Resource(Widgets).Namespace(ns).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return err
	}
	if err := unstructured.SetNestedField(w.Object, int64(2), "spec", "size"); err != nil {
		return err
	}
	w, err = dc.Resource(Widgets).Namespace(ns).Update(ctx, w, metav1.UpdateOptions{})
	if err != nil {
		return err
	}
	if err := unstructured.SetNestedField(w.Object, "Ready", "status", "phase"); err != nil {
		return err
	}
	_, err = dc.Resource(Widgets).Namespace(ns).UpdateStatus(ctx, w, metav1.UpdateOptions{})
	return err
}

// end snippet

// snippet: update-status
// ReportReady writes status where status lives, /status, and retries a
// conflict from a fresh GET like any other update.
func ReportReady(ctx context.Context, dc dynamic.Interface, ns, name string) error {
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		w, err := dc.Resource(Widgets).Namespace(ns).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		if err := unstructured.SetNestedField(w.Object, "Ready", "status", "phase"); err != nil {
			return err
		}
		_, err = dc.Resource(Widgets).Namespace(ns).UpdateStatus(ctx, w, metav1.UpdateOptions{})
		return err
	})
}

// end snippet

// setCondition sets one condition in an unstructured object's
// status.conditions, keyed by type, as meta.SetStatusCondition does for
// typed objects.
func setCondition(u *unstructured.Unstructured, typ string, status metav1.ConditionStatus) error {
	raw, _, err := unstructured.NestedSlice(u.Object, "status", "conditions")
	if err != nil {
		return err
	}
	var conds []metav1.Condition
	for _, r := range raw {
		var c metav1.Condition
		m, _ := r.(map[string]interface{})
		if err := runtime.DefaultUnstructuredConverter.FromUnstructured(m, &c); err != nil {
			return err
		}
		conds = append(conds, c)
	}
	meta.SetStatusCondition(&conds, metav1.Condition{Type: typ, Status: status, Reason: "Reconciled"})
	out := make([]interface{}, 0, len(conds))
	for i := range conds {
		m, err := runtime.DefaultUnstructuredConverter.ToUnstructured(&conds[i])
		if err != nil {
			return err
		}
		out = append(out, m)
	}
	return unstructured.SetNestedSlice(u.Object, out, "status", "conditions")
}

// snippet: set-condition-update
// MarkReadyUpdate sets the Ready condition and sends the widget to the
// main endpoint: the status subresource makes the server keep the old
// status. 200, and no condition.
func MarkReadyUpdate(ctx context.Context, dc dynamic.Interface, ns, name string, lister WidgetLister) error {
	w, err := lister.Get(name)
	if err != nil {
		return err
	}
	w = w.DeepCopy()
	if err := setCondition(w, "Ready", metav1.ConditionTrue); err != nil {
		return err
	}
	_, err = dc.Resource(Widgets).Namespace(ns).Update(ctx, w, metav1.UpdateOptions{}) // DEFECT: wrong endpoint
	return err
}

// end snippet

// snippet: set-condition-merge-patch
// MarkReadyPatch patches the conditions onto the main endpoint: no
// subresource named, so the status in the patch is ignored.
func MarkReadyPatch(ctx context.Context, dc dynamic.Interface, ns, name string) error {
	patch, err := json.Marshal(map[string]any{"status": map[string]any{"conditions": []any{
		map[string]any{"type": "Ready", "status": "True"},
	}}})
	if err != nil {
		return err
	}
	_, err = dc.Resource(Widgets).Namespace(ns).Patch(ctx, name, types.MergePatchType, patch, metav1.PatchOptions{}) // DEFECT: no "status"
	return err
}

// end snippet

// snippet: set-condition-status-once
// strategy: write=update-status read=lister retry=none
// MarkReadyOnce writes /status from the cached copy, once. Right endpoint;
// but a status writer on a busy object often holds a stale copy, and a 409
// here is simply returned.
func MarkReadyOnce(ctx context.Context, dc dynamic.Interface, ns, name string, lister WidgetLister) error {
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

// snippet: set-condition-status
// strategy: write=update-status read=live retry=default
// MarkReady sets the condition on a fresh copy and writes /status with its
// resourceVersion; a conflict means someone else changed the widget, so it
// reads again and sets the condition on what is there now — the other
// controller's conditions included.
func MarkReady(ctx context.Context, dc dynamic.Interface, ns, name string) error {
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		w, err := dc.Resource(Widgets).Namespace(ns).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		if err := setCondition(w, "Ready", metav1.ConditionTrue); err != nil {
			return err
		}
		_, err = dc.Resource(Widgets).Namespace(ns).UpdateStatus(ctx, w, metav1.UpdateOptions{})
		return err
	})
}

// end snippet

// snippet: update-status-main
// ReportReadyMain sets status.phase and updates the widget itself. With a
// status subresource the main endpoint keeps the old status: a 200 that
// changes nothing.
func ReportReadyMain(ctx context.Context, dc dynamic.Interface, ns, name string) error {
	w, err := dc.Resource(Widgets).Namespace(ns).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return err
	}
	if err := unstructured.SetNestedField(w.Object, "Ready", "status", "phase"); err != nil {
		return err
	}
	_, err = dc.Resource(Widgets).Namespace(ns).Update(ctx, w, metav1.UpdateOptions{}) // DEFECT: wrong endpoint
	return err
}

// end snippet

// snippet: patch-status-main
// ReportReadyPatch patches the status onto the main endpoint: no
// subresource is named, so the status in the patch is ignored. (Passing
// "status" as the subresource argument would send it to /status.)
func ReportReadyPatch(ctx context.Context, dc dynamic.Interface, ns, name string) error {
	patch := []byte(`{"status":{"phase":"Ready"}}`)
	_, err := dc.Resource(Widgets).Namespace(ns).Patch(ctx, name, types.MergePatchType, patch, metav1.PatchOptions{}) // DEFECT
	return err
}

// end snippet

// snippet: widget-halves
// strategy: write=update read=lister retry=none
// Two reconcilers of one Widget, each with its own half: ResizeFromCache
// updates the spec, ReportFromCache the status through /status, each from
// the copy its cache holds. The halves have two endpoints but one
// resourceVersion: a write to either makes every copy older.
func ResizeFromCache(ctx context.Context, dc dynamic.Interface, ns, name string, lister WidgetLister) error {
	w, err := lister.Get(name)
	if err != nil {
		return err
	}
	w = w.DeepCopy()
	if err := unstructured.SetNestedField(w.Object, int64(2), "spec", "size"); err != nil {
		return err
	}
	_, err = dc.Resource(Widgets).Namespace(ns).Update(ctx, w, metav1.UpdateOptions{})
	return err
}

func ReportFromCache(ctx context.Context, dc dynamic.Interface, ns, name string, lister WidgetLister) error {
	w, err := lister.Get(name)
	if err != nil {
		return err
	}
	w = w.DeepCopy()
	if err := unstructured.SetNestedField(w.Object, "Ready", "status", "phase"); err != nil {
		return err
	}
	_, err = dc.Resource(Widgets).Namespace(ns).UpdateStatus(ctx, w, metav1.UpdateOptions{})
	return err
}

// end snippet
