package status

import (
	"context"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/conflictlab/conflictlab/simcluster"
)

// Widget is the custom resource's kind. This module has no Go type for
// it, so it is read and written as unstructured.Unstructured.
var Widget = schema.GroupVersionKind{Group: "oracle.example.com", Version: "v1", Kind: "Widget"}

// Reconciler reports on a Widget: every replica its spec asks for is
// ready at once, in this simple world, and the status says which
// generation of the spec it describes.
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
	size, _, err := unstructured.NestedInt64(w.Object, "spec", "size")
	if err != nil {
		return reconcile.Result{}, err
	}
	_ = size
	// TODO: set status.readyReplicas to size and status.observedGeneration
	// to the generation you read, and write them to the Widget's /status
	// (r.Client.Status()) — such that they never land on a spec that has
	// changed since you read it.
	return reconcile.Result{}, nil
}

// New builds the reconciler on the clients a manager hands out; the
// check calls it (leave it as it is).
func New(c simcluster.Clients) reconcile.Reconciler { return &Reconciler{Client: c.Client} }
