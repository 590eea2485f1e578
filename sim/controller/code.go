package controller

import (
	"fmt"
	"sort"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/conflictlab/conflictlab/sim/api"
	"github.com/conflictlab/conflictlab/sim/statekey"
)

// Code marks a controller whose moves are made by Go code outside the
// simulator — a learner's reconcile, a controller author's — through
// real clients (package simcluster). Its machine computes nothing: each
// move is the call the code is making, offered to it (Offer) before the
// scheduler takes it; the answer waits in the machine for the code
// (Answer); and the code says when its reconcile returns (Return), which
// the machine hands to the workqueue as it does for any other program.
//
// The machine stays pure: the code runs elsewhere, and everything it does
// reaches the simulator as plain data. Its Mutations are not applied:
// they say what the code means to change, for the loss analysis.
const Code WriteMethod = "code"

// Returned is how a code controller's reconcile ended, in
// controller-runtime's terms.
type Returned struct {
	// Err is the error it returned: the item goes back to the workqueue
	// with its backoff (Requeue.BaseDelay·2^n), or is dropped once
	// Requeue.Max requeues are spent.
	Err error
	// Requeue (Result.Requeue) goes back to the workqueue with the backoff
	// without an error.
	Requeue bool
	// RequeueAfter (Result.RequeueAfter) ends the reconcile and starts the
	// next one (Program.Reconciles) no sooner than this.
	RequeueAfter time.Duration
}

// heldCopy is an object the code read, the copy a later write of the same
// object was made from (the timeline's HeldRV, the loss analysis' intent).
type heldCopy struct {
	ref api.Ref
	obj *unstructured.Unstructured
}

// codeState is a code machine's own state. Its slices are replaced, never
// appended to in place, so clones share them.
type codeState struct {
	// offered is the move the code is waiting to make; nil while the code
	// runs, and once its reconcile has returned.
	offered *Action
	// answer is the response to its last move, until the next Offer.
	answer *api.Response
	held   []heldCopy
	// conflicted: the current reconcile got a 409, so its next write is a
	// retry (the counter a retry loop in the code moves).
	conflicted bool
	// at is the virtual time of the last answer: the code takes no time
	// of its own, so its reconcile returns then.
	at time.Duration
}

// IsCode reports whether the machine's moves are made by code outside it.
func (m *Machine) IsCode() bool { return m.prog.Write == Code }

// Offer sets the code controller's next move: the call its code is
// making now. The scheduler takes it when the controller is scheduled.
func (m *Machine) Offer(a Action) error {
	if !m.IsCode() {
		return fmt.Errorf("controller %s: only a code controller takes offered moves", m.prog.Name)
	}
	if m.Finished() {
		return fmt.Errorf("controller %s has finished: its code made a call after its last reconcile returned", m.prog.Name)
	}
	if m.code.offered != nil {
		return fmt.Errorf("controller %s: a call is already waiting (%s)", m.prog.Name, m.code.offered.Request.Describe())
	}
	if a.Kind != SendRequest && a.Kind != ReadLister {
		return fmt.Errorf("controller %s: an offered move must be a request or a cache read", m.prog.Name)
	}
	m.code.offered = &a
	m.code.answer = nil
	return nil
}

// Offered reports whether a move is waiting to be taken.
func (m *Machine) Offered() bool { return m.code.offered != nil }

// Answer is the response to the code controller's last move, once the
// scheduler has taken it.
func (m *Machine) Answer() (api.Response, bool) {
	if m.code.answer == nil {
		return api.Response{}, false
	}
	return *m.code.answer, true
}

func (m *Machine) nextCode() Action {
	if m.code.offered == nil || m.Finished() {
		return Action{Kind: Idle}
	}
	return *m.code.offered
}

// holdingCode is the copy the code read of the object its offered move
// names (nil when it read none).
func (m *Machine) holdingCode() *unstructured.Unstructured {
	if m.code.offered == nil {
		return nil
	}
	ref := m.code.offered.Request.Ref
	for i := len(m.code.held) - 1; i >= 0; i-- {
		if m.code.held[i].ref == ref {
			return m.code.held[i].obj
		}
	}
	return nil
}

func (m *Machine) deliverCode(a Action, resp api.Response, now time.Duration) {
	m.code.offered = nil
	m.code.at = now
	m.code.answer = &resp
	switch r := a.Request; {
	case r.Verb == api.Get && resp.Object != nil:
		m.hold(r.Ref, resp.Object)
	case r.Verb == api.List:
		for _, it := range resp.Items {
			m.hold(api.RefOf(it), it)
		}
	case r.Verb != api.Get && r.Verb != api.List:
		m.stats.Writes++
		if m.code.conflicted {
			// A write after a 409 in the same reconcile: the code retries.
			m.stats.Retries++
			m.code.conflicted = false
		}
		switch {
		case resp.Err == nil:
			m.lastErr = nil
			if resp.Object != nil {
				ref := r.Ref
				if ref.Name == "" {
					ref.Name = resp.Object.GetName()
				}
				m.hold(ref, resp.Object)
			}
		case apierrors.IsConflict(resp.Err):
			m.stats.Conflicts++
			m.code.conflicted = true
			m.lastErr = resp.Err
		default:
			m.stats.Errors++
			m.lastErr = resp.Err
		}
	}
}

