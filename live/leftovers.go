package live

import (
	"context"
	"fmt"
	"sort"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/conflictlab/conflictlab/sim/api"
)

// Leftovers finds what earlier runs left on this cluster: everything that
// carries the run label (namespaces, objects of the kinds a race uses, the
// Widget CRD) and the journal's records for this server. Each is returned
// as a footprint, with the uid it has now, so Remove deletes exactly what
// was found and nothing that replaced it meanwhile. Records of other
// servers are returned apart, untouched.
func (c *Cluster) Leftovers(ctx context.Context, j Journal) (found []Footprint, elsewhere []Footprint, err error) {
	seen := map[string]bool{} // uids already in a footprint
	byNS := map[string]bool{} // labelled namespaces: their objects go with them
	records, errs := j.Load()
	if len(errs) > 0 {
		for _, e := range errs {
			fmt.Fprintf(c.opts.Log, "cleanup: %v\n", e)
		}
	}
	for _, f := range records {
		if f.Server != c.Host {
			elsewhere = append(elsewhere, *f)
			continue
		}
		found = append(found, *f)
		for _, o := range f.Objects {
			seen[o.UID] = true
		}
		seen[f.NamespaceUID], seen[f.CRDUID] = true, true
		if f.NamespaceUID != "" {
			byNS[f.Namespace] = true
		}
	}
	list := func(res string, do func() error) error {
		err := do()
		if err != nil && !apierrors.IsNotFound(err) {
			return c.explain(err, api.Kinds(), "list "+res+" labelled "+RunLabel)
		}
		return nil
	}
	sel := metav1.ListOptions{LabelSelector: RunLabel}
	if err := list("namespaces", func() error {
		rctx, cancel := c.ctx(ctx)
		defer cancel()
		l, err := c.dyn.Resource(nsGVR).List(rctx, sel)
		if err != nil {
			return err
		}
		for _, ns := range l.Items {
			byNS[ns.GetName()] = true
			if uid := string(ns.GetUID()); !seen[uid] {
				seen[uid] = true
				found = append(found, Footprint{RunID: ns.GetLabels()[RunLabel], Server: c.Host, Context: c.Context,
					Namespace: ns.GetName(), NamespaceUID: uid})
			}
		}
		return nil
	}); err != nil {
		return nil, nil, err
	}
	for _, k := range api.Kinds() {
		gvr, _ := GVR(k)
		if err := list(gvr.Resource, func() error {
			rctx, cancel := c.ctx(ctx)
			defer cancel()
			l, err := c.dyn.Resource(gvr).List(rctx, sel)
			if err != nil {
				return err
			}
			for _, o := range l.Items {
				uid := string(o.GetUID())
				if byNS[o.GetNamespace()] || seen[uid] {
					continue
				}
				seen[uid] = true
				found = append(found, Footprint{RunID: o.GetLabels()[RunLabel], Server: c.Host, Context: c.Context,
					Namespace: o.GetNamespace(), Objects: []Owned{{Kind: k, Name: o.GetName(), UID: uid}}})
			}
			return nil
		}); err != nil {
			return nil, nil, err
		}
	}
	if err := list("customresourcedefinitions", func() error {
		rctx, cancel := c.ctx(ctx)
		defer cancel()
		crd, err := c.dyn.Resource(crdGVR).Get(rctx, WidgetCRDName, metav1.GetOptions{})
		if err != nil {
			return err
		}
		id, ok := crd.GetLabels()[RunLabel]
		if uid := string(crd.GetUID()); ok && !seen[uid] {
			found = append(found, Footprint{RunID: id, Server: c.Host, Context: c.Context, CRDUID: uid})
		}
		return nil
	}); err != nil {
		return nil, nil, err
	}
	// Namespaces and objects first, the CRD last: deleting it first would
	// take the Widgets with it before they are counted.
	sort.SliceStable(found, func(a, b int) bool { return found[a].CRDUID == "" && found[b].CRDUID != "" })
	return found, elsewhere, nil
}

// Forget removes a run's record from the journal (after Remove left
// nothing).
func (j Journal) Forget(id string) error { return j.remove(id) }
