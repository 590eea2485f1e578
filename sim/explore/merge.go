package explore

import (
	"context"
	"fmt"

	"github.com/conflictlab/conflictlab/sim/race"
	"github.com/conflictlab/conflictlab/sim/scenario"
)

// tally counts a subtree's interleavings by verdict, in race.Verdicts
// order. When the scenario has invariants it goes on (tallyWidth): the
// interleavings that break one, by verdict in the same order, then those
// that break each invariant, in the scenario's order. Every entry is a
// count of leaves, so all of them add up along the DAG of states as the
// verdicts' do.
type tally []int

// nVerdicts is the length of a tally's verdict counts.
var nVerdicts = len(race.Verdicts)

// tallyWidth is the length of a tally for a scenario with invariants
// invariants.
func tallyWidth(invariants int) int {
	if invariants == 0 {
		return nVerdicts
	}
	return 2*nVerdicts + invariants
}

var verdictIndex = func() map[race.Verdict]int {
	m := map[race.Verdict]int{}
	for i, v := range race.Verdicts {
		m[v] = i
	}
	return m
}()

func (t tally) add(u tally) {
	for i, n := range u {
		t[i] += n
	}
}

// sum is the number of interleavings counted.
func (t tally) sum() int {
	n := 0
	for _, c := range t[:nVerdicts] {
		n += c
	}
	return n
}

func (t tally) addTo(r *Result) {
	for i, n := range t[:nVerdicts] {
		if n > 0 {
			r.Tally[race.Verdicts[i]] += n
			r.Schedules += n
		}
	}
	if inv := r.Invariants; inv != nil {
		for i, n := range t[nVerdicts : 2*nVerdicts] {
			if n > 0 {
				inv.ByVerdict[race.Verdicts[i]] += n
				inv.Broken += n
			}
		}
		for i, n := range t[2*nVerdicts:] {
			inv.Each[i].Broken += n
		}
	}
}

// node is an explored state: the tally of every interleaving from it, and
// the node each enabled token leads to (none for a leaf). A node is only
// ever built complete, so a stopped search (cancelled, truncated) never
// leaves a partial tally to be reused.
type node struct {
	t    tally
	next []edge
	// order is the controllers' order the state key was taken in
	// (race.StateKeys.Canonical), for a node kept in the memo.
	order []int
	// key is the state key, kept only when the search checks its sleep
	// sets (Options.checkSleep).
	key *[32]byte
}

// edge: token, in the node's own world, leads to the state to stands for.
type edge struct {
	token scenario.Move
	to    ref
}

// ref is a node seen from a world that may be a renaming of the one it
// was built from (symmetry: race.NewSymmetricStateKeys): perm[i] is the
// controller of the viewing world that plays the node's controller i
// (nil: the same ones). A tally does not depend on names; tokens do.
type ref struct {
	n    *node
	perm []int
}

// child is the state token (named as in the viewing world) leads to from
// r, seen from the same world, or a nil node (r is a leaf).
func (m *merger) child(r ref, token scenario.Move) ref {
	for _, e := range r.n.next {
		if m.rename(e.token, r.perm) == token {
			return ref{e.to.n, compose(e.to.perm, r.perm)}
		}
	}
	return ref{}
}

// compose is the renaming inner then outer.
func compose(inner, outer []int) []int {
	if outer == nil {
		return inner
	}
	if inner == nil {
		return outer
	}
	out := make([]int, len(inner))
	for i, j := range inner {
		out[i] = outer[j]
	}
	return out
}

// rename is the move with controller i renamed perm[i].
func (m *merger) rename(move scenario.Move, perm []int) scenario.Move {
	if perm == nil {
		return move
	}
	move.Controller = m.names[perm[m.index[move.Controller]]]
	return move
}

// sleeper is a token asleep in a state: taking it there leads to a state
// already explored — to, the same node as a state met earlier in
// depth-first order (see walk).
type sleeper struct {
	token scenario.Move
	to    ref
}

