package counter

import (
	"context"
	"strconv"

	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/conflictlab/conflictlab/simcluster"
)

// Reconciler counts its visits to the ConfigMap in data.visits.
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
	n, err := strconv.Atoi(cm.Data["visits"])
	if err != nil {
		return reconcile.Result{}, nil // not a count: leave it alone
	}
	base := cm.DeepCopy()
	cm.Data["visits"] = strconv.Itoa(n + 1)
	// n+1 is right only if the count is still n: the optimistic lock puts
	// the resourceVersion read into the patch, so the server answers 409
	// if the other replica counted meanwhile, and the requeued reconcile
	// counts again from the newer value.
	patch := client.MergeFromWithOptions(base, client.MergeFromWithOptimisticLock{})
	return reconcile.Result{}, r.Client.Patch(ctx, &cm, patch)
}

// New builds the reconciler on the clients a manager hands out; the
// check calls it (leave it as it is).
func New(c simcluster.Clients) reconcile.Reconciler { return &Reconciler{Client: c.Client} }
