package code

import (
	"context"

	"k8s.io/client-go/util/retry"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/log"
	"sigs.k8s.io/controller-runtime/pkg/predicate"
	ctrl "sigs.k8s.io/controller-runtime/pkg/reconcile"
)

// The reconcilers of lesson 3: one change (spec.size) from the manager's
// cache, one update with the copy's resourceVersion, and four ways to
// treat the 409 it may get.

// snippet: widget-reconcile-swallow
// strategy: write=update read=lister retry=none
// Reconcile logs a failed update and returns nil: the key leaves the
// queue as done. It counts on the next watch event of the widget to bring
// the key back — and the write that refused it makes one.
func (r *WidgetReconciler) ReconcileSwallow(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var w Widget
	if err := r.Get(ctx, req.NamespacedName, &w); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	w.Spec.Size = 3
	if err := r.Update(ctx, &w); err != nil {
		log.FromContext(ctx).Error(err, "resize failed")
		return ctrl.Result{}, nil // DEFECT: the error is hidden, and only an event brings the key back
	}
	return ctrl.Result{}, nil
}

// end snippet

// snippet: widget-reconcile-filtered
// strategy: write=update read=lister retry=none
// WidgetEvents is the filter the controller watches widgets through
// (builder.WithPredicates(WidgetEvents()) in SetupWithManager): an update
// passes only when metadata.generation moved. On a custom resource with
// a status subresource only a spec change moves it, so a status write or
// a label patch brings no key back — and ReconcileSwallow, above, waits
// for an event that never comes.
func WidgetEvents() predicate.Predicate {
	return predicate.GenerationChangedPredicate{}
}

func (r *WidgetReconciler) ReconcileFiltered(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var w Widget
	if err := r.Get(ctx, req.NamespacedName, &w); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	w.Spec.Size = 3
	if err := r.Update(ctx, &w); err != nil {
		log.FromContext(ctx).Error(err, "resize failed")
		return ctrl.Result{}, nil // DEFECT: the events that could bring the key back are filtered
	}
	return ctrl.Result{}, nil
}

// end snippet

// snippet: widget-reconcile-requeue
// strategy: write=update read=lister retry=none
// Reconcile returns the error: the controller logs it, counts it, and
// puts the key back with the rate limiter's per-item backoff (5ms, 10ms,
// 20ms…). The next reconcile reads the cache again — caught up by then,
// or a little later — and makes the change on that copy. No event is
// needed, whatever the predicates.
func (r *WidgetReconciler) ReconcileRequeue(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var w Widget
	if err := r.Get(ctx, req.NamespacedName, &w); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	w.Spec.Size = 3
	if err := r.Update(ctx, &w); err != nil {
		return ctrl.Result{}, err // a 409 included: back later, from a fresher cache
	}
	return ctrl.Result{}, nil
}

// end snippet

// snippet: widget-reconcile-resend
// strategy: write=update read=lister retry=no-reread
// Reconcile retries the update at once, up to five calls, with the object
// it already has: the same resourceVersion every time.
func (r *WidgetReconciler) ReconcileResend(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var w Widget
	if err := r.Get(ctx, req.NamespacedName, &w); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	w.Spec.Size = 3
	err := retry.RetryOnConflict(retry.DefaultRetry, func() error {
		return r.Update(ctx, &w) // DEFECT: nothing re-read between attempts
	})
	if err != nil {
		log.FromContext(ctx).Error(err, "resize failed")
	}
	return ctrl.Result{}, nil
}

// end snippet
