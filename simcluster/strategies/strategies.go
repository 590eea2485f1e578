// Package strategies holds the ways a controller can write its change,
// as real reconcile code on controller-runtime's client and client-go:
// the right way and the typical wrong one for each idea the course
// teaches. Package simcluster's tests prove each tallies as its model in
// the scenario format over every interleaving, the conformance suite
// plays them on a real kube-apiserver, and they are examples of code
// simcluster runs unchanged.
//
// Each returns what simcluster.Controller.New wants. The object is the one
// the reconcile request names: a ConfigMap, or (WidgetColor) a Widget.
package strategies

import (
	"context"
	"strconv"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	corev1ac "k8s.io/client-go/applyconfigurations/core/v1"
	"k8s.io/client-go/util/retry"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/conflictlab/conflictlab/simcluster"
)

// New is a reconciler's constructor, as simcluster.Controller takes it.
type New = func(simcluster.Clients) reconcile.Reconciler

// cached reads the request's ConfigMap from the controller's cache;
// found is false when it is gone (nothing to do).
func cached(ctx context.Context, c client.Client, req reconcile.Request) (cm *corev1.ConfigMap, found bool, err error) {
	cm = &corev1.ConfigMap{}
	if err := c.Get(ctx, req.NamespacedName, cm); err != nil {
		return nil, false, client.IgnoreNotFound(err)
	}
	return cm, true, nil
}

// Finalizer adds finalizer to the cached copy and writes it with Update
// (a 409 is returned, for the workqueue to requeue) or, with patch, with a
// MergeFrom patch — which never conflicts, and replaces the whole list.
func Finalizer(finalizer string, patch bool) New {
	return func(c simcluster.Clients) reconcile.Reconciler {
		return reconcile.Func(func(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
			cm, found, err := cached(ctx, c.Client, req)
			if !found {
				return reconcile.Result{}, err
			}
			base := cm.DeepCopy()
			if !controllerutil.AddFinalizer(cm, finalizer) {
				return reconcile.Result{}, nil
			}
			if patch {
				return reconcile.Result{}, c.Client.Patch(ctx, cm, client.MergeFrom(base))
			}
			return reconcile.Result{}, c.Client.Update(ctx, cm)
		})
	}
}

// Increment adds one to data[key] of the cached copy and writes it with a
// MergeFrom patch: blind (an increment computed from a stale copy lands,
// and one is lost) or, with lock, MergeFromWithOptimisticLock (409, and
// the requeue recomputes it).
func Increment(key string, lock bool) New {
	return func(c simcluster.Clients) reconcile.Reconciler {
		return reconcile.Func(func(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
			cm, found, err := cached(ctx, c.Client, req)
			if !found {
				return reconcile.Result{}, err
			}
			var patch client.Patch = client.MergeFrom(cm.DeepCopy())
			if lock {
				patch = client.MergeFromWithOptions(cm.DeepCopy(), client.MergeFromWithOptimisticLock{})
			}
			n, _ := strconv.Atoi(cm.Data[key])
			if cm.Data == nil {
				cm.Data = map[string]string{}
			}
			cm.Data[key] = strconv.Itoa(n + 1)
			return reconcile.Result{}, c.Client.Patch(ctx, cm, patch)
		})
	}
}

// RetryLive sets data[key]=value with client-go: retry.RetryOnConflict
// around a live GET and an Update, each attempt from a fresh read.
func RetryLive(key, value string) New {
	return func(c simcluster.Clients) reconcile.Reconciler {
		return reconcile.Func(func(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
			cms := c.Kube.CoreV1().ConfigMaps(req.Namespace)
			return reconcile.Result{}, retry.RetryOnConflict(retry.DefaultRetry, func() error {
				cm, err := cms.Get(ctx, req.Name, metav1.GetOptions{})
				if err != nil {
					return err
				}
				if cm.Data[key] == value {
					return nil
				}
				if cm.Data == nil {
					cm.Data = map[string]string{}
				}
				cm.Data[key] = value
				_, err = cms.Update(ctx, cm, metav1.UpdateOptions{})
				return err
			})
		})
	}
}

// ListerOverwrite sets data[key]=value on a copy of what client-go's
// lister holds and updates it with the resourceVersion cleared: an
// unconditional write of a possibly stale copy.
func ListerOverwrite(key, value string) New {
	return func(c simcluster.Clients) reconcile.Reconciler {
		lister := c.ConfigMapLister()
		return reconcile.Func(func(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
			cm, err := lister.ConfigMaps(req.Namespace).Get(req.Name)
			if err != nil {
				return reconcile.Result{}, err
			}
			cm = cm.DeepCopy()
			if cm.Data == nil {
				cm.Data = map[string]string{}
			}
			cm.Data[key] = value
			cm.ResourceVersion = ""
			_, err = c.Kube.CoreV1().ConfigMaps(req.Namespace).Update(ctx, cm, metav1.UpdateOptions{})
			return reconcile.Result{}, err
		})
	}
}

// Apply owns data[key]=value with server-side apply (client.Apply with an
// apply configuration), forcing, under manager. readFirst reads the cache
// first, as a controller that looks before it acts does (and as the
// scenario format's apply does).
func Apply(key, value, manager string, readFirst bool) New {
	return func(c simcluster.Clients) reconcile.Reconciler {
		return reconcile.Func(func(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
			if readFirst {
				if _, found, err := cached(ctx, c.Client, req); !found {
					return reconcile.Result{}, err
				}
			}
			ac := corev1ac.ConfigMap(req.Name, req.Namespace).WithData(map[string]string{key: value})
			return reconcile.Result{}, c.Client.Apply(ctx, ac, client.FieldOwner(manager), client.ForceOwnership)
		})
	}
}

// WidgetColor sets the Widget's spec.color with the dynamic client: a live
// GET and an Update (409 when it moved on meanwhile).
func WidgetColor(color string) New {
	return func(c simcluster.Clients) reconcile.Reconciler {
		return reconcile.Func(func(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
			ws := c.Dynamic.Resource(simcluster.WidgetResource).Namespace(req.Namespace)
			w, err := ws.Get(ctx, req.Name, metav1.GetOptions{})
			if err != nil {
				return reconcile.Result{}, err
			}
			if err := unstructured.SetNestedField(w.Object, color, "spec", "color"); err != nil {
				return reconcile.Result{}, err
			}
			_, err = ws.Update(ctx, w, metav1.UpdateOptions{})
			return reconcile.Result{}, err
		})
	}
}
