package simcluster

import (
	"context"
	"crypto/sha256"
	"fmt"
	"runtime"
	"sync"

	"github.com/conflictlab/conflictlab/sim/explore"
	"github.com/conflictlab/conflictlab/sim/race"
	"github.com/conflictlab/conflictlab/sim/scenario"
)

// Exploring real code: a goroutine cannot be cloned, so every interleaving
// is reached by running the code again from the start along its schedule
// prefix (a replay), with the world cloned from a fresh one each time.
// Two reductions keep that affordable:
//
//   - state merging: at every branching state the run takes a state key —
//     the world's (race.StateKeys: server, caches, machines, the history
//     the verdict reads, the clock, the steps taken) and, for each code
//     controller, a digest of every call it made and every answer and
//     result it got (the code is deterministic, so that is its state). A
//     state met again by another order is not explored again: the tally of
//     its subtree, found once, counts for every path that reaches it.
//   - the server's memory of answers (race.World.Memoize), shared by
//     every replay of one worker: a replay's writes are answered from it.
//
// Sleep sets (sim/explore's other reduction) need to know, before a
// step, that two steps commute; the code's next move is known only once
// it has been made, so they do not apply here.
//
// Runs are independent, so several go on at once (Options.Workers): the
// backoff of a retry helper sleeps on the wall clock, and a run that
// sleeps costs no CPU. The tally and the examples do not depend on which
// run finished first: a state's tally is the sum of its children's, and
// each example is the first schedule in depth-first order (children in
// the order the world enables them), as sim/explore's are.
//
// Every replay checks determinism: the call each code step makes must be
// the one the same schedule prefix made before.

// Exploration is the tally of every interleaving.
type Exploration struct {
	// Result is the tally in sim/explore's terms (conflictlab explore's
	// report and JSON read it): Schedules interleavings, by verdict, each
	// with its first schedule; States the branching states explored and
	// Paths the runs played to their end.
	explore.Result
	// Bound is why the first run cut short (in depth-first order) was cut
	// (Run.Bound), and BoundSchedule its schedule; empty when none was.
	Bound         string          `json:"bound,omitempty"`
	BoundSchedule []scenario.Move `json:"boundSchedule,omitempty"`
	// Replays is how many times the code was run from the start.
	Replays int `json:"replays"`
}

// suffix is the end of an example schedule, shared between the states
// whose examples run through it.
type suffix struct {
	tok  scenario.Move
	next *suffix
}

// end is the empty suffix.
var end = &suffix{}

func (s *suffix) tokens() []scenario.Move {
	var out []scenario.Move
	for ; s != nil && s != end; s = s.next {
		out = append(out, s.tok)
	}
	return out
}

// prepend puts toks in front of s.
func prepend(toks []scenario.Move, s *suffix) *suffix {
	for i := len(toks) - 1; i >= 0; i-- {
		s = &suffix{tok: toks[i], next: s}
	}
	return s
}

// tally counts a subtree's interleavings and keeps its first example of
// each kind.
type tally struct {
	n      []int // by verdict (race.Verdicts order)
	broken []int // by verdict: those that break an invariant
	each   []int // by invariant
	ex     []*suffix
	exBrk  *suffix
	exEach []*suffix
	bound  string
	exBnd  *suffix
}

func newTally(invariants int) *tally {
	nv := len(race.Verdicts)
	return &tally{n: make([]int, nv), broken: make([]int, nv), each: make([]int, invariants),
		ex: make([]*suffix, nv), exEach: make([]*suffix, invariants)}
}

// add counts child's interleavings, reached by the steps toks; examples
// are kept from the first child that has one.
func (t *tally) add(toks []scenario.Move, c *tally) {
	first := func(mine **suffix, theirs *suffix) {
		if *mine == nil && theirs != nil {
			*mine = prepend(toks, theirs)
		}
	}
	for i := range t.n {
		t.n[i] += c.n[i]
		t.broken[i] += c.broken[i]
		first(&t.ex[i], c.ex[i])
	}
	for i := range t.each {
		t.each[i] += c.each[i]
		first(&t.exEach[i], c.exEach[i])
	}
	first(&t.exBrk, c.exBrk)
	if t.bound == "" && c.bound != "" {
		t.bound = c.bound
		t.exBnd = prepend(toks, c.exBnd)
	}
}

// node is a branching state: its enabled tokens, the child each leads to
// (through the forced steps after it), and once every child is counted,
// its tally.
type node struct {
	tokens   []scenario.Move
	children []*node
	edges    [][]scenario.Move
	pending  int
	waiters  []*node
	done     bool
	t        *tally
}

