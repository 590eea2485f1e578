package simcluster_test

import (
	"context"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/conflictlab/conflictlab/sim/scenario"
	"github.com/conflictlab/conflictlab/simcluster"
)

// The README's example ("Prove your own reconcile"): a kubebuilder-shaped
// reconciler, proven over every interleaving of testdata/finalizer-race.yaml.

// FinalizerReconciler adds its finalizer; Patch says how it writes.
type FinalizerReconciler struct {
	Client client.Client
	// Patch: a MergeFrom patch (the bug) instead of an Update.
	Patch bool
}

func (r *FinalizerReconciler) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
	var cm corev1.ConfigMap
	if err := r.Client.Get(ctx, req.NamespacedName, &cm); err != nil {
		return reconcile.Result{}, client.IgnoreNotFound(err)
	}
	base := cm.DeepCopy()
	if !controllerutil.AddFinalizer(&cm, "example.com/mine") {
		return reconcile.Result{}, nil
	}
	if r.Patch {
		return reconcile.Result{}, r.Client.Patch(ctx, &cm, client.MergeFrom(base))
	}
	return reconcile.Result{}, r.Client.Update(ctx, &cm) // a 409 goes back to the workqueue
}

func proveFinalizer(t simcluster.TB, patch bool) *simcluster.Exploration {
	sc, err := scenario.Load("testdata/finalizer-race.yaml")
	if err != nil {
		t.Errorf("%v", err)
		return nil
	}
	return simcluster.Prove(t, sc, simcluster.Options{}, simcluster.Controller{
		Name: "mine",
		New: func(c simcluster.Clients) reconcile.Reconciler {
			return &FinalizerReconciler{Client: c.Client, Patch: patch}
		},
	})
}

func TestReadmeExample(t *testing.T) {
	// The update passes: every interleaving keeps both finalizers.
	proveFinalizer(t, false)

	// The patch fails, with the losing schedule.
	var rec recorder
	proveFinalizer(&rec, true)
	if len(rec.errors) != 1 || !strings.Contains(rec.errors[0], "✗ LOST metadata.finalizers — other wanted \"add finalizer example.com/other\"; erased by mine") {
		t.Fatalf("%q", rec.errors)
	}
	t.Logf("what the failing test prints:\n%s", rec.errors[0])
}
