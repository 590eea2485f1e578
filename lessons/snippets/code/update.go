package code

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/util/retry"
)

// snippet: update-with-rv
// strategy: write=update read=lister retry=none
// UpdateOwner sets data.owner on a ConfigMap read from the Lister. The copy
// carries the resourceVersion it was read at, so a stale copy gets 409.
func UpdateOwner(ctx context.Context, c kubernetes.Interface, ns, name string, lister ConfigMapLister) error {
	cm, err := lister.Get(name)
	if err != nil {
		return err
	}
	cm = cm.DeepCopy() // never mutate the cache
	if cm.Data == nil {
		cm.Data = map[string]string{}
	}
	cm.Data["owner"] = "a"
	_, err = c.CoreV1().ConfigMaps(ns).Update(ctx, cm, metav1.UpdateOptions{})
	return err // a 409 here goes back to the workqueue
}

// end snippet

// snippet: retry-on-conflict
// strategy: write=update read=live retry=default
// SetOwnerWithRetry re-reads with a live GET on every attempt and re-applies
// the change to the fresh copy. Only conflicts are retried, as many times
// as retry.DefaultRetry's Steps allow: then the last 409 is returned.
// Its place is a command, a one-off write; inside a reconciler,
// returning the error lets the workqueue do the retrying.
func SetOwnerWithRetry(ctx context.Context, c kubernetes.Interface, ns, name string) error {
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		cm, err := c.CoreV1().ConfigMaps(ns).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		if cm.Data == nil {
			cm.Data = map[string]string{}
		}
		cm.Data["owner"] = "a"
		_, err = c.CoreV1().ConfigMaps(ns).Update(ctx, cm, metav1.UpdateOptions{})
		return err
	})
}

// end snippet

// snippet: update-clear-rv
// ForceOwner is the anti-pattern: clearing the resourceVersion makes the
// update unconditional, so whatever changed since the read is overwritten.
func ForceOwner(ctx context.Context, c kubernetes.Interface, ns, name string, lister ConfigMapLister) error {
	cm, err := lister.Get(name)
	if err != nil {
		return err
	}
	cm = cm.DeepCopy()
	if cm.Data == nil {
		cm.Data = map[string]string{}
	}
	cm.Data["owner"] = "a"
	cm.ResourceVersion = "" // DEFECT: "make the write always succeed"
	_, err = c.CoreV1().ConfigMaps(ns).Update(ctx, cm, metav1.UpdateOptions{})
	return err
}

// end snippet

// snippet: update-clear-rv-retry
// strategy: write=update-clear-rv read=lister retry=default
// ForceOwnerRetry clears the resourceVersion and retries on conflict, in
// case. An update without a precondition is never refused for being
// stale, so the retry never runs: the first attempt overwrites.
func ForceOwnerRetry(ctx context.Context, c kubernetes.Interface, ns, name string, lister ConfigMapLister) error {
	first := true
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		var cm *corev1.ConfigMap
		var err error
		if first {
			first = false
			cm, err = lister.Get(name)
			if err == nil {
				cm = cm.DeepCopy()
			}
		} else {
			cm, err = c.CoreV1().ConfigMaps(ns).Get(ctx, name, metav1.GetOptions{})
		}
		if err != nil {
			return err
		}
		if cm.Data == nil {
			cm.Data = map[string]string{}
		}
		cm.Data["owner"] = "a"
		cm.ResourceVersion = "" // DEFECT: nothing left for a conflict to be about
		_, err = c.CoreV1().ConfigMaps(ns).Update(ctx, cm, metav1.UpdateOptions{})
		return err
	})
}

// end snippet

// snippet: get-update-clear-rv
// strategy: write=update-clear-rv read=live retry=none
// ForceOwnerFresh reads with a live GET, so its copy is current when it
// is read, and still clears the resourceVersion. Between that GET and the
// update another writer can land; with no version to check, the server
// replaces the object with this copy all the same.
func ForceOwnerFresh(ctx context.Context, c kubernetes.Interface, ns, name string) error {
	cm, err := c.CoreV1().ConfigMaps(ns).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return err
	}
	if cm.Data == nil {
		cm.Data = map[string]string{}
	}
	cm.Data["owner"] = "a"
	cm.ResourceVersion = "" // DEFECT: a fresh read is no precondition
	_, err = c.CoreV1().ConfigMaps(ns).Update(ctx, cm, metav1.UpdateOptions{})
	return err
}

// end snippet
