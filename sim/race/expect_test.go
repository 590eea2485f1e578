package race

import (
	"testing"
	"time"

	"github.com/conflictlab/conflictlab/sim/scenario"
)

// A controller with expectations that finds its cache behind its own
// write waits, and the outcome says so: one own-write wait, after the
// create and before the ADDED event it waited for, naming both revisions.
func TestOwnWriteWaitIsRecorded(t *testing.T) {
	o, err := Run(parentScenario(ensureChild(2, true)), Schedule{Moves: scenario.MustMoves("c", "c", "c")})
	if err != nil {
		t.Fatal(err)
	}
	var waits []Wait
	for _, wt := range o.Waits {
		if wt.Kind == WaitOwnWrite {
			waits = append(waits, wt)
		}
	}
	if len(waits) != 1 {
		t.Fatalf("own-write waits %+v, want one", o.Waits)
	}
	wt := waits[0]
	if wt.Actor != "c" || wt.AwaitRV != 102 || wt.CacheRV != 101 {
		t.Errorf("wait %+v: want c waiting at RV 101 for its create at 102", wt)
	}
	create, event := o.Steps[wt.AfterStep], o.Steps[wt.AfterStep+1]
	if create.Kind != StepRequest || create.Code != 201 || event.Kind != StepWatch || event.Event != "ADDED 102" {
		t.Errorf("the wait comes after %+v and before %+v: want the create, then its ADDED event", create, event)
	}
	// A manual informer delivers at once: no time passes.
	if wt.UntilMS != wt.FromMS {
		t.Errorf("manual lag: the wait took %dms", wt.UntilMS-wt.FromMS)
	}
}

// On a lag the wait takes the time the event needs to arrive.
func TestOwnWriteWaitTakesTheLag(t *testing.T) {
	sc := parentScenario(ensureChild(2, true))
	sc.Lag = scenario.Lag{Delay: 5 * time.Millisecond}
	o, err := Run(sc, Schedule{Moves: scenario.MustMoves("c", "c", "c")})
	if err != nil {
		t.Fatal(err)
	}
	for _, wt := range o.Waits {
		if wt.Kind == WaitOwnWrite {
			// The create is answered at 1ms, its event is due at 6ms;
			// the wait begins at the next tick.
			if wt.FromMS != 2 || wt.UntilMS != 6 {
				t.Errorf("wait from %dms to %dms, want 2ms to 6ms", wt.FromMS, wt.UntilMS)
			}
			return
		}
	}
	t.Fatalf("no own-write wait in %+v", o.Waits)
}

// A cache that already has the write needs no wait, and none is recorded;
// nor does a controller without expectations ever wait.
func TestNoOwnWriteWaitWhenCaughtUp(t *testing.T) {
	for name, tc := range map[string]struct {
		expect bool
		sched  []string
	}{
		"delivered first":      {true, []string{"c", "c", "c.cache", "c"}},
		"without expectations": {false, []string{"c", "c", "c", "c"}},
	} {
		o, err := Run(parentScenario(ensureChild(2, tc.expect)), Schedule{Moves: scenario.MustMoves(tc.sched...)})
		if err != nil {
			t.Fatal(err)
		}
		for _, wt := range o.Waits {
			if wt.Kind == WaitOwnWrite {
				t.Errorf("%s: an own-write wait %+v", name, wt)
			}
		}
	}
}

// An informer with a label selector loses an object whose label is
// removed: its watch step says DELETED (filtered), its Lister answers
// NotFound, and a controller that creates what it does not find gets
// AlreadyExists.
func TestFilteredCacheLosesAnObject(t *testing.T) {
	sc, err := scenario.Parse("filtered.yaml", []byte(`name: filtered
lag: manual
objects:
- {apiVersion: v1, kind: ConfigMap, metadata: {name: cm1, labels: {app: web}}}
controllers:
- name: editor
  target: ConfigMap/cm1
  read: live
  mutations: [{removeLabel: app}]
  write: merge-patch
- name: ctl
  write: create
  object: {apiVersion: v1, kind: ConfigMap, metadata: {name: cm1, labels: {app: web}}}
  when: absent
  cacheSelector: app=web
`))
	if err != nil {
		t.Fatal(err)
	}
	o, err := Run(sc, Schedule{Moves: scenario.MustMoves("editor", "editor", "ctl.cache", "ctl", "ctl")})
	if err != nil {
		t.Fatal(err)
	}
	ev, list, create := o.Steps[2], o.Steps[3], o.Steps[4]
	if ev.Event != "DELETED 102 (filtered)" || ev.Filtered != "MODIFIED" {
		t.Errorf("watch step %q (filtered %q)", ev.Event, ev.Filtered)
	}
	if list.Kind != StepLister || list.Code != 404 || create.Code != 409 || create.Reason != "AlreadyExists" {
		t.Errorf("lister %d, create %d %s", list.Code, create.Code, create.Reason)
	}
}

// A manager's own next apply that leaves a field out removes it: the
// loss says so, not that the apply was computed from a stale copy.
func TestOwnApplyDropsAField(t *testing.T) {
	sc, err := scenario.Parse("intent.yaml", []byte(`name: intent
objects:
- {apiVersion: v1, kind: ConfigMap, metadata: {name: cm1}}
controllers:
- {name: first, target: ConfigMap/cm1, fieldManager: ctl, mutations: [{set: {path: data.x, value: "1"}}, {set: {path: data.y, value: "1"}}], write: apply, force: true}
- {name: next, target: ConfigMap/cm1, fieldManager: ctl, mutations: [{set: {path: data.x, value: "2"}}], write: apply, force: true}
`))
	if err != nil {
		t.Fatal(err)
	}
	o, err := Run(sc, Schedule{Moves: scenario.MustMoves("first", "first", "next", "next")})
	if err != nil {
		t.Fatal(err)
	}
	if len(o.Lost) != 1 || o.Lost[0].Field != "data.y" {
		t.Fatalf("lost %+v", o.Lost)
	}
	if c := o.Lost[0].Cause; c.Kind != CauseOwnApplyDropped || c.Actor != "next" || c.Value != "ctl" {
		t.Errorf("cause %+v", c)
	}
}

// A hand-written body that names a field erases it on purpose (a typed
// struct's zero value): the loss says the request named it.
func TestBodyNamedTheField(t *testing.T) {
	sc, err := scenario.Load("../../lessons/course/scenarios/ssactl-typed-zero.yaml")
	if err != nil {
		t.Fatal(err)
	}
	o, err := Run(sc, Schedule{})
	if err != nil {
		t.Fatal(err)
	}
	if len(o.Lost) != 1 || o.Lost[0].Field != "spec.size" || o.Lost[0].Cause != (LossCause{Kind: CauseNamedInBody, Actor: "ctl", Request: "APPLY w1", HeldRV: o.Lost[0].Cause.HeldRV, Value: "0"}) {
		t.Fatalf("lost %+v", o.Lost)
	}
}
