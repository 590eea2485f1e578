package snippets

import (
	"context"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	corev1ac "k8s.io/client-go/applyconfigurations/core/v1"
	"k8s.io/client-go/kubernetes"
)

// snippet: apply
// ApplyX declares the one field this manager cares about. No read, no
// resourceVersion: the server merges the declaration into the object and
// records the manager as the owner of .data.x. If another manager owns
// .data.x with a different value, the answer is 409:
// Apply failed with 1 conflict: conflict with "a": .data.x
func ApplyX(ctx context.Context, c kubernetes.Interface, ns, name, manager, value string) error {
	cfg := corev1ac.ConfigMap(name, ns).WithData(map[string]string{"x": value})
	_, err := c.CoreV1().ConfigMaps(ns).Apply(ctx, cfg, metav1.ApplyOptions{FieldManager: manager})
	return err
}

// end snippet

// snippet: apply-force
// TakeOverX applies with force: contested fields change hands to this
// manager, and the previous owner's managedFields entry loses them. For a
// deliberate hand-over, not for winning a fight between live controllers.
func TakeOverX(ctx context.Context, c kubernetes.Interface, ns, name, manager, value string) error {
	cfg := corev1ac.ConfigMap(name, ns).WithData(map[string]string{"x": value})
	_, err := c.CoreV1().ConfigMaps(ns).Apply(ctx, cfg, metav1.ApplyOptions{FieldManager: manager, Force: true})
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