// merger is the search: state merging with sleep sets, counting exactly.
//
// State merging: memo holds every branching state's node by state key;
// a state met again by another order of the same steps takes its tally
// from there, multiplied by every path that reaches it (the tallies add up
// along the DAG of states: a state's tally is the sum of its successors').
//
// Sleep sets (Godefroid's partial-order reduction): after a state σ has
// explored token t, every later sibling u that commutes with t at σ
// (race.World.Commute: σ·u·t and σ·t·u are the same state) puts t to
// sleep in σ·u, and t stays asleep down that path for as long as each
// step taken commutes with it. A sleeping token is not stepped: where it
// leads is the state σ·t·u… explored before, whose node is carried along
// with it (sleeper.to, followed one edge per step). So the tally stays
// exact — a sleeping token's subtree is counted, from its node, not
// dropped — while the step, the clone and the state key of every such
// transition are saved; what a plain sleep-set search would prune as
// redundant is here looked up. (Sleep sets prune transitions, not states:
// every reachable state is still a node. That is what keeps the counts
// exact: a persistent-set reduction would skip states and need each
// path's number of linearizations instead.)
//
// Symmetry: the state key is taken up to renaming controllers that run
// the same program, so a memo hit may be a renaming of the state first
// explored. Its tally is the same (verdicts name no controller); its
// edges name the first state's controllers, so the search holds a node
// as a ref with the renaming and translates tokens through it whenever
// it follows an edge (child), as a sleeping token does.
//
// Invariants: a leaf's tally also says whether it breaks one of the
// scenario's invariants, and which, so a merged state carries those
// counts with its verdicts'. That needs states with equal keys to end
// alike on the invariants too. They read, at the end, which objects
// exist with what kind, namespace, name and labels, from the history's
// newest version of each object; that is what the server stores (a
// version is recorded for every write that changes or deletes an object,
// as the server stores it after the write, and nothing else changes the
// server's objects), and the key always covers the server's objects,
// whole: the history may be left out of it (doomed), the objects never
// are. A renaming of controllers changes no object's name
// or labels (a state whose objects mention a controller is keyed without
// it). The tests check it against the plain enumeration.
//
// Examples come out as the plain enumeration's: the first leaf in
// depth-first order with each verdict. A state met again, or a sleeping
// token's state, was first explored earlier in that order, and every
// verdict in its subtree (the same verdicts for a renaming) was then
// given an example, one that comes before
// any leaf below the second meeting.
type merger struct {
	ctx  context.Context
	opts Options
	max  int
	r    *Result
	keys *race.StateKeys
	memo map[[32]byte]*node
	// index and names translate controllers' names to their places in
	// the scenario and back, for renamings.
	index map[string]int
	names []string
	// leaves holds one shared leaf node per verdict; with invariants
	// (width > nVerdicts), invLeaves holds one per verdict and set of
	// invariants broken (leafKey), made when first met.
	leaves    []*node
	invLeaves map[leafKey]*node
	width     int
	// counted is the number of interleavings tallied so far, the progress.
	counted int
}

func newMerger(ctx context.Context, opts Options, max int, r *Result, w *race.World) *merger {
	keys := race.NewStateKeys()
	if !opts.noSymmetry {
		keys = race.NewSymmetricStateKeys(w)
	}
	m := &merger{ctx: ctx, opts: opts, max: max, r: r, keys: keys, memo: map[[32]byte]*node{},
		index: map[string]int{}}
	for i, c := range w.Scenario().Controllers {
		m.index[c.Name] = i
		m.names = append(m.names, c.Name)
	}
	m.width = tallyWidth(len(w.Scenario().Invariants))
	for i := range race.Verdicts {
		t := make(tally, m.width)
		t[i] = 1
		m.leaves = append(m.leaves, &node{t: t})
	}
	if m.width > nVerdicts {
		m.invLeaves = map[leafKey]*node{}
	}
	return m
}

// leafKey is what a leaf's tally says: its verdict's index and the
// invariants it breaks.
type leafKey struct {
	verdict int
	broken  brokenSet
}

// leafNode is the shared node of a leaf with verdict index i that breaks
// the invariants in b.
func (m *merger) leafNode(i int, b brokenSet) *node {
	if m.invLeaves == nil {
		return m.leaves[i]
	}
	k := leafKey{i, b}
	if n, ok := m.invLeaves[k]; ok {
		return n
	}
	t := make(tally, m.width)
	t[i] = 1
	if b != 0 {
		t[nVerdicts+i] = 1
		for j := range t[2*nVerdicts:] {
			if b&(1<<j) != 0 {
				t[2*nVerdicts+j] = 1
			}
		}
	}
	n := &node{t: t}
	m.invLeaves[k] = n
	return n
}

