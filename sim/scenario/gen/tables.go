package gen

import (
	"fmt"
	"math/rand/v2"
	"regexp"
	"time"

	"github.com/conflictlab/conflictlab/sim/controller"
	"github.com/conflictlab/conflictlab/sim/race"
	"github.com/conflictlab/conflictlab/sim/scenario"
)

// The tables. Each entry is independent of the others in its table: to
// teach the generator a new verb, a new mutation or a new option, add one
// Feature to the table of its slot (a new slot is a new Table, listed in
// ControllerSlots or ScenarioSlots).

// Kinds is the object the controllers race on.
var Kinds = &Table{Slot: "kind", Entries: []Feature{
	{Name: "kind/ConfigMap", Weight: 3, Apply: func(d *Draw) { d.addObject(configMap(d.R, "cm1", false)) }},
	{Name: "kind/ConfigMap-immutable", Apply: func(d *Draw) { d.addObject(configMap(d.R, "cm1", true)) }},
	{Name: "kind/Deployment", Weight: 3, Apply: func(d *Draw) { d.addObject(deployment(d.R, "web", false)) }},
	// Probes and a fieldRef: the pod template defaults a real server fills in.
	{Name: "kind/Deployment-probes", Apply: func(d *Draw) { d.addObject(deployment(d.R, "web", true)) }},
	{Name: "kind/Widget", Weight: 3, Apply: func(d *Draw) { d.addObject(widget(d.R, "w1")) }},
}}

// ScenarioObjects: most races are on one object; some add a second one,
// of any kind, that a controller other than the first may target.
var ScenarioObjects = &Table{Slot: "objects", Entries: []Feature{
	{Name: "objects/one", Weight: 5, Apply: func(d *Draw) {}},
	{Name: "objects/two", Fits: func(d *Draw) bool { return d.anyFits(SecondKinds) }, Apply: func(d *Draw) { d.sub(SecondKinds) }},
}}

// SecondKinds is the kind of a second object.
var SecondKinds = &Table{Slot: "second", Entries: []Feature{
	{Name: "second/ConfigMap", Apply: func(d *Draw) { d.addObject(configMap(d.R, "cm2", false)) }},
	{Name: "second/Deployment", Apply: func(d *Draw) { d.addObject(deployment(d.R, "api", false)) }},
	{Name: "second/Widget", Apply: func(d *Draw) { d.addObject(widget(d.R, "w2")) }},
}}

// MetaSlots are drawn for every object: what its metadata holds before
// the race, for the controllers to change.
var MetaSlots = []*Table{
	{Slot: "labels", Entries: []Feature{
		{Name: "labels/none", Apply: func(d *Draw) {}},
		{Name: "labels/one", Apply: func(d *Draw) {
			d.meta()["labels"] = map[string]any{oneOf(d.R, labelKeys...): oneOf(d.R, labelValues...)}
		}},
	}},
	{Slot: "annotations", Entries: []Feature{
		{Name: "annotations/none", Weight: 2, Apply: func(d *Draw) {}},
		{Name: "annotations/one", Apply: func(d *Draw) {
			d.meta()["annotations"] = map[string]any{oneOf(d.R, annotationKeys...): oneOf(d.R, annotationVals...)}
		}},
	}},
	{Slot: "finalizers", Entries: []Feature{
		{Name: "finalizers/none", Weight: 2, Apply: func(d *Draw) {}},
		{Name: "finalizers/one", Apply: func(d *Draw) {
			d.meta()["finalizers"] = []any{oneOf(d.R, finalizerNames...)}
		}},
	}},
}

// ScenarioLags is the scenario's informer lag.
var ScenarioLags = &Table{Slot: "lag", Entries: []Feature{
	{Name: "lag/zero", Weight: 3, Apply: func(d *Draw) {}},
	{Name: "lag/delay", Weight: 2, Apply: func(d *Draw) { d.Scenario.Lag = scenario.Lag{Delay: drawDelay(d.R)} }},
	{Name: "lag/manual", Apply: func(d *Draw) { d.Scenario.Lag = scenario.Lag{Manual: true} }},
}}

