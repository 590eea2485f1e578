package race

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"hash"
	"reflect"
	"sort"
	"strings"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/conflictlab/conflictlab/sim/api"
	"github.com/conflictlab/conflictlab/sim/controller"
	"github.com/conflictlab/conflictlab/sim/statekey"
)

// StateKeys computes a world's state key for the explorer's state merging:
// two worlds with the same key have the same future (every schedule from
// here takes the same steps to the same verdict), up to renaming
// controllers that run the same program (below). The key covers
//   - the server, as it writes its own state (apiserver.Server.EncodeState:
//     its objects, revision and uid counter), and the watch events an
//     informer has yet to see;
//   - each controller's machine and informer cache, as they write theirs
//     (controller.Machine.EncodeState, informer.Cache.EncodeState);
//   - the virtual clock, the number of steps taken (the step budget), and
//     when each event still pending for a delayed informer was written;
//   - the history the verdict reads (unless a loss already found is final,
//     see doomed): the successful writes in order (who,
//     from which copy, which version they made), the versions, and the
//     intents, with step indices replaced by the writes' order — the loss,
//     collateral and stale analyses compare steps only by that order.
//
// An object's managedFields are keyed as a set of entries: the field
// manager keeps them sorted (by operation, time and manager name), so the
// order says nothing the set does not.
//
// Symmetry (NewSymmetricStateKeys): controllers whose scenario entries are
// equal but for the name (same program, lag and plan) are interchangeable:
// a world and the world with two of them renamed have the same future up
// to that renaming, and the verdict names no controller. Their key is
// then taken of a canonical renaming: the controllers of each such class
// are put in an order that depends only on the state (their own state
// with every name of the class blanked, then the order in which they
// first wrote), and their names are replaced by their place in it
// wherever the state names a controller — a managedFields entry's
// manager, the history's actors. The name may not appear anywhere else
// (an error message quoting it, a value that happens to equal it): if it
// does, the renaming could merge worlds that are not renamings of each
// other, so that world is keyed without it (with its own names, in
// scenario order, under a different tag). Key returns, with the key, the
// order it used (Canonical), from which the explorer translates one
// world's tokens into another's with the same key.
//
// A key is a SHA-256 digest: a collision, which would merge two different
// states, is as likely as one in a content-addressed store.
//
// Each part writes its state through the statekey.Encoder this package
// implements; nothing here reads another package's fields.
//
// StateKeys remembers what it learnt of each stored object by its address
// (objects are never mutated in place, and the remembered pointer keeps
// the object alive, so an address is never reused while remembered). One
// StateKeys serves one exploration; its memory is bounded (maxRemembered).
type StateKeys struct {
	objs map[*unstructured.Unstructured]*objInfo
	// class[i] is the symmetry class of controller i (the index of its
	// first member); sym holds the names of controllers in a class of two
	// or more. Both are nil without symmetry.
	class []int
	sym   map[string]bool
	names []string
}

// objInfo is an object's content digest apart from its managedFields'
// manager names, which are kept aside so the key can rename them.
type objInfo struct {
	base    [sha256.Size]byte
	entries []mfEntry
	// mentions: the object names a symmetric controller somewhere other
	// than a manager (it cannot be renamed).
	mentions bool
}

type mfEntry struct {
	manager string
	rest    [sha256.Size]byte
}

// maxRemembered bounds the object memory; past it, it starts again. Remembering is what keeps an object alive (its address is
// the key): measured on 4 controllers × 4 steps, a memory of 32,768
// objects took 22–26 s of CPU, one of 1,024 11–12 s — the garbage collector
// scanned the rest again and again — and keeping a second generation
// instead of starting again did not help (12–14 s).
const maxRemembered = 1 << 10

// NewStateKeys returns an empty key maker, without symmetry.
func NewStateKeys() *StateKeys {
	return &StateKeys{objs: map[*unstructured.Unstructured]*objInfo{}}
}

// NewSymmetricStateKeys returns a key maker for worlds of w's scenario
// that merges worlds equal up to renaming interchangeable controllers.
func NewSymmetricStateKeys(w *World) *StateKeys {
	k := NewStateKeys()
	n := len(w.actors)
	if n > len(canonicalNames) {
		return k
	}
	class := make([]int, n)
	names := make([]string, n)
	sym := map[string]bool{}
	for i, a := range w.actors {
		names[i] = a.name
		class[i] = i
		for j := 0; j < i; j++ {
			if class[j] == j && twins(w, i, j) {
				class[i] = j
				sym[a.name] = true
				sym[w.actors[j].name] = true
				break
			}
		}
	}
	if len(sym) == 0 {
		return k
	}
	k.class, k.sym, k.names = class, sym, names
	return k
}

