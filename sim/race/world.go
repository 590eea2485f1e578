// Package race runs a scenario: it owns the simulated API server, one
// informer cache and one controller machine per controller, and a virtual
// clock, and it advances them one atomic step at a time — an API request,
// a Lister read, or a watch event reaching a cache. A run is a pure
// function of the scenario and the schedule: no goroutines, no wall clock.
package race

import (
	"encoding/json"
	"fmt"
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/conflictlab/conflictlab/sim/api"
	"github.com/conflictlab/conflictlab/sim/apiserver"
	"github.com/conflictlab/conflictlab/sim/controller"
	"github.com/conflictlab/conflictlab/sim/informer"
	"github.com/conflictlab/conflictlab/sim/scenario"
)

// Tick is the virtual time one step takes.
const Tick = time.Millisecond

// SetupActor is the name the initial objects are written under.
const SetupActor = "setup"

type actor struct {
	name    string
	machine *controller.Machine
	cache   *informer.Cache
	lag     scenario.Lag
	// plan is what the scenario set it to do, for the outcome.
	plan Plan
	// next caches the machine's next action (commute.go); nil until asked,
	// and again once the machine has moved.
	next *controller.Action
	// worker names the worker it shares with other controllers' keys
	// ("" for its own); waiting says its key is waiting for that worker,
	// since waitFrom (after step waitStep), behind waitFor's reconcile
	// (queue.go).
	worker   string
	waiting  bool
	waitFrom time.Duration
	waitStep int
	waitFor  string
}

// Backend is the API server a world runs against: the simulator, or (live
// mode) a real cluster behind the same request/response shapes. Events are
// the watch events after a revision, in order; a live backend waits for its
// own writes to show up in its watch so that runs stay comparable.
type Backend interface {
	Do(api.Request) api.Response
	Events(from int64) ([]apiserver.Event, error)
	RV() int64
	Peek(ref api.Ref) *unstructured.Unstructured
	SetTime(time.Duration)
}

// cloner is the backend the explorer can branch: the simulator.
type cloner interface {
	cloneBackend() Backend
}

type simBackend struct{ *apiserver.Server }

func (b simBackend) cloneBackend() Backend { return simBackend{b.Server.Clone()} }

// World is a race in progress.
type World struct {
	sc     *scenario.Scenario
	server Backend
	now    time.Duration
	actors []*actor
	// emitted[i] is the virtual time at which revision emittedBase+1+i was
	// written; it is append-only so clones can share it.
	emitted     []time.Duration
	emittedBase int64
	trace       *trace
	taken       []scenario.Move
}

// New builds the world for a scenario: the initial objects are created
// (they are version 0 of the history) and every informer is synced.
func New(sc *scenario.Scenario) (*World, error) {
	start := sc.StartRV
	if start == 0 {
		start = scenario.DefaultStartRV
	}
	return NewWithBackend(sc, simBackend{apiserver.New(nil, start)})
}

// NewWithBackend builds the world on another backend (a live cluster).
func NewWithBackend(sc *scenario.Scenario, backend Backend) (*World, error) {
	w := &World{sc: sc, server: backend, trace: newTrace()}
	for _, obj := range sc.Objects {
		body, err := json.Marshal(obj.Object)
		if err != nil {
			return nil, err
		}
		ref := api.RefOf(obj)
		resp := w.server.Do(api.Request{Verb: api.Create, Ref: ref, Body: body, FieldManager: SetupActor})
		if resp.Err != nil {
			return nil, fmt.Errorf("initial object %s: %w", ref, resp.Err)
		}
		w.trace.setupVersion(resp.Object)
	}
	w.emittedBase = w.server.RV()
	for i, c := range sc.Controllers {
		kinds := []api.Kind{c.Target.Kind}
		if c.Write == controller.Code {
			// Code may read any kind from its cache, as a manager's cache
			// serves every kind its controllers watch (code.go).
			kinds = api.Kinds()
		}
		sel, err := c.Selector()
		if err != nil {
			return nil, fmt.Errorf("controller %s: %w", c.Name, err)
		}
		var items []*unstructured.Unstructured
		for _, k := range kinds {
			items = append(items, w.server.Do(api.Request{Verb: api.List, Ref: api.Ref{Kind: k}}).Items...)
		}
		w.actors = append(w.actors, &actor{
			name:    c.Name,
			machine: controller.New(c.Program),
			cache:   informer.SyncedFiltered(items, w.server.RV(), sel),
			lag:     sc.LagOf(i),
			plan:    planWithWorker(PlanOf(c.Program), c.Worker),
			worker:  c.Worker,
		})
	}
	return w, nil
}

// Clone returns an independent copy of the world, for the explorer.
func (w *World) Clone() *World {
	c := *w
	cl, ok := w.server.(cloner)
	if !ok {
		panic("race: only a simulated world can be cloned")
	}
	c.server = cl.cloneBackend()
	c.actors = make([]*actor, len(w.actors))
	for i, a := range w.actors {
		cp := *a
		cp.machine = a.machine.Clone()
		cp.cache = a.cache.Clone()
		c.actors[i] = &cp
	}
	c.emitted = w.emitted[:len(w.emitted):len(w.emitted)]
	c.trace = w.trace.clone()
	c.taken = w.taken[:len(w.taken):len(w.taken)]
	return &c
}

// Now is the virtual time.
func (w *World) Now() time.Duration { return w.now }

// Scenario returns the scenario being run.
func (w *World) Scenario() *scenario.Scenario { return w.sc }

// Taken is the schedule so far.
func (w *World) Taken() []scenario.Move { return w.taken }