func drawDelay(r *rand.Rand) time.Duration {
	return time.Duration(oneOf(r, 1, 3, 5, 20)) * time.Millisecond
}

// ControllerSlots are drawn once per controller, in this order, before its
// mutations.
var ControllerSlots = []*Table{Targets, Reads, Writes, WriteOptions, Subresources, Managers, Retries, Requeues, Reconciles, ControllerLags}

// Targets: the first controller reconciles the first object; the others
// may reconcile a second one (ScenarioObjects).
var Targets = &Table{Slot: "target", Entries: []Feature{
	{Name: "target/first", Weight: 3, Apply: func(d *Draw) { d.retarget(d.Objects[0]) }},
	{Name: "target/second", Fits: func(d *Draw) bool { return len(d.Objects) > 1 && d.Ctl.Name != ControllerName(0) },
		Apply: func(d *Draw) { d.retarget(d.Objects[1]) }},
}}

// Reads is where a controller reads its object.
var Reads = &Table{Slot: "read", Entries: []Feature{
	{Name: "read/lister", Apply: func(d *Draw) { d.Ctl.Read = controller.FromLister }},
	{Name: "read/live", Apply: func(d *Draw) { d.Ctl.Read = controller.FromLive }},
}}

// Writes is how a controller sends its change: one entry per write method.
var Writes = &Table{Slot: "write", Entries: []Feature{
	{Name: "write/update", Weight: 2, Apply: writeMethod(controller.Update)},
	{Name: "write/update-clear-rv", Apply: writeMethod(controller.UpdateClearRV)},
	{Name: "write/update-status", Fits: hasStatus, Apply: writeMethod(controller.UpdateStatus)},
	{Name: "write/merge-patch", Weight: 2, Apply: writeMethod(controller.MergePatch)},
	{Name: "write/strategic-patch", Apply: writeMethod(controller.StrategicPatch)},
	{Name: "write/json-patch", Weight: 2, Apply: writeMethod(controller.JSONPatch)},
	{Name: "write/apply", Weight: 2, Apply: writeMethod(controller.ServerSideApply)},
}}

func writeMethod(w controller.WriteMethod) func(*Draw) {
	return func(d *Draw) { d.Ctl.Write = w }
}

func hasStatus(d *Draw) bool { return d.Target.Status }

func writes(ws ...controller.WriteMethod) func(*Draw) bool {
	return func(d *Draw) bool {
		for _, w := range ws {
			if d.Ctl.Write == w {
				return true
			}
		}
		return false
	}
}

// WriteOptions are the preconditions and flags a write method takes.
var WriteOptions = &Table{Slot: "option", Entries: []Feature{
	{Name: "option/none", Weight: 3, Apply: func(d *Draw) {}},
	{Name: "option/withRV", Weight: 2, Fits: writes(controller.MergePatch, controller.StrategicPatch, controller.ServerSideApply),
		Apply: func(d *Draw) { d.Ctl.WithRV = true }},
	// A JSON patch's resourceVersion is one more replace op.
	{Name: "option/withRV-json-patch", Fits: writes(controller.JSONPatch), Apply: func(d *Draw) { d.Ctl.WithRV = true }},
	{Name: "option/test-resourceVersion", Fits: writes(controller.JSONPatch), Apply: func(d *Draw) { d.Ctl.Test = controller.TestRV }},
	{Name: "option/test-values", Fits: writes(controller.JSONPatch), Apply: func(d *Draw) { d.Ctl.Test = controller.TestValues }},
	{Name: "option/force", Fits: writes(controller.ServerSideApply), Apply: func(d *Draw) { d.Ctl.Force = true }},
	{Name: "option/force-withRV", Fits: writes(controller.ServerSideApply), Apply: func(d *Draw) { d.Ctl.Force, d.Ctl.WithRV = true, true }},
}}

// Subresources is where a write goes: the object, or (on a kind with a
// status subresource) its /status, with any write method.
var Subresources = &Table{Slot: "subresource", Entries: []Feature{
	{Name: "subresource/object", Weight: 3, Apply: func(d *Draw) {}},
	{Name: "subresource/status", Fits: func(d *Draw) bool { return hasStatus(d) && d.Ctl.Write != controller.UpdateStatus },
		Apply: func(d *Draw) { d.Ctl.Subresource = controller.StatusSubresource }},
}}