// task explores one edge: replay prefix (its last token is the edge's
// first step), then follow forced steps to the next branching state.
type task struct {
	prefix []scenario.Move
	expect []stepCall
	// offers are the calls every code controller was making at the
	// state the edge leaves, which the replay must be making too.
	offers []stepCall
	parent *node
	index  int
	// from is where the edge starts in prefix.
	from int
}

type explorer struct {
	rc   *Race
	ctx  context.Context
	opts Options
	nInv int
	// cpu bounds the runs using the CPU at once to GOMAXPROCS: more runs
	// than that only wait for each other, and share less of their
	// memories; a run whose code sleeps in a retry helper's backoff lends
	// its token meanwhile (runner.next).
	cpu chan struct{}
	wg  sync.WaitGroup

	mu       sync.Mutex
	workers  int
	cond     *sync.Cond
	memo     map[[sha256.Size]byte]*node
	stack    []task
	busy     int
	root     *node
	rootToks []scenario.Move
	err      error
	stopped  bool
	// flat counts the runs played to their end, for a search stopped
	// before the tally of the root is complete.
	flat    *tally
	played  int
	replays int
}

// Explore runs the code over every interleaving of the race and tallies
// the outcomes. A failure of the code in any run (a panic, a call the
// scheduler cannot take, nondeterminism) stops the search with that
// run's *Error. A cancelled ctx returns the tally so far, Cancelled set.
func (rc *Race) Explore(ctx context.Context) (*Exploration, error) {
	x := &explorer{rc: rc, ctx: ctx, opts: rc.opts, nInv: len(rc.sc.Invariants), memo: map[[sha256.Size]byte]*node{}}
	x.cond = sync.NewCond(&x.mu)
	x.cpu = make(chan struct{}, runtime.GOMAXPROCS(0))
	x.flat = newTally(x.nInv)
	x.stack = []task{{}}
	// As many workers as the CPU can run; more join only when a run's
	// code sleeps (grow), each with memories of its own to fill.
	x.mu.Lock()
	for i := 0; i < min(cap(x.cpu), x.opts.Workers); i++ {
		x.startWorker()
	}
	x.mu.Unlock()
	x.wg.Wait()
	if x.err != nil {
		return nil, x.err
	}
	return x.result(), nil
}

func (x *explorer) result() *Exploration {
	sc := x.rc.sc
	res := &Exploration{Result: explore.Result{Scenario: sc.Name, Tally: map[race.Verdict]int{}, Examples: map[race.Verdict][]scenario.Move{},
		States: len(x.memo), Paths: x.played}, Replays: x.replays}
	t := x.flat
	complete := x.root != nil && x.root.done
	if complete {
		t = x.root.t
	} else if x.ctx.Err() != nil {
		res.Cancelled = true
	} else {
		res.Truncated = true
	}
	prefix := func(s *suffix) []scenario.Move {
		if s == nil {
			return nil
		}
		if !complete {
			return s.tokens()
		}
		return append(append([]scenario.Move(nil), x.rootToks...), s.tokens()...)
	}
	for i, v := range race.Verdicts {
		if t.n[i] > 0 {
			res.Tally[v] = t.n[i]
			res.Schedules += t.n[i]
			res.Examples[v] = prefix(t.ex[i])
		}
	}
	if x.nInv > 0 {
		inv := &explore.InvariantsTally{ByVerdict: map[race.Verdict]int{}, Example: prefix(t.exBrk)}
		for i, v := range race.Verdicts {
			if t.broken[i] > 0 {
				inv.ByVerdict[v] = t.broken[i]
				inv.Broken += t.broken[i]
			}
		}
		for i, in := range sc.Invariants {
			inv.Each = append(inv.Each, explore.InvariantTally{Kind: in.Kind, Namespace: in.InNamespace(), Name: in.Name,
				Selector: in.Selector, Want: in.Is, Why: in.Why, Broken: t.each[i], Example: prefix(t.exEach[i])})
		}
		res.Invariants = inv
	}
	if t.bound != "" {
		res.Bound, res.BoundSchedule = t.bound, prefix(t.exBnd)
	}
	return res
}

// startWorker starts one more worker. Called with x.mu held.
func (x *explorer) startWorker() {
	x.workers++
	x.wg.Add(1)
	go func() {
		defer x.wg.Done()
		x.worker()
	}()
}

// grow is called when a run lends its share of the CPU to its code's
// sleep: another worker may take it, if there is work and room for one.
func (x *explorer) grow() {
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.workers < x.opts.Workers && len(x.stack) > 0 && x.err == nil && !x.stopped {
		x.startWorker()
	}
}

