package code

import (
	"context"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// Widget is the course's custom resource as a typed Go struct, the way
// kubebuilder generates one. controller-runtime's manager client reads a
// typed object from its cache; an *unstructured.Unstructured it would
// fetch from the API server, unless the client is built with
// client.CacheOptions{Unstructured: true}.
type Widget struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              WidgetSpec   `json:"spec,omitempty"`
	Status            WidgetStatus `json:"status,omitempty"`
}

// WidgetSpec is what the user asks for.
type WidgetSpec struct {
	Size  int64    `json:"size,omitempty"`
	Color string   `json:"color,omitempty"`
	Items []string `json:"items,omitempty"`
}

// WidgetStatus is what the widget controller reports.
type WidgetStatus struct {
	Phase              string `json:"phase,omitempty"`
	ReadyReplicas      int64  `json:"readyReplicas,omitempty"`
	ObservedGeneration int64  `json:"observedGeneration,omitempty"`
}

// DeepCopyObject makes Widget a runtime.Object (controller-gen writes this).
func (w *Widget) DeepCopyObject() runtime.Object { return w.DeepCopy() }

// DeepCopy copies w, its lists included.
func (w *Widget) DeepCopy() *Widget {
	if w == nil {
		return nil
	}
	out := *w
	w.ObjectMeta.DeepCopyInto(&out.ObjectMeta)
	out.Spec.Items = append([]string(nil), w.Spec.Items...)
	return &out
}

var _ client.Object = &Widget{}

// setReport writes what a widget controller reports on the copy w: the
// size it made ready, for the generation that size belongs to.
func setReport(w *Widget) {
	w.Status.ReadyReplicas = w.Spec.Size
	w.Status.ObservedGeneration = w.Generation
	w.Status.Phase = "Ready"
}

// snippet: gen-resize
// strategy: write=update read=live retry=none
// Resize is the user's change: a fresh read, then an update of the spec.
// A change of spec moves metadata.generation (so does the DELETE that
// starts an object's deletion); labels and status do not.
func Resize(ctx context.Context, c client.Client, apiReader client.Reader, key client.ObjectKey, size int64) error {
	var w Widget
	if err := apiReader.Get(ctx, key, &w); err != nil {
		return err
	}
	w.Spec.Size = size
	return c.Update(ctx, &w)
}

// end snippet

// snippet: gen-report-merge-from
// strategy: write=merge-patch withRV=false read=lister retry=none
// ReportStatus reports on the copy the manager's cache holds: the size it
// saw as readyReplicas, and the generation of that copy. The merge patch
// carries no resourceVersion, so it lands even when the spec has moved
// on; then only observedGeneration tells a reader how old the report is.
func ReportStatus(ctx context.Context, c client.Client, key client.ObjectKey) error {
	var w Widget
	if err := c.Get(ctx, key, &w); err != nil { // from the cache
		return client.IgnoreNotFound(err)
	}
	before := w.DeepCopy()
	setReport(&w)
	return c.Status().Patch(ctx, &w, client.MergeFrom(before))
}

// end snippet

// snippet: gen-release-when-ready
// strategy: write=merge-patch withRV=false read=live retry=none
// ReleaseWhenReady trusts status.phase alone. A Ready written for an
// older generation looks exactly like a Ready for this one.
func ReleaseWhenReady(ctx context.Context, c client.Client, apiReader client.Reader, key client.ObjectKey) error {
	var w Widget
	if err := apiReader.Get(ctx, key, &w); err != nil {
		return err
	}
	if w.Status.Phase != "Ready" { // DEFECT: Ready for which generation?
		return nil
	}
	before := w.DeepCopy()
	if w.Annotations == nil {
		w.Annotations = map[string]string{}
	}
	w.Annotations["example.com/released"] = "true"
	return c.Patch(ctx, &w, client.MergeFrom(before))
}

// end snippet

// snippet: gen-status-is-current
// ReadyForCurrentSpec is how a reader should judge status: only a status
// whose observedGeneration is the object's generation describes the spec
// the object has now. Anything older is a report on a spec that is gone.
// (kubectl rollout status and the kstatus library check the same.)
func ReadyForCurrentSpec(w *Widget) bool {
	if w.Status.ObservedGeneration != w.Generation {
		return false // not reported on yet: wait for the controller
	}
	return w.Status.Phase == "Ready"
}

// end snippet