// Managers is the field manager a controller writes under.
var Managers = &Table{Slot: "manager", Entries: []Feature{
	{Name: "manager/own", Weight: 4, Apply: func(d *Draw) {}},
	{Name: "manager/shared", Apply: func(d *Draw) { d.Ctl.FieldManager = "shared-manager" }},
	// Another controller's name: two controllers, one owner.
	{Name: "manager/other", Fits: func(d *Draw) bool { return d.Ctl.Name != ControllerName(0) },
		Apply: func(d *Draw) { d.Ctl.FieldManager = ControllerName(0) }},
}}

// Retries is a controller's inner retry loop.
var Retries = &Table{Slot: "retry", Entries: []Feature{
	{Name: "retry/none", Weight: 3, Apply: func(d *Draw) { d.Ctl.Retry = controller.NoRetry() }},
	{Name: "retry/default", Weight: 2, Apply: func(d *Draw) { d.Ctl.Retry = controller.DefaultRetry() }},
	{Name: "retry/custom", Weight: 2, Apply: func(d *Draw) {
		d.Ctl.Retry = controller.RetryPolicy{Attempts: 2 + d.R.IntN(2),
			On:      oneOf(d.R, controller.OnConflict, controller.OnAnyError, controller.OnTestFailed),
			Reread:  oneOf(d.R, controller.FromLive, controller.FromLister, controller.RereadNone),
			Backoff: oneOf(d.R, time.Duration(0), 10*time.Millisecond)}
	}},
	// Ended by the scenario's small step budget.
	{Name: "retry/unbounded", Apply: func(d *Draw) {
		d.Ctl.Retry = controller.RetryPolicy{Unbounded: true, On: oneOf(d.R, controller.OnConflict, controller.OnAnyError),
			Reread: oneOf(d.R, controller.FromLive, controller.FromLister), Backoff: oneOf(d.R, time.Duration(0), 10*time.Millisecond)}
	}},
}}

// Requeues is the workqueue after the retries are spent.
var Requeues = &Table{Slot: "requeue", Entries: []Feature{
	{Name: "requeue/none", Weight: 3, Apply: func(d *Draw) {}},
	{Name: "requeue/backoff", Apply: func(d *Draw) {
		d.Ctl.Requeue = controller.RequeuePolicy{Max: 1 + d.R.IntN(2), BaseDelay: oneOf(d.R, time.Millisecond, 5*time.Millisecond)}
	}},
}}

// Reconciles is how many times a controller runs its loop.
var Reconciles = &Table{Slot: "reconciles", Entries: []Feature{
	{Name: "reconciles/once", Weight: 4, Apply: func(d *Draw) {}},
	{Name: "reconciles/many", Apply: func(d *Draw) { d.Ctl.Reconciles = 2 + d.R.IntN(2) }},
}}

// ControllerLags is a controller's own informer lag.
var ControllerLags = &Table{Slot: "ctl-lag", Entries: []Feature{
	{Name: "ctl-lag/inherit", Weight: 4, Apply: func(d *Draw) {}},
	{Name: "ctl-lag/delay", Apply: func(d *Draw) { d.Ctl.Lag = &scenario.Lag{Delay: drawDelay(d.R)} }},
	{Name: "ctl-lag/manual", Apply: func(d *Draw) { d.Ctl.Lag = &scenario.Lag{Manual: true} }},
}}

