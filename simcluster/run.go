package simcluster

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/conflictlab/conflictlab/sim/api"
	"github.com/conflictlab/conflictlab/sim/controller"
	"github.com/conflictlab/conflictlab/sim/race"
	"github.com/conflictlab/conflictlab/sim/scenario"
)

// A run plays the race once: the world (race.World) steps one token at a
// time, and a code controller's step is the call its goroutine is
// blocked in. Between two steps exactly one goroutine runs — the one
// whose call was just answered — until it makes its next call or its
// reconcile returns; the scheduler waits for that before it takes the
// next step. So the code's calls reach the world in the schedule's order
// and nothing else runs meanwhile: the run is a function of the code and
// the schedule.

// evKind is what a reconcile goroutine tells the scheduler.
type evKind int

const (
	evCall        evKind = iota // it is making a call (act)
	evReturn                    // its reconcile returned (res, err)
	evPanic                     // its reconcile panicked (value, stack)
	evForeign                   // a goroutine no reconcile owns made a call
	evWrongClient               // the reconcile called through another controller's clients
)

type event struct {
	actor *codeActor
	kind  evKind
	act   controller.Action
	res   reconcile.Result
	err   error
	site  string
	value any
	stack []byte
	other string
	// inRetry: the call is made inside a retry helper (callSite).
	inRetry bool
}

// codeActor is one code controller in one run.
type codeActor struct {
	name    string
	run     *runner
	conn    *conn
	rec     reconcile.Reconciler
	req     reconcile.Request
	start   chan struct{}
	answers chan answer
	// offered is the call it is blocked in (valid while the world holds
	// it as its offered move).
	offered controller.Action
	// calls counts the calls of the reconcile under way, requests every
	// request of the run.
	calls, requests int
	// inRetry: its waiting call was made inside a retry helper, which
	// sleeps on the wall clock if the answer is a failure.
	inRetry bool
	// answered is the digest of the last HTTP answer the code read, set by
	// its goroutine and folded into digest when it next moves.
	answered [sha256.Size]byte
	// calling is set while one of its calls waits for its answer.
	calling atomic.Bool
	// digest sums what the code has been told so far: its state, for the
	// explorer's state key (the code is deterministic, so what it does
	// next is a function of what it was answered).
	digest [sha256.Size]byte
}

// exchange makes a call: the scheduler offers it to the world, takes it
// when the schedule says so, and hands back the answer. A call made
// after the run ended ends the goroutine.
func (a *codeActor) exchange(act controller.Action, inRetry bool) answer {
	r := a.run
	if !a.calling.CompareAndSwap(false, true) {
		// Another call of this controller is waiting: a goroutine its
		// reconcile started is calling beside it.
		r.report(event{actor: a, kind: evForeign, site: act.Purpose, stack: allStacks()})
		runtime.Goexit()
	}
	defer a.calling.Store(false)
	select {
	case r.events <- event{actor: a, kind: evCall, act: act, inRetry: inRetry}:
	case <-r.quit:
		runtime.Goexit()
	}
	select {
	case ans := <-a.answers:
		return ans
	case <-r.quit:
		runtime.Goexit()
	}
	panic("unreachable")
}

// loop is the controller's worker goroutine: one reconcile each time the
// scheduler starts one.
func (a *codeActor) loop(ctx context.Context) {
	if a.conn.listers.Load() {
		gid := goid()
		reconcilers.Store(gid, a)
		defer reconcilers.Delete(gid)
	}
	r := a.run
	for {
		select {
		case <-a.start:
		case <-r.quit:
			return
		}
		var (
			res      reconcile.Result
			err      error
			finished bool
		)
		func() {
			defer func() {
				if finished {
					return
				}
				// A panic, or runtime.Goexit (recover gives nil: the run is
				// over and the goroutine is on its way out).
				if v := recover(); v != nil {
					r.report(event{actor: a, kind: evPanic, value: v, stack: debug.Stack()})
				}
			}()
			res, err = a.rec.Reconcile(context.WithValue(ctx, actorKey{}, a), a.req)
			finished = true
		}()
		if !finished {
			return
		}
		r.report(event{actor: a, kind: evReturn, res: res, err: err})
	}
}

