package child

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/conflictlab/conflictlab/simcluster"
)

// Reconciler gives every parent ConfigMap one child: a ConfigMap
// labelled app=web that records its parent.
type Reconciler struct {
	// Client is the manager's client: Get and List read the informer
	// cache, writes go to the API server.
	Client client.Client
}

func (r *Reconciler) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
	var children corev1.ConfigMapList
	if err := r.Client.List(ctx, &children, client.InNamespace(req.Namespace), client.MatchingLabels{"app": "web"}); err != nil {
		return reconcile.Result{}, err
	}
	if len(children.Items) > 0 {
		return reconcile.Result{}, nil // it has its child
	}
	// TODO: the cache may not have seen the child the previous reconcile
	// created: then this one creates a second. Make the create happen
	// once whatever the cache says.
	child := &corev1.ConfigMap{
		ObjectMeta: metav1.ObjectMeta{
			GenerateName: req.Name + "-",
			Namespace:    req.Namespace,
			Labels:       map[string]string{"app": "web"},
		},
		Data: map[string]string{"parent": req.Name},
	}
	return reconcile.Result{}, r.Client.Create(ctx, child)
}

// New builds the reconciler on the clients a manager hands out; the
// check calls it (leave it as it is).
func New(c simcluster.Clients) reconcile.Reconciler { return &Reconciler{Client: c.Client} }