// twins: controllers i and j differ only in their names.
func twins(w *World, i, j int) bool {
	a, b := w.sc.Controllers[i], w.sc.Controllers[j]
	if a.Name == SetupActor || b.Name == SetupActor || a.Name == "" || b.Name == "" {
		return false
	}
	a.Name, b.Name = "", ""
	return reflect.DeepEqual(a, b) && w.actors[i].lag == w.actors[j].lag &&
		reflect.DeepEqual(w.actors[i].plan, w.actors[j].plan)
}

// Symmetric reports whether the key maker renames controllers.
func (k *StateKeys) Symmetric() bool { return k.sym != nil }

// Key is the world's state key. The world must be simulated (the explorer
// only merges simulated worlds).
func (k *StateKeys) Key(w *World) [sha256.Size]byte {
	key, _ := k.Canonical(w)
	return key
}

// Canonical is the world's state key and the order of controllers it was
// taken in: order[c] is the index of the controller in place c. Two worlds
// with the same key are renamings of each other that map the controller
// order1[c] to order2[c]. Without symmetry the order is the scenario's.
func (k *StateKeys) Canonical(w *World) ([sha256.Size]byte, []int) {
	if _, ok := w.server.(simBackend); !ok {
		panic("race: only a simulated world has a state key")
	}
	order := make([]int, len(w.actors))
	for i := range order {
		order[i] = i
	}
	if k.sym == nil {
		return k.encode(w, order, nil), order
	}
	own, mentions := k.canonicalOrder(w, order)
	ren := map[string]string{}
	for c, i := range order {
		if k.sym[k.names[i]] {
			ren[k.names[i]] = canonicalNames[c]
		}
	}
	e := k.encoder(ren, true)
	e.str("canonical")
	e.own = own
	key := e.world(w, order)
	if !mentions && !e.mentions {
		return key, order
	}
	for i := range order {
		order[i] = i
	}
	return k.encode(w, order, nil), order
}

func (k *StateKeys) encode(w *World, order []int, ren map[string]string) [sha256.Size]byte {
	e := k.encoder(ren, false)
	return e.world(w, order)
}

func (k *StateKeys) encoder(ren map[string]string, watch bool) *encoder {
	e := &encoder{keys: k, h: sha256.New(), ren: ren}
	if watch {
		e.watch = k.sym
	}
	return e
}

// canonicalNames are the names controllers get in a canonical key: no
// controller can be called that (nor can setup).
var canonicalNames = func() []string {
	out := make([]string, 256)
	for i := range out {
		out[i] = fmt.Sprintf("\x00#%d", i)
	}
	return out
}()

// ownState is a controller's own state with every symmetric name blanked
// (sig), and the objects met on the way, in order, whose managers the
// key then writes renamed: together, its state up to the renaming,
// encoded once.
type ownState struct {
	sig  [sha256.Size]byte
	objs []*objInfo
}

// canonicalOrder sorts each symmetry class by the controllers' own state
// with the class's names blanked, then by when each first wrote. It
// returns each controller's own state, and whether one names a
// symmetric controller where it cannot be renamed.
func (k *StateKeys) canonicalOrder(w *World, order []int) ([]ownState, bool) {
	blank := map[string]string{}
	for name := range k.sym {
		blank[name] = "\x00*"
	}
	own := make([]ownState, len(w.actors))
	sig := make([][sha256.Size]byte, len(w.actors))
	mentions := false
	for i, a := range w.actors {
		e := k.encoder(blank, true)
		e.record = &own[i].objs
		e.actor(w, a)
		e.h.Sum(sig[i][:0])
		own[i].sig = sig[i]
		mentions = mentions || e.mentions
	}
	first := map[string]int{}
	for _, s := range w.trace.steps {
		if s.Kind == StepRequest && s.OK() && s.Verb != api.Get && s.Verb != api.List {
			if _, ok := first[s.Actor]; !ok {
				first[s.Actor] = len(first)
			}
		}
	}
	rank := func(i int) int {
		if r, ok := first[k.names[i]]; ok {
			return r
		}
		return len(w.actors)
	}
	sort.SliceStable(order, func(x, y int) bool {
		i, j := order[x], order[y]
		if k.class[i] != k.class[j] {
			return k.class[i] < k.class[j]
		}
		if c := bytes.Compare(sig[i][:], sig[j][:]); c != 0 {
			return c < 0
		}
		return rank(i) < rank(j)
	})
	return own, mentions
}

