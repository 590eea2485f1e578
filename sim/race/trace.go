package race

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"time"

	"k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/conflictlab/conflictlab/sim/api"
	"github.com/conflictlab/conflictlab/sim/apiserver"
	"github.com/conflictlab/conflictlab/sim/controller"
)

// StepKind is what a step was.
type StepKind string

const (
	StepRequest StepKind = "request" // an API call
	StepLister  StepKind = "lister"  // a read of the controller's cache
	StepWatch   StepKind = "watch"   // a watch event reaching an informer
)

// WaitKind is why a controller waited between steps.
type WaitKind string

const (
	WaitBackoff WaitKind = "backoff" // between the attempts of a retry loop
	WaitRequeue WaitKind = "requeue" // the error went back to the workqueue
	WaitWorker  WaitKind = "worker"  // its key waited for a worker busy with another key (queue.go)
	WaitEvent   WaitKind = "event"   // a watch event put its key back on the queue (queue.go)
	// WaitOwnWrite: a controller with expectations holds its next Lister
	// read until its informer has seen its own last write (expect.go).
	WaitOwnWrite WaitKind = "own-write"
)

// ChangeOp is how a field differs from the previous version.
type ChangeOp string

const (
	ChangeAdded   ChangeOp = "added"
	ChangeRemoved ChangeOp = "removed"
	ChangeChanged ChangeOp = "changed"
)

// Step is one atomic step of a run, as the timeline shows it.
type Step struct {
	Index   int      `json:"index"`
	AtMS    int64    `json:"atMs"`
	Actor   string   `json:"actor"`
	Kind    StepKind `json:"kind"`
	Purpose string   `json:"purpose,omitempty"`
	// Request is the request line ("UPDATE cm1", "PATCH merge cm1").
	Request   string          `json:"request,omitempty"`
	Verb      api.Verb        `json:"verb,omitempty"`
	PatchType string          `json:"patchType,omitempty"`
	Body      json.RawMessage `json:"body,omitempty"`
	// SentRV is the resourceVersion the request carried as a precondition
	// (in the body, or in a JSON patch test), "" for none.
	SentRV string `json:"sentRV,omitempty"`
	// HeldRV is the resourceVersion of the copy the controller acted on.
	HeldRV string `json:"heldRV,omitempty"`
	// Subresource, FieldManager and Force are the rest of the request as
	// sent ("status"; the manager the server records; apply's force).
	Subresource  string `json:"subresource,omitempty"`
	FieldManager string `json:"fieldManager,omitempty"`
	Force        bool   `json:"force,omitempty"`
	Code         int    `json:"code,omitempty"`
	Reason       string `json:"reason,omitempty"`
	Message      string `json:"message,omitempty"`
	// Causes are the status error's details: the field each complaint is
	// about (an apply conflict names the field and its owner).
	Causes []Cause `json:"causes,omitempty"`
	// RV is the resourceVersion of the object in the answer.
	RV string `json:"rv,omitempty"`
	// Version is the index in Versions of the version this step wrote, or -1.
	Version  int              `json:"version"`
	ServerRV int64            `json:"serverRV"`
	CacheRVs map[string]int64 `json:"cacheRVs"`
	// Event is the delivered watch event ("MODIFIED 104") for watch steps.
	Event string `json:"event,omitempty"`
	// Filtered is, for a watch step of an informer with a label selector
	// whose event it received otherwise, the event the server emitted
	// ("MODIFIED", received as "DELETED 104 (filtered)").
	Filtered string `json:"filtered,omitempty"`
	// Listed is, for a LIST (a create looking for its children), how many
	// of the objects listed carry the labels it looks for.
	Listed int `json:"listed,omitempty"`
	// Queue is, for a watch step, what the event did to the key of a
	// controller whose events bring its key back: QueueQueued, or
	// QueueFiltered by its predicate (queue.go).
	Queue string `json:"queue,omitempty"`
}

// Cause is one entry of a status error's details.causes.
type Cause struct {
	Type    string `json:"type,omitempty"`
	Message string `json:"message,omitempty"`
	Field   string `json:"field,omitempty"`
}

// Wait is time a controller spends off the API before its next step: a
// retry's backoff, or the workqueue's delay after a requeue. It is not a
// step (the schedule does not take it), but the timeline shows it.
type Wait struct {
	Actor string `json:"actor"`
	// AfterStep is the step whose answer started the wait.
	AfterStep int      `json:"afterStep"`
	Kind      WaitKind `json:"kind"`
	FromMS    int64    `json:"fromMs"`
	UntilMS   int64    `json:"untilMs"`
	// For is whose reconcile held the worker (a WaitWorker); Open says
	// the wait was still under way when the run ended.
	For  string `json:"for,omitempty"`
	Open bool   `json:"open,omitempty"`
	// For an own-write wait: the revision of the controller's own last
	// write (AwaitRV) and the one its cache held when it began waiting
	// (CacheRV).
	AwaitRV int64 `json:"awaitRV,omitempty"`
	CacheRV int64 `json:"cacheRV,omitempty"`
}