// runner is one run.
type runner struct {
	race   *Race
	w      *race.World
	actors map[string]*codeActor
	order  []*codeActor
	events chan event
	quit   chan struct{}
	ctx    context.Context
	cancel context.CancelFunc
	// digests: keep each actor's digest (the explorer asks for them).
	digests bool
	// bound says why the run was cut short (a reconcile that does not
	// return, too many requests): its verdict is then unfinished.
	bound string
	err   *Error
	// cpu, when set, is the explorer's share of the CPU: this run holds
	// one of its tokens, and gives it back while its code sleeps.
	cpu *share
	// expect, when set, is the call each step of a replay must offer
	// (explore.go); log is the call of each code step taken.
	expect []stepCall
	log    []stepCall
	once   sync.Once
}

// stepCall is the call a code controller's step carried ("" actor: a
// step of a controller written as data, or a watch delivery).
type stepCall struct {
	actor string
	act   controller.Action
}

// report hands the scheduler an event from a goroutine; once the run is
// over nobody listens, and the goroutine ends.
func (r *runner) report(ev event) {
	select {
	case r.events <- ev:
	case <-r.quit:
		runtime.Goexit()
	}
}

// newRunner starts a run on w, a fresh world of the race's scenario:
// every code controller's goroutine is started and run to its first call,
// in the scenario's order. sets holds each controller's clients; cpu,
// when set, is the explorer's share of the CPU, one token of which the
// caller holds for this run.
func (rc *Race) newRunner(ctx context.Context, w *race.World, sets map[string]Clients, cpu *share) (*runner, error) {
	r := &runner{race: rc, w: w, actors: map[string]*codeActor{}, events: make(chan event), quit: make(chan struct{}), cpu: cpu}
	r.ctx, r.cancel = context.WithCancel(ctx)
	for _, name := range rc.code {
		set := sets[name]
		target := w.Scenario().Controllers[indexOf(w, name)].Target
		a := &codeActor{name: name, run: r, conn: set.conn, start: make(chan struct{}), answers: make(chan answer),
			req: reconcile.Request{NamespacedName: types.NamespacedName{Namespace: target.Namespace, Name: target.Name}}}
		if err := r.build(a, set); err != nil {
			r.stop()
			return nil, err
		}
		set.conn.bind(a)
		r.actors[name] = a
		r.order = append(r.order, a)
	}
	for _, a := range r.order {
		go a.loop(r.ctx)
		a.start <- struct{}{}
		r.await(a, false)
		if r.err != nil || r.bound != "" {
			break
		}
	}
	return r, nil
}

// build makes the actor's reconciler; a panic in the code's constructor
// is the code's failure, reported like one in its reconcile.
func (r *runner) build(a *codeActor, set Clients) (err error) {
	defer func() {
		if v := recover(); v != nil {
			err = &Error{Kind: ErrPanic, Controller: a.name, Value: fmt.Sprint(v), Stack: string(debug.Stack()),
				Msg: fmt.Sprintf("controller %s: New panicked: %v", a.name, v)}
		}
	}()
	a.rec = r.race.ctrls[a.name].New(set)
	if a.rec == nil {
		return &Error{Kind: ErrPanic, Controller: a.name, Msg: fmt.Sprintf("controller %s: New returned a nil reconciler", a.name)}
	}
	return nil
}

func indexOf(w *race.World, name string) int {
	for i, c := range w.Scenario().Controllers {
		if c.Name == name {
			return i
		}
	}
	return -1
}

// stop ends the run: every goroutine still waiting (in a call, or for
// its next reconcile) ends; one still running ends at its next call.
func (r *runner) stop() {
	r.once.Do(func() {
		close(r.quit)
		r.cancel()
	})
}

// over reports whether the run can take no more steps.
func (r *runner) over() bool {
	return r.err != nil || r.bound != "" || r.w.Done() || len(r.w.Taken()) >= r.w.Scenario().StepBudget()
}

