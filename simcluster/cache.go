package simcluster

import (
	"context"
	"errors"
	"fmt"
	"reflect"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/tools/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/apiutil"

	"github.com/conflictlab/conflictlab/sim/api"
	"github.com/conflictlab/conflictlab/sim/controller"
)

// The controller's informer cache, as its code reads it: every Get and
// List is one step of the race (a read of the simulated informer, which
// sees the server's writes on the scenario's lag). cacheReader is what a
// manager's cache is to controller-runtime's client; indexer is what a
// shared informer's store is to client-go's listers.

// cacheReader answers the cached client's reads as controller-runtime's
// cache reader does (pkg/cache/internal/cache_reader.go): deep copies,
// with their GroupVersionKind set; NotFound named by the kind.
type cacheReader struct{ c *conn }

var _ client.Reader = (*cacheReader)(nil)

// servedKind resolves a Go object to a served kind.
func (c *conn) servedKind(obj runtime.Object) (schema.GroupVersionKind, api.KindInfo, error) {
	gvk, err := apiutil.GVKForObject(obj, c.scheme)
	if err != nil {
		return gvk, api.KindInfo{}, err
	}
	kind := gvk.Kind
	if meta.IsListType(obj) {
		kind = kind[:len(kind)-len("List")]
		gvk.Kind = kind
	}
	info, ok := api.Lookup(api.Kind(kind))
	if !ok || info.GVK() != gvk {
		return gvk, info, &meta.NoKindMatchError{GroupKind: gvk.GroupKind(), SearchedVersions: []string{gvk.Version}}
	}
	return gvk, info, nil
}

func (r *cacheReader) Get(ctx context.Context, key client.ObjectKey, obj client.Object, opts ...client.GetOption) error {
	cs := callSite()
	a := r.c.caller(ctx, cs)
	gvk, info, err := r.c.servedKind(obj)
	if err != nil {
		return err
	}
	if _, partial := obj.(*metav1.PartialObjectMetadata); partial {
		return fmt.Errorf("simcluster: the simulated cache serves whole objects, not metadata-only ones")
	}
	ans := a.exchange(controller.Action{Kind: controller.ReadLister, Purpose: cs.site,
		Request: api.Request{Verb: api.Get, Ref: api.Ref{Kind: info.Kind, Namespace: key.Namespace, Name: key.Name}}}, cs.inRetry)
	if apierrors.IsNotFound(ans.resp.Err) {
		// controller-runtime names the kind where a server names the resource.
		return apierrors.NewNotFound(schema.GroupResource{Group: gvk.Group, Resource: gvk.Kind}, key.Name)
	}
	if ans.resp.Err != nil {
		return ans.resp.Err
	}
	return r.c.into(obj, ans.resp.Object, gvk, true)
}

func (r *cacheReader) List(ctx context.Context, list client.ObjectList, opts ...client.ListOption) error {
	cs := callSite()
	a := r.c.caller(ctx, cs)
	gvk, info, err := r.c.servedKind(list)
	if err != nil {
		return err
	}
	lo := client.ListOptions{}
	lo.ApplyOptions(opts)
	switch {
	case lo.Continue != "":
		return fmt.Errorf("continue list option is not supported by the cache")
	case lo.FieldSelector != nil && !lo.FieldSelector.Empty():
		// controller-runtime's cache answers a field selector from an
		// index the manager registered; the simulated cache has none.
		return fmt.Errorf("simcluster: the simulated cache has no field indexes (list with a label selector, or read the server with the API reader)")
	}
	act := controller.Action{Kind: controller.ReadLister, Purpose: cs.site,
		Request: api.Request{Verb: api.List, Ref: api.Ref{Kind: info.Kind, Namespace: lo.Namespace}}}
	if lo.LabelSelector != nil {
		act.Selector = exactLabels(lo.LabelSelector)
	}
	ans := a.exchange(act, cs.inRetry)
	if ans.resp.Err != nil {
		return ans.resp.Err
	}
	var objs []runtime.Object
	for _, it := range ans.resp.Items {
		if lo.LabelSelector != nil && !lo.LabelSelector.Matches(labels.Set(it.GetLabels())) {
			continue
		}
		if lo.Limit > 0 && int64(len(objs)) >= lo.Limit {
			break
		}
		var o client.Object
		if _, ok := list.(runtime.Unstructured); ok {
			o = &unstructured.Unstructured{}
		} else {
			n, err := r.c.scheme.New(gvk)
			if err != nil {
				return err
			}
			var isObj bool
			if o, isObj = n.(client.Object); !isObj {
				return fmt.Errorf("simcluster: %T is not an object", n)
			}
		}
		if err := r.c.into(o, it, gvk, false); err != nil {
			return err
		}
		objs = append(objs, o)
	}
	if err := meta.SetList(list, objs); err != nil {
		return err
	}
	list.SetContinue("continue-not-supported")
	return nil
}