// OK reports a 2xx answer.
func (s Step) OK() bool { return s.Code >= 200 && s.Code < 300 }

// Version is one stored version of the target object.
type Version struct {
	RV      string         `json:"rv"`
	Step    int            `json:"step"` // -1: created before the race
	Actor   string         `json:"actor"`
	Request string         `json:"request"`
	Object  map[string]any `json:"object"`
	Changes []Change       `json:"changes"`
	Deleted bool           `json:"deleted,omitempty"`
}

// Change is one field that differs from the previous version.
type Change struct {
	Path string   `json:"path"`
	Op   ChangeOp `json:"op"`
	Old  any      `json:"old,omitempty"`
	New  any      `json:"new,omitempty"`
}

// intent is a mutation a successful write carried.
type intent struct {
	actor    string
	mutation controller.Mutation
	step     int
	version  int // the version current right after the write
	// lost is set when the write itself failed to show the mutation;
	// overwrite instead when the server's defaulting explains it
	// (ownloss.go).
	lost      *Loss
	overwrite *Loss
}

type trace struct {
	steps    []Step
	versions []Version
	// objects[i] is the object versions[i] holds the content of (its
	// Object), for the state key, which knows an object by its address.
	objects []*unstructured.Unstructured
	intents []intent
	waits   []Wait
}

func newTrace() *trace { return &trace{} }

func (t *trace) clone() *trace {
	return &trace{
		steps:    t.steps[:len(t.steps):len(t.steps)],
		versions: t.versions[:len(t.versions):len(t.versions)],
		objects:  t.objects[:len(t.objects):len(t.objects)],
		intents:  t.intents[:len(t.intents):len(t.intents)],
		waits:    t.waits[:len(t.waits):len(t.waits)],
	}
}

func (t *trace) setupVersion(obj *unstructured.Unstructured) {
	t.versions = append(t.versions, Version{
		RV: obj.GetResourceVersion(), Step: -1, Actor: SetupActor, Request: "CREATE " + obj.GetName(),
		Object: obj.Object,
	})
	t.objects = append(t.objects, obj)
}

func (t *trace) snapshot(w *World, s *Step) {
	s.Index = len(t.steps)
	s.AtMS = w.now.Milliseconds()
	s.ServerRV = w.server.RV()
	s.CacheRVs = map[string]int64{}
	for i, rv := range w.cacheRVs() {
		s.CacheRVs[w.actors[i].name] = rv
	}
}

func (t *trace) watch(w *World, a *actor, ev apiserver.Event, got api.EventType, queue string) {
	s := Step{Actor: a.name, Kind: StepWatch, Version: -1, RV: ev.Object.GetResourceVersion(),
		Event: fmt.Sprintf("%s %d", ev.Type, ev.RV), Purpose: "watch event reaches " + a.name + "'s cache", Queue: queue}
	switch {
	case got == "":
		// Through a label selector (scenario.Controller.CacheSelector):
		// nothing of it reaches the cache but its revision.
		s.Event += " (filtered out)"
		s.Filtered = string(ev.Type)
	case got != ev.Type:
		s.Event = fmt.Sprintf("%s %d (filtered)", got, ev.RV)
		s.Filtered = string(ev.Type)
	}
	t.snapshot(w, &s)
	t.steps = append(t.steps, s)
}

// lastVersionOf returns the newest version of ref, or -1.
func (t *trace) lastVersionOf(ref api.Ref) int {
	for i := len(t.versions) - 1; i >= 0; i-- {
		if refOfMap(t.versions[i].Object) == ref {
			return i
		}
	}
	return -1
}

func refOfMap(m map[string]any) api.Ref {
	u := unstructured.Unstructured{Object: m}
	return api.RefOf(&u)
}

