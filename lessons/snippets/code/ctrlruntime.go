package code

import (
	"context"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/util/retry"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
	"sigs.k8s.io/controller-runtime/pkg/log"
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

// snippet: cr-create-or-update
// strategy: write=create read=lister retry=none
// EnsureWidget uses controllerutil.CreateOrUpdate: it Gets the object
// through the client it is given (the manager's: the cache), runs the
// mutate function on what it got — on the empty object too, when the Get
// says NotFound — and then Creates it, or Updates it with the
// resourceVersion the cache held. A cache that has not seen the object
// yet sends it the Create way, and the server answers AlreadyExists.
func (r *WidgetReconciler) EnsureWidget(ctx context.Context, key client.ObjectKey) error {
	w := &Widget{ObjectMeta: metav1.ObjectMeta{Name: key.Name, Namespace: key.Namespace}}
	_, err := controllerutil.CreateOrUpdate(ctx, r.Client, w, func() error {
		w.Spec.Size = 2 // runs before the Create as before the Update
		return nil
	})
	return err
}

// end snippet

// snippet: cr-unstructured-get
// strategy: write=update read=live retry=default
// ResizeUnstructured is ResizeRetry with an unstructured object. The
// manager's client answers typed objects from its cache, but sends a GET
// for an *unstructured.Unstructured — unless it was built with
// client.CacheOptions{Unstructured: true} — and for every kind listed in
// CacheOptions.DisableFor.
func (r *WidgetReconciler) ResizeUnstructured(ctx context.Context, key client.ObjectKey) error {
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		w := &unstructured.Unstructured{}
		w.SetGroupVersionKind(Widgets.GroupVersion().WithKind("Widget"))
		if err := r.Get(ctx, key, w); err != nil { // a GET: unstructured is not cached
			return err
		}
		if err := unstructured.SetNestedField(w.Object, int64(2), "spec", "size"); err != nil {
			return err
		}
		return r.Update(ctx, w)
	})
}

// end snippet

// snippet: cr-merge-from-lock
// strategy: write=merge-patch withRV=true read=lister retry=none
// AddItemLocked sends its patch with MergeFromWithOptimisticLock: the patch
// carries the resourceVersion of the copy it was computed from, and the
// server answers 409 if the widget has changed since. Reconcile returns
// that error; the workqueue brings the key back after its backoff, to a
// cache that has caught up, and the list is computed again.
func (r *WidgetReconciler) AddItemLocked(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var w Widget
	if err := r.Get(ctx, req.NamespacedName, &w); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	before := w.DeepCopy()
	w.Spec.Items = append(w.Spec.Items, "y")
	err := r.Patch(ctx, &w, client.MergeFromWithOptions(before, client.MergeFromWithOptimisticLock{}))
	return ctrl.Result{}, err // a 409 comes back with backoff
}

// end snippet

// snippet: cr-merge-from-lock-drop
// strategy: write=merge-patch withRV=true read=lister retry=none
// AddItemQuiet has the lock, and drops what it tells: the 409 is logged
// and the reconcile ends as a success, so nothing brings the key back
// until the widget changes again.
func (r *WidgetReconciler) AddItemQuiet(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var w Widget
	if err := r.Get(ctx, req.NamespacedName, &w); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	before := w.DeepCopy()
	w.Spec.Items = append(w.Spec.Items, "y")
	if err := r.Patch(ctx, &w, client.MergeFromWithOptions(before, client.MergeFromWithOptimisticLock{})); err != nil {
		log.FromContext(ctx).Error(err, "adding item") // DEFECT: the error ends here
	}
	return ctrl.Result{}, nil
}

// end snippet

// snippet: cr-merge-from-retry
// strategy: write=merge-patch withRV=false read=lister retry=default
// AddItemRetried wraps client.MergeFrom in RetryOnConflict. A patch
// without a resourceVersion is never refused for being stale, so the
// loop never runs: the list it carries replaces the server's.
func (r *WidgetReconciler) AddItemRetried(ctx context.Context, key client.ObjectKey) error {
	var from client.Reader = r.Client
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		var w Widget
		if err := from.Get(ctx, key, &w); err != nil {
			return err
		}
		from = r.APIReader
		before := w.DeepCopy()
		w.Spec.Items = append(w.Spec.Items, "y")
		return r.Patch(ctx, &w, client.MergeFrom(before)) // DEFECT: nothing to conflict on
	})
}

// end snippet

// snippet: cr-terminal
// strategy: write=merge-patch withRV=false read=lister retry=none
// SyncSize copies the size it was given as text, and the server refuses
// it (422: spec.size must be an integer). Returning the error requeues
// the key with backoff, for ever: a 422 is the same on every try.
// reconcile.TerminalError(err) says so — controller-runtime logs it and
// counts it, and does not requeue.
func (r *WidgetReconciler) SyncSize(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	u := &unstructured.Unstructured{}
	u.SetGroupVersionKind(Widgets.GroupVersion().WithKind("Widget"))
	if err := r.Get(ctx, req.NamespacedName, u); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	before := u.DeepCopy()
	if err := unstructured.SetNestedField(u.Object, "3", "spec", "size"); err != nil { // DEFECT: text, not a number
		return ctrl.Result{}, err
	}
	// A 422 wrapped as ctrl.TerminalError(err) would be logged and counted,
	// and not requeued.
	return ctrl.Result{}, r.Patch(ctx, u, client.MergeFrom(before))
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

// snippet: cr-update-then-status
// ResizeThenReport updates the spec first, then sets the status on the
// object Update rewrote — the server's answer, with its new
// resourceVersion — and sends that to /status.
func (r *WidgetReconciler) ResizeThenReport(ctx context.Context, key client.ObjectKey) error {
	var w Widget
	if err := r.Get(ctx, key, &w); err != nil {
		return err
	}
	w.Spec.Size = 2
	if err := r.Update(ctx, &w); err != nil {
		return err
	}
	w.Status.Phase = "Ready" // on the answer: nothing overwrites it now
	return r.Status().Update(ctx, &w)
}

// end snippet

// snippet: cr-ryw-consistency
// ReadOwnWrites is the Client part of the manager's options
// (manager.Options{Client: ReadOwnWrites()}) that turns on
// controller-runtime 0.25's experimental read-your-writes mode: a Get or
// List through the manager's client blocks until the cache has seen every
// write this client started before it (a List, every pending write to the
// kind; a Delete, until the object has left the cache). It covers this
// process's own writes only, in the representation they were made in
// (typed, unstructured or metadata), and not a cache that watches more
// than one namespace; client.DisableReadYourWritesConsistency skips it for
// one call. A read that blocks holds its worker, up to the context's
// deadline.
func ReadOwnWrites() client.Options {
	on := true
	return client.Options{Cache: &client.CacheOptions{EnableReadYourWritesConsistency: &on}}
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