// world writes the whole key, the controllers in order.
func (e *encoder) world(w *World, order []int) [sha256.Size]byte {
	sim := w.server.(simBackend)
	e.Int(int64(len(w.taken)))
	e.Int(int64(w.now))
	sim.Server.EncodeState(e)
	// Of the watch history, only the events some informer has yet to see.
	oldest := w.server.RV()
	for _, a := range w.actors {
		oldest = min(oldest, a.cache.RV())
	}
	evs, err := w.server.Events(oldest)
	e.Int(int64(len(evs)))
	for _, ev := range evs {
		e.Text(string(ev.Type))
		e.Int(ev.RV)
		e.Object(ev.Object)
	}
	statekey.Bool(e, err != nil)
	for _, i := range order {
		if e.own == nil {
			e.actor(w, w.actors[i])
			continue
		}
		// The controller's own state, as canonicalOrder encoded it, then
		// the managers of the objects it holds, renamed.
		e.h.Write(e.own[i].sig[:])
		for _, info := range e.own[i].objs {
			e.managers(info)
		}
	}
	if w.doomed() {
		// Every leaf below is "lost": the history can no longer change the
		// verdict, and worlds that differ only in it have the same future.
		e.str("doomed")
	} else {
		e.history(w.trace)
	}
	return e.sum()
}

// actor writes one controller's own state: its machine, its cache, and
// when the events its delayed informer has yet to take were written.
func (e *encoder) actor(w *World, a *actor) {
	a.machine.EncodeState(e)
	a.cache.EncodeState(e)
	if !a.lag.Manual && a.lag.Delay > 0 {
		for rv := a.cache.RV() + 1; rv <= w.server.RV(); rv++ {
			e.Int(int64(w.emittedAt(rv)))
		}
	}
	e.str("|")
}

// encoder digests what the simulator's parts write of their state
// (statekey.Encoder).
type encoder struct {
	keys *StateKeys
	h    hash.Hash
	buf  [8]byte
	// ren renames controllers where the state names one (nil: no
	// renaming); watch holds the names that must appear nowhere else,
	// and mentions is set when one does.
	ren      map[string]string
	watch    map[string]bool
	mentions bool
	// record, when set, collects the objects written (canonicalOrder);
	// own holds each controller's, for the world's key.
	record *[]*objInfo
	own    []ownState
}

var _ statekey.Encoder = (*encoder)(nil)

// Int writes a number.
func (e *encoder) Int(n int64) {
	binary.LittleEndian.PutUint64(e.buf[:], uint64(n))
	e.h.Write(e.buf[:])
}

// str writes a string of the key's own (a tag), unwatched.
func (e *encoder) str(s string) {
	e.Int(int64(len(s)))
	e.h.Write([]byte(s))
}

// Text writes a string that is not a controller's name.
func (e *encoder) Text(s string) {
	if e.watch != nil && !e.mentions && mentionsAny(s, e.watch) {
		e.mentions = true
	}
	e.str(s)
}

// name writes a string that names a controller (or the setup).
func (e *encoder) name(s string) {
	if r, ok := e.ren[s]; ok {
		s = r
	}
	e.str(s)
}

// mentionsAny reports whether s contains one of names as a word: not
// inside a longer run of letters, digits, '-', '_' or '.'.
func mentionsAny(s string, names map[string]bool) bool {
	for n := range names {
		for i := 0; ; {
			j := strings.Index(s[i:], n)
			if j < 0 {
				break
			}
			j += i
			end := j + len(n)
			if (j == 0 || !wordByte(s[j-1])) && (end == len(s) || !wordByte(s[end])) {
				return true
			}
			i = j + 1
		}
	}
	return false
}

func wordByte(b byte) bool {
	return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9' || b == '-' || b == '_' || b == '.'
}