// worker takes tasks until the search is over.
func (x *explorer) worker() {
	root, err := race.New(x.rc.sc)
	if err != nil {
		x.fail(err)
		return
	}
	root.Memoize()
	keys := race.NewStateKeys()
	sets, err := x.rc.takeClients()
	if err != nil {
		x.fail(err)
		return
	}
	defer x.rc.putClients(sets)
	for {
		t, ok := x.next()
		if !ok {
			return
		}
		x.explore(t, root, keys, sets)
		x.mu.Lock()
		x.busy--
		if x.busy == 0 && len(x.stack) == 0 {
			x.cond.Broadcast()
		}
		x.mu.Unlock()
	}
}

// next pops a task, waiting while others may still push some.
func (x *explorer) next() (task, bool) {
	x.mu.Lock()
	defer x.mu.Unlock()
	for {
		if x.stopped || x.err != nil {
			return task{}, false
		}
		if n := len(x.stack); n > 0 {
			t := x.stack[n-1]
			x.stack = x.stack[:n-1]
			x.busy++
			return t, true
		}
		if x.busy == 0 {
			return task{}, false
		}
		x.cond.Wait()
	}
}

func (x *explorer) fail(err error) {
	x.mu.Lock()
	if x.err == nil {
		x.err = err
	}
	x.cond.Broadcast()
	x.mu.Unlock()
}

// halted reports whether the search must stop (error, cancel, limit).
func (x *explorer) halted() bool {
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.err == nil && !x.stopped && x.ctx.Err() != nil {
		x.stopped = true
		x.cond.Broadcast()
	}
	return x.err != nil || x.stopped
}

// explore replays a task's prefix and follows the edge to its end.
func (x *explorer) explore(t task, root *race.World, keys *race.StateKeys, sets map[string]Clients) {
	x.cpu <- struct{}{}
	defer func() { <-x.cpu }()
	w := root.Clone()
	r, err := x.rc.newRunner(x.ctx, w, sets, &share{cpu: x.cpu, lent: x.grow})
	if err != nil {
		x.fail(err)
		return
	}
	defer r.stop()
	r.digests = true
	r.expect = t.expect
	x.mu.Lock()
	x.replays++
	x.mu.Unlock()
	for i, tok := range t.prefix {
		if r.err != nil {
			break
		}
		if i == len(t.prefix)-1 {
			r.checkOffers(t.offers)
			if r.err != nil {
				break
			}
		}
		if err := r.step(tok); err != nil {
			x.fail(err)
			return
		}
	}
	parent, index, from := t.parent, t.index, t.from
	toks := append([]scenario.Move(nil), t.prefix...)
	for {
		if x.halted() {
			return
		}
		if r.err != nil {
			x.fail(r.err)
			return
		}
		// As sim/explore counts them: an interleaving ends when nothing is
		// enabled — watch deliveries to a manual-lag informer after every
		// controller is done are steps too — or the step budget is spent.
		enabled := w.Enabled()
		if r.bound != "" || len(enabled) == 0 || len(w.Taken()) >= w.Scenario().StepBudget() {
			x.leaf(r, parent, index, toks[from:])
			return
		}
		if len(enabled) == 1 {
			if err := r.step(enabled[0]); err != nil {
				x.fail(err)
				return
			}
			toks = append(toks, enabled[0])
			continue
		}
		key := x.key(r, keys)
		x.mu.Lock()
		n, hit := x.memo[key]
		if !hit {
			n = &node{tokens: enabled, children: make([]*node, len(enabled)), edges: make([][]scenario.Move, len(enabled)), pending: len(enabled)}
			x.memo[key] = n
			if x.played+len(x.memo) > x.opts.MaxSchedules {
				x.stopped = true
				x.cond.Broadcast()
			}
		}
		x.attach(parent, index, toks[from:], n)
		if hit {
			x.mu.Unlock()
			return
		}
		// The other children are tasks for whichever run is free; this
		// run goes on down the first. Pushed last-first, so the stack pops
		// them in the world's order (depth-first, as far as one run goes).
		offers := r.offers()
		for i := len(enabled) - 1; i >= 1; i-- {
			prefix := append(append([]scenario.Move(nil), toks...), enabled[i])
			expect := append(append([]stepCall(nil), r.log...), r.pendingCall(enabled[i]))
			x.stack = append(x.stack, task{prefix: prefix, expect: expect, offers: offers, parent: n, index: i, from: len(toks)})
		}
		x.cond.Broadcast()
		x.mu.Unlock()
		parent, index, from = n, 0, len(toks)
		if err := r.step(enabled[0]); err != nil {
			x.fail(err)
			return
		}
		toks = append(toks, enabled[0])
	}
}

