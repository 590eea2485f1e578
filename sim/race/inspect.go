package race

import (
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/conflictlab/conflictlab/sim/api"
)

// What each controller believes, for step-level tests and tools that show a
// race one step at a time. Everything returned is a copy: a caller cannot
// change the world by looking at it.

// CacheView is one controller's informer as it stands.
type CacheView struct {
	// Controller is the controller's name.
	Controller string
	// RV is the revision its informer has reached.
	RV int64
	// Object is its cached copy of ref (nil if it has none).
	Object *unstructured.Unstructured
	// Pending is the number of watch events the server has sent that this
	// informer has not applied yet.
	Pending int
}

// Caches returns every controller's view of ref, in the scenario's order.
func (w *World) Caches(ref api.Ref) []CacheView {
	out := make([]CacheView, 0, len(w.actors))
	for _, a := range w.actors {
		v := CacheView{Controller: a.name, RV: a.cache.RV()}
		if o := a.cache.Peek(ref); o != nil {
			v.Object = o.DeepCopy()
		}
		if evs, err := w.server.Events(a.cache.RV()); err == nil {
			v.Pending = len(evs)
		}
		out = append(out, v)
	}
	return out
}
