package controller

import (
	"encoding/json"
	"fmt"
	"time"

	apiequality "k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/conflictlab/conflictlab/sim/api"
)

// ActionKind is what a machine wants to do next.
type ActionKind int

const (
	// Idle: nothing to do, ever again (done or gave up).
	Idle ActionKind = iota
	// SendRequest: an API request, one atomic step.
	SendRequest
	// ReadLister: read the informer's cache, a local step (no request).
	ReadLister
)

// Action is the machine's next step.
type Action struct {
	Kind    ActionKind
	Request api.Request
	// Purpose says why, for the timeline: "read", "write", "retry 2/5 write", "requeue 1 read".
	Purpose string
	// Selector, on a LIST, is the labels the controller looks for in what
	// it lists (a create finding its children, lifecycle.go).
	Selector map[string]string
	// Then marks the second call of a reconcile (Program.Then): its
	// changes are Then's mutations, not the program's.
	Then bool
}

// Status is where the machine is.
type Status string

const (
	Running  Status = "running"
	Done     Status = "done"
	GaveUp   Status = "gave-up"
	Sleeping Status = "sleeping"
)

// Stats are the per-controller counters the outcome reports.
type Stats struct {
	Requests    int `json:"requests"`
	ListerReads int `json:"listerReads"`
	Writes      int `json:"writes"`
	Conflicts   int `json:"conflicts"`
	Errors      int `json:"errors"`
	Retries     int `json:"retries"`
	Requeues    int `json:"requeues"`
	// LongestReconcileMS is the longest a single reconcile held its worker,
	// from its first read to its return (virtual ms, backoffs included): a
	// worker held is a worker serving no other key of its queue.
	LongestReconcileMS int64 `json:"longestReconcileMs"`
}

type phase int

const (
	phaseRead phase = iota
	phaseWrite
	// phaseThen: the first write landed; the Then call is next (then.go).
	phaseThen
	phaseDone
	phaseGaveUp
	// phaseWaiting: its reconciles are run and it waits for a watch event
	// to bring its key back (Program.OnEvent, queue.go).
	phaseWaiting
)

// Machine runs one Program step by step.
type Machine struct {
	prog      Program
	phase     phase
	source    ReadSource
	attempt   int // write attempt within the current retry loop, from 1
	reconcile int // reconciles finished
	read      *unstructured.Unstructured
	mutated   *unstructured.Unstructured
	wakeAt    time.Duration
	stats     Stats
	lastErr   error
	// expect is the resourceVersion of the last write it made, which a
	// program with Expectations waits for its cache to see (expect.go).
	expect int64
	// started is when the current reconcile's first step was answered;
	// inReconcile says whether one is under way.
	started     time.Duration
	inReconcile bool
	// code is the state of a machine whose moves are made outside it
	// (code.go).
	code codeState
	// pending are the times events still to be settled add the key to
	// the queue; dropped says the last reconcile, which let the key go,
	// failed; events counts the reconciles events started (queue.go).
	pending []time.Duration
	dropped bool
	events  int
}

// New returns a machine about to make its first read.
func New(p Program) *Machine {
	if p.Reconciles < 1 {
		p.Reconciles = 1
	}
	return &Machine{prog: p, phase: phaseRead, source: p.Read, attempt: 1}
}

// Clone returns an independent copy (objects held are never mutated in place).
func (m *Machine) Clone() *Machine {
	c := *m
	return &c
}

// Program returns the program the machine runs.
func (m *Machine) Program() Program { return m.prog }

// Stats returns the counters so far.
func (m *Machine) Stats() Stats { return m.stats }

// LastError is the last error the controller got, if any.
func (m *Machine) LastError() error { return m.lastErr }

// WakeAt is the virtual time before which the machine is backing off.
func (m *Machine) WakeAt() time.Duration { return m.wakeAt }

// Status reports whether the machine is running, asleep, done or gave up.
func (m *Machine) Status(now time.Duration) Status {
	switch m.phase {
	case phaseDone:
		return Done
	case phaseGaveUp:
		return GaveUp
	case phaseWaiting:
		if m.dropped {
			return GaveUp
		}
		return Done
	}
	if now < m.wakeAt {
		return Sleeping
	}
	return Running
}

// Finished reports whether the machine will never act again.
// A machine waiting for an event counts as finished: only another
// controller's write can wake it (queue.go).
func (m *Machine) Finished() bool {
	return m.phase == phaseDone || m.phase == phaseGaveUp || m.phase == phaseWaiting
}