func (t *trace) record(w *World, a *actor, act controller.Action, resp api.Response, before, held *unstructured.Unstructured) {
	s := Step{Actor: a.name, Purpose: act.Purpose, Request: act.Request.Describe(), Verb: act.Request.Verb,
		PatchType: string(act.Request.PatchType), Code: resp.Code, Version: -1,
		Subresource: act.Request.Subresource, FieldManager: act.Request.FieldManager, Force: act.Request.Force}
	if act.Kind == controller.ReadLister {
		s.Kind, s.Request = StepLister, "LISTER "+act.Request.Ref.Name
	} else {
		s.Kind = StepRequest
	}
	if act.Request.Verb == api.List {
		s.Request, s.Listed = listLine(s.Kind, act, resp)
	}
	if act.Request.Verb == api.Create && act.Request.Ref.Name == "" {
		s.Request = generatedLine(act.Request)
	}
	if len(act.Request.Body) > 0 {
		s.Body = json.RawMessage(act.Request.Body)
		s.SentRV = sentRV(act.Request)
	}
	if held != nil && act.Request.Verb != api.Get {
		s.HeldRV = held.GetResourceVersion()
	}
	if resp.Err != nil {
		s.Reason = string(apierrors.ReasonForError(resp.Err))
		s.Message = resp.Err.Error()
		s.Causes = causesOf(resp.Err)
	} else if resp.Object != nil {
		s.RV = resp.Object.GetResourceVersion()
	}
	t.snapshot(w, &s)
	isWrite := act.Kind == controller.SendRequest && act.Request.Verb != api.Get && act.Request.Verb != api.List
	if isWrite && resp.Err == nil {
		// The object the write made or changed: a create with a generated
		// name learns it from the answer.
		ref := act.Request.Ref
		if ref.Name == "" && resp.Object != nil {
			ref.Name = resp.Object.GetName()
		}
		after := w.server.Peek(ref)
		deleted := after == nil
		if deleted {
			after = resp.Object
		}
		// A backend without resourceVersions (client-go's fakes) keeps the
		// RV through a write that changed the object: the content says so.
		if before == nil || after.GetResourceVersion() != before.GetResourceVersion() ||
			!equality.Semantic.DeepEqual(before.Object, after.Object) {
			prev := t.lastVersionOf(ref)
			var prevObj map[string]any
			if prev >= 0 && !t.versions[prev].Deleted {
				// A name created again starts a new object: its first
				// version is all added.
				prevObj = t.versions[prev].Object
			}
			t.versions = append(t.versions, Version{
				RV: after.GetResourceVersion(), Step: s.Index, Actor: a.name, Request: s.Request,
				Object: after.Object, Changes: Diff(prevObj, after.Object), Deleted: deleted,
			})
			t.objects = append(t.objects, after)
			s.Version = len(t.versions) - 1
		}
		prog := a.machine.Program()
		if act.Then {
			prog = prog.ThenProgram() // the second call's changes (controller.Then)
		}
		t.recordIntents(a, prog, held, before, after, s.Index)
		t.explainOwnLosses(a, act.Request, held, before, after, s.Index) // ownloss.go
	}
	t.steps = append(t.steps, s)
}

// causesOf copies a status error's causes, in the server's order.
func causesOf(err error) []Cause {
	st, ok := err.(apierrors.APIStatus)
	if !ok || st.Status().Details == nil {
		return nil
	}
	var out []Cause
	for _, c := range st.Status().Details.Causes {
		out = append(out, Cause{Type: string(c.Type), Message: c.Message, Field: c.Field})
	}
	return out
}

// wait notes that the actor will sleep from now until wake.
func (t *trace) wait(actor string, kind WaitKind, now, wake time.Duration) {
	t.waits = append(t.waits, Wait{Actor: actor, AfterStep: len(t.steps) - 1, Kind: kind,
		FromMS: now.Milliseconds(), UntilMS: wake.Milliseconds()})
}

// ownWriteWait notes that the actor waited, after step afterStep, from
// from until now, for its cache to go from cacheRV to its own write's
// awaitRV. It is recorded once the wait is over, and drawn before the
// watch events the wait delivered (they come after afterStep).
func (t *trace) ownWriteWait(actor string, afterStep int, from, now time.Duration, awaitRV, cacheRV int64) {
	t.waits = append(t.waits, Wait{Actor: actor, AfterStep: afterStep, Kind: WaitOwnWrite,
		FromMS: from.Milliseconds(), UntilMS: now.Milliseconds(), AwaitRV: awaitRV, CacheRV: cacheRV})
}

