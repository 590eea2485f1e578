package code

import (
	"context"
	"errors"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/kubernetes/fake"
	k8stesting "k8s.io/client-go/testing"
	"sigs.k8s.io/controller-runtime/pkg/client"
	crfake "sigs.k8s.io/controller-runtime/pkg/client/fake"
	"sigs.k8s.io/controller-runtime/pkg/client/interceptor"
)

// snippet: fake-two-writers
// strategy: write=update retry=none
// TwoWriters is what a unit test drives: two workers hold the same
// version of cm1 and each updates its own copy. On a real API server the
// second Update gets 409. On client-go's fake clientset (NewSimpleClientset
// and NewClientset alike) it returns nil: the object tracker stores the
// copy without comparing resourceVersions, data.a is gone, and the test
// that checks "no error" is green.
func TwoWriters(ctx context.Context, c kubernetes.Interface, ns, name string) error {
	a, err := c.CoreV1().ConfigMaps(ns).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return err
	}
	b := a.DeepCopy() // b's cache holds the same version
	if a.Data == nil {
		a.Data, b.Data = map[string]string{}, map[string]string{}
	}
	a.Data["a"] = "set by a"
	if _, err := c.CoreV1().ConfigMaps(ns).Update(ctx, a, metav1.UpdateOptions{}); err != nil {
		return err
	}
	b.Data["b"] = "set by b"
	_, err = c.CoreV1().ConfigMaps(ns).Update(ctx, b, metav1.UpdateOptions{})
	return err
}

// end snippet

// snippet: fake-writer-clear-rv
// strategy: write=update-clear-rv read=lister retry=none
// SetBForced "handles" the 409 by never getting one: it empties the
// resourceVersion, so the update is unconditional. The fake's test was
// green already; on the server a's data.a is now erased instead of b's
// write refused.
func SetBForced(ctx context.Context, c kubernetes.Interface, ns, name string, lister ConfigMapLister) error {
	cm, err := lister.Get(name)
	if err != nil {
		return err
	}
	cm = cm.DeepCopy()
	if cm.Data == nil {
		cm.Data = map[string]string{}
	}
	cm.Data["b"] = "set by b"
	cm.ResourceVersion = "" // DEFECT: an unconditional overwrite
	_, err = c.CoreV1().ConfigMaps(ns).Update(ctx, cm, metav1.UpdateOptions{})
	return err
}

// end snippet

// snippet: reactor-conflict
// ConflictOnce makes a fake clientset answer the first update of a
// ConfigMap with the 409 a server would send, then lets the rest through
// to the tracker. A retry loop under test now meets its conflict. The
// tracker still accepts any resourceVersion afterwards, so also assert
// what the loop sent (a GET before each update, from c.Actions()).
func ConflictOnce(c *fake.Clientset) {
	left := 1
	c.PrependReactor("update", "configmaps", func(a k8stesting.Action) (bool, runtime.Object, error) {
		if left == 0 {
			return false, nil, nil // not handled: the tracker takes it
		}
		left--
		name := a.(k8stesting.UpdateAction).GetObject().(metav1.Object).GetName()
		return true, nil, apierrors.NewConflict(schema.GroupResource{Resource: "configmaps"}, name,
			errors.New("the object has been modified; please apply your changes to the latest version and try again"))
	})
}

// end snippet

// snippet: crfake-conflict
// NewConflictingClient is controller-runtime's fake client with one
// injected conflict. This fake checks resourceVersions itself (a stale
// Update gets 409, "object was modified", with no help), but it numbers
// each object's versions on its own — 999 for an object given to
// WithObjects, 1 for one the test creates, one more per write — where a
// server numbers every write in the cluster: compare versions for
// equality only. It is never stale either: nothing in it lags. The
// interceptor adds the conflict a concurrent writer would cause, at the
// moment you choose.
func NewConflictingClient(objs ...client.Object) client.WithWatch {
	left := 1
	return crfake.NewClientBuilder().WithObjects(objs...).
		WithInterceptorFuncs(interceptor.Funcs{
			Update: func(ctx context.Context, c client.WithWatch, obj client.Object, opts ...client.UpdateOption) error {
				if left > 0 {
					left--
					return apierrors.NewConflict(schema.GroupResource{Resource: "configmaps"}, obj.GetName(),
						errors.New("the object has been modified; please apply your changes to the latest version and try again"))
				}
				return c.Update(ctx, obj, opts...)
			},
		}).Build()
}

// end snippet

// snippet: rv-moved
// strategy: write=update read=live retry=none
// SetModeMoved updates the ConfigMap and reports whether the write moved its version.
// That is what a test may assert — the version differs — and never which
// number it became: a server numbers every write in the cluster,
// controller-runtime's fake counts each object on its own, and
// client-go's fakes keep whatever resourceVersion they were sent (none,
// if the test sent none: there, nothing ever "moves").
func SetModeMoved(ctx context.Context, c client.Client, ns, name string) (moved bool, err error) {
	var cm corev1.ConfigMap
	if err := c.Get(ctx, client.ObjectKey{Namespace: ns, Name: name}, &cm); err != nil {
		return false, err
	}
	before := cm.ResourceVersion
	if cm.Data == nil {
		cm.Data = map[string]string{}
	}
	cm.Data["mode"] = "red"
	if err := c.Update(ctx, &cm); err != nil {
		return false, err
	}
	return cm.ResourceVersion != before, nil
}

// end snippet
