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
	// The whole intent, built from this controller's own inputs: only the
	// fields it is responsible for, and no resourceVersion (apply merges
	// by field ownership, and nothing read goes into it). ForceOwnership
	// takes data.replicas from "setup", which set it first: it is this
	// controller's field, and without force the server answers 409.
	ac := corev1ac.ConfigMap(req.Name, req.Namespace).
		WithData(map[string]string{"replicas": "3", "mode": "auto"})
	return reconcile.Result{}, r.Client.Apply(ctx, ac, client.FieldOwner(Manager), client.ForceOwnership)
}

// New builds the reconciler on the clients a manager hands out; the
// check calls it (leave it as it is).
func New(c simcluster.Clients) reconcile.Reconciler { return &Reconciler{Client: c.Client} }