// Holding returns the copy the controller currently holds (read, then mutated).
func (m *Machine) Holding() *unstructured.Unstructured {
	if m.IsCode() {
		return m.holdingCode() // code.go
	}
	return m.read
}

// Next says what the machine will do when it is scheduled. It is pure:
// calling it twice gives the same action.
func (m *Machine) Next() Action {
	if m.IsCode() {
		return m.nextCode() // code.go
	}
	if m.prog.Write.IsLifecycle() {
		return m.nextLifecycle() // lifecycle.go
	}
	switch m.phase {
	case phaseRead:
		purpose := m.purpose("read")
		if m.source == FromLister {
			return Action{Kind: ReadLister, Request: api.Request{Verb: api.Get, Ref: m.prog.Target}, Purpose: purpose + " (lister)"}
		}
		return Action{Kind: SendRequest, Request: api.Request{Verb: api.Get, Ref: m.prog.Target}, Purpose: purpose}
	case phaseWrite:
		req, err := BuildWrite(m.prog, m.read, m.mutated)
		if err != nil {
			// BuildWrite only fails on objects that cannot be marshalled,
			// which the server never hands out.
			panic(fmt.Sprintf("controller %s: %v", m.prog.Name, err))
		}
		return Action{Kind: SendRequest, Request: req, Purpose: m.purpose(writePurpose(m.prog, m.read, m.mutated))}
	case phaseThen:
		tp := m.prog.ThenProgram()
		req, err := BuildWrite(tp, m.read, m.mutated)
		if err != nil {
			panic(fmt.Sprintf("controller %s: %v", m.prog.Name, err))
		}
		return Action{Kind: SendRequest, Request: req, Then: true, Purpose: m.purpose("then " + writePurpose(tp, m.read, m.mutated) + " (on the answer)")}
	}
	return Action{Kind: Idle}
}

func (m *Machine) purpose(what string) string {
	s := what
	if m.attempt > 1 {
		if m.prog.Retry.Unbounded {
			s = fmt.Sprintf("retry %d %s", m.attempt, what)
		} else {
			s = fmt.Sprintf("retry %d/%d %s", m.attempt, m.prog.Retry.Attempts, what)
		}
	}
	if m.stats.Requeues > 0 {
		s = fmt.Sprintf("requeue %d: %s", m.stats.Requeues, s)
	}
	if m.events > 0 {
		s = fmt.Sprintf("event %d: %s", m.events, s)
	}
	if m.prog.Reconciles > 1 {
		s = fmt.Sprintf("loop %d: %s", m.reconcile+1, s)
	}
	return s
}

// Deliver hands the machine the answer to its last action, at virtual time now.
func (m *Machine) Deliver(a Action, resp api.Response, now time.Duration) {
	if a.Kind == SendRequest {
		m.stats.Requests++
	} else if a.Kind == ReadLister {
		m.stats.ListerReads++
	}
	if !m.inReconcile {
		m.started, m.inReconcile = now, true
		m.collapse(now) // queue.go
	}
	// Counted as it goes, so a reconcile that never returns shows too.
	m.stats.LongestReconcileMS = max(m.stats.LongestReconcileMS, (now - m.started).Milliseconds())
	if m.IsCode() {
		m.deliverCode(a, resp, now) // code.go
		return
	}
	if m.prog.Write.IsLifecycle() {
		m.deliverLifecycle(resp, now) // lifecycle.go
		return
	}
	switch m.phase {
	case phaseRead:
		if apierrors.IsNotFound(resp.Err) {
			// The object is gone (deleted, or not yet seen by the cache):
			// nothing to reconcile, as a controller returns nil on a
			// Lister's NotFound.
			m.read = nil
			m.finishReconcile(now)
			return
		}
		if resp.Err != nil {
			m.stats.Errors++
			m.lastErr = resp.Err
			m.failReconcile(now)
			return
		}
		m.read = resp.Object
		mutated, err := Mutate(m.prog, resp.Object)
		if err != nil {
			m.lastErr = err
			m.stats.Errors++
			m.phase = phaseGaveUp
			return
		}
		if unchanged(resp.Object, mutated) && !m.prog.SendNoop && m.prog.Body == nil {
			// Nothing to do: a real controller skips the write (unless
			// the program sends it on purpose, or sends a body it was given).
			m.finishReconcile(now)
			return
		}
		m.mutated = mutated
		m.phase = phaseWrite
	case phaseWrite:
		m.stats.Writes++
		if resp.Err == nil {
			m.lastErr = nil
			m.noteWrite(resp) // expect.go
			if m.prog.Then != nil && resp.Object != nil {
				// The answer is decoded into the object in hand: the
				// next call starts from it (then.go).
				m.read = resp.Object
				mutated, err := Mutate(m.prog.ThenProgram(), resp.Object)
				if err != nil {
					m.lastErr = err
					m.stats.Errors++
					m.phase = phaseGaveUp
					return
				}
				m.mutated = mutated
				m.phase = phaseThen
				return
			}
			m.finishReconcile(now)
			return
		}
		m.writeFailed(resp.Err, now)
	case phaseThen:
		m.stats.Writes++
		if resp.Err == nil {
			m.lastErr = nil
			m.noteWrite(resp)
			m.finishReconcile(now)
			return
		}
		// Not retried: the reconcile returns the error.
		m.lastErr = resp.Err
		if apierrors.IsConflict(resp.Err) {
			m.stats.Conflicts++
		} else {
			m.stats.Errors++
		}
		m.failReconcile(now)
	}
}