// Done reports whether no controller will act again and no event is pending.
func (w *World) Done() bool {
	for _, a := range w.actors {
		if !a.machine.Finished() {
			return false
		}
	}
	return true
}

// Enabled lists the moves that can be scheduled now: the next step of
// every controller that has not finished, and a delivery to each
// manual-lag informer with a pending event.
func (w *World) Enabled() []scenario.Move {
	var out []scenario.Move
	for _, a := range w.actors {
		if !a.machine.Finished() && !w.blocked(a) {
			out = append(out, scenario.Step(a.name))
		}
	}
	for _, a := range w.actors {
		if a.lag.Manual && w.pending(a) != nil {
			out = append(out, scenario.Deliver(a.name))
		}
	}
	return out
}

func (w *World) actor(name string) *actor {
	for _, a := range w.actors {
		if a.name == name {
			return a
		}
	}
	return nil
}

// Step takes one move: the controller's next step, or the delivery of
// the next watch event to its cache.
func (w *World) Step(m scenario.Move) error {
	a := w.actor(m.Controller)
	if a == nil {
		return fmt.Errorf("schedule: no controller %q", m.Controller)
	}
	if m.Deliver {
		ev := w.pending(a)
		if ev == nil {
			return fmt.Errorf("schedule: %s has no watch event waiting", m)
		}
		w.taken = append(w.taken, m)
		w.deliver(a, *ev)
		return nil
	}
	if a.machine.Finished() {
		return fmt.Errorf("schedule: controller %s has finished", m.Controller)
	}
	if a.machine.IsCode() && !a.machine.Offered() {
		return fmt.Errorf("schedule: controller %s is played by Go code (write: code), which has no call waiting: run the race with package simcluster", m.Controller)
	}
	if w.blocked(a) {
		return fmt.Errorf("schedule: %s's worker is busy with %s's reconcile", m.Controller, w.holder(a))
	}
	w.taken = append(w.taken, m)
	if wake := a.machine.WakeAt(); wake > w.now {
		// The controller is backing off: time passes until it wakes.
		w.advanceTo(wake)
	}
	w.awaitOwnWrite(a) // expect.go
	act := a.nextAction()
	var before *unstructured.Unstructured
	if act.Request.Ref.Name != "" {
		// A LIST, or a create whose name the server generates, names no
		// one object to look at.
		before = w.server.Peek(act.Request.Ref)
	}
	held := a.machine.Holding()
	fromRV := w.server.RV()
	var resp api.Response
	switch {
	case act.Kind == controller.ReadLister && act.Request.Verb == api.List:
		resp = api.Response{Code: 200, Items: a.cache.List(act.Request.Ref.Kind, act.Request.Ref.Namespace)}
	case act.Kind == controller.ReadLister:
		obj, err := a.read(act.Request.Ref) // code.go
		resp = api.Response{Code: apiserver.Code(err), Object: obj, Err: err}
	case act.Kind == controller.SendRequest:
		w.server.SetTime(w.now)
		resp = w.server.Do(act.Request)
		for int64(len(w.emitted)) < w.server.RV()-w.emittedBase {
			w.emitted = append(w.emitted, w.now)
		}
	}
	requeues := a.machine.Stats().Requeues
	a.machine.Deliver(act, resp, w.now)
	a.next = nil
	w.trace.record(w, a, act, resp, before, held)
	if wake := a.machine.WakeAt(); wake > w.now && !a.machine.Finished() {
		kind := WaitBackoff
		if a.machine.Stats().Requeues > requeues {
			kind = WaitRequeue
		}
		w.trace.wait(a.name, kind, w.now, wake)
	}
	if w.server.RV() > fromRV {
		w.enqueueOnEvents(fromRV, before) // queue.go
	}
	w.noteWorkers()
	w.now += Tick
	w.deliverDue()
	w.drainFiltered() // queue.go
	return nil
}

// advanceTo moves the clock forward, delivering events as they fall due.
func (w *World) advanceTo(t time.Duration) {
	for w.now < t {
		w.now += Tick
		w.deliverDue()
	}
}

// pending returns the next watch event the actor's cache has not seen.
func (w *World) pending(a *actor) *apiserver.Event {
	evs, err := w.server.Events(a.cache.RV())
	if err != nil || len(evs) == 0 {
		return nil
	}
	return &evs[0]
}

func (w *World) deliverDue() {
	for _, a := range w.actors {
		if a.lag.Manual {
			continue
		}
		for {
			ev := w.pending(a)
			if ev == nil || w.emittedAt(ev.RV)+a.lag.Delay > w.now {
				break
			}
			w.deliver(a, *ev)
		}
	}
}

func (w *World) emittedAt(rv int64) time.Duration {
	if i := rv - w.emittedBase - 1; i >= 0 && i < int64(len(w.emitted)) {
		return w.emitted[i]
	}
	return 0
}

func (w *World) deliver(a *actor, ev apiserver.Event) {
	note := queueNote(a, ev) // queue.go
	got := a.cache.Apply(ev)
	w.trace.watch(w, a, ev, got, note)
}

// CacheRV returns the revision each informer has reached, by controller.
func (w *World) cacheRVs() []int64 {
	out := make([]int64, len(w.actors))
	for i, a := range w.actors {
		out[i] = a.cache.RV()
	}
	return out
}

// Object returns the current server copy of ref (nil if absent).
func (w *World) Object(ref api.Ref) *unstructured.Unstructured { return w.server.Peek(ref) }

// Memoize makes a simulated world's server remember its answers to
// writes; the explorer's branches, cloned from one world, share them.
func (w *World) Memoize() {
	if b, ok := w.server.(simBackend); ok {
		b.Server.Memoize()
	}
}
