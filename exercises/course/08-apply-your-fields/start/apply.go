package apply

import (
	"context"

	corev1ac "k8s.io/client-go/applyconfigurations/core/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/conflictlab/conflictlab/simcluster"
)

// Manager is the field manager this controller writes under.
const Manager = "you"

// Reconciler keeps two fields of the ConfigMap as this controller wants
// them: data.replicas = "3" and data.mode = "auto".
type Reconciler struct {
	// Client is the manager's client: Get reads the informer cache,
	// writes go to the API server.
	Client client.Client
}

func (r *Reconciler) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
	// TODO: declare this controller's two fields with server-side apply:
	// an apply configuration (corev1ac.ConfigMap(name, namespace)…) sent
	// with r.Client.Apply under the field manager Manager. It must land
	// even though another manager set data.replicas first, and it must
	// not take anyone else's fields.
	_ = corev1ac.ConfigMap(req.Name, req.Namespace)
	return reconcile.Result{}, nil
}

// New builds the reconciler on the clients a manager hands out; the
// check calls it (leave it as it is).
func New(c simcluster.Clients) reconcile.Reconciler { return &Reconciler{Client: c.Client} }