// Mutations is what a controller changes in the copy it read; a
// controller draws one to three.
var Mutations = &Table{Slot: "mutation", Entries: []Feature{
	{Name: "mutation/set", Weight: 3, Apply: func(d *Draw) {
		f := d.field(func(f Field) bool { return !f.Status })
		d.mutate(controller.Set, f.Path, setValue(d.R, f))
	}},
	{Name: "mutation/set-status", Weight: 2, Fits: hasStatus, Apply: func(d *Draw) {
		f := d.field(func(f Field) bool { return f.Status })
		d.mutate(controller.Set, f.Path, setValue(d.R, f))
	}},
	{Name: "mutation/remove", Apply: func(d *Draw) {
		d.mutate(controller.Remove, d.field(func(Field) bool { return true }).Path, nil)
	}},
	{Name: "mutation/increment", Weight: 2, Apply: func(d *Draw) {
		f := d.field(func(f Field) bool { return f.Type == Int || f.Type == Counter })
		d.mutate(controller.Increment, f.Path, nil)
		d.Ctl.Mutations[len(d.Ctl.Mutations)-1].By = oneOf(d.R, int64(1), int64(2))
	}},
	// A negative step: a count can go below zero, which validation refuses
	// for a Deployment's replicas and status counts.
	{Name: "mutation/decrement", Apply: func(d *Draw) {
		f := d.field(func(f Field) bool { return f.Type == Int || f.Type == Counter })
		d.mutate(controller.Increment, f.Path, nil)
		d.Ctl.Mutations[len(d.Ctl.Mutations)-1].By = -1
	}},
	{Name: "mutation/append", Fits: func(d *Draw) bool { return hasField(List)(d) || hasField(Conds)(d) }, Apply: func(d *Draw) {
		f := d.field(func(f Field) bool { return f.Type == List || f.Type == Conds })
		d.mutate(controller.Append, f.Path, f.value(d.R))
	}},
	// To a string, as a comma-separated list: "x" becomes "x,p"; a missing
	// field becomes the list [p], which the schema refuses.
	{Name: "mutation/append-string", Apply: func(d *Draw) {
		f := d.field(func(f Field) bool { return f.Type == Str })
		d.mutate(controller.Append, f.Path, oneOf(d.R, "p", "q"))
	}},
	{Name: "mutation/addToSet", Fits: hasField(List), Apply: func(d *Draw) {
		f := d.field(func(f Field) bool { return f.Type == List })
		d.mutate(controller.AddToSet, f.Path, f.value(d.R))
	}},
	{Name: "mutation/removeFromList", Fits: hasField(List), Apply: func(d *Draw) {
		f := d.field(func(f Field) bool { return f.Type == List })
		d.mutate(controller.RemoveFromList, f.Path, oneOf(d.R, f.value(d.R), any("x"), any("--v=1")))
	}},
	{Name: "mutation/addLabel", Weight: 2, Apply: func(d *Draw) {
		d.mutate(controller.Set, mapEntry("metadata.labels", oneOf(d.R, labelKeys...)), oneOf(d.R, labelValues...))
	}},
	{Name: "mutation/removeLabel", Apply: func(d *Draw) {
		d.mutate(controller.Remove, mapEntry("metadata.labels", oneOf(d.R, labelKeys...)), nil)
	}},
	{Name: "mutation/annotate", Apply: func(d *Draw) {
		d.mutate(controller.Set, mapEntry("metadata.annotations", oneOf(d.R, annotationKeys...)), oneOf(d.R, annotationVals...))
	}},
	{Name: "mutation/removeAnnotation", Apply: func(d *Draw) {
		d.mutate(controller.Remove, mapEntry("metadata.annotations", oneOf(d.R, annotationKeys...)), nil)
	}},
	{Name: "mutation/addFinalizer", Apply: func(d *Draw) {
		d.mutate(controller.AddToSet, "metadata.finalizers", oneOf(d.R, finalizerNames...))
	}},
	{Name: "mutation/removeFinalizer", Apply: func(d *Draw) {
		d.mutate(controller.RemoveFromList, "metadata.finalizers", oneOf(d.R, finalizerNames...))
	}},
}}

