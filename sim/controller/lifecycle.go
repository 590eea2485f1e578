package controller

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"

	"github.com/conflictlab/conflictlab/sim/api"
)

// The two writes that begin and end an object's life. They change no
// copy that was read, so they have no mutations: a create sends the
// object it was given (Program.Object), a delete names its target and may
// carry preconditions taken from the copy it read.
const (
	// Create POSTs Program.Object. With WhenAbsent it first looks for the
	// object where Read says (its Lister, or the server) and creates it
	// only if it is not there: "ensure the child exists".
	Create WriteMethod = "create"
	// Delete DELETEs the target, after reading it (a controller decides to
	// delete what it has seen); an object already gone is nothing to do.
	Delete WriteMethod = "delete"
)

// LifecycleWrites lists them, after WriteMethods in the format's order.
var LifecycleWrites = []WriteMethod{Create, Delete}

// IsLifecycle reports whether the method creates or deletes rather than
// changing a copy that was read.
func (w WriteMethod) IsLifecycle() bool { return w == Create || w == Delete }

// Preconditions are the DeleteOptions preconditions a delete carries, each
// taken from the copy it read: the object's resourceVersion (it must not
// have changed since) and its uid (it must be the very object that was
// read, not one created again under its name).
type Preconditions struct {
	ResourceVersion bool
	UID             bool
}

// Any reports whether a delete carries at least one precondition.
func (p Preconditions) Any() bool { return p.ResourceVersion || p.UID }

// Selector is how a create with WhenAbsent finds its object when the
// server names it (generateName): by its labels, as a controller finds its
// children. Nil when the object has a name (it is looked up by name).
func (p Program) Selector() map[string]string {
	if p.Write != Create || p.Object == nil || p.Object.GetName() != "" {
		return nil
	}
	return p.Object.GetLabels()
}

// SelectorString is a selector as kubectl writes one: "app=web,tier=db".
func SelectorString(sel map[string]string) string {
	keys := make([]string, 0, len(sel))
	for k := range sel {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = k + "=" + sel[k]
	}
	return strings.Join(parts, ",")
}

// Matches reports whether an object carries every label of a selector.
func Matches(obj *unstructured.Unstructured, sel map[string]string) bool {
	labels := obj.GetLabels()
	for k, v := range sel {
		if got, ok := labels[k]; !ok || got != v {
			return false
		}
	}
	return true
}

// validateLifecycle checks a create or delete program.
func (p Program) validateLifecycle() error {
	fail := func(format string, args ...any) error {
		return fmt.Errorf("controller %s: %s", p.Name, fmt.Sprintf(format, args...))
	}
	if _, ok := api.Lookup(p.Target.Kind); !ok {
		return fail("unknown kind %q", p.Target.Kind)
	}
	switch p.Read {
	case FromLister, FromLive:
	default:
		return fail("read must be lister or live, not %q", p.Read)
	}
	switch p.Retry.Reread {
	case FromLister, FromLive, RereadNone:
	default:
		return fail("retry reread must be live, lister or none, not %q", p.Retry.Reread)
	}
	switch p.Retry.On {
	case OnConflict, OnAnyError, OnTestFailed:
	default:
		return fail("retry on must be conflict, any or test-failed, not %q", p.Retry.On)
	}
	if p.Retry.Attempts < 1 && !p.Retry.Unbounded {
		return fail("retry attempts must be at least 1")
	}
	switch {
	case len(p.Mutations) > 0:
		return fail("%s changes no copy it read: it takes no mutations", p.Write)
	case p.Body != nil:
		return fail("%s takes no hand-written body", p.Write)
	case p.WithRV || p.Test != TestNone || p.Force || p.SendNoop || p.Subresource != "":
		return fail("withRV, test, force, noop and subresource are for the writes that change an object, not %s", p.Write)
	}
	if p.Write == Delete {
		switch {
		case p.Object != nil:
			return fail("delete takes no object: its target names what it deletes")
		case p.WhenAbsent:
			return fail("when absent is for create")
		case p.Target.Name == "":
			return fail("target has no name")
		}
		switch metav1.DeletionPropagation(p.Propagation) {
		case "", metav1.DeletePropagationForeground, metav1.DeletePropagationBackground, metav1.DeletePropagationOrphan:
		default:
			return fail("propagationPolicy must be Foreground, Background or Orphan, not %q", p.Propagation)
		}
		return nil
	}
	if p.Preconditions.Any() {
		return fail("preconditions are for delete")
	}
	if p.Propagation != "" {
		return fail("propagationPolicy is for delete")
	}
	if p.Object == nil {
		return fail("create needs the object it creates")
	}
	if k := api.Kind(p.Object.GetKind()); k != p.Target.Kind {
		return fail("create's object is a %s, its target a %s", k, p.Target.Kind)
	}
	name, gen := p.Object.GetName(), p.Object.GetGenerateName()
	switch {
	case name == "" && gen == "":
		return fail("create's object needs metadata.name or metadata.generateName")
	case name != p.Target.Name:
		return fail("create's target names %q, its object %q", p.Target.Name, name)
	case p.WhenAbsent && name == "" && len(p.Object.GetLabels()) == 0:
		return fail("when absent finds an object with a generated name by its labels: give the object metadata.labels")
	}
	return nil
}

