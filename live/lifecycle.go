package live

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/dynamic"

	"github.com/conflictlab/conflictlab/sim/api"
	"github.com/conflictlab/conflictlab/sim/controller"
	"github.com/conflictlab/conflictlab/sim/scenario"
)

// Creates and deletes during a race keep the identity rule: a DELETE
// names one of the scenario's objects in its URL like any write; a create
// names one in its body — by name, or, when the server is to name it, by a
// generateName prefix that one of the scenario's creates declares. An
// object created that way joins the run's objects under the name the
// server gave it (and the footprint, with its uid) as soon as the answer
// arrives.

// generatedPrefixes lists, per kind, the generateName prefixes the
// scenario's creates send.
func generatedPrefixes(sc *scenario.Scenario) map[api.Kind][]string {
	out := map[api.Kind][]string{}
	for _, c := range sc.Controllers {
		if c.Write != controller.Create || c.Object == nil || c.Object.GetName() != "" {
			continue
		}
		k := api.Kind(c.Object.GetKind())
		out[k] = append(out[k], c.Object.GetGenerateName())
	}
	return out
}

// isOurs reports whether the run may touch ref (a live ref).
func (b *Backend) isOurs(ref api.Ref) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.ours[ref]
}

// mayTouch is the identity rule for the URL: a LIST, one of the run's
// objects, or a create whose body the server names (checked in
// checkGenerated).
func (b *Backend) mayTouch(req api.Request, ref api.Ref) bool {
	return req.Verb == api.List || b.isOurs(ref) || (req.Verb == api.Create && req.Ref.Name == "")
}

// declared reports whether prefix is a generateName of the scenario's.
func (b *Backend) declared(k api.Kind, prefix string) bool {
	for _, p := range b.generated[k] {
		if p == prefix {
			return true
		}
	}
	return false
}

// checkGenerated: a create the server is to name sends no name and one
// of the scenario's generateName prefixes.
func (b *Backend) checkGenerated(req api.Request, md map[string]any) error {
	if n, ok := md["name"]; ok {
		return fmt.Errorf("the body names %s %v, but the request names none", req.Ref.Kind, printable(n))
	}
	g, _ := md["generateName"].(string)
	if !b.declared(req.Ref.Kind, g) {
		return fmt.Errorf("the body asks for a name generated from %q, which no create of the scenario declares", g)
	}
	if ns, ok := md["namespace"]; ok && ns != req.Ref.Namespace {
		return fmt.Errorf("the body puts it in namespace %v, not the scenario's %s", printable(ns), req.Ref.Namespace)
	}
	return nil
}

// watched reports whether an event's object is the run's: one of its
// objects, or one it is creating under a generated name (its ADDED event
// may come before the create's answer), which carries the run's label.
func (b *Backend) watched(ref api.Ref, u *unstructured.Unstructured) bool {
	if b.isOurs(ref) {
		return true
	}
	if u.GetLabels()[RunLabel] != b.s.ID || !b.declared(ref.Kind, u.GetGenerateName()) {
		return false
	}
	b.mu.Lock()
	b.ours[ref] = true
	b.mu.Unlock()
	return true
}

// create sends a create and journals it: before, what it may create
// (a name, or a generateName prefix); after, the name and uid it got.
func (b *Backend) create(ctx context.Context, ri dynamic.ResourceInterface, req api.Request, ref api.Ref, u *unstructured.Unstructured) (*unstructured.Unstructured, error) {
	prefix := ""
	if req.Ref.Name == "" {
		prefix = u.GetGenerateName()
		b.s.intendGenerated(ref.Kind, prefix)
	} else {
		b.s.intend(ref)
	}
	obj, err := ri.Create(ctx, u, metav1.CreateOptions{FieldManager: req.FieldManager})
	switch {
	case err == nil && prefix != "":
		made := api.Ref{Kind: ref.Kind, Namespace: ref.Namespace, Name: obj.GetName()}
		b.mu.Lock()
		b.ours[made] = true
		b.mu.Unlock()
		b.s.createdGenerated(made, prefix, string(obj.GetUID()))
	case err == nil:
		b.s.created(ref, string(obj.GetUID()))
	default:
		if _, isAPI := err.(apierrors.APIStatus); isAPI { // the server answered: nothing was made
			if prefix != "" {
				b.s.notCreatedGenerated(ref.Kind, prefix)
			} else {
				b.s.notCreated(ref)
			}
		}
	}
	return obj, err
}

