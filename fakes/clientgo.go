package fakes

import (
	"context"
	"fmt"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	utiljson "k8s.io/apimachinery/pkg/util/json"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/dynamic"
	dynamicfake "k8s.io/client-go/dynamic/fake"
	"k8s.io/client-go/kubernetes/fake"

	"github.com/conflictlab/conflictlab/sim/api"
)

// newClientGo builds a backend on client-go's kubernetes/fake: the typed
// clientset for ConfigMaps and Deployments, and dynamic/fake for the Widget
// custom resource (a typed clientset knows no CRDs; client-go has no
// field-managed dynamic fake, so Widget behaves alike on both client-go
// backends).
func newClientGo(name Name, cs *fake.Clientset) *Backend {
	widgets := schema.GroupVersionResource{Group: api.WidgetGroup, Version: "v1", Resource: "widgets"}
	dyn := dynamicfake.NewSimpleDynamicClientWithCustomListKinds(runtime.NewScheme(),
		map[schema.GroupVersionResource]string{widgets: "WidgetList"})
	return newBackend(name, map[api.Kind]kindClient{
		api.ConfigMap: typedClient[*corev1.ConfigMap, *corev1.ConfigMapList]{
			kind: api.ConfigMap,
			in: func(ns string) typedAPI[*corev1.ConfigMap, *corev1.ConfigMapList] {
				return cs.CoreV1().ConfigMaps(ns)
			},
		},
		api.Deployment: typedClient[*appsv1.Deployment, *appsv1.DeploymentList]{
			kind: api.Deployment,
			in: func(ns string) typedAPI[*appsv1.Deployment, *appsv1.DeploymentList] {
				return cs.AppsV1().Deployments(ns)
			},
		},
		api.Widget: dynamicClient{ri: dyn.Resource(widgets)},
	})
}

// typedAPI is the part of a generated typed client (ConfigMapInterface,
// DeploymentInterface) a race uses.
type typedAPI[T runtime.Object, L runtime.Object] interface {
	Get(ctx context.Context, name string, opts metav1.GetOptions) (T, error)
	List(ctx context.Context, opts metav1.ListOptions) (L, error)
	Watch(ctx context.Context, opts metav1.ListOptions) (watch.Interface, error)
	Create(ctx context.Context, obj T, opts metav1.CreateOptions) (T, error)
	Update(ctx context.Context, obj T, opts metav1.UpdateOptions) (T, error)
	Patch(ctx context.Context, name string, pt types.PatchType, data []byte, opts metav1.PatchOptions, subresources ...string) (T, error)
	Delete(ctx context.Context, name string, opts metav1.DeleteOptions) error
}

// typedClient drives one kind through client-go's typed fake client. The
// T is what a controller holds, L its list.
type typedClient[T runtime.Object, L runtime.Object] struct {
	kind api.Kind
	in   func(ns string) typedAPI[T, L]
}

func (c typedClient[T, L]) out(obj T, err error) (*unstructured.Unstructured, error) {
	if err != nil {
		return nil, err
	}
	return toUnstructured(c.kind, obj)
}

// decode builds the typed object a controller would pass, from the JSON
// the race would send.
func (c typedClient[T, L]) decode(u *unstructured.Unstructured) (T, error) {
	var obj T
	fresh, ok := api.NewTyped(c.kind).(T)
	if !ok {
		return obj, fmt.Errorf("no typed %s", c.kind)
	}
	data, err := u.MarshalJSON()
	if err != nil {
		return obj, err
	}
	if err := utiljson.Unmarshal(data, fresh); err != nil {
		return obj, apierrors.NewBadRequest(fmt.Sprintf("decoding %s: %v", c.kind, err))
	}
	return fresh, nil
}

func (c typedClient[T, L]) get(ctx context.Context, ref api.Ref) (*unstructured.Unstructured, error) {
	return c.out(c.in(ref.Namespace).Get(ctx, ref.Name, metav1.GetOptions{}))
}

func (c typedClient[T, L]) list(ctx context.Context, ns string) ([]*unstructured.Unstructured, string, error) {
	l, err := c.in(ns).List(ctx, metav1.ListOptions{})
	if err != nil {
		return nil, "", err
	}
	return listItems(c.kind, l)
}

func (c typedClient[T, L]) create(ctx context.Context, u *unstructured.Unstructured, manager string) (*unstructured.Unstructured, error) {
	obj, err := c.decode(u)
	if err != nil {
		return nil, err
	}
	return c.out(c.in(u.GetNamespace()).Create(ctx, obj, metav1.CreateOptions{FieldManager: manager}))
}

