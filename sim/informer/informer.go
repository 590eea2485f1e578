// Package informer models a controller's shared informer: a local cache,
// filled by a LIST and then kept up to date by watch events that arrive
// late. Its Lister answers from that cache, so it can hand out an object
// whose resourceVersion the server has already moved past.
package informer

import (
	"sort"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/labels"

	"github.com/conflictlab/conflictlab/sim/api"
	"github.com/conflictlab/conflictlab/sim/apiserver"
)

// Cache is one informer's store.
type Cache struct {
	objects map[api.Ref]*unstructured.Unstructured
	// rv is the newest event (or LIST) the cache has seen.
	rv int64
	// sel, when set, is the label selector the informer lists and watches
	// with (controller-runtime's cache.Options ByObject Label): it holds
	// only the objects that match.
	sel labels.Selector
}

// Synced returns a cache filled by a LIST at collection revision rv.
func Synced(items []*unstructured.Unstructured, rv int64) *Cache {
	return SyncedFiltered(items, rv, nil)
}

// SyncedFiltered returns a cache filled by a LIST with a label selector
// (nil: everything).
func SyncedFiltered(items []*unstructured.Unstructured, rv int64, sel labels.Selector) *Cache {
	c := &Cache{objects: map[api.Ref]*unstructured.Unstructured{}, rv: rv, sel: sel}
	for _, o := range items {
		if c.matches(o) {
			c.objects[api.RefOf(o)] = o
		}
	}
	return c
}

func (c *Cache) matches(o *unstructured.Unstructured) bool {
	return c.sel == nil || c.sel.Matches(labels.Set(o.GetLabels()))
}

// Clone returns an independent copy (cached objects are never mutated).
func (c *Cache) Clone() *Cache {
	out := &Cache{objects: make(map[api.Ref]*unstructured.Unstructured, len(c.objects)), rv: c.rv, sel: c.sel}
	for k, v := range c.objects {
		out.objects[k] = v
	}
	return out
}

// RV is the revision the cache has caught up to.
func (c *Cache) RV() int64 { return c.rv }

// Apply delivers one watch event. It returns the event's type as this
// informer receives it: the event's own, without a selector. Through a
// label selector, a change that makes an object stop matching arrives as
// DELETED (the server's filtered watch sends it so), one that makes it
// match as ADDED, and one about an object that neither matched nor
// matches as none ("": the cache only moves on).
func (c *Cache) Apply(ev apiserver.Event) api.EventType {
	ref := api.RefOf(ev.Object)
	typ := ev.Type
	if c.sel != nil && typ != apiserver.Deleted {
		_, had := c.objects[ref]
		switch match := c.matches(ev.Object); {
		case !match && had:
			typ = apiserver.Deleted
		case !match:
			typ = ""
		case !had:
			typ = apiserver.Added
		}
	}
	if _, had := c.objects[ref]; c.sel != nil && typ == apiserver.Deleted && !had {
		typ = "" // a filtered informer never saw it
	}
	switch typ {
	case apiserver.Deleted:
		delete(c.objects, ref)
	case apiserver.Added, apiserver.Modified:
		c.objects[ref] = ev.Object
	}
	if ev.RV > c.rv {
		c.rv = ev.RV
	}
	return typ
}

// Get is the Lister: a copy of the cached object, or NotFound as a real
// Lister reports it.
func (c *Cache) Get(ref api.Ref) (*unstructured.Unstructured, error) {
	o, ok := c.objects[ref]
	if !ok {
		info, _ := api.Lookup(ref.Kind)
		return nil, apierrors.NewNotFound(info.Resource, ref.Name)
	}
	return o.DeepCopy(), nil
}

// Peek returns the cached object without copying, for observers.
func (c *Cache) Peek(ref api.Ref) *unstructured.Unstructured { return c.objects[ref] }

// List is the Lister's List: copies of the cached objects of a kind in a
// namespace ("" for every namespace: the kinds served are all
// namespaced), by namespace and name. A DELETED event has taken an object
// out of it, so a controller looking for its children sees what its cache
// has seen.
func (c *Cache) List(kind api.Kind, namespace string) []*unstructured.Unstructured {
	var out []*unstructured.Unstructured
	for r, o := range c.objects {
		if r.Kind == kind && (namespace == "" || r.Namespace == namespace) {
			out = append(out, o.DeepCopy())
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].GetNamespace() != out[j].GetNamespace() {
			return out[i].GetNamespace() < out[j].GetNamespace()
		}
		return out[i].GetName() < out[j].GetName()
	})
	return out
}