// delete sends a DELETE with the request's options. A real server answers
// the delete of these kinds with a Status; the simulator (and so the
// timeline) shows the object's last state at its deletion revision, which
// is what the DELETED watch event carries: wait for it and answer with it.
func (b *Backend) delete(ctx context.Context, ri dynamic.ResourceInterface, req api.Request, ref api.Ref, cl *call) (*unstructured.Unstructured, error) {
	opts := metav1.DeleteOptions{}
	if len(req.Body) > 0 {
		if err := json.Unmarshal(req.Body, &opts); err != nil {
			return nil, apierrors.NewBadRequest(fmt.Sprintf("error decoding DeleteOptions: %v", err))
		}
	}
	b.mu.Lock()
	seen := b.objRV[ref]
	b.mu.Unlock()
	err := ri.Delete(ctx, req.Ref.Name, opts)
	if err != nil {
		return nil, err
	}
	if len(cl.body) > 0 {
		u := &unstructured.Unstructured{}
		if jerr := u.UnmarshalJSON(cl.body); jerr == nil && u.GetKind() != "Status" {
			return u, nil // marked for deletion: finalizers remain
		}
	}
	if ev := b.waitDeleted(ref, seen); ev != nil {
		return ev, nil
	}
	return nil, apierrors.NewServiceUnavailable("live run stopped: " + b.Err().Error())
}

// waitDeleted waits for the DELETED event of ref after revision seen and
// returns its object.
func (b *Backend) waitDeleted(ref api.Ref, seen int64) *unstructured.Unstructured {
	timer := time.NewTimer(b.c.opts.WatchTimeout)
	defer timer.Stop()
	for {
		b.mu.Lock()
		for _, ev := range b.events {
			if ev.Type == api.Deleted && ev.RV > seen && ev.Object.GetName() == ref.Name && api.Kind(ev.Object.GetKind()) == ref.Kind {
				obj := ev.Object.DeepCopy()
				b.mu.Unlock()
				return obj
			}
		}
		ch := b.changed
		b.mu.Unlock()
		select {
		case <-ch:
		case <-timer.C:
			b.fail(fmt.Errorf("the watch did not deliver the DELETED event of %s %s within %s", ref.Kind, ref.Name, b.c.opts.WatchTimeout))
			return nil
		case <-b.ctx.Done():
			b.fail(b.ctx.Err())
			return nil
		}
	}
}

// intendGenerated journals, before the request, a create whose name the
// server will choose; createdGenerated records the name and uid it got;
// notCreatedGenerated drops the intent when the server made nothing.
func (s *Session) intendGenerated(k api.Kind, prefix string) {
	s.fp.Objects = append(s.fp.Objects, Owned{Kind: k, GenerateName: prefix})
	s.record()
}

func (s *Session) createdGenerated(r api.Ref, prefix, uid string) {
	for i := range s.fp.Objects {
		o := &s.fp.Objects[i]
		if o.Kind == r.Kind && o.Name == "" && o.GenerateName == prefix && o.UID == "" {
			o.Name, o.UID = r.Name, uid
			s.record()
			return
		}
	}
	s.fp.Objects = append(s.fp.Objects, Owned{Kind: r.Kind, Name: r.Name, GenerateName: prefix, UID: uid})
	s.record()
}

func (s *Session) notCreatedGenerated(k api.Kind, prefix string) {
	for i, o := range s.fp.Objects {
		if o.Kind == k && o.Name == "" && o.GenerateName == prefix && o.UID == "" {
			s.fp.Objects = append(s.fp.Objects[:i], s.fp.Objects[i+1:]...)
			s.record()
			return
		}
	}
}

// removeGenerated deletes what a create with a generated name may have
// made when its answer never arrived: the objects of that kind labelled
// with the run, whose name has the prefix, that the footprint does not
// already list — each with its uid as a precondition.
func (c *Cluster) removeGenerated(ctx context.Context, f Footprint, o Owned) error {
	gvr, ok := GVR(o.Kind)
	if !ok {
		return fmt.Errorf("unknown kind")
	}
	ri := c.dyn.Resource(gvr).Namespace(f.Namespace)
	rctx, cancel := c.ctx(ctx)
	defer cancel()
	list, err := ri.List(rctx, metav1.ListOptions{LabelSelector: RunLabel + "=" + f.RunID})
	if err != nil {
		return err
	}
	listed := map[string]bool{}
	for _, x := range f.Objects {
		if x.Kind == o.Kind && x.Name != "" {
			listed[x.Name] = true
		}
	}
	for _, it := range list.Items {
		if listed[it.GetName()] || it.GetGenerateName() != o.GenerateName || !strings.HasPrefix(it.GetName(), o.GenerateName) {
			continue
		}
		if err := c.removeObject(ctx, f, Owned{Kind: o.Kind, Name: it.GetName(), UID: string(it.GetUID())}); err != nil {
			return err
		}
	}
	return nil
}
