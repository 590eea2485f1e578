package code

import (
	"context"
	"strconv"
	"sync"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/util/resourceversion"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/util/retry"
)

// ConfigMapListLister is the slice of client-go's generated namespace
// lister that finds children by label
// (corev1listers.ConfigMapNamespaceLister has both methods).
type ConfigMapListLister interface {
	ConfigMapLister
	List(selector labels.Selector) ([]*corev1.ConfigMap, error)
}

// child is the ConfigMap a parent owns: found by its label, named by the
// server from its generateName, or by the name given.
func child(ns, name, generateName string) *corev1.ConfigMap {
	return &corev1.ConfigMap{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name, GenerateName: generateName,
			Labels: map[string]string{"app": "web"}},
		Data: map[string]string{"owner": "parent"},
	}
}

var webChildren = labels.SelectorFromSet(labels.Set{"app": "web"})

// snippet: ensure-child-lister
// strategy: write=create read=lister retry=none
// EnsureChild creates a child unless the cache holds one. Right after its
// own create the cache has not seen the child yet: the next reconcile
// finds none and creates a second (the server names each one anew).
func EnsureChild(ctx context.Context, c kubernetes.Interface, ns string, lister ConfigMapListLister) error {
	children, err := lister.List(webChildren) // DEFECT: the cache may not have our own create yet
	if err != nil {
		return err
	}
	if len(children) > 0 {
		return nil
	}
	_, err = c.CoreV1().ConfigMaps(ns).Create(ctx, child(ns, "", "web-"), metav1.CreateOptions{})
	return err
}

// end snippet

// snippet: ensure-child-named
// strategy: write=create read=lister retry=reread-lister
// EnsureNamedChild gives the child a name of its own, so a second create
// is refused with 409 AlreadyExists: the name is the precondition. But
// AlreadyExists is not a Conflict, so RetryOnConflict returns it at once.
func EnsureNamedChild(ctx context.Context, c kubernetes.Interface, ns string, lister ConfigMapLister) error {
	return retry.RetryOnConflict(retry.DefaultRetry, func() error { // DEFECT: retries nothing here
		_, err := lister.Get("web-child")
		if err == nil || !apierrors.IsNotFound(err) {
			return err
		}
		_, err = c.CoreV1().ConfigMaps(ns).Create(ctx, child(ns, "web-child", ""), metav1.CreateOptions{})
		return err // 409 AlreadyExists: IsConflict is false
	})
}

// end snippet

// snippet: ensure-child-requeue
// strategy: write=create read=lister retry=none
// EnsureNamedChildRequeue returns AlreadyExists like any error: the
// workqueue hands the key back after its backoff, and by then the cache
// holds the child, so the next reconcile has nothing to do.
func EnsureNamedChildRequeue(ctx context.Context, c kubernetes.Interface, ns string, lister ConfigMapLister) error {
	_, err := lister.Get("web-child")
	if err == nil || !apierrors.IsNotFound(err) {
		return err
	}
	_, err = c.CoreV1().ConfigMaps(ns).Create(ctx, child(ns, "web-child", ""), metav1.CreateOptions{})
	return err // AlreadyExists: someone (we, a moment ago) made it; look again later
}

// end snippet

// snippet: ensure-child-live
// strategy: write=create read=live retry=none
// EnsureNamedChildLive asks the API server, not the cache, whether the
// child exists: always current, at the price of a GET on every reconcile.
func EnsureNamedChildLive(ctx context.Context, c kubernetes.Interface, ns string) error {
	_, err := c.CoreV1().ConfigMaps(ns).Get(ctx, "web-child", metav1.GetOptions{})
	if err == nil || !apierrors.IsNotFound(err) {
		return err
	}
	_, err = c.CoreV1().ConfigMaps(ns).Create(ctx, child(ns, "web-child", ""), metav1.CreateOptions{})
	return err
}

// end snippet

// snippet: ensure-child-any-error
// strategy: write=create read=lister retry=any-error
// EnsureNamedChildAnyError retries whatever the create gets, reading the
// API server before each new attempt: after AlreadyExists that GET finds
// the child, at the price of a request the cache would have saved.
func EnsureNamedChildAnyError(ctx context.Context, c kubernetes.Interface, ns string, lister ConfigMapLister) error {
	first := true
	always := func(error) bool { return true }
	return retry.OnError(retry.DefaultRetry, always, func() error {
		var err error
		if first {
			_, err = lister.Get("web-child")
		} else {
			_, err = c.CoreV1().ConfigMaps(ns).Get(ctx, "web-child", metav1.GetOptions{})
		}
		first = false
		if err == nil || !apierrors.IsNotFound(err) {
			return err
		}
		_, err = c.CoreV1().ConfigMaps(ns).Create(ctx, child(ns, "web-child", ""), metav1.CreateOptions{})
		return err
	})
}

// end snippet

