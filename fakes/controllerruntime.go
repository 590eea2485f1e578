package fakes

import (
	"context"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/watch"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"

	"github.com/conflictlab/conflictlab/sim/api"
)

// newControllerRuntime builds a backend on controller-runtime's fake
// client, configured as its documentation asks a test to: a scheme with
// client-go's types, and the Widget registered as having a status
// subresource (Deployments have one built in). Objects go through the
// client as unstructured, which the fake converts to the scheme's typed
// objects where it knows them — what a controller using unstructured gets.
// Everything else is left at the defaults people use: per-object
// resourceVersions (not WithGlobalResourceVersionCounter) and no
// managedFields in answers (not WithReturnManagedFields).
func newControllerRuntime() (*Backend, error) {
	scheme := runtime.NewScheme()
	if err := clientgoscheme.AddToScheme(scheme); err != nil {
		return nil, err
	}
	widget := &unstructured.Unstructured{}
	info, _ := api.Lookup(api.Widget)
	widget.SetGroupVersionKind(info.GVK())
	c := fake.NewClientBuilder().WithScheme(scheme).WithStatusSubresource(widget).Build()
	clients := map[api.Kind]kindClient{}
	for _, k := range api.Kinds() {
		clients[k] = crClient{c: c, kind: k}
	}
	return newBackend(ControllerRuntimeFake, clients), nil
}

// crClient drives one kind through controller-runtime's client.
type crClient struct {
	c    client.WithWatch
	kind api.Kind
}

func (c crClient) object(ref api.Ref) *unstructured.Unstructured {
	u := &unstructured.Unstructured{}
	info, _ := api.Lookup(c.kind)
	u.SetGroupVersionKind(info.GVK())
	u.SetNamespace(ref.Namespace)
	u.SetName(ref.Name)
	return u
}

func (c crClient) list0() *unstructured.UnstructuredList {
	l := &unstructured.UnstructuredList{}
	info, _ := api.Lookup(c.kind)
	gvk := info.GVK()
	gvk.Kind += "List"
	l.SetGroupVersionKind(gvk)
	return l
}

func (c crClient) get(ctx context.Context, ref api.Ref) (*unstructured.Unstructured, error) {
	u := c.object(ref)
	if err := c.c.Get(ctx, client.ObjectKey{Namespace: ref.Namespace, Name: ref.Name}, u); err != nil {
		return nil, err
	}
	return u, nil
}

func (c crClient) list(ctx context.Context, ns string) ([]*unstructured.Unstructured, string, error) {
	l := c.list0()
	if err := c.c.List(ctx, l, client.InNamespace(ns)); err != nil {
		return nil, "", err
	}
	out := make([]*unstructured.Unstructured, 0, len(l.Items))
	for i := range l.Items {
		out = append(out, l.Items[i].DeepCopy())
	}
	return out, l.GetResourceVersion(), nil
}

func (c crClient) create(ctx context.Context, u *unstructured.Unstructured, manager string) (*unstructured.Unstructured, error) {
	u = u.DeepCopy()
	if err := c.c.Create(ctx, u, client.FieldOwner(manager)); err != nil {
		return nil, err
	}
	return u, nil
}

func (c crClient) update(ctx context.Context, u *unstructured.Unstructured, manager string, status bool) (*unstructured.Unstructured, error) {
	u = u.DeepCopy()
	var err error
	if status {
		err = c.c.Status().Update(ctx, u, client.FieldOwner(manager))
	} else {
		err = c.c.Update(ctx, u, client.FieldOwner(manager))
	}
	if err != nil {
		return nil, err
	}
	return u, nil
}

func (c crClient) patch(ctx context.Context, ref api.Ref, pt types.PatchType, body []byte, manager string, force, status bool) (*unstructured.Unstructured, error) {
	u := c.object(ref)
	p := client.RawPatch(pt, body)
	var err error
	if status {
		opts := []client.SubResourcePatchOption{client.FieldOwner(manager)}
		if force {
			opts = append(opts, client.ForceOwnership)
		}
		err = c.c.Status().Patch(ctx, u, p, opts...)
	} else {
		opts := []client.PatchOption{client.FieldOwner(manager)}
		if force {
			opts = append(opts, client.ForceOwnership)
		}
		err = c.c.Patch(ctx, u, p, opts...)
	}
	if err != nil {
		return nil, err
	}
	return u, nil
}

func (c crClient) delete(ctx context.Context, ref api.Ref, opts metav1.DeleteOptions) error {
	var o []client.DeleteOption
	if opts.Preconditions != nil {
		o = append(o, client.Preconditions(*opts.Preconditions))
	}
	return c.c.Delete(ctx, c.object(ref), o...)
}

func (c crClient) watch(ctx context.Context) (watch.Interface, error) {
	return c.c.Watch(ctx, c.list0(), client.InNamespace(metav1.NamespaceAll))
}
