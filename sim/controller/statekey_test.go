package controller

import (
	"errors"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/conflictlab/conflictlab/sim/api"
	"github.com/conflictlab/conflictlab/sim/statekey"
	"github.com/conflictlab/conflictlab/sim/statekey/statekeytest"
)

func keyedConfigMap(rv string) *unstructured.Unstructured {
	return &unstructured.Unstructured{Object: map[string]any{"apiVersion": "v1", "kind": "ConfigMap",
		"metadata": map[string]any{"name": "cm1", "namespace": "default", "resourceVersion": rv}}}
}

// keyedMachine is a read-modify-write machine between its read and its
// write, every field set.
func keyedMachine() *Machine {
	p := Program{Name: "a", Target: api.Ref{Kind: api.ConfigMap, Namespace: "default", Name: "cm1"},
		Read: FromLive, Write: Update, Retry: DefaultRetry(), Expectations: true,
		Mutations: []Mutation{{Op: Set, Path: MustPath("data.x"), Value: "1"}}}
	m := New(p)
	m.phase = phaseWrite
	m.attempt, m.reconcile = 2, 1
	m.read, m.mutated = keyedConfigMap("7"), keyedConfigMap("8")
	m.wakeAt = 30 * time.Millisecond
	m.stats = Stats{Requests: 1, ListerReads: 2, Writes: 3, Conflicts: 4, Errors: 5, Retries: 6, Requeues: 7, LongestReconcileMS: 8}
	m.lastErr = apierrors.NewConflict(schema.GroupResource{Resource: "configmaps"}, "cm1", errors.New("the object has been modified"))
	m.expect = 9
	m.started = 10 * time.Millisecond
	m.inReconcile = true
	return m
}

// TestMachineEncodesEveryField: every field of a machine is written by
// EncodeState, or said not to be state; a field added to Machine fails
// here until it is one or the other.
func TestMachineEncodesEveryField(t *testing.T) {
	statekeytest.Fields(t, keyedMachine, (*Machine).EncodeState, map[string]statekeytest.Field[Machine]{
		"prog":        {Change: func(m *Machine) { m.prog.Name = "b" }, NotState: "fixed for a run"},
		"phase":       {Change: func(m *Machine) { m.phase = phaseDone }},
		"source":      {Change: func(m *Machine) { m.source = FromLister }},
		"attempt":     {Change: func(m *Machine) { m.attempt = 3 }},
		"reconcile":   {Change: func(m *Machine) { m.reconcile = 2 }},
		"read":        {Change: func(m *Machine) { m.read = keyedConfigMap("6") }},
		"mutated":     {Change: func(m *Machine) { m.mutated = nil }},
		"wakeAt":      {Change: func(m *Machine) { m.wakeAt = 0 }},
		"stats":       {Change: func(m *Machine) { m.stats.Requests++ }},
		"lastErr":     {Change: func(m *Machine) { m.lastErr = nil }},
		"expect":      {Change: func(m *Machine) { m.expect = 0 }},
		"started":     {Change: func(m *Machine) { m.started = 0 }, NotState: "what LongestReconcileMS is measured from"},
		"inReconcile": {Change: func(m *Machine) { m.inReconcile = false }},
		"code":        {Change: func(m *Machine) { m.code.conflicted = true }},
		"pending":     {Change: func(m *Machine) { m.pending = []time.Duration{20 * time.Millisecond} }},
		"dropped":     {Change: func(m *Machine) { m.dropped = true }},
		"events":      {Change: func(m *Machine) { m.events = 2 }, NotState: "only the timeline's purpose words number it"},
	})
	// Every counter is state but the longest reconcile.
	statekeytest.Fields(t, func() *Stats { return &keyedMachine().stats }, func(s *Stats, e statekey.Encoder) {
		m := keyedMachine()
		m.stats = *s
		m.EncodeState(e)
	}, map[string]statekeytest.Field[Stats]{
		"Requests":           {Change: func(s *Stats) { s.Requests = 0 }},
		"ListerReads":        {Change: func(s *Stats) { s.ListerReads = 0 }},
		"Writes":             {Change: func(s *Stats) { s.Writes = 0 }},
		"Conflicts":          {Change: func(s *Stats) { s.Conflicts = 0 }},
		"Errors":             {Change: func(s *Stats) { s.Errors = 0 }},
		"Retries":            {Change: func(s *Stats) { s.Retries = 0 }},
		"Requeues":           {Change: func(s *Stats) { s.Requeues = 0 }},
		"LongestReconcileMS": {Change: func(s *Stats) { s.LongestReconcileMS = 0 }, NotState: "a report's number no step reads"},
	})
}