// step takes one token: a world step, and for a code controller the
// answer to its call, after which its goroutine runs to its next call.
func (r *runner) step(m scenario.Move) error {
	var a *codeActor
	if !m.Deliver {
		a = r.actors[m.Controller]
	}
	i := len(r.log)
	if a != nil && i < len(r.expect) {
		if want := r.expect[i]; want.actor != a.name || !sameAction(want.act, a.offered) {
			r.fail(nondeterminism(a.name, r.w.Taken(), want, a.offered))
			return nil
		}
	}
	if err := r.w.Step(m); err != nil {
		return err
	}
	if a == nil {
		r.log = append(r.log, stepCall{})
		return nil
	}
	r.log = append(r.log, stepCall{actor: a.name, act: a.offered})
	resp, _ := r.w.Answer(a.name)
	ans := answer{resp: resp}
	if a.offered.Request.Verb == api.Delete && resp.Err == nil {
		ans.gone = r.w.Object(a.offered.Request.Ref) == nil
	}
	if r.digests && a.offered.Kind == controller.ReadLister {
		// A request's answer is folded in from the bytes the code got
		// (fold); a cache read's is the cached object.
		a.digest = chain(a.digest, 'a', func(d *digestWriter) {
			if resp.Object != nil && resp.Err == nil {
				sum := a.conn.objectDigest(resp.Object)
				d.buf = append(d.buf, sum[:]...)
				return
			}
			d.response(resp)
		})
	}
	a.answers <- ans
	// A retry helper that got a failure sleeps before it calls again:
	// meanwhile another run may have this one's share of the CPU.
	r.await(a, a.inRetry && resp.Err != nil)
	return nil
}

// await waits until the actor's goroutine is blocked in its next call
// (offered to the world), or its controller is finished. Anything else
// it hears ends the run with an error.
func (r *runner) await(a *codeActor, sleeps bool) {
	timeout := r.race.opts.CallTimeout
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	for {
		ev, why := r.next(timer, sleeps)
		sleeps = false
		switch why {
		case timedOut:
			r.fail(&Error{Kind: ErrTimeout, Controller: a.name, Schedule: r.w.Taken(), Stack: string(allStacks()),
				Msg: fmt.Sprintf("controller %s: its reconcile neither made a call nor returned within %s (a loop without API calls? a wait on something that never comes?)", a.name, timeout)})
			return
		case cancelled:
			r.fail(&Error{Kind: ErrCancelled, Controller: a.name, Schedule: r.w.Taken(), Msg: r.ctx.Err().Error()})
			return
		}
		if r.digests && a.answered != ([sha256.Size]byte{}) {
			a.digest = chain(a.digest, 'h', func(d *digestWriter) { d.buf = append(d.buf, a.answered[:]...) })
			a.answered = [sha256.Size]byte{}
		}
		switch {
		case ev.kind == evForeign:
			r.fail(&Error{Kind: ErrForeignGoroutine, Controller: ev.actor.name, Schedule: r.w.Taken(), Call: ev.site, Stack: string(ev.stack),
				Msg: fmt.Sprintf("controller %s: a call at %s came from a goroutine its reconcile started; only the reconcile's own goroutine may call (the scheduler cannot order the others' calls)", ev.actor.name, ev.site)})
			return
		case ev.kind == evWrongClient:
			r.fail(&Error{Kind: ErrForeignGoroutine, Controller: ev.actor.name, Schedule: r.w.Taken(), Call: ev.site,
				Msg: fmt.Sprintf("controller %s: the call at %s went through controller %s's clients; each controller calls through the Clients it was given", ev.actor.name, ev.site, ev.other)})
			return
		case ev.actor != a:
			r.fail(&Error{Kind: ErrInternal, Controller: ev.actor.name, Schedule: r.w.Taken(),
				Msg: fmt.Sprintf("controller %s moved while %s was running", ev.actor.name, a.name)})
			return
		case ev.kind == evPanic:
			r.fail(&Error{Kind: ErrPanic, Controller: a.name, Schedule: r.w.Taken(), Value: fmt.Sprint(ev.value), Stack: string(ev.stack),
				Msg: fmt.Sprintf("controller %s: its reconcile panicked: %v", a.name, ev.value)})
			return
		case ev.kind == evCall:
			a.offered, a.inRetry = ev.act, ev.inRetry
			a.calls++
			if ev.act.Kind == controller.SendRequest {
				a.requests++
			}
			if r.digests {
				a.digest = chain(a.digest, 'c', func(d *digestWriter) { d.action(ev.act) })
			}
			switch max := r.race.opts; {
			case a.calls > max.MaxCallsPerReconcile:
				r.bound = fmt.Sprintf("controller %s: one reconcile made %d calls without returning (the last at %s): a loop that does not end", a.name, max.MaxCallsPerReconcile, ev.act.Purpose)
				return
			case a.requests > max.MaxRequests:
				r.bound = fmt.Sprintf("controller %s sent more than %d requests (the last at %s)", a.name, max.MaxRequests, ev.act.Purpose)
				return
			}
			if err := r.w.Offer(a.name, ev.act); err != nil {
				r.fail(&Error{Kind: ErrInternal, Controller: a.name, Schedule: r.w.Taken(), Msg: err.Error()})
			}
			return
		case ev.kind == evReturn:
			a.calls = 0
			//lint:ignore SA1019 code that still sets Result.Requeue is requeued as controller-runtime requeues it
			ret := controller.Returned{Err: ev.err, Requeue: ev.res.Requeue, RequeueAfter: ev.res.RequeueAfter}
			if r.digests {
				a.digest = chain(a.digest, 'r', func(d *digestWriter) {
					d.str(fmt.Sprint(ev.err))
					d.str(fmt.Sprint(ev.res))
				})
			}
			if err := r.w.Return(a.name, ret); err != nil {
				r.fail(&Error{Kind: ErrInternal, Controller: a.name, Schedule: r.w.Taken(), Msg: err.Error()})
				return
			}
			if r.w.Finished(a.name) {
				return
			}
			// The workqueue hands it the item again: the next reconcile runs
			// now, up to its first call (a requeue's delay is virtual time,
			// which its first step waits out).
			if !timer.Stop() {
				<-timer.C
			}
			timer.Reset(timeout)
			a.start <- struct{}{}
		}
	}
}

