package race

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"hash"
	"math"
	"reflect"
	"sort"
	"unsafe"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/conflictlab/conflictlab/sim/api"
	"github.com/conflictlab/conflictlab/sim/apiserver"
	"github.com/conflictlab/conflictlab/sim/controller"
)

// StateKeys computes a world's state key for the explorer's state merging:
// two worlds with the same key have the same future (every schedule from
// here takes the same steps to the same verdict). The key covers
//   - the server: its objects, revision, uid counter and the watch events
//     an informer has yet to see (its clock is left out: every request
//     sets it first);
//   - each controller's machine (all of it, but for its fixed program, and
//     for a copy it no longer holds, see machine) and informer cache;
//   - the virtual clock, the number of steps taken (the step budget), and
//     when each event still pending for a delayed informer was written;
//   - the history the verdict reads (unless a loss already found is final,
//     see doomed): the successful writes in order (who,
//     from which copy, which version they made), the versions, and the
//     intents, with step indices replaced by the writes' order — the loss,
//     collateral and stale analyses compare steps only by that order.
//
// A key is a SHA-256 digest: a collision, which would merge two different
// states, is as likely as one in a content-addressed store.
//
// StateKeys remembers the digest of each stored object by its address
// (objects are never mutated in place, and the remembered pointer keeps
// the object alive, so an address is never reused while remembered).
type StateKeys struct {
	objs map[unsafe.Pointer][sha256.Size]byte
}

// maxRemembered bounds the object digest memory; past it, it starts again.
const maxRemembered = 1 << 16

// NewStateKeys returns an empty key maker.
func NewStateKeys() *StateKeys {
	return &StateKeys{objs: map[unsafe.Pointer][sha256.Size]byte{}}
}

// Key is the world's state key. The world must be simulated (the explorer
// only merges simulated worlds).
func (k *StateKeys) Key(w *World) [sha256.Size]byte {
	sim, ok := w.server.(simBackend)
	if !ok {
		panic("race: only a simulated world has a state key")
	}
	e := &encoder{keys: k, h: sha256.New()}
	e.int(int64(len(w.taken)))
	e.int(int64(w.now))
	e.value(reflect.ValueOf(sim.Server).Elem())
	// Of the watch history, only the events some informer has yet to see.
	oldest := w.server.RV()
	for _, a := range w.actors {
		oldest = min(oldest, a.cache.RV())
	}
	evs, err := w.server.Events(oldest)
	e.value(reflect.ValueOf(evs))
	e.value(reflect.ValueOf(err != nil))
	for _, a := range w.actors {
		e.machine(a)
		e.value(reflect.ValueOf(a.cache).Elem())
		if !a.lag.Manual && a.lag.Delay > 0 {
			for rv := a.cache.RV() + 1; rv <= w.server.RV(); rv++ {
				e.int(int64(w.emittedAt(rv)))
			}
		}
		e.str("|")
	}
	if w.doomed() {
		// Every leaf below is "lost": the history can no longer change the
		// verdict, and worlds that differ only in it have the same future.
		e.str("doomed")
	} else {
		e.history(w.trace)
	}
	var out [sha256.Size]byte
	e.h.Sum(out[:0])
	return out
}

type encoder struct {
	keys *StateKeys
	h    hash.Hash
	buf  [8]byte
}

func (e *encoder) int(n int64) {
	binary.LittleEndian.PutUint64(e.buf[:], uint64(n))
	e.h.Write(e.buf[:])
}

func (e *encoder) str(s string) {
	e.int(int64(len(s)))
	e.h.Write([]byte(s))
}

// skipped are the fields that are not state: the server's fixed schema,
// its answer memo (shared by every branch), its clock (set before every
// request) and its watch history (Key writes the part still to be
// delivered), a machine's fixed program, and the longest-reconcile
// statistic with the start time it is measured from (a report's number
// that no verdict and no step reads; keeping it would tell apart every
// two orders of the same reads).
var skipped = map[reflect.Type]map[string]bool{
	reflect.TypeOf(apiserver.Server{}):   {"schema": true, "memo": true, "now": true, "events": true},
	reflect.TypeOf(controller.Machine{}): {"prog": true, "started": true},
	reflect.TypeOf(controller.Stats{}):   {"LongestReconcileMS": true},
}

var unstructuredType = reflect.TypeOf(unstructured.Unstructured{})

// machine writes a controller's machine. A read-modify-write machine
// about to read, or finished, still points at the copy its last reconcile
// read, but nothing will look at it again: its next read replaces it, the
// step records only a write's held copy, and the verdict reads only the
// machines' status and counters. Keeping it would tell apart states that
// differ only in what a finished reconcile once read (in a race of
// increments, most of them).
func (e *encoder) machine(a *actor) {
	v := reflect.ValueOf(a.machine).Elem()
	act := a.nextAction()
	dead := readModifyWrite[a.machine.Program().Write] && (act.Kind == controller.Idle || act.Request.Verb == api.Get)
	skip := skipped[v.Type()]
	for i := 0; i < v.NumField(); i++ {
		name := v.Type().Field(i).Name
		if skip[name] {
			continue
		}
		if dead && name == "read" {
			e.str("read: not held")
			continue
		}
		e.value(v.Field(i))
	}
}

