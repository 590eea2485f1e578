package informer

import (
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/labels"

	"github.com/conflictlab/conflictlab/sim/api"
	"github.com/conflictlab/conflictlab/sim/apiserver"
)

func cm(name string, lbls map[string]string) *unstructured.Unstructured {
	u := &unstructured.Unstructured{Object: map[string]interface{}{"apiVersion": "v1", "kind": "ConfigMap",
		"metadata": map[string]interface{}{"name": name, "namespace": "default"}}}
	u.SetLabels(lbls)
	return u
}

// Through a label selector, a cache holds only what matches, and receives
// a change that makes an object stop matching as its deletion (the
// server's filtered watch sends DELETED), one that makes it match as its
// addition, and nothing of an object it never held.
func TestFilteredCache(t *testing.T) {
	sel := labels.SelectorFromSet(labels.Set{"app": "web"})
	web, other := cm("cm1", map[string]string{"app": "web"}), cm("cm2", nil)
	c := SyncedFiltered([]*unstructured.Unstructured{web, other}, 102, sel)
	if _, err := c.Get(api.RefOf(other)); err == nil {
		t.Fatal("the filtered cache holds cm2, which does not match")
	}
	for _, tc := range []struct {
		ev   apiserver.Event
		want api.EventType
		has  bool
	}{
		{apiserver.Event{Type: apiserver.Modified, RV: 103, Object: cm("cm1", nil)}, apiserver.Deleted, false},
		{apiserver.Event{Type: apiserver.Modified, RV: 104, Object: cm("cm2", map[string]string{"tier": "db"})}, "", false},
		{apiserver.Event{Type: apiserver.Deleted, RV: 105, Object: cm("cm1", nil)}, "", false},
		{apiserver.Event{Type: apiserver.Modified, RV: 106, Object: cm("cm1", map[string]string{"app": "web"})}, apiserver.Added, true},
		{apiserver.Event{Type: apiserver.Modified, RV: 107, Object: cm("cm1", map[string]string{"app": "web", "x": "y"})}, apiserver.Modified, true},
	} {
		if got := c.Apply(tc.ev); got != tc.want {
			t.Errorf("%s %d of %s: received as %q, want %q", tc.ev.Type, tc.ev.RV, tc.ev.Object.GetName(), got, tc.want)
		}
		if _, err := c.Get(api.RefOf(tc.ev.Object)); (err == nil) != tc.has || c.RV() != tc.ev.RV {
			t.Errorf("after %s %d: cached %v (want %v), at RV %d", tc.ev.Type, tc.ev.RV, err == nil, tc.has, c.RV())
		}
	}
	// Without a selector every event is received as it was sent.
	all := Synced(nil, 100)
	if got := all.Apply(apiserver.Event{Type: apiserver.Deleted, RV: 101, Object: cm("cm9", nil)}); got != apiserver.Deleted {
		t.Errorf("an unfiltered cache received %q", got)
	}
}