// pendingCall is the call the step tok would take (a code controller's
// offered call), for a replay to check.
func (r *runner) pendingCall(m scenario.Move) stepCall {
	if a := r.actors[m.Controller]; a != nil && !m.Deliver {
		return stepCall{actor: a.name, act: a.offered}
	}
	return stepCall{}
}

// offers are the calls the code controllers are making now.
func (r *runner) offers() []stepCall {
	var out []stepCall
	for _, a := range r.order {
		if !r.w.Finished(a.name) {
			out = append(out, stepCall{actor: a.name, act: a.offered})
		}
	}
	return out
}

// checkOffers fails the run unless the code controllers are making the
// calls want says (a replay reaching the state a first run recorded).
func (r *runner) checkOffers(want []stepCall) {
	got := r.offers()
	for i, w := range want {
		if i >= len(got) || got[i].actor != w.actor {
			r.fail(&Error{Kind: ErrNondeterministic, Controller: w.actor, Schedule: append([]scenario.Move(nil), r.w.Taken()...),
				Msg: fmt.Sprintf("controller %s is not deterministic: after the same steps [%s] it finished where it called before (%s)",
					w.actor, joinMoves(r.w.Taken()), describeCall(w.act))})
			return
		}
		if !sameAction(w.act, got[i].act) {
			r.fail(nondeterminism(w.actor, r.w.Taken(), w, got[i].act))
			return
		}
	}
	if len(got) > len(want) {
		g := got[len(want)]
		r.fail(&Error{Kind: ErrNondeterministic, Controller: g.actor, Schedule: append([]scenario.Move(nil), r.w.Taken()...),
			Msg: fmt.Sprintf("controller %s is not deterministic: after the same steps [%s] it calls (%s) where it had finished before",
				g.actor, joinMoves(r.w.Taken()), describeCall(g.act))})
	}
}

// key is the state key of a branching state: the world's, and what each
// code controller has made and been told.
func (x *explorer) key(r *runner, keys *race.StateKeys) [sha256.Size]byte {
	wk := keys.Key(r.w)
	h := sha256.New()
	h.Write(wk[:])
	for _, a := range r.order {
		h.Write(a.digest[:])
	}
	var out [sha256.Size]byte
	h.Sum(out[:0])
	return out
}

// leaf counts a run played to its end.
func (x *explorer) leaf(r *runner, parent *node, index int, toks []scenario.Move) {
	t := newTally(x.nInv)
	v := r.w.Verdict()
	for i, vv := range race.Verdicts {
		if vv == v {
			t.n[i], t.ex[i] = 1, end
			if x.nInv > 0 {
				broken := false
				for j, res := range r.w.Invariants() {
					if !res.Met {
						broken = true
						t.each[j], t.exEach[j] = 1, end
					}
				}
				if broken {
					t.broken[i], t.exBrk = 1, end
				}
			}
		}
	}
	if r.bound != "" {
		t.bound, t.exBnd = r.bound, end
	}
	n := &node{done: true, t: t}
	x.mu.Lock()
	defer x.mu.Unlock()
	x.played++
	if x.played+len(x.memo) > x.opts.MaxSchedules {
		x.stopped = true
		x.cond.Broadcast()
	}
	full := append([]scenario.Move(nil), r.w.Taken()...)
	x.flat.add(nil, prependAll(full, t))
	x.attach(parent, index, toks, n)
}

// prependAll is t with its examples made whole schedules (for a search
// stopped before the root's tally is complete).
func prependAll(full []scenario.Move, t *tally) *tally {
	c := newTally(len(t.each))
	c.add(full, t)
	return c
}

// attach makes n the child of parent at index, reached by toks; it
// counts now if n is done, and when n is done otherwise. Called with
// x.mu held.
func (x *explorer) attach(parent *node, index int, toks []scenario.Move, n *node) {
	if parent == nil {
		x.root, x.rootToks = n, append([]scenario.Move(nil), toks...)
		return
	}
	parent.children[index] = n
	parent.edges[index] = append([]scenario.Move(nil), toks...)
	if n.done {
		x.childDone(parent)
		return
	}
	n.waiters = append(n.waiters, parent)
}

// childDone counts one more finished child of n; the last one finishes n
// and counts it in every state waiting for it.
func (x *explorer) childDone(n *node) {
	n.pending--
	if n.pending > 0 {
		return
	}
	n.t = newTally(x.nInv)
	for i, c := range n.children {
		n.t.add(n.edges[i], c.t)
	}
	n.done = true
	n.children, n.edges = nil, nil
	waiters := n.waiters
	n.waiters = nil
	for _, w := range waiters {
		x.childDone(w)
	}
}