// share is an exploration's CPU: a token for each run that may use it at
// once, and what to do when a run lends its token.
type share struct {
	cpu  chan struct{}
	lent func()
}

const (
	gotEvent = iota
	timedOut
	cancelled
)

// next waits for a goroutine's next event, timer bounding the wait. A run
// that shares the CPU with others (cpu) and whose code sleeps gives its
// share back meanwhile, and takes it again before it goes on.
func (r *runner) next(timer *time.Timer, sleeps bool) (event, int) {
	if r.cpu != nil && sleeps {
		<-r.cpu.cpu
		r.cpu.lent()
		defer func() { r.cpu.cpu <- struct{}{} }()
	}
	select {
	case ev := <-r.events:
		return ev, gotEvent
	case <-timer.C:
		return event{}, timedOut
	case <-r.ctx.Done():
		return event{}, cancelled
	}
}

func (r *runner) fail(err *Error) {
	if r.err == nil {
		if err.Schedule != nil {
			err.Schedule = append([]scenario.Move(nil), err.Schedule...)
		}
		r.err = err
	}
}

// sameAction compares two calls as the code made them.
func sameAction(a, b controller.Action) bool {
	return a.Kind == b.Kind && a.Purpose == b.Purpose && a.Request.Verb == b.Request.Verb && a.Request.Ref == b.Request.Ref &&
		a.Request.Subresource == b.Request.Subresource && a.Request.PatchType == b.Request.PatchType &&
		string(a.Request.Body) == string(b.Request.Body) && a.Request.FieldManager == b.Request.FieldManager &&
		a.Request.Force == b.Request.Force && sameLabels(a.Selector, b.Selector)
}

