package apply

import (
	"context"

	corev1 "k8s.io/api/core/v1"
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
	// Start from the object as it is, so that nothing else changes.
	var cm corev1.ConfigMap
	if err := r.Client.Get(ctx, req.NamespacedName, &cm); err != nil {
		return reconcile.Result{}, client.IgnoreNotFound(err)
	}
	data := map[string]string{}
	for k, v := range cm.Data {
		data[k] = v
	}
	data["replicas"], data["mode"] = "3", "auto"
	ac := corev1ac.ConfigMap(req.Name, req.Namespace).WithData(data)
	return reconcile.Result{}, r.Client.Apply(ctx, ac, client.FieldOwner(Manager), client.ForceOwnership)
}

// New builds the reconciler on the clients a manager hands out; the
// check calls it (leave it as it is).
func New(c simcluster.Clients) reconcile.Reconciler { return &Reconciler{Client: c.Client} }
