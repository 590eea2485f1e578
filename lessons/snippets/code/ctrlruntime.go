package code

import (
	"context"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/util/retry"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
	ctrl "sigs.k8s.io/controller-runtime/pkg/reconcile"
)

// WidgetReconciler is a controller-runtime reconciler as kubebuilder
// scaffolds it: Client is mgr.GetClient() (reads from the manager's
// cache, writes to the API server); APIReader is mgr.GetAPIReader()
// (reads from the API server).
type WidgetReconciler struct {
	client.Client
	APIReader client.Reader
}

// snippet: cr-retry-cached-get
// strategy: write=update read=lister retry=reread-lister
// ResizeRetry looks like the textbook loop: Get, change, Update, retried
// on conflict. But r.Get is the manager's client, which reads the cache:
// each retry gets the same stale copy back, and the same 409.
func (r *WidgetReconciler) ResizeRetry(ctx context.Context, key client.ObjectKey) error {
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		var w Widget
		if err := r.Get(ctx, key, &w); err != nil { // DEFECT: not fresh
			return err
		}
		w.Spec.Size = 2
		return r.Update(ctx, &w)
	})
}

// end snippet

// snippet: cr-retry-api-reader
// strategy: write=update read=lister retry=default
// ResizeRetryFresh starts from the cache (cheap, and usually current) and
// re-reads from the API server after a conflict: mgr.GetAPIReader() is
// the client-go GET that a retry needs.
func (r *WidgetReconciler) ResizeRetryFresh(ctx context.Context, key client.ObjectKey) error {
	var from client.Reader = r.Client
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		var w Widget
		if err := from.Get(ctx, key, &w); err != nil {
			return err
		}
		from = r.APIReader // after a 409: read the server, not the cache
		w.Spec.Size = 2
		return r.Update(ctx, &w)
	})
}

// end snippet

// snippet: cr-merge-from
// strategy: write=merge-patch withRV=false read=lister retry=none
// AddItem appends to spec.items with client.MergeFrom: a JSON merge patch
// of the difference, with no resourceVersion. It never conflicts — and
// a merge patch replaces a list whole, so it carries the list as this
// (cached) copy saw it.
func (r *WidgetReconciler) AddItem(ctx context.Context, key client.ObjectKey, item string) error {
	var w Widget
	if err := r.Get(ctx, key, &w); err != nil {
		return err
	}
	before := w.DeepCopy()
	w.Spec.Items = append(w.Spec.Items, item)
	return r.Patch(ctx, &w, client.MergeFrom(before)) // DEFECT: the whole list, unconditionally
}

// end snippet

// snippet: cr-merge-from-lock
// strategy: write=merge-patch withRV=true read=lister retry=default
// AddItemLocked sends the same patch with MergeFromWithOptimisticLock:
// the patch carries the resourceVersion it was computed from, and the
// server answers 409 if the widget has changed since. The retry re-reads
// from the API server and appends to the list as it is now.
func (r *WidgetReconciler) AddItemLocked(ctx context.Context, key client.ObjectKey, item string) error {
	var from client.Reader = r.Client
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		var w Widget
		if err := from.Get(ctx, key, &w); err != nil {
			return err
		}
		from = r.APIReader
		before := w.DeepCopy()
		w.Spec.Items = append(w.Spec.Items, item)
		return r.Patch(ctx, &w, client.MergeFromWithOptions(before, client.MergeFromWithOptimisticLock{}))
	})
}

// end snippet

// snippet: cr-merge-from-lock-cached
// strategy: write=merge-patch withRV=true read=lister retry=reread-lister
// AddItemLockedCache has the lock, and retries, but re-reads with r.Get:
// the cache. The lock turns the lost item into a 409, and the stale
// re-read turns the 409 into five.
func (r *WidgetReconciler) AddItemLockedCache(ctx context.Context, key client.ObjectKey, item string) error {
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		var w Widget
		if err := r.Get(ctx, key, &w); err != nil { // DEFECT: the cache again
			return err
		}
		before := w.DeepCopy()
		w.Spec.Items = append(w.Spec.Items, item)
		return r.Patch(ctx, &w, client.MergeFromWithOptions(before, client.MergeFromWithOptimisticLock{}))
	})
}

// end snippet

// snippet: cr-create-or-update
// strategy: write=update read=lister retry=none
// EnsureSize uses controllerutil.CreateOrUpdate: it Gets the object
// through the client it is given (the manager's: the cache), runs the
// mutate function, and sends an Update with the resourceVersion the
// cache held. A stale cache means 409; CreateOrPatch would send a merge
// patch without one instead.
func (r *WidgetReconciler) EnsureSize(ctx context.Context, key client.ObjectKey) error {
	w := &Widget{ObjectMeta: metav1.ObjectMeta{Name: key.Name, Namespace: key.Namespace}}
	_, err := controllerutil.CreateOrUpdate(ctx, r.Client, w, func() error {
		w.Spec.Size = 2 // runs on what the Get returned
		return nil
	})
	return err
}

// end snippet

// snippet: cr-update-overwrites
// ResizeAndReport computes the status, then updates the spec. Update
// decodes the server's answer into w, and the main endpoint ignores
// status, so the answer carries the old status: phase is gone from w
// before Status().Update sends it. Set status after the spec Update
// (on the object it returned), or keep it aside and put it back.
func (r *WidgetReconciler) ResizeAndReport(ctx context.Context, key client.ObjectKey) error {
	var w Widget
	if err := r.Get(ctx, key, &w); err != nil {
		return err
	}
	w.Status.Phase = "Ready"
	w.Spec.Size = 2
	if err := r.Update(ctx, &w); err != nil { // DEFECT: w is now the server's answer
		return err
	}
	return r.Status().Update(ctx, &w) // sends the old status back: a no-op
}

// end snippet

// snippet: cr-requeue
// Reconcile shows the two ways to come back later. Returning an error
// logs it, counts it in the error metric and requeues with the rate
// limiter's per-item backoff (5ms, 10ms, 20ms… up to 1000s by default).
// RequeueAfter is a fixed delay: the item's backoff is reset (Forget), and
// nothing counts as an error. Return both and the error wins.
func (r *WidgetReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var w Widget
	if err := r.Get(ctx, req.NamespacedName, &w); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	w.Spec.Size = 2
	if err := r.Update(ctx, &w); err != nil {
		return ctrl.Result{}, err // a 409 too: back with backoff, from a fresher cache
	}
	if w.Status.Phase != "Ready" {
		return ctrl.Result{RequeueAfter: 30 * time.Second}, nil // poll: not an error
	}
	return ctrl.Result{}, nil
}

// end snippet