// into copies a cached object into the code's object, replacing what was
// there (a typed object through the unstructured converter). shared says
// u is the world's cached object itself (a Get's answer), which never
// changes: its typed form is then worked out once.
func (c *conn) into(obj runtime.Object, u *unstructured.Unstructured, gvk schema.GroupVersionKind, shared bool) error {
	if out, ok := obj.(*unstructured.Unstructured); ok {
		out.Object = runtime.DeepCopyJSON(u.Object)
		out.SetGroupVersionKind(gvk)
		return nil
	}
	v := reflect.ValueOf(obj)
	if v.Kind() != reflect.Pointer || v.IsNil() {
		return fmt.Errorf("simcluster: %T is not a pointer to an object", obj)
	}
	// Converted once per cached version and type; deep-copied out, as
	// controller-runtime's cache copies its typed objects.
	var proto runtime.Object
	ok := false
	if shared {
		proto, ok = c.typed.get(u)
	}
	if !ok || reflect.TypeOf(proto) != v.Type() {
		fresh := reflect.New(v.Elem().Type())
		if err := runtime.DefaultUnstructuredConverter.FromUnstructured(u.Object, fresh.Interface()); err != nil {
			return err
		}
		proto = fresh.Interface().(runtime.Object)
		if !shared {
			v.Elem().Set(fresh.Elem())
			obj.GetObjectKind().SetGroupVersionKind(gvk)
			return nil
		}
		c.typed.put(u, proto)
	}
	v.Elem().Set(reflect.ValueOf(proto.DeepCopyObject()).Elem())
	obj.GetObjectKind().SetGroupVersionKind(gvk)
	return nil
}

// exactLabels is a selector made of equalities as a map (for the
// timeline's count of what a LIST found); nil for any other selector.
func exactLabels(sel labels.Selector) map[string]string {
	if sel == nil || sel.Empty() {
		return nil
	}
	m, err := labels.ConvertSelectorToLabelsMap(sel.String())
	if err != nil {
		return nil
	}
	return m
}

// indexer is the store of a shared informer, as client-go's listers read
// it, over the simulated cache: each lookup is a cache read of the race.
// Objects come out as the lister's type (a typed ConfigMap, Deployment;
// an unstructured Widget). The simulator's watch fills it: writing to it
// is refused.
type indexer struct {
	c    *conn
	kind api.Kind
}

var _ cache.Indexer = indexer{}

func (c *conn) indexer(k api.Kind) cache.Indexer {
	c.listers.Store(true)
	return indexer{c: c, kind: k}
}

var errReadOnly = errors.New("simcluster: the simulated informer's store is filled by the simulator's watch events, not by the code")

func (x indexer) object(u *unstructured.Unstructured, shared bool) (any, error) {
	info, _ := api.Lookup(x.kind)
	if !info.Builtin {
		out := u.DeepCopy()
		return out, nil
	}
	obj := api.NewTyped(x.kind)
	if err := x.c.into(obj, u, info.GVK(), shared); err != nil {
		return nil, err
	}
	// A lister hands out what the informer decoded: objects without
	// their TypeMeta, as a typed informer stores them.
	obj.GetObjectKind().SetGroupVersionKind(schema.GroupVersionKind{})
	return obj, nil
}