// Conditions make a mutation a decision taken from what was read; drawn
// once per mutation.
var Conditions = &Table{Slot: "when", Entries: []Feature{
	{Name: "when/none", Weight: 5, Apply: func(d *Draw) {}},
	{Name: "when/equals", Apply: func(d *Draw) {
		f := d.field(func(f Field) bool { return f.Type != Conds })
		want := f.value(d.R)
		p := controller.MustPath(f.Path)
		if v, ok := p.Get(d.Target.Obj.Object); ok && d.R.IntN(2) == 0 {
			want = v // what the object starts with: true until someone changes it
		}
		d.Mut.When = &controller.Condition{Path: p, Equals: want}
	}},
	{Name: "when/absent", Apply: func(d *Draw) {
		d.Mut.When = &controller.Condition{Path: controller.MustPath(d.field(func(Field) bool { return true }).Path)}
	}},
}}

// ScenarioSlots are drawn once, after the controllers.
var ScenarioSlots = []*Table{Oddities}

// Oddities are writes a real server refuses or rewrites in ways a
// simulator easily gets wrong (validation, immutable fields, identity,
// bookkeeping); a race gets at most one, given to one controller.
var Oddities = &Table{Slot: "odd", Entries: []Feature{
	{Name: "odd/none", Weight: 16, Apply: func(d *Draw) {}},
	// Not a valid label value (UTF-8, but not [A-Za-z0-9._-]).
	{Name: "odd/bad-label-value", Apply: func(d *Draw) { d.oddMutation(controller.Set, mapEntry("metadata.labels", "team"), "équipe", nil) }},
	{Name: "odd/bad-label-key", Apply: func(d *Draw) { d.oddMutation(controller.Set, mapEntry("metadata.labels", "-bad-"), "x", nil) }},
	{Name: "odd/bad-finalizer", Apply: func(d *Draw) { d.oddMutation(controller.AddToSet, "metadata.finalizers", "Not A Name", nil) }},
	{Name: "odd/negative-replicas", Fits: targetsKind("Deployment"),
		Apply: func(d *Draw) { d.oddMutation(controller.Set, "spec.replicas", int64(-1), targetsKind("Deployment")) }},
	{Name: "odd/selector-change", Fits: targetsKind("Deployment"), Apply: func(d *Draw) {
		d.oddMutation(controller.Set, "spec.selector.matchLabels.app", "other", targetsKind("Deployment"))
	}},
	// A zero value a Deployment stores as absent (omitempty): a later
	// JSON patch built from an older copy replaces a key that is gone.
	{Name: "odd/zero-values", Fits: targetsKind("Deployment"), Apply: func(d *Draw) {
		d.oddMutation(controller.Set, "spec.paused", false, targetsKind("Deployment"))
	}},
	// More ready replicas than replicas: Deployment status validation.
	{Name: "odd/status-over-replicas", Fits: targetsKind("Deployment"), Apply: func(d *Draw) {
		d.oddMutation(controller.Set, "status.readyReplicas", int64(5), targetsKind("Deployment"))
	}},
	{Name: "odd/wrong-type", Fits: targetsKind("ConfigMap"),
		Apply: func(d *Draw) { d.oddMutation(controller.Set, "data.n", int64(3), targetsKind("ConfigMap")) }},
	// A uid that is not the object's: a precondition the real server checks.
	// (Live mode refuses a JSON patch that touches the uid, so not by JSON patch.)
	{Name: "odd/foreign-uid", Fits: func(d *Draw) bool { return d.anyController(notJSONPatch) }, Apply: func(d *Draw) {
		d.oddMutation(controller.Set, "metadata.uid", "00000000-0000-0000-0000-000000000001", notJSONPatch)
	}},
	{Name: "odd/clear-managed-fields", Apply: func(d *Draw) {
		d.oddMutation(controller.Set, "metadata.managedFields", []any{}, nil)
	}},
	{Name: "odd/set-generation", Apply: func(d *Draw) { d.oddMutation(controller.Set, "metadata.generation", int64(42), nil) }},
}}

func notJSONPatch(d *Draw) bool { return d.Ctl.Write != controller.JSONPatch }

// targetsKind fits a controller (or, outside one, any controller) whose
// target is of the kind.
func targetsKind(kind string) func(*Draw) bool {
	is := func(d *Draw) bool { return string(d.Ctl.Target.Kind) == kind }
	return func(d *Draw) bool {
		if d.Ctl != nil {
			return is(d)
		}
		return d.anyController(is)
	}
}