func sameLabels(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

// describeCall is a call as a report names it: "PATCH merge cm1 at
// reconcile.go:42 {"metadata":…}".
func describeCall(a controller.Action) string {
	line := a.Request.Describe()
	if a.Kind == controller.ReadLister {
		line = "cache " + line
	}
	if a.Purpose != "" {
		line += " at " + a.Purpose
	}
	if len(a.Request.Body) > 0 {
		body := string(a.Request.Body)
		if len(body) > 300 {
			body = body[:300] + "…"
		}
		line += " " + body
	}
	return line
}

func nondeterminism(name string, taken []scenario.Move, want stepCall, got controller.Action) *Error {
	prefix := joinMoves(taken)
	return &Error{Kind: ErrNondeterministic, Controller: name, Schedule: taken, Call: got.Purpose,
		Msg: fmt.Sprintf("controller %s is not deterministic: after the same steps [%s] it made another call than before\n  before: %s\n  now:    %s\n  %s\n"+
			"(something the clients do not see changed what it sends: time.Now(), randomness, map order, state kept between runs or shared between controllers)",
			name, prefix, describeCall(want.act), describeCall(got), callDifference(want.act, got))}
}

// callDifference says where two calls differ: the fields of their
// bodies, or the first bytes that differ.
func callDifference(a, b controller.Action) string {
	switch {
	case a.Purpose != b.Purpose:
		return fmt.Sprintf("made at %s, then at %s", a.Purpose, b.Purpose)
	case a.Request.Describe() != b.Request.Describe() || a.Kind != b.Kind:
		return "another request"
	}
	var ma, mb map[string]any
	if json.Unmarshal(a.Request.Body, &ma) == nil && json.Unmarshal(b.Request.Body, &mb) == nil {
		var parts []string
		for _, c := range race.Diff(ma, mb) {
			parts = append(parts, fmt.Sprintf("%s: %s → %s", c.Path, compactJSON(c.Old), compactJSON(c.New)))
		}
		if len(parts) > 0 {
			return "the body differs: " + strings.Join(parts, "; ")
		}
	}
	x, y := string(a.Request.Body), string(b.Request.Body)
	i := 0
	for i < len(x) && i < len(y) && x[i] == y[i] {
		i++
	}
	from := max(0, i-40)
	return fmt.Sprintf("the body differs at byte %d: …%s… then …%s…", i, x[from:min(len(x), i+40)], y[from:min(len(y), i+40)])
}

func compactJSON(v any) string {
	if v == nil {
		return "(none)"
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// playOut takes the schedule's steps, then completes the run: round-robin
// among the controllers still running, or at random from a seed (as
// race.World.Play does).
func (r *runner) playOut(sched race.Schedule) error {
	if sched.Moves == nil && sched.Seed == nil {
		sched.Moves, sched.Seed = r.w.Scenario().Schedule, r.w.Scenario().Seed
	}
	for i, m := range sched.Moves {
		if r.over() {
			return nil
		}
		if err := r.step(m); err != nil {
			return fmt.Errorf("step %d: %w", i+1, err)
		}
	}
	var rng *rand.Rand
	if sched.Seed != nil && sched.Moves == nil {
		rng = rand.New(rand.NewPCG(*sched.Seed, 0x636f6e666c696374))
	}
	for !r.over() {
		var m scenario.Move
		if rng != nil {
			en := r.w.Enabled()
			m = en[rng.IntN(len(en))]
		} else {
			m = r.nextRoundRobin()
		}
		if err := r.step(m); err != nil {
			return err
		}
	}
	return nil
}

// nextRoundRobin picks the controller after the one that moved last.
func (r *runner) nextRoundRobin() scenario.Move {
	ctrls := r.w.Scenario().Controllers
	last := -1
	if t := r.w.Taken(); len(t) > 0 && !t[len(t)-1].Deliver {
		last = indexOf(r.w, t[len(t)-1].Controller)
	}
	for k := 1; k <= len(ctrls); k++ {
		c := ctrls[(last+k+len(ctrls))%len(ctrls)]
		if !r.w.Finished(c.Name) {
			return scenario.Step(c.Name)
		}
	}
	return scenario.Move{}
}

// joinMoves writes a schedule as its tokens, comma-separated.
func joinMoves(ms []scenario.Move) string {
	toks := make([]string, len(ms))
	for i, m := range ms {
		toks[i] = m.String()
	}
	return strings.Join(toks, ",")
}
