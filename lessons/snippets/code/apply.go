package code

import (
	"context"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	corev1ac "k8s.io/client-go/applyconfigurations/core/v1"
	"k8s.io/client-go/kubernetes"
)

// snippet: apply
// strategy: write=apply force=false withRV=false
// ApplyX declares the one field this manager cares about. No read, and no
// resourceVersion (with one, the apply would be refused whenever the
// object had changed since it was read): the server merges the declaration
// into the object and records the manager as the owner of .data.x. If
// another manager owns .data.x with a different value, the answer is 409:
// Apply failed with 1 conflict: conflict with "a": .data.x
func ApplyX(ctx context.Context, c kubernetes.Interface, ns, name, manager, value string) error {
	cfg := corev1ac.ConfigMap(name, ns).WithData(map[string]string{"x": value})
	_, err := c.CoreV1().ConfigMaps(ns).Apply(ctx, cfg, metav1.ApplyOptions{FieldManager: manager})
	return err
}

// end snippet

// snippet: apply-three
// strategy: write=apply force=false withRV=false
// ApplyKey declares one key of data under a manager's name, built from
// scratch: no read, no resourceVersion. ApplyThree is the race's three
// controllers, each its own field manager.
func ApplyKey(ctx context.Context, c kubernetes.Interface, ns, name, manager, key, value string) error {
	cfg := corev1ac.ConfigMap(name, ns).WithData(map[string]string{key: value})
	_, err := c.CoreV1().ConfigMaps(ns).Apply(ctx, cfg, metav1.ApplyOptions{FieldManager: manager})
	return err
}

func ApplyThree(ctx context.Context, c kubernetes.Interface, ns string) []error {
	return []error{
		ApplyKey(ctx, c, ns, "cm1", "a", "x", "1"),
		ApplyKey(ctx, c, ns, "cm1", "b", "y", "1"),
		ApplyKey(ctx, c, ns, "cm1", "c", "x", "2"),
	}
}

// end snippet

// snippet: apply-force
// strategy: write=apply force=true withRV=false
// TakeOverX applies with force, as a controller should for the fields it is
// responsible for: contested fields change hands to this manager, and the
// previous owner's managedFields entry loses them. If two controllers both
// force one field, force is not the bug: two owners for one field is.
func TakeOverX(ctx context.Context, c kubernetes.Interface, ns, name, manager, value string) error {
	cfg := corev1ac.ConfigMap(name, ns).WithData(map[string]string{"x": value})
	_, err := c.CoreV1().ConfigMaps(ns).Apply(ctx, cfg, metav1.ApplyOptions{FieldManager: manager, Force: true})
	return err
}

// end snippet

// snippet: apply-from-cache
// strategy: write=apply withRV=true read=lister
// ApplyXFromCache builds its apply configuration from the cached object,
// metadata included, so the request carries that copy's resourceVersion.
func ApplyXFromCache(ctx context.Context, c kubernetes.Interface, ns, name, manager, value string, lister ConfigMapLister) error {
	cm, err := lister.Get(name)
	if err != nil {
		return err
	}
	cfg := corev1ac.ConfigMap(name, ns).
		WithResourceVersion(cm.ResourceVersion).
		WithData(map[string]string{"x": value})
	_, err = c.CoreV1().ConfigMaps(ns).Apply(ctx, cfg, metav1.ApplyOptions{FieldManager: manager, Force: true})
	return err
}

// end snippet

// snippet: apply-from-cache-no-force
// strategy: write=apply force=false withRV=true read=lister
// ApplyXFromCacheNoForce builds its apply configuration from the cached
// object, so the request carries that copy's resourceVersion, and does
// not force. Two things can refuse it: the version it carries, and a
// field another manager owns with another value. The server's field
// manager runs first, so a contested field is the answer even when the
// version is stale too.
func ApplyXFromCacheNoForce(ctx context.Context, c kubernetes.Interface, ns, name, manager, value string, lister ConfigMapLister) error {
	cm, err := lister.Get(name)
	if err != nil {
		return err
	}
	cfg := corev1ac.ConfigMap(name, ns).
		WithResourceVersion(cm.ResourceVersion). // DEFECT: a precondition from a copy that may be old
		WithData(map[string]string{"x": value})
	_, err = c.CoreV1().ConfigMaps(ns).Apply(ctx, cfg, metav1.ApplyOptions{FieldManager: manager})
	return err
}

// end snippet

// snippet: apply-finalizer
// ApplyFinalizer declares one finalizer. metadata.finalizers is a set in
// the schema of built-in kinds, so each manager owns its own element and
// the server keeps everyone's.
func ApplyFinalizer(ctx context.Context, c kubernetes.Interface, ns, name, manager, finalizer string) error {
	cfg := corev1ac.ConfigMap(name, ns).WithFinalizers(finalizer)
	_, err := c.CoreV1().ConfigMaps(ns).Apply(ctx, cfg, metav1.ApplyOptions{FieldManager: manager})
	return err
}

// end snippet