// statusUpdater is UpdateStatus, which only kinds with a status have.
type statusUpdater[T runtime.Object] interface {
	UpdateStatus(ctx context.Context, obj T, opts metav1.UpdateOptions) (T, error)
}

func (c typedClient[T, L]) update(ctx context.Context, u *unstructured.Unstructured, manager string, status bool) (*unstructured.Unstructured, error) {
	obj, err := c.decode(u)
	if err != nil {
		return nil, err
	}
	ri := c.in(u.GetNamespace())
	opts := metav1.UpdateOptions{FieldManager: manager}
	if !status {
		return c.out(ri.Update(ctx, obj, opts))
	}
	su, ok := ri.(statusUpdater[T])
	if !ok {
		info, _ := api.Lookup(c.kind)
		return nil, apierrors.NewMethodNotSupported(info.Resource, "update status (the typed client has no UpdateStatus)")
	}
	return c.out(su.UpdateStatus(ctx, obj, opts))
}

func (c typedClient[T, L]) patch(ctx context.Context, ref api.Ref, pt types.PatchType, body []byte, manager string, force, status bool) (*unstructured.Unstructured, error) {
	opts := metav1.PatchOptions{FieldManager: manager}
	if force {
		opts.Force = &force
	}
	return c.out(c.in(ref.Namespace).Patch(ctx, ref.Name, pt, body, opts, subresources(status)...))
}

func (c typedClient[T, L]) delete(ctx context.Context, ref api.Ref, opts metav1.DeleteOptions) error {
	return c.in(ref.Namespace).Delete(ctx, ref.Name, opts)
}

func (c typedClient[T, L]) watch(ctx context.Context) (watch.Interface, error) {
	return c.in(metav1.NamespaceAll).Watch(ctx, metav1.ListOptions{})
}

func subresources(status bool) []string {
	if status {
		return []string{"status"}
	}
	return nil
}

// listItems converts a list a fake returned into the race's objects.
func listItems(kind api.Kind, l runtime.Object) ([]*unstructured.Unstructured, string, error) {
	objs, err := meta.ExtractList(l)
	if err != nil {
		return nil, "", err
	}
	var out []*unstructured.Unstructured
	for _, o := range objs {
		u, err := toUnstructured(kind, o)
		if err != nil {
			return nil, "", err
		}
		out = append(out, u)
	}
	rv := ""
	if lm, err := meta.ListAccessor(l); err == nil {
		rv = lm.GetResourceVersion()
	}
	return out, rv, nil
}

// dynamicClient drives the Widget custom resource through client-go's
// dynamic fake.
type dynamicClient struct {
	ri dynamic.NamespaceableResourceInterface
}

func (c dynamicClient) get(ctx context.Context, ref api.Ref) (*unstructured.Unstructured, error) {
	return c.ri.Namespace(ref.Namespace).Get(ctx, ref.Name, metav1.GetOptions{})
}

func (c dynamicClient) list(ctx context.Context, ns string) ([]*unstructured.Unstructured, string, error) {
	l, err := c.ri.Namespace(ns).List(ctx, metav1.ListOptions{})
	if err != nil {
		return nil, "", err
	}
	return listItems(api.Widget, l)
}

func (c dynamicClient) create(ctx context.Context, u *unstructured.Unstructured, manager string) (*unstructured.Unstructured, error) {
	return c.ri.Namespace(u.GetNamespace()).Create(ctx, u, metav1.CreateOptions{FieldManager: manager})
}

func (c dynamicClient) update(ctx context.Context, u *unstructured.Unstructured, manager string, status bool) (*unstructured.Unstructured, error) {
	opts := metav1.UpdateOptions{FieldManager: manager}
	if status {
		return c.ri.Namespace(u.GetNamespace()).UpdateStatus(ctx, u, opts)
	}
	return c.ri.Namespace(u.GetNamespace()).Update(ctx, u, opts)
}

func (c dynamicClient) patch(ctx context.Context, ref api.Ref, pt types.PatchType, body []byte, manager string, force, status bool) (*unstructured.Unstructured, error) {
	opts := metav1.PatchOptions{FieldManager: manager}
	if force {
		opts.Force = &force
	}
	return c.ri.Namespace(ref.Namespace).Patch(ctx, ref.Name, pt, body, opts, subresources(status)...)
}

func (c dynamicClient) delete(ctx context.Context, ref api.Ref, opts metav1.DeleteOptions) error {
	return c.ri.Namespace(ref.Namespace).Delete(ctx, ref.Name, opts)
}

func (c dynamicClient) watch(ctx context.Context) (watch.Interface, error) {
	return c.ri.Namespace(metav1.NamespaceAll).Watch(ctx, metav1.ListOptions{})
}