// Schedules is the order of the steps, drawn last.
var Schedules = &Table{Slot: "schedule", Entries: []Feature{
	{Name: "schedule/round-robin", Apply: func(d *Draw) {}},
	{Name: "schedule/seed", Weight: 2, Apply: func(d *Draw) {
		s := d.R.Uint64N(1 << 32)
		d.Scenario.Seed = &s
	}},
	// A prefix of a seeded walk through the simulator, written out as
	// tokens (NAME, NAME.cache): every token is enabled when it comes, and
	// the run is finished round-robin.
	{Name: "schedule/tokens", Weight: 3, Apply: func(d *Draw) {
		s := d.R.Uint64N(1 << 32)
		out, err := race.Run(d.Scenario, race.Schedule{Seed: &s})
		if err != nil || len(out.Schedule) == 0 {
			return // left round-robin; Generate reports a scenario that does not run
		}
		d.Scenario.Schedule = out.Schedule[:1+d.R.IntN(len(out.Schedule))]
	}},
}}

// addObject adds an object to the scenario and its model to the draw,
// and draws its metadata.
func (d *Draw) addObject(o *Object) {
	d.Objects = append(d.Objects, o)
	d.Scenario.Objects = append(d.Scenario.Objects, o.Obj)
	for _, t := range MetaSlots {
		d.sub(t)
	}
}

// meta is the metadata of the object drawn last.
func (d *Draw) meta() map[string]any {
	return d.Objects[len(d.Objects)-1].Obj.Object["metadata"].(map[string]any)
}

func (d *Draw) retarget(o *Object) {
	d.Target = o
	d.Ctl.Target = o.Ref()
}

// field draws one of the target's fields that ok accepts (every kind has
// one of each type a Fits-less entry asks for).
func (d *Draw) field(ok func(Field) bool) Field {
	var fit []Field
	for _, f := range d.Target.Fields {
		if ok(f) {
			fit = append(fit, f)
		}
	}
	if len(fit) == 0 {
		panic(fmt.Sprintf("gen: %s has no field of the kind asked for", d.Target.Ref()))
	}
	return fit[d.R.IntN(len(fit))]
}

func hasField(t FieldType) func(*Draw) bool {
	return func(d *Draw) bool {
		for _, f := range d.Target.Fields {
			if f.Type == t {
				return true
			}
		}
		return false
	}
}

// setValue is what a set of the field writes: conditions are a list.
func setValue(r *rand.Rand, f Field) any {
	if f.Type == Conds || f.Type == List {
		return []any{f.value(r)}
	}
	return f.value(r)
}

func (d *Draw) mutate(op controller.Op, path string, v any) {
	m := controller.Mutation{Op: op, Path: controller.MustPath(path), Value: v}
	if op == controller.Increment {
		m.By = 1
	}
	d.Ctl.Mutations = append(d.Ctl.Mutations, m)
}

// oddMutation gives the mutation to one controller that ok accepts (any,
// when ok is nil).
func (d *Draw) oddMutation(op controller.Op, path string, v any, ok func(*Draw) bool) {
	var fit []int
	for i := range d.Scenario.Controllers {
		d.Ctl = &d.Scenario.Controllers[i]
		if ok == nil || ok(d) {
			fit = append(fit, i)
		}
	}
	d.Ctl = &d.Scenario.Controllers[fit[d.R.IntN(len(fit))]]
	d.mutate(op, path, v)
	d.Ctl = nil
}

func (d *Draw) anyController(ok func(*Draw) bool) bool {
	saved := d.Ctl
	defer func() { d.Ctl = saved }()
	for i := range d.Scenario.Controllers {
		d.Ctl = &d.Scenario.Controllers[i]
		if ok(d) {
			return true
		}
	}
	return false
}

// mapEntry is the path of a key of a string map, quoted when it has dots
// or slashes (the form the file format writes).
func mapEntry(prefix, key string) string {
	if plainKey.MatchString(key) {
		return prefix + "." + key
	}
	return prefix + `["` + key + `"]`
}

var plainKey = regexp.MustCompile(`^[A-Za-z0-9_-]+$`)