func (x indexer) read(ns, name string, list bool) answer {
	cs := callSite()
	a := x.c.caller(context.Background(), cs) // a lister has no context
	act := controller.Action{Kind: controller.ReadLister, Purpose: cs.site,
		Request: api.Request{Verb: api.Get, Ref: api.Ref{Kind: x.kind, Namespace: ns, Name: name}}}
	if list {
		act.Request.Verb = api.List
	}
	return a.exchange(act, cs.inRetry)
}

func (x indexer) list(ns string) []any {
	ans := x.read(ns, "", true)
	out := make([]any, 0, len(ans.resp.Items))
	for _, it := range ans.resp.Items {
		if o, err := x.object(it, false); err == nil {
			out = append(out, o)
		}
	}
	return out
}

func (x indexer) GetByKey(key string) (any, bool, error) {
	ns, name, err := cache.SplitMetaNamespaceKey(key)
	if err != nil {
		return nil, false, err
	}
	ans := x.read(ns, name, false)
	if apierrors.IsNotFound(ans.resp.Err) {
		return nil, false, nil
	}
	if ans.resp.Err != nil {
		return nil, false, ans.resp.Err
	}
	o, err := x.object(ans.resp.Object, true)
	return o, err == nil, err
}

func (x indexer) Get(obj any) (any, bool, error) {
	key, err := cache.MetaNamespaceKeyFunc(obj)
	if err != nil {
		return nil, false, err
	}
	return x.GetByKey(key)
}

func (x indexer) List() []any { return x.list("") }

func (x indexer) ListKeys() []string {
	var keys []string
	for _, o := range x.list("") {
		if k, err := cache.MetaNamespaceKeyFunc(o); err == nil {
			keys = append(keys, k)
		}
	}
	return keys
}

func (x indexer) Index(name string, obj any) ([]any, error) {
	if name != cache.NamespaceIndex {
		return nil, fmt.Errorf("index with name %s does not exist", name)
	}
	m, err := meta.Accessor(obj)
	if err != nil {
		return nil, err
	}
	return x.list(m.GetNamespace()), nil
}

func (x indexer) ByIndex(name, value string) ([]any, error) {
	if name != cache.NamespaceIndex {
		return nil, fmt.Errorf("index with name %s does not exist", name)
	}
	return x.list(value), nil
}

func (x indexer) IndexKeys(name, value string) ([]string, error) {
	objs, err := x.ByIndex(name, value)
	if err != nil {
		return nil, err
	}
	var keys []string
	for _, o := range objs {
		if k, err := cache.MetaNamespaceKeyFunc(o); err == nil {
			keys = append(keys, k)
		}
	}
	return keys, nil
}

func (x indexer) ListIndexFuncValues(name string) []string {
	if name != cache.NamespaceIndex {
		return nil
	}
	seen := map[string]bool{}
	var out []string
	for _, o := range x.list("") {
		if m, err := meta.Accessor(o); err == nil && !seen[m.GetNamespace()] {
			seen[m.GetNamespace()] = true
			out = append(out, m.GetNamespace())
		}
	}
	return out
}

func (x indexer) GetIndexers() cache.Indexers {
	return cache.Indexers{cache.NamespaceIndex: cache.MetaNamespaceIndexFunc}
}

func (indexer) AddIndexers(cache.Indexers) error     { return errReadOnly }
func (indexer) Add(any) error                        { return errReadOnly }
func (indexer) Update(any) error                     { return errReadOnly }
func (indexer) Delete(any) error                     { return errReadOnly }
func (indexer) Replace([]any, string) error          { return errReadOnly }
func (indexer) Resync() error                        { return nil }
func (indexer) LastStoreSyncResourceVersion() string { return "" }
func (indexer) Bookmark(string)                      {}