// sub is an encoder for a part digested on its own, with the same
// renaming and watch.
func (e *encoder) sub() *encoder {
	return &encoder{keys: e.keys, h: sha256.New(), ren: e.ren, watch: e.watch, record: e.record}
}

func (e *encoder) sum() (d [sha256.Size]byte) {
	e.h.Sum(d[:0])
	return d
}

// Object writes a stored object's content from what is remembered of it:
// the digest of everything but its managers' names, and each
// managedFields entry's manager, renamed, with the digest of the rest of
// the entry, as a set.
func (e *encoder) Object(u *unstructured.Unstructured) {
	if u == nil || u.Object == nil {
		e.str("nil")
		return
	}
	info := e.keys.info(u)
	if info.mentions && e.watch != nil {
		e.mentions = true
	}
	if e.record != nil {
		*e.record = append(*e.record, info)
	}
	e.h.Write(info.base[:])
	e.managers(info)
}

// managers writes an object's managedFields entries, renamed, as a set.
func (e *encoder) managers(info *objInfo) {
	entries := make([]mfEntry, len(info.entries))
	for i, en := range info.entries {
		entries[i] = en
		if r, ok := e.ren[en.manager]; ok {
			entries[i].manager = r
		}
	}
	sort.Slice(entries, func(i, j int) bool {
		if entries[i].manager != entries[j].manager {
			return entries[i].manager < entries[j].manager
		}
		return string(entries[i].rest[:]) < string(entries[j].rest[:])
	})
	e.Int(int64(len(entries)))
	for _, en := range entries {
		e.str(en.manager)
		e.h.Write(en.rest[:])
	}
}

// info is what is remembered of the stored object u.
func (k *StateKeys) info(u *unstructured.Unstructured) *objInfo {
	if info, ok := k.objs[u]; ok {
		return info
	}
	m := u.Object
	info := &objInfo{}
	plain := &encoder{keys: k, h: sha256.New(), watch: k.sym}
	body := m
	if meta, ok := m["metadata"].(map[string]any); ok {
		if mf, ok := meta["managedFields"].([]any); ok {
			meta2 := make(map[string]any, len(meta))
			for key, val := range meta {
				if key != "managedFields" {
					meta2[key] = val
				}
			}
			body = make(map[string]any, len(m))
			for key, val := range m {
				body[key] = val
			}
			body["metadata"] = meta2
			for _, x := range mf {
				en, ok := x.(map[string]any)
				manager, isString := en["manager"].(string)
				if !ok || !isString {
					// Not an entry the field manager wrote: keep it whole,
					// as an entry with no manager.
					sub := plain.sub()
					statekey.Value(sub, x)
					info.entries = append(info.entries, mfEntry{rest: sub.sum()})
					plain.mentions = plain.mentions || sub.mentions
					continue
				}
				rest := make(map[string]any, len(en))
				for key, val := range en {
					if key != "manager" {
						rest[key] = val
					}
				}
				sub := plain.sub()
				statekey.Value(sub, rest)
				info.entries = append(info.entries, mfEntry{manager: manager, rest: sub.sum()})
				plain.mentions = plain.mentions || sub.mentions
			}
			body["\x00managedFields"] = len(mf)
		}
	}
	statekey.Value(plain, body)
	info.base = plain.sum()
	info.mentions = plain.mentions
	if len(k.objs) >= maxRemembered {
		k.objs = map[*unstructured.Unstructured]*objInfo{}
	}
	k.objs[u] = info
	return info
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
		e.name(s.Actor)
		e.Text(s.HeldRV)
		e.Text(string(s.Verb))
		e.Int(int64(s.Version))
	}
	rankOf := func(step int) int64 {
		if r, ok := rank[step]; ok {
			return int64(r)
		}
		return -1 - int64(step) // setup (-1), or a step outside the ranks
	}
	e.str("versions")
	for i, v := range t.versions {
		e.Text(v.RV)
		e.Int(rankOf(v.Step))
		e.name(v.Actor)
		statekey.Bool(e, v.Deleted)
		e.Object(t.objects[i])
	}
	e.str("intents")
	for _, in := range t.intents {
		e.name(in.actor)
		in.mutation.EncodeState(e)
		e.Int(rankOf(in.step))
		e.Int(int64(in.version))
		statekey.Bool(e, in.lost != nil)
	}
}