// recordIntents notes what the successful write meant to do, and checks at
// once the two ways a write can lose its own change: the server ignored it
// (a status subresource), or it was computed from a stale read (an
// increment that did not add up).
func (t *trace) recordIntents(a *actor, prog controller.Program, held, before, after *unstructured.Unstructured, step int) {
	version := t.lastVersionOf(api.RefOf(after))
	code := a.machine.IsCode()
	if code && held == nil {
		// Code that writes without reading first (an apply) meant its
		// change against what the server held.
		held = before
	}
	for _, mu := range prog.Mutations {
		if held == nil || (mu.When != nil && !mu.When.Holds(held.Object)) {
			continue
		}
		if code && !codeIntent(prog, mu, before, after) { // code.go
			continue
		}
		// A copy meant the value it read: its intent is that value.
		mu = mu.Resolve(held.Object)
		in := intent{actor: a.name, mutation: mu, step: step, version: version}
		switch {
		case mu.Op == controller.Increment:
			var was int64
			if before != nil {
				was, _ = mu.CounterValue(before.Object)
			}
			now, _ := mu.CounterValue(after.Object)
			readVal, _ := mu.CounterValue(held.Object)
			if now != was+mu.By {
				in.lost = &Loss{Field: mu.Path.String(), Owner: a.name, Intended: mu.Describe(),
					Final: now, ErasedBy: a.name, ErasedAtStep: step, ErasedRV: after.GetResourceVersion(),
					Cause: LossCause{Kind: CauseStaleCount, Actor: a.name, Computed: readVal + mu.By, Read: readVal,
						HeldRV: held.GetResourceVersion(), Held: was}}
			}
		case !code && !mu.Satisfied(after.Object):
			v, _ := mu.Path.Get(after.Object)
			in.lost = &Loss{Field: mu.Path.String(), Owner: a.name, Intended: mu.Describe(), Final: v,
				ErasedBy: a.name, ErasedAtStep: step, ErasedRV: after.GetResourceVersion(),
				Cause: LossCause{Kind: ignoredCause(prog, mu)}}
		}
		t.intents = append(t.intents, in)
	}
}

func ignoredCause(p controller.Program, mu controller.Mutation) CauseKind {
	info, _ := api.Lookup(p.Target.Kind)
	status := strings.HasPrefix(mu.Path.String(), "status")
	toStatus := p.WriteSubresource() == controller.StatusSubresource
	switch {
	case info.StatusSubresource && status && !toStatus:
		return CauseIgnoredStatus
	case info.StatusSubresource && !status && toStatus && info.Builtin:
		// deploymentStatusStrategy resets only these (sim/apiserver/subresource.go).
		return CauseIgnoredSpec
	case info.StatusSubresource && !status && toStatus:
		return CauseIgnoredAllButStatus
	}
	return CauseNotShown
}

// sentRV extracts the precondition a request carried.
func sentRV(r api.Request) string {
	if r.Verb == api.Delete {
		return deletePreconditions(r).rv
	}
	if r.PatchType == api.JSONPatch {
		var ops []struct {
			Op    string `json:"op"`
			Path  string `json:"path"`
			Value any    `json:"value"`
		}
		if json.Unmarshal(r.Body, &ops) == nil {
			for _, op := range ops {
				if op.Path == "/metadata/resourceVersion" && (op.Op == "test" || op.Op == "replace") {
					return fmt.Sprint(op.Value)
				}
			}
		}
		return ""
	}
	var m struct {
		Metadata struct {
			ResourceVersion string `json:"resourceVersion"`
		} `json:"metadata"`
	}
	if json.Unmarshal(r.Body, &m) != nil {
		return ""
	}
	return m.Metadata.ResourceVersion
}

// Diff lists the fields that differ between two versions, ignoring the
// server's bookkeeping (resourceVersion, managedFields, generation).
func Diff(a, b map[string]any) []Change {
	fa, fb := map[string]any{}, map[string]any{}
	flatten("", a, fa)
	flatten("", b, fb)
	keys := map[string]bool{}
	for k := range fa {
		keys[k] = true
	}
	for k := range fb {
		keys[k] = true
	}
	sorted := make([]string, 0, len(keys))
	for k := range keys {
		sorted = append(sorted, k)
	}
	sort.Strings(sorted)
	var out []Change
	for _, k := range sorted {
		x, xok := fa[k]
		y, yok := fb[k]
		switch {
		case xok && !yok:
			out = append(out, Change{Path: k, Op: ChangeRemoved, Old: x})
		case !xok && yok:
			out = append(out, Change{Path: k, Op: ChangeAdded, New: y})
		case jsonString(x) != jsonString(y):
			out = append(out, Change{Path: k, Op: ChangeChanged, Old: x, New: y})
		}
	}
	return out
}

var bookkeeping = map[string]bool{
	"metadata.resourceVersion": true, "metadata.managedFields": true, "metadata.generation": true,
	"metadata.uid": true, "metadata.creationTimestamp": true,
}

func flatten(prefix string, v any, out map[string]any) {
	m, ok := v.(map[string]any)
	if !ok {
		if prefix != "" && !bookkeeping[prefix] {
			out[prefix] = v
		}
		return
	}
	if bookkeeping[prefix] {
		return
	}
	for k, x := range m {
		key := k
		if strings.ContainsAny(k, "./[]") {
			key = fmt.Sprintf("[%q]", k)
		} else if prefix != "" {
			key = "." + k
		}
		flatten(prefix+key, x, out)
	}
	if len(m) == 0 && prefix != "" {
		out[prefix] = map[string]any{}
	}
}

func jsonString(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