// end is the verdict index of a finished world and the invariants it
// breaks.
func (m *merger) end(w *race.World) (race.Verdict, int, brokenSet, error) {
	v := w.Verdict()
	i, known := verdictIndex[v]
	if !known {
		return v, 0, 0, fmt.Errorf("explore: unknown verdict %q", v)
	}
	var b brokenSet
	if m.invLeaves != nil {
		b = brokenIn(w)
	}
	return v, i, b, nil
}

// walk explores from w, whose sleeping tokens are sleep, and returns its
// node as w sees it; ok is false when the search stopped (the node then
// holds only the part explored before, and is not complete).
func (m *merger) walk(w *race.World, sleep []sleeper) (r ref, ok bool, err error) {
	if m.cancelled() {
		return ref{n: &node{t: make(tally, m.width)}}, false, nil
	}
	enabled := w.Enabled()
	if len(enabled) == 0 || len(w.Taken()) >= m.max {
		return m.leaf(w)
	}
	var key [32]byte
	var order []int
	branching := len(enabled) > 1
	if branching || m.opts.checkSleep {
		// A forced move needs no key: it is met again only through its
		// parent, which is keyed.
		key, order = m.keys.Canonical(w)
	}
	if branching {
		if seen, hit := m.memo[key]; hit {
			if err := m.haveExamples(seen.t); err != nil {
				return ref{}, false, err
			}
			return ref{seen, renaming(seen.order, order)}, m.progress(seen.t.sum()), nil
		}
		m.r.States++
		if m.overBudget() {
			return ref{n: &node{t: make(tally, m.width)}}, false, nil
		}
	}
	n := &node{t: make(tally, m.width), next: make([]edge, 0, len(enabled)), order: order}
	r = ref{n: n}
	if branching {
		w.Prepare()
	}
	if m.opts.checkSleep {
		n.key = &key
	}
	for i, tok := range enabled {
		if i > 0 && m.cancelled() {
			return r, false, nil
		}
		if s := asleep(sleep, tok); s != nil {
			if err := m.checkSlept(w, tok, s.to.n); err != nil {
				return r, false, err
			}
			if err := m.haveExamples(s.to.n.t); err != nil {
				return r, false, err
			}
			n.next = append(n.next, edge{tok, s.to})
			n.t.add(s.to.n.t)
			m.r.Slept++
			if !m.progress(s.to.n.t.sum()) {
				return r, false, nil
			}
			continue
		}
		var sub []sleeper
		if !m.opts.noSleep {
			sub = m.sleepAfter(w, tok, sleep, n.next)
		}
		next := w
		if i < len(enabled)-1 {
			next = w.Clone()
		}
		if err := next.Step(tok); err != nil {
			return r, false, err
		}
		c, ok, err := m.walk(next, sub)
		if c.n != nil {
			n.next = append(n.next, edge{tok, c})
			n.t.add(c.n.t)
		}
		if !ok || err != nil {
			return r, false, err
		}
	}
	if branching {
		m.memo[key] = n
	}
	return r, true, nil
}

// renaming maps the controllers of the world a node was built from (in
// key order from) to those of a world with the same key (in key order
// to): nil when they are the same.
func renaming(from, to []int) []int {
	same := true
	for c := range from {
		if from[c] != to[c] {
			same = false
			break
		}
	}
	if same {
		return nil
	}
	perm := make([]int, len(from))
	for c, i := range from {
		perm[i] = to[c]
	}
	return perm
}

// sleepAfter is the sleep set of w·tok: the tokens asleep in w, and the
// siblings explored before tok, that commute with tok in w — each with
// the node it leads to from w·tok (one edge on from where it led in w).
// A token whose node has no such edge (it led to a leaf) is left awake:
// waking a token only costs exploring it.
func (m *merger) sleepAfter(w *race.World, tok scenario.Move, sleep []sleeper, done []edge) []sleeper {
	var out []sleeper
	add := func(t scenario.Move, to ref) {
		if !w.Commute(t, tok) {
			return
		}
		if c := m.child(to, tok); c.n != nil {
			out = append(out, sleeper{t, c})
		}
	}
	for _, s := range sleep {
		add(s.token, s.to)
	}
	for _, e := range done {
		add(e.token, e.to)
	}
	return out
}