// hold records obj as the copy the code now has of ref. The slice is
// replaced, so clones of the machine keep theirs.
func (m *Machine) hold(ref api.Ref, obj *unstructured.Unstructured) {
	held := make([]heldCopy, 0, len(m.code.held)+1)
	for _, h := range m.code.held {
		if h.ref != ref {
			held = append(held, h)
		}
	}
	m.code.held = append(held, heldCopy{ref: ref, obj: obj})
}

// AnsweredAt is the virtual time of the code controller's last answer.
func (m *Machine) AnsweredAt() time.Duration { return m.code.at }

// Return ends the code controller's current reconcile, at the time of its
// last answer (the code takes no virtual time), as the workqueue takes
// its result: an error or Requeue comes back
// with the backoff (or gives up once the requeues are spent), anything
// else finishes the reconcile, and the next one (Program.Reconciles)
// starts at once or after RequeueAfter.
func (m *Machine) Return(r Returned) error {
	if !m.IsCode() {
		return fmt.Errorf("controller %s: only a code controller returns from outside", m.prog.Name)
	}
	if m.Finished() {
		return fmt.Errorf("controller %s has finished", m.prog.Name)
	}
	if m.code.offered != nil {
		return fmt.Errorf("controller %s returned with a call still waiting", m.prog.Name)
	}
	// A reconcile that made no call starts where the last one left it,
	// backoff included.
	now := max(m.code.at, m.wakeAt)
	m.code.conflicted = false
	m.code.held = nil
	switch {
	case r.Err != nil || r.Requeue:
		if r.Err != nil {
			m.lastErr = r.Err
		}
		m.failReconcile(now)
	default:
		m.finishReconcile(now)
		if !m.Finished() && r.RequeueAfter > 0 {
			m.wakeAt = now + r.RequeueAfter
		}
	}
	return nil
}

// validateCode: a code controller needs the object it reconciles; its
// mutations, if any, say what it means to change.
func (p Program) validateCode() error {
	if _, ok := api.Lookup(p.Target.Kind); !ok {
		return fmt.Errorf("controller %s: unknown kind %q", p.Name, p.Target.Kind)
	}
	if p.Target.Name == "" {
		return fmt.Errorf("controller %s: target has no name", p.Name)
	}
	if p.Expectations {
		return fmt.Errorf("controller %s: a code controller keeps its own expectations", p.Name)
	}
	for i, m := range p.Mutations {
		if err := m.Validate(); err != nil {
			return fmt.Errorf("controller %s: mutation %d: %w", p.Name, i+1, err)
		}
	}
	return nil
}

// encodeState writes a code machine's own state for the explorer's state
// key: the call waiting, the answer the code has not collected, the copies
// it holds, whether its reconcile got a 409, and when its last answer came
// (a reconcile that returns next is requeued from then). What the code
// itself remembers is not here: whoever runs the code keys it (simcluster
// digests what the code was told).
func (c codeState) encodeState(e statekey.Encoder) {
	statekey.Bool(e, c.offered != nil)
	if c.offered != nil {
		c.offered.encodeState(e)
	}
	statekey.Bool(e, c.answer != nil)
	if a := c.answer; a != nil {
		e.Int(int64(a.Code))
		e.Object(a.Object)
		e.Int(int64(len(a.Items)))
		for _, it := range a.Items {
			e.Object(it)
		}
		e.Text(a.ListRV)
		statekey.Error(e, a.Err)
	}
	e.Int(int64(len(c.held)))
	for _, h := range c.held {
		statekey.Ref(e, h.ref)
		e.Object(h.obj)
	}
	statekey.Bool(e, c.conflicted)
	e.Int(int64(c.at))
}

// encodeState writes an action: a code machine's offered call.
func (a Action) encodeState(e statekey.Encoder) {
	e.Int(int64(a.Kind))
	e.Text(a.Purpose)
	r := a.Request
	e.Text(string(r.Verb))
	statekey.Ref(e, r.Ref)
	e.Text(r.Subresource)
	e.Text(string(r.PatchType))
	e.Text(string(r.Body))
	e.Text(r.FieldManager)
	statekey.Bool(e, r.Force)
	keys := make([]string, 0, len(a.Selector))
	for k := range a.Selector {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	e.Int(int64(len(keys)))
	for _, k := range keys {
		e.Text(k)
		e.Text(a.Selector[k])
	}
}
