package code

import (
	"context"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/util/retry"
)

// The code lesson 16 reviews, one pull request each. The names say what
// a function is for, as a real one would; what is wrong with it is for
// the reviewer to find (the comments, shown after the answer, say).

// snippet: review-set-owner
// strategy: write=update-clear-rv read=lister retry=none
// SetOwner is the "fix" for the flaky 409s: it empties ResourceVersion
// before the update, so a ConfigMap takes the whole object unconditionally
// — the 409s are gone because the check is gone, and a stale copy now
// overwrites what others wrote since.
func SetOwner(ctx context.Context, c kubernetes.Interface, ns, name string, lister ConfigMapLister) error {
	cm, err := lister.Get(name)
	if err != nil {
		return err
	}
	cm = cm.DeepCopy()
	if cm.Data == nil {
		cm.Data = map[string]string{}
	}
	cm.Data["owner"] = "team-a"
	cm.ResourceVersion = "" // DEFECT: an unconditional overwrite
	_, err = c.CoreV1().ConfigMaps(ns).Update(ctx, cm, metav1.UpdateOptions{})
	return err
}

// end snippet

// snippet: review-set-replicas
// strategy: write=update read=lister retry=no-reread
// SetReplicas reads once and retries only the update: every attempt sends
// the same object with the same stale resourceVersion, and gets the same
// 409, five times.
func SetReplicas(ctx context.Context, c kubernetes.Interface, ns, name string, lister ConfigMapLister) error {
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
		_, err := c.CoreV1().ConfigMaps(ns).Update(ctx, cm, metav1.UpdateOptions{}) // DEFECT: the same copy every time
		return err
	})
}

// end snippet

// snippet: review-add-finalizer
// strategy: write=update read=live retry=any-error
// AddFinalizer retries whatever goes wrong. Its finalizer name is not
// qualified (example.com/cleanup would be), so the server answers 422
// Invalid — and answers it again on every attempt, with nobody else
// anywhere near the object.
func AddFinalizer(ctx context.Context, c kubernetes.Interface, ns, name string) error {
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

// snippet: review-sync-widget
// strategy: write=update read=live retry=none
// SyncWidget sets the replicas it wants and the replicas it found ready,
// and sends both in one update. The widget has a status subresource: the
// main endpoint keeps the status it has, answers 200, and the report is
// gone — with one controller and no race at all.
func SyncWidget(ctx context.Context, dc dynamic.Interface, ns, name string) error {
	w, err := dc.Resource(Widgets).Namespace(ns).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return err
	}
	if err := unstructured.SetNestedField(w.Object, int64(3), "spec", "replicas"); err != nil {
		return err
	}
	if err := unstructured.SetNestedField(w.Object, int64(3), "status", "readyReplicas"); err != nil {
		return err
	}
	_, err = dc.Resource(Widgets).Namespace(ns).Update(ctx, w, metav1.UpdateOptions{}) // DEFECT: status here is dropped
	return err
}

// end snippet

// snippet: review-ensure-owner
// strategy: write=update read=live retry=unbounded
// EnsureOwner re-reads and retries every conflict, for as long as it
// takes. While the object stays contended the call never returns, and the
// worker running it serves no other key of its queue.
func EnsureOwner(ctx context.Context, c kubernetes.Interface, ns, name string) error {
	for { // DEFECT: no bound
		cm, err := c.CoreV1().ConfigMaps(ns).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		if cm.Data == nil {
			cm.Data = map[string]string{}
		}
		cm.Data["owner"] = "team-a"
		_, err = c.CoreV1().ConfigMaps(ns).Update(ctx, cm, metav1.UpdateOptions{})
		if !apierrors.IsConflict(err) {
			return err
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// end snippet

// snippet: review-owner-cli
// strategy: write=update read=live retry=default
// SetOwnerFromCLI is a kubectl plugin's one write. The GET and the update
// are both inside RetryOnConflict, so a 409 means "read again", and the
// retry sends the copy the server has now; retry.DefaultRetry bounds it at
// five attempts, and only a Conflict is retried. Nothing to stop in
// review: a command run once has no workqueue to return the 409 to.
func SetOwnerFromCLI(ctx context.Context, c kubernetes.Interface, ns, name, owner string) error {
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		cm, err := c.CoreV1().ConfigMaps(ns).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		if cm.Data == nil {
			cm.Data = map[string]string{}
		}
		cm.Data["owner"] = owner
		_, err = c.CoreV1().ConfigMaps(ns).Update(ctx, cm, metav1.UpdateOptions{})
		return err
	})
}

// end snippet
