package race

import (
	"strings"
	"testing"

	"github.com/conflictlab/conflictlab/sim/controller"
	"github.com/conflictlab/conflictlab/sim/scenario"
)

func parse(t *testing.T, src string) *scenario.Scenario {
	t.Helper()
	sc, err := scenario.Parse("queue.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return sc
}

// A busy Widget: status writes /status, operator patches a label; c
// updates spec.size from a Lister 20ms behind, one attempt, and swallows
// the error. onEvent is filled in by each test.
const busyWidget = `
name: busy
lag: 20ms
objects:
- apiVersion: oracle.example.com/v1
  kind: Widget
  metadata: {name: w1}
  spec: {size: 1}
controllers:
- name: c
  target: Widget/w1
  mutations:
  - set: {path: spec.size, value: 3}
  write: update
  onEvent: FILTER
- name: status
  target: Widget/w1
  read: live
  mutations:
  - set: {path: status.phase, value: Ready}
  write: update-status
- name: operator
  target: Widget/w1
  mutations:
  - addLabel: {team: payments}
  write: merge-patch
`

func busy(t *testing.T, filter string) *scenario.Scenario {
	return parse(t, strings.Replace(busyWidget, "FILTER", filter, 1))
}

// c's update is refused by the version status wrote; its reconcile
// returns nil. The event of status's write reaches c's informer and puts
// the key back: the next reconcile reads the new version and lands.
func TestDroppedKeyComesBackWithTheEvent(t *testing.T) {
	o, err := Run(busy(t, "any"), Schedule{Moves: scenario.MustMoves("c", "status", "status", "c", "operator", "operator")})
	if err != nil {
		t.Fatal(err)
	}
	if o.Verdict != VerdictNoLoss {
		t.Fatalf("verdict %s, want no-loss: the event should bring c back", o.Verdict)
	}
	// Refused twice — by status's version, then (reading at 22ms, when
	// only status's event has arrived) by operator's — and brought back
	// each time by the event of the write that refused it.
	c := o.Controllers[0]
	if c.Status != controller.Done || c.Stats.Conflicts != 2 {
		t.Errorf("c: %s with %d conflicts, want done after two", c.Status, c.Stats.Conflicts)
	}
	if got := o.Final["spec"].(map[string]interface{})["size"]; got != int64(3) {
		t.Errorf("spec.size %v, want 3", got)
	}
	var queued, event int
	for _, s := range o.Steps {
		if s.Kind == StepWatch && s.Actor == "c" && s.Queue == QueueQueued {
			queued++
		}
		if strings.HasPrefix(s.Purpose, "event ") {
			event++
		}
	}
	if queued == 0 || event == 0 {
		t.Errorf("want watch steps that queue c's key (%d) and reconciles they started (%d)", queued, event)
	}
	waits := 0
	for _, w := range o.Waits {
		if w.Kind == WaitEvent && w.Actor == "c" {
			waits++
		}
	}
	// The first event came during c's refused reconcile: it is served
	// when that reconcile returns, with no wait of its own; the events
	// after that find c out of the queue and are waits.
	if waits == 0 {
		t.Errorf("no event wait recorded for c: %+v", o.Waits)
	}
}

// With GenerationChangedPredicate neither the /status write nor the
// label patch moves metadata.generation: both events are filtered, the
// key never comes back, and c has given up. The events still reach the
// cache once nobody acts, marked filtered.
func TestPredicateKeepsTheKeyOut(t *testing.T) {
	o, err := Run(busy(t, "generation-changed"), Schedule{Moves: scenario.MustMoves("c", "status", "status", "c", "operator", "operator")})
	if err != nil {
		t.Fatal(err)
	}
	if o.Verdict != VerdictGaveUp {
		t.Fatalf("verdict %s, want gave-up", o.Verdict)
	}
	if c := o.Controllers[0]; c.Status != controller.GaveUp || c.Stats.Requests != 1 {
		t.Errorf("c: %s after %d requests, want gave-up after its one update", c.Status, c.Stats.Requests)
	}
	filtered := 0
	for _, s := range o.Steps {
		if s.Kind == StepWatch && s.Actor == "c" {
			if s.Queue != QueueFiltered {
				t.Errorf("step %d: %s queue %q, want filtered", s.Index, s.Event, s.Queue)
			}
			filtered++
		}
	}
	if filtered != 2 {
		t.Errorf("%d filtered events reached c's cache, want both writes' (2)", filtered)
	}
}

// c's own spec write moves the generation: its event passes the
// predicate and brings a reconcile that finds nothing to do.
func TestOwnSpecWritePassesThePredicate(t *testing.T) {
	o, err := Run(busy(t, "generation-changed"), Schedule{Moves: scenario.MustMoves("c", "c")})
	if err != nil {
		t.Fatal(err)
	}
	c := o.Controllers[0]
	if c.Status != controller.Done || c.Stats.ListerReads != 2 || c.Stats.Writes != 1 {
		t.Errorf("c: %s, %d lister reads, %d writes; want done, 2 reads (the second after its own event), 1 write", c.Status, c.Stats.ListerReads, c.Stats.Writes)
	}
}

// Two keys on one worker: while a's reconcile loops, a-cm2 is not
// enabled, a schedule naming it is refused, and the outcome shows the
// wait, still open when the run stops.
func TestSharedWorkerHoldsTheOtherKey(t *testing.T) {
	sc := parse(t, `
name: two-keys
lag: 5ms
maxSteps: 40
objects:
- {apiVersion: v1, kind: ConfigMap, metadata: {name: cm1}, data: {beats: "0"}}
- {apiVersion: v1, kind: ConfigMap, metadata: {name: cm2}, data: {mode: blue}}
controllers:
- name: a
  target: ConfigMap/cm1
  read: live
  mutations: [{set: {path: data.owner, value: a}}]
  write: update
  retry: {unbounded: true, on: conflict, reread: live, backoff: 10ms}
  worker: w1
- name: b
  target: ConfigMap/cm1
  read: live
  mutations: [{increment: data.beats}]
  write: update
  reconciles: 1000
- name: a-cm2
  target: ConfigMap/cm2
  read: live
  mutations: [{set: {path: data.owner, value: a}}]
  write: update
  worker: w1
schedule: [b, a]
`)
	w, err := New(sc)
	if err != nil {
		t.Fatal(err)
	}
	for _, tok := range []string{"b", "a"} {
		if err := w.Step(scenario.Step(tok)); err != nil {
			t.Fatal(err)
		}
	}
	for _, tok := range w.Enabled() {
		if tok == scenario.Step("a-cm2") {
			t.Fatalf("a-cm2 enabled while a's reconcile holds the worker: %v", w.Enabled())
		}
	}
	if err := w.Step(scenario.Step("a-cm2")); err == nil || !strings.Contains(err.Error(), "busy with a's reconcile") {
		t.Fatalf("stepping a blocked key: %v", err)
	}
	if err := w.Play(Schedule{}); err != nil {
		t.Fatal(err)
	}
	o := w.Outcome()
	if o.Verdict != VerdictUnfinished {
		t.Errorf("verdict %s, want unfinished", o.Verdict)
	}
	cm2 := o.Controllers[2]
	if cm2.Stats.Requests != 0 || cm2.Status != controller.Running {
		t.Errorf("a-cm2: %s after %d requests, want running (never served)", cm2.Status, cm2.Stats.Requests)
	}
	last := o.Waits[len(o.Waits)-1]
	if last.Kind != WaitWorker || last.Actor != "a-cm2" || last.For != "a" || !last.Open || last.UntilMS <= last.FromMS {
		t.Errorf("last wait %+v, want a-cm2's open wait for a's reconcile", last)
	}
	if cm2.Plan.Worker != "w1" || !strings.Contains(cm2.Plan.String(), "worker w1") {
		t.Errorf("plan %q does not name the shared worker", cm2.Plan.String())
	}
}

// A bounded reconcile lets the worker go when it returns the error: the
// other key is served while the first waits out its requeue.
func TestSharedWorkerFreedByARequeue(t *testing.T) {
	sc := parse(t, `
name: two-keys-bounded
lag: 5ms
objects:
- {apiVersion: v1, kind: ConfigMap, metadata: {name: cm1}, data: {beats: "0"}}
- {apiVersion: v1, kind: ConfigMap, metadata: {name: cm2}, data: {mode: blue}}
controllers:
- name: a
  target: ConfigMap/cm1
  read: live
  mutations: [{set: {path: data.owner, value: a}}]
  write: update
  requeue: {max: 3}
  worker: w1
- name: b
  target: ConfigMap/cm1
  read: live
  mutations: [{increment: data.beats}]
  write: update
- name: a-cm2
  target: ConfigMap/cm2
  read: live
  mutations: [{set: {path: data.owner, value: a}}]
  write: update
  worker: w1
schedule: [a, b, b, a, a-cm2, a-cm2]
`)
	o, err := Run(sc, Schedule{})
	if err != nil {
		t.Fatal(err)
	}
	if o.Verdict != VerdictRequeued {
		t.Fatalf("verdict %s, want requeued", o.Verdict)
	}
	var served, waited bool
	for _, s := range o.Steps {
		if s.Actor == "a-cm2" && s.Kind == StepRequest {
			served = true
		}
	}
	for _, w := range o.Waits {
		if w.Kind == WaitWorker && w.Actor == "a-cm2" && !w.Open {
			waited = true
		}
	}
	if !served || !waited {
		t.Errorf("a-cm2 served %v, its wait closed %v: %+v", served, waited, o.Waits)
	}
}