func asleep(sleep []sleeper, tok scenario.Move) *sleeper {
	for i := range sleep {
		if sleep[i].token == tok {
			return &sleep[i]
		}
	}
	return nil
}

// checkSlept, in the tests' checking mode, takes the sleeping token after
// all and requires that it reaches the state its node stands for: the
// same state key, or the same verdict for a leaf.
func (m *merger) checkSlept(w *race.World, tok scenario.Move, to *node) error {
	if !m.opts.checkSleep {
		return nil
	}
	c := w.Clone()
	if err := c.Step(tok); err != nil {
		return err
	}
	if len(c.Enabled()) == 0 || len(c.Taken()) >= m.max {
		v, i, b, err := m.end(c)
		if err != nil {
			return err
		}
		if to.key != nil || to != m.leafNode(i, b) {
			return fmt.Errorf("explore: sleeping %s after %v ends %s (invariants broken: %b), not as the state it stands for", tok, w.Taken(), v, b)
		}
		return nil
	}
	if to.key == nil || m.keys.Key(c) != *to.key {
		return fmt.Errorf("explore: sleeping %s after %v leads elsewhere than the state it stands for (a commutation is wrong)", tok, w.Taken())
	}
	return nil
}

// haveExamples checks that every verdict of a tally taken from an earlier
// state already has its example, and so has every invariant it breaks.
func (m *merger) haveExamples(t tally) error {
	for i, n := range t[:nVerdicts] {
		if _, has := m.r.Examples[race.Verdicts[i]]; n > 0 && !has {
			return fmt.Errorf("explore: a merged state's %s has no example (a state key misses something)", race.Verdicts[i])
		}
	}
	if inv := m.r.Invariants; inv != nil {
		for i, n := range t[nVerdicts : 2*nVerdicts] {
			if n > 0 && inv.Example == nil {
				return fmt.Errorf("explore: a merged state's %s breaking an invariant has no example (a state key misses something)", race.Verdicts[i])
			}
		}
		for i, n := range t[2*nVerdicts:] {
			if n > 0 && inv.Each[i].Example == nil {
				return fmt.Errorf("explore: a merged state breaks invariant %d with no example (a state key misses something)", i)
			}
		}
	}
	return nil
}

func (m *merger) cancelled() bool {
	if m.ctx.Err() != nil {
		m.r.Cancelled = true
		return true
	}
	return false
}

func (m *merger) leaf(w *race.World) (ref, bool, error) {
	v, i, b, err := m.end(w)
	if err != nil {
		return ref{}, false, err
	}
	n := ref{n: m.leafNode(i, b)}
	m.r.Paths++
	if _, ok := m.r.Examples[v]; !ok {
		m.r.Examples[v] = append([]scenario.Move(nil), w.Taken()...)
	}
	if b != 0 {
		m.r.Invariants.example(b, w.Taken())
	}
	if !m.progress(1) {
		return n, false, nil
	}
	if m.overBudget() {
		return n, false, nil
	}
	return n, true, nil
}

// overBudget stops the search once it has done MaxSchedules pieces of
// work: schedules played to their end and states explored. The plain walk
// plays MaxSchedules schedules; here each played one stands for many
// interleavings, and what grows with a race's size is the memory of
// states: a race whose interleavings explode (four controllers with
// retries and requeues reach 500,000 states and 10^14 interleavings in
// 40 s) must stop at the limit instead of filling memory, while one that
// merges down to a few states is still counted whole.
func (m *merger) overBudget() bool {
	if m.r.Paths+m.r.States >= m.opts.MaxSchedules {
		m.r.Truncated = true
		return true
	}
	return false
}

// progress counts n more interleavings tallied and reports them; false
// stops the search.
func (m *merger) progress(n int) bool {
	m.counted += n
	if m.opts.Progress != nil && !m.opts.Progress(m.counted) {
		m.r.Cancelled = true
		return false
	}
	return true
}
