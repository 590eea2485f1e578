package release

import (
	"context"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/conflictlab/conflictlab/simcluster"
)

// Finalizer is the finalizer this controller put on the Widgets it
// managed.
const Finalizer = "example.com/you"

// Widget is the custom resource's kind, read and written as
// unstructured.Unstructured (this module has no Go type for it).
var Widget = schema.GroupVersionKind{Group: "oracle.example.com", Version: "v1", Kind: "Widget"}

// Reconciler releases a Widget this controller no longer manages: it
// removes its finalizer, so that nothing of its holds the Widget once
// it is deleted.
type Reconciler struct {
	// Client is the manager's client: Get reads the informer cache,
	// writes go to the API server.
	Client client.Client
}

func (r *Reconciler) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
	w := &unstructured.Unstructured{}
	w.SetGroupVersionKind(Widget)
	if err := r.Client.Get(ctx, req.NamespacedName, w); err != nil {
		return reconcile.Result{}, client.IgnoreNotFound(err)
	}
	if !controllerutil.ContainsFinalizer(w, Finalizer) {
		return reconcile.Result{}, nil
	}
	base := w.DeepCopy()
	controllerutil.RemoveFinalizer(w, Finalizer)
	// A patch: only the finalizers change.
	return reconcile.Result{}, r.Client.Patch(ctx, w, client.MergeFrom(base))
}

// New builds the reconciler on the clients a manager hands out; the
// check calls it (leave it as it is).
func New(c simcluster.Clients) reconcile.Reconciler { return &Reconciler{Client: c.Client} }
