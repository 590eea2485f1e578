package finalizer

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/conflictlab/conflictlab/simcluster"
)

// Finalizer is the finalizer this controller puts on every ConfigMap it
// manages, so that it can clean up before one is deleted.
const Finalizer = "example.com/you"

// Reconciler makes sure the ConfigMap carries Finalizer.
type Reconciler struct {
	// Client is the manager's client: Get reads the informer cache,
	// writes go to the API server.
	Client client.Client
}

func (r *Reconciler) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
	var cm corev1.ConfigMap
	if err := r.Client.Get(ctx, req.NamespacedName, &cm); err != nil {
		return reconcile.Result{}, client.IgnoreNotFound(err)
	}
	// TODO: add Finalizer to cm and write it to the API server, without
	// erasing a finalizer another controller added meanwhile.
	return reconcile.Result{}, nil
}

// New builds the reconciler on the clients a manager hands out; the
// check calls it (leave it as it is).
func New(c simcluster.Clients) reconcile.Reconciler { return &Reconciler{Client: c.Client} }