// writeFailed counts a failed write and either retries it (after the
// backoff, from a fresh read unless the policy rereads nothing) or returns
// the error to the workqueue.
func (m *Machine) writeFailed(err error, now time.Duration) {
	m.lastErr = err
	if apierrors.IsConflict(err) {
		m.stats.Conflicts++
	} else {
		m.stats.Errors++
	}
	r := m.prog.Retry
	if r.Retries(err) && (r.Unbounded || m.attempt < r.Attempts) {
		m.attempt++
		m.stats.Retries++
		m.wakeAt = now + r.Backoff
		if r.Reread == RereadNone {
			// The same stale copy again: the anti-pattern.
			return
		}
		m.source = r.Reread
		m.phase = phaseRead
		return
	}
	m.failReconcile(now)
}

// MaxRequeueDelay is client-go's cap on a requeued item's backoff.
const MaxRequeueDelay = 1000 * time.Second

// failReconcile returns the error to the workqueue, which requeues the item
// with per-item exponential backoff, or drops it when the budget is spent.
func (m *Machine) failReconcile(now time.Duration) {
	m.endReconcile(now)
	q := m.prog.Requeue
	if m.stats.Requeues >= q.Max {
		if !m.settle(now, true) { // queue.go
			m.phase = phaseGaveUp
		}
		return
	}
	base := q.BaseDelay
	if base == 0 {
		base = 5 * time.Millisecond
	}
	// workqueue.DefaultTypedControllerRateLimiter: per item, base·2^n capped
	// at 1000s (its overall 10 qps bucket, burst 100, never binds for the
	// handful of items a race has).
	delay := MaxRequeueDelay
	if m.stats.Requeues < 40 {
		delay = min(base<<m.stats.Requeues, MaxRequeueDelay)
	}
	m.wakeAt = now + delay
	if at, ok := m.nextEvent(now); ok {
		// An event's Add does not wait for the rate limiter's delay
		// (queue.go).
		m.wakeAt = min(m.wakeAt, at)
	}
	m.stats.Requeues++
	m.restart()
}

func (m *Machine) finishReconcile(now time.Duration) {
	m.endReconcile(now)
	m.reconcile++
	if m.reconcile >= m.prog.Reconciles {
		if !m.settle(now, false) { // queue.go
			m.phase = phaseDone
		}
		return
	}
	m.restart()
}

// endReconcile marks the reconcile returning: the next step starts a new
// one (a requeue's delay is time in the queue, not on a worker).
func (m *Machine) endReconcile(now time.Duration) {
	m.stats.LongestReconcileMS = max(m.stats.LongestReconcileMS, (now - m.started).Milliseconds())
	m.inReconcile = false
}

func (m *Machine) restart() {
	m.attempt = 1
	m.source = m.prog.Read
	m.phase = phaseRead
	m.mutated = nil
}

// Mutate applies the program's mutations to a copy of obj.
func Mutate(p Program, obj *unstructured.Unstructured) (*unstructured.Unstructured, error) {
	out := obj.DeepCopy()
	for _, mu := range p.Mutations {
		// Conditions look at what was read, not at earlier mutations.
		if mu.When != nil && !mu.When.Holds(obj.Object) {
			continue
		}
		c := mu.Resolve(obj.Object)
		c.When = nil
		if err := c.Apply(out.Object); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func unchanged(a, b *unstructured.Unstructured) bool {
	return apiequality.Semantic.DeepEqual(a.Object, b.Object)
}

func marshal(u *unstructured.Unstructured) ([]byte, error) { return json.Marshal(u.Object) }