// value writes v with its type's shape: equal encodings only for equal
// values of the same types. Reflection reads unexported fields, so other
// packages need no hashing code of their own.
func (e *encoder) value(v reflect.Value) {
	switch v.Kind() {
	case reflect.Invalid:
		e.str("∅")
	case reflect.Bool:
		if v.Bool() {
			e.int(1)
		} else {
			e.int(0)
		}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		e.int(v.Int())
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		e.int(int64(v.Uint()))
	case reflect.Float32, reflect.Float64:
		e.int(int64(math.Float64bits(v.Float())))
	case reflect.Complex64, reflect.Complex128:
		c := v.Complex()
		e.int(int64(math.Float64bits(real(c))))
		e.int(int64(math.Float64bits(imag(c))))
	case reflect.String:
		e.str(v.String())
	case reflect.Pointer:
		if v.IsNil() {
			e.str("nil")
			return
		}
		if v.Type().Elem() == unstructuredType {
			d := e.keys.object(v.UnsafePointer(), v.Elem())
			e.h.Write(d[:])
			return
		}
		e.value(v.Elem())
	case reflect.Interface:
		if v.IsNil() {
			e.str("nil")
			return
		}
		e.str(v.Elem().Type().String())
		e.value(v.Elem())
	case reflect.Struct:
		skip := skipped[v.Type()]
		for i := 0; i < v.NumField(); i++ {
			if !skip[v.Type().Field(i).Name] {
				e.value(v.Field(i))
			}
		}
	case reflect.Slice, reflect.Array:
		e.int(int64(v.Len()))
		for i := 0; i < v.Len(); i++ {
			e.value(v.Index(i))
		}
	case reflect.Map:
		// Map order is random: digest each entry, then write the sorted
		// digests.
		entries := make([][sha256.Size]byte, 0, v.Len())
		it := v.MapRange()
		for it.Next() {
			sub := &encoder{keys: e.keys, h: sha256.New()}
			sub.value(it.Key())
			sub.value(it.Value())
			var d [sha256.Size]byte
			sub.h.Sum(d[:0])
			entries = append(entries, d)
		}
		sort.Slice(entries, func(i, j int) bool { return string(entries[i][:]) < string(entries[j][:]) })
		e.int(int64(len(entries)))
		for _, d := range entries {
			e.h.Write(d[:])
		}
	default:
		// Functions and channels hold no state of a world; fail loudly if
		// one ever does rather than merge worlds that differ.
		panic(fmt.Sprintf("race: cannot key a %s", v.Type()))
	}
}

// object is the digest of an object's content, remembered by address.
func (k *StateKeys) object(p unsafe.Pointer, v reflect.Value) [sha256.Size]byte {
	if d, ok := k.objs[p]; ok {
		return d
	}
	sub := &encoder{keys: k, h: sha256.New()}
	sub.value(v)
	var d [sha256.Size]byte
	sub.h.Sum(d[:0])
	if len(k.objs) >= maxRemembered {
		k.objs = map[unsafe.Pointer][sha256.Size]byte{}
	}
	k.objs[p] = d
	return d
}

// objectMap is the digest of a version's object map, remembered by the
// map's address (versions are never changed once recorded).
func (e *encoder) objectMap(m map[string]interface{}) {
	v := reflect.ValueOf(m)
	if m == nil {
		e.str("nil")
		return
	}
	d := e.keys.object(v.UnsafePointer(), v)
	e.h.Write(d[:])
}

// doomed reports a loss that no later step can undo, so that the verdict
// of every run from here is "lost": a write that missed its own change,
// an increment written back over (the first eraser after it is found in
// versions already written, whatever comes later), or a setup list element
// removed by accident (judged against the version before it). Erasures of
// other fields are not final: a later write can put the value back.
func (w *World) doomed() bool {
	for _, in := range w.trace.intents {
		if in.lost != nil {
			return true
		}
		if in.mutation.Op == controller.Increment && w.trace.counterErased(in) != nil {
			return true
		}
	}
	return len(w.trace.collateral(w)) > 0
}

// history writes what the verdict reads from the trace. Step indices are
// replaced by their rank among the successful writes: the analyses only
// compare a version's step with a write's, and look writes' intents up by
// step, so any numbering in the same order gives the same verdict.
func (e *encoder) history(t *trace) {
	rank := map[int]int{}
	for _, s := range t.steps {
		if s.Kind != StepRequest || !s.OK() || s.Verb == api.Get || s.Verb == api.List {
			continue
		}
		rank[s.Index] = len(rank)
		e.str(s.Actor)
		e.str(s.HeldRV)
		e.str(string(s.Verb))
		e.int(int64(s.Version))
	}
	rankOf := func(step int) int64 {
		if r, ok := rank[step]; ok {
			return int64(r)
		}
		return -1 - int64(step) // setup (-1), or a step outside the ranks
	}
	e.str("versions")
	for _, v := range t.versions {
		e.str(v.RV)
		e.int(rankOf(v.Step))
		e.str(v.Actor)
		e.value(reflect.ValueOf(v.Deleted))
		e.objectMap(v.Object)
	}
	e.str("intents")
	for _, in := range t.intents {
		e.str(in.actor)
		e.value(reflect.ValueOf(in.mutation))
		e.int(rankOf(in.step))
		e.int(int64(in.version))
		e.value(reflect.ValueOf(in.lost != nil))
	}
}