// TestMachineForgetsACopyItWillNotActOn: about to read again (or
// finished), a read-modify-write machine still holds its last reconcile's
// copy; its state key does not tell such machines apart. A lifecycle
// machine's copy is always state.
func TestMachineForgetsACopyItWillNotActOn(t *testing.T) {
	enc := func(m *Machine) string { return statekey.Encode(m.EncodeState) }
	for _, ph := range []phase{phaseRead, phaseDone, phaseGaveUp} {
		a, b := keyedMachine(), keyedMachine()
		a.phase, b.phase = ph, ph
		b.read = keyedConfigMap("6")
		if enc(a) != enc(b) {
			t.Errorf("phase %d: the copy of the last reconcile changes the key", ph)
		}
	}
	a, b := keyedMachine(), keyedMachine()
	a.prog.Write, b.prog.Write = Delete, Delete
	a.phase, b.phase = phaseRead, phaseRead
	b.read = keyedConfigMap("6")
	if enc(a) == enc(b) {
		t.Error("a delete's copy is not in its key")
	}
}

// TestMutationEncodesEveryField: a mutation, its condition and its path's
// segments are written whole.
func TestMutationEncodesEveryField(t *testing.T) {
	base := func() *Mutation {
		return &Mutation{Op: Set, Path: MustPath("data.x"), Value: "1", By: 1, From: MustPath("data.y"),
			When: &Condition{Path: MustPath("data.z"), Equals: "on"}}
	}
	statekeytest.Fields(t, base, func(m *Mutation, e statekey.Encoder) { m.EncodeState(e) }, map[string]statekeytest.Field[Mutation]{
		"Op":    {Change: func(m *Mutation) { m.Op = Remove }},
		"Path":  {Change: func(m *Mutation) { m.Path = MustPath("data.w") }},
		"Value": {Change: func(m *Mutation) { m.Value = int64(1) }},
		"By":    {Change: func(m *Mutation) { m.By = 2 }},
		"From":  {Change: func(m *Mutation) { m.From = Path{} }},
		"When":  {Change: func(m *Mutation) { m.When = nil }},
	})
	statekeytest.Fields(t, func() *Condition { return base().When }, func(c *Condition, e statekey.Encoder) {
		m := base()
		m.When = c
		m.EncodeState(e)
	}, map[string]statekeytest.Field[Condition]{
		"Path":   {Change: func(c *Condition) { c.Path = MustPath("data.w") }},
		"Equals": {Change: func(c *Condition) { c.Equals = nil }},
	})
	encPath := func(p *Path, e statekey.Encoder) { p.encodeState(e) }
	statekeytest.Fields(t, func() *Path { p := MustPath(`a["b"][0][name=x]`); return &p }, encPath, map[string]statekeytest.Field[Path]{
		"text": {Change: func(p *Path) { p.text = "c" }},
		"segs": {Change: func(p *Path) { p.segs = p.segs[:1] }},
	})
	full := segment{key: "k", index: 1, field: "f", value: "v", kind: segSelect, quoted: true}
	statekeytest.Fields(t, func() *segment { s := full; return &s }, func(s *segment, e statekey.Encoder) { encPath(&Path{segs: []segment{*s}}, e) },
		map[string]statekeytest.Field[segment]{
			"key": {Change: func(s *segment) { s.key = "" }}, "index": {Change: func(s *segment) { s.index = 0 }},
			"field": {Change: func(s *segment) { s.field = "" }}, "value": {Change: func(s *segment) { s.value = "" }},
			"kind": {Change: func(s *segment) { s.kind = segKey }}, "quoted": {Change: func(s *segment) { s.quoted = false }},
		})
}

// TestCodeStateEncodesEveryField: the same for a code machine's own state.
func TestCodeStateEncodesEveryField(t *testing.T) {
	base := func() *codeState {
		ref := api.Ref{Kind: api.ConfigMap, Namespace: "default", Name: "cm1"}
		act := Action{Kind: SendRequest, Purpose: "r.go:1", Selector: map[string]string{"app": "web"},
			Request: api.Request{Verb: api.Update, Ref: ref, Body: []byte(`{}`), FieldManager: "you"}}
		return &codeState{offered: &act, answer: &api.Response{Code: 200, Object: keyedConfigMap("7")},
			held: []heldCopy{{ref: ref, obj: keyedConfigMap("7")}}, at: 3 * time.Millisecond}
	}
	statekeytest.Fields(t, base, func(c *codeState, e statekey.Encoder) { c.encodeState(e) }, map[string]statekeytest.Field[codeState]{
		"offered": {Change: func(c *codeState) {
			a := *c.offered
			a.Request.Body = []byte(`{"data":{}}`)
			c.offered = &a
		}},
		"answer":     {Change: func(c *codeState) { c.answer = &api.Response{Code: 409, Err: errors.New("conflict")} }},
		"held":       {Change: func(c *codeState) { c.held = []heldCopy{{ref: c.held[0].ref, obj: keyedConfigMap("8")}} }},
		"conflicted": {Change: func(c *codeState) { c.conflicted = true }},
		"at":         {Change: func(c *codeState) { c.at = 0 }},
	})
}