// readsFirst: a delete reads what it deletes; a create reads only to see
// whether its object is already there.
func (m *Machine) readsFirst() bool { return m.prog.Write == Delete || m.prog.WhenAbsent }

// lifecyclePhase is the machine's phase for a create that reads nothing:
// its "read" is the create itself.
func (m *Machine) lifecyclePhase() phase {
	if m.phase == phaseRead && !m.readsFirst() {
		return phaseWrite
	}
	return m.phase
}

func (m *Machine) nextLifecycle() Action {
	switch m.lifecyclePhase() {
	case phaseRead:
		req := api.Request{Verb: api.Get, Ref: m.prog.Target}
		what := m.prog.Target.Name
		sel := m.prog.Selector()
		if sel != nil {
			req = api.Request{Verb: api.List, Ref: api.Ref{Kind: m.prog.Target.Kind, Namespace: m.prog.Target.Namespace}}
			what = SelectorString(sel)
		}
		purpose := "read"
		if m.prog.Write == Create {
			purpose = "look for " + what
		}
		if m.source == FromLister {
			return Action{Kind: ReadLister, Request: req, Purpose: m.purpose(purpose) + " (lister)", Selector: sel}
		}
		return Action{Kind: SendRequest, Request: req, Purpose: m.purpose(purpose), Selector: sel}
	case phaseWrite:
		req, err := m.lifecycleRequest()
		if err != nil {
			// Only an object that cannot be marshalled fails, and the
			// scenario's objects are JSON.
			panic(fmt.Sprintf("controller %s: %v", m.prog.Name, err))
		}
		return Action{Kind: SendRequest, Request: req, Purpose: m.purpose(string(m.prog.Write))}
	}
	return Action{Kind: Idle}
}

// lifecycleRequest is the POST or the DELETE, as client-go sends them: a
// create's body is the object; a delete's body is its DeleteOptions.
func (m *Machine) lifecycleRequest() (api.Request, error) {
	req := api.Request{Ref: m.prog.Target}
	if m.prog.Write == Create {
		obj := m.prog.Object.DeepCopy()
		if obj.GetNamespace() == "" {
			obj.SetNamespace(m.prog.Target.Namespace)
		}
		body, err := marshal(obj)
		req.Verb, req.Body, req.FieldManager = api.Create, body, m.prog.Manager()
		return req, err
	}
	req.Verb = api.Delete
	pre := m.prog.Preconditions
	if (!pre.Any() || m.read == nil) && m.prog.Propagation == "" {
		return req, nil
	}
	var opts metav1.DeleteOptions
	if p := m.prog.Propagation; p != "" {
		policy := metav1.DeletionPropagation(p)
		opts.PropagationPolicy = &policy
	}
	if !pre.Any() || m.read == nil {
		body, err := json.Marshal(opts)
		req.Body = body
		return req, err
	}
	opts.Preconditions = &metav1.Preconditions{}
	if pre.UID {
		uid := types.UID(m.read.GetUID())
		opts.Preconditions.UID = &uid
	}
	if pre.ResourceVersion {
		rv := m.read.GetResourceVersion()
		opts.Preconditions.ResourceVersion = &rv
	}
	body, err := json.Marshal(opts)
	req.Body = body
	return req, err
}

// deliverLifecycle takes the answer to a create's or a delete's step.
// Finding its object already there is a create's "nothing to do", finding
// it gone a delete's; a delete answered 404 is done too (the idiom is
// client.IgnoreNotFound). Everything else fails as any write fails:
// AlreadyExists is not a Conflict, so RetryOnConflict does not retry it.
func (m *Machine) deliverLifecycle(resp api.Response, now time.Duration) {
	switch m.lifecyclePhase() {
	case phaseRead:
		if resp.Err != nil && !apierrors.IsNotFound(resp.Err) {
			m.stats.Errors++
			m.lastErr = resp.Err
			m.failReconcile(now)
			return
		}
		found := resp.Err == nil && resp.Object != nil
		if sel := m.prog.Selector(); sel != nil {
			found = false
			for _, it := range resp.Items {
				found = found || Matches(it, sel)
			}
		}
		m.read = nil
		if m.prog.Write == Delete && found {
			m.read = resp.Object
		}
		if found == (m.prog.Write == Create) {
			m.finishReconcile(now)
			return
		}
		m.phase = phaseWrite
	case phaseWrite:
		m.stats.Writes++
		if resp.Err == nil || (m.prog.Write == Delete && apierrors.IsNotFound(resp.Err)) {
			m.lastErr = nil
			m.noteWrite(resp) // expect.go
			m.finishReconcile(now)
			return
		}
		m.writeFailed(resp.Err, now)
	}
}
