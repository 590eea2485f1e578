package code

import (
	"context"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
)

// snippet: get-update
// SetMode reads cm1 with a live GET and sends the whole object back. The
// copy carries the resourceVersion the server handed out; the server
// applies the update only if that is still the current one.
func SetMode(ctx context.Context, c kubernetes.Interface, ns, name string) error {
	cm, err := c.CoreV1().ConfigMaps(ns).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return err
	}
	if cm.Data == nil {
		cm.Data = map[string]string{}
	}
	cm.Data["mode"] = "green"
	_, err = c.CoreV1().ConfigMaps(ns).Update(ctx, cm, metav1.UpdateOptions{})
	return err
}

// end snippet
