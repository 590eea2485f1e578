package code

import (
	"context"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/util/retry"
)

// snippet: retry-with-lister
// strategy: write=update read=lister retry=reread-lister
// SetReplicasRetryFromCache retries on conflict, but every attempt asks the
// informer's cache again. Informer lag is usually milliseconds, so the
// retry often gets a newer copy — and when the watch is slow (a busy API
// server, a burst of events) every attempt gets the same stale one: the bug
// is flaky, not certain. A retry must read from the API server.
func SetReplicasRetryFromCache(ctx context.Context, c kubernetes.Interface, ns, name string, lister ConfigMapLister) error {
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		cm, err := lister.Get(name) // DEFECT: not a fresh read
		if err != nil {
			return err
		}
		cm = cm.DeepCopy()
		if cm.Data == nil {
			cm.Data = map[string]string{}
		}
		cm.Data["replicas"] = "3"
		_, err = c.CoreV1().ConfigMaps(ns).Update(ctx, cm, metav1.UpdateOptions{})
		return err
	})
}

// end snippet

// snippet: retry-on-conflict-from-lister
// strategy: write=update read=lister retry=default
// SetReplicasRetryFresh takes its first copy from the informer's cache
// (free, and usually current) and every retry's from the API server: a
// refusal says the cache was behind, so asking it again would be asking
// the wrong one.
func SetReplicasRetryFresh(ctx context.Context, c kubernetes.Interface, ns, name string, lister ConfigMapLister) error {
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
		cm.Data["replicas"] = "3"
		_, err = c.CoreV1().ConfigMaps(ns).Update(ctx, cm, metav1.UpdateOptions{})
		return err
	})
}

// end snippet

// snippet: retry-no-reread
// strategy: write=update read=lister retry=no-reread
// SetReplicasRetry reads once and retries the write: the object
// sent on every attempt carries the same stale resourceVersion.
func SetReplicasRetry(ctx context.Context, c kubernetes.Interface, ns, name string, lister ConfigMapLister) error {
	cm, err := lister.Get(name)
	if err != nil {
		return err
	}
	cm = cm.DeepCopy()
	if cm.Data == nil {
		cm.Data = map[string]string{}
	}
	cm.Data["replicas"] = "3"
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		_, err := c.CoreV1().ConfigMaps(ns).Update(ctx, cm, metav1.UpdateOptions{}) // DEFECT: same copy every time
		return err
	})
}

// end snippet

// snippet: retry-any-error
// strategy: write=update read=live retry=any-error
// AddCleanupFinalizer retries whatever goes wrong. The finalizer name is
// not qualified (example.com/cleanup would be), so the server answers 422
// Invalid — and will answer it again on every attempt.
func AddCleanupFinalizer(ctx context.Context, c kubernetes.Interface, ns, name string) error {
	always := func(error) bool { return true } // DEFECT: 422, 403 and 404 are retried too
	return retry.OnError(retry.DefaultRetry, always, func() error {
		cm, err := c.CoreV1().ConfigMaps(ns).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		cm.Finalizers = append(cm.Finalizers, "cleanup")
		_, err = c.CoreV1().ConfigMaps(ns).Update(ctx, cm, metav1.UpdateOptions{})
		return err
	})
}

// end snippet

// snippet: retry-unbounded
// strategy: write=update read=live retry=unbounded
// SetOwnerRetrying re-reads and retries every conflict, for as long as
// it takes. While the object stays contended the call never returns, and
// the worker running it serves no other key of its queue.
func SetOwnerRetrying(ctx context.Context, c kubernetes.Interface, ns, name string) error {
	for { // DEFECT: no bound
		cm, err := c.CoreV1().ConfigMaps(ns).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		if cm.Data == nil {
			cm.Data = map[string]string{}
		}
		cm.Data["owner"] = "a"
		_, err = c.CoreV1().ConfigMaps(ns).Update(ctx, cm, metav1.UpdateOptions{})
		if !apierrors.IsConflict(err) {
			return err
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// end snippet