// snippet: delete-old-child
// DeleteOldChild deletes web-old when its Lister shows it. Expectations
// keyed on the resourceVersion of our own writes cannot cover a delete:
// the server answers a DELETE that removes the object with a Status that
// carries no resourceVersion, and Delete returns only an error, so the
// next reconcile reads web-old from the cache again, and deletes it again.
func DeleteOldChild(ctx context.Context, c kubernetes.Interface, ns string, lister ConfigMapLister) error {
	old, err := lister.Get("web-old")
	if apierrors.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return err
	}
	err = c.CoreV1().ConfigMaps(ns).Delete(ctx, old.Name, metav1.DeleteOptions{})
	if apierrors.IsNotFound(err) {
		return nil // deleted already (by us, a moment ago)
	}
	return err
}

// end snippet

// Expectations remember, per parent, how many creations the cache has yet
// to show: the ReplicaSet controller's ControllerExpectations, cut down.
type Expectations struct {
	mu      sync.Mutex
	pending map[string]int
}

// snippet: ensure-child-expectations
// strategy: write=create read=lister retry=none
// EnsureChildExpecting decides from the cache only once the cache has
// seen every child this controller created. Until then it does nothing:
// the ADDED event it waits for brings the key back.
func EnsureChildExpecting(ctx context.Context, c kubernetes.Interface, ns, key string, lister ConfigMapListLister, exp *Expectations) error {
	if !exp.Satisfied(key) {
		return nil // our own create is not in the cache yet: wait for its event
	}
	children, err := lister.List(webChildren)
	if err != nil || len(children) > 0 {
		return err
	}
	exp.ExpectCreations(key, 1) // before the create: its event may come back at once
	if _, err := c.CoreV1().ConfigMaps(ns).Create(ctx, child(ns, "", "web-"), metav1.CreateOptions{}); err != nil {
		exp.CreationObserved(key) // no event will come for a create that failed
		return err
	}
	return nil
}

// OnChildAdded is the informer's AddFunc for children: one expected
// creation is now in the cache. (It also enqueues the parent's key.)
func OnChildAdded(key string, exp *Expectations) { exp.CreationObserved(key) }

// end snippet

// ExpectCreations records n creations the cache has yet to show.
func (e *Expectations) ExpectCreations(key string, n int) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.pending == nil {
		e.pending = map[string]int{}
	}
	e.pending[key] += n
}

// CreationObserved lowers the count by one.
func (e *Expectations) CreationObserved(key string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.pending[key] > 0 {
		e.pending[key]--
	}
}

// Satisfied reports whether the cache has shown every expected creation.
func (e *Expectations) Satisfied(key string) bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.pending[key] == 0
}

// snippet: count-syncs-from-lister
// strategy: write=update read=lister retry=none
// CountSync adds one to data.syncs on the Lister's copy and updates it
// with that copy's resourceVersion. Run twice in a row, the second read
// can be the copy from before the first update: a 409 on our own write.
func CountSync(ctx context.Context, c kubernetes.Interface, ns, name string, lister ConfigMapLister) error {
	cm, err := lister.Get(name)
	if err != nil {
		return err
	}
	cm = cm.DeepCopy()
	n, _ := strconv.Atoi(cm.Data["syncs"])
	if cm.Data == nil {
		cm.Data = map[string]string{}
	}
	cm.Data["syncs"] = strconv.Itoa(n + 1)
	_, err = c.CoreV1().ConfigMaps(ns).Update(ctx, cm, metav1.UpdateOptions{})
	return err
}

// end snippet

// Written remembers the resourceVersion each of our writes was answered
// with, by key.
type Written struct {
	mu sync.Mutex
	rv map[string]string
}

// snippet: wait-for-own-write
// strategy: write=update read=lister retry=none
// CountSyncCaughtUp compares the cached copy's resourceVersion with the
// one our last update returned. Older means the cache has not seen our
// own write: do nothing now, its MODIFIED event will requeue the key.
func CountSyncCaughtUp(ctx context.Context, c kubernetes.Interface, ns, name string, lister ConfigMapLister, w *Written) error {
	cm, err := lister.Get(name)
	if err != nil {
		return err
	}
	if last := w.Get(name); last != "" {
		cmp, err := resourceversion.CompareResourceVersion(cm.ResourceVersion, last)
		if err != nil {
			return err // not a number: this server's versions cannot be ordered
		}
		if cmp < 0 {
			return nil // the cache is behind our own write: wait for its event
		}
	}
	cm = cm.DeepCopy()
	n, _ := strconv.Atoi(cm.Data["syncs"])
	if cm.Data == nil {
		cm.Data = map[string]string{}
	}
	cm.Data["syncs"] = strconv.Itoa(n + 1)
	updated, err := c.CoreV1().ConfigMaps(ns).Update(ctx, cm, metav1.UpdateOptions{})
	if err != nil {
		return err
	}
	w.Set(name, updated.ResourceVersion)
	return nil
}

// end snippet

// Get is the resourceVersion of our last write to name, "" if none.
func (w *Written) Get(name string) string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.rv[name]
}

// Set records it.
func (w *Written) Set(name, rv string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.rv == nil {
		w.rv = map[string]string{}
	}
	w.rv[name] = rv
}
