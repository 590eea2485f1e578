package simcluster

import (
	"bytes"
	"context"
	"crypto/sha256"
	"net/http"
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	k8sruntime "k8s.io/apimachinery/pkg/runtime"

	"github.com/conflictlab/conflictlab/sim/api"
	"github.com/conflictlab/conflictlab/sim/controller"
)

// conn is one controller's clients' line into the race: their transport
// and their cache reads go through it. A conn outlives a run (building
// the clients costs more than a run), so a call finds the run it belongs
// to from the goroutine that makes it: each reconcile goroutine is
// registered with its run's actor.
type conn struct {
	name   string
	scheme *k8sruntime.Scheme
	mapper meta.RESTMapper

	// listers is set once the code has asked for a lister: its worker
	// goroutines register their ids (caller).
	listers atomic.Bool

	// seen remembers what was worked out once of a cached object, by its
	// address (the world's cached objects are never changed in place, and
	// a remembered address keeps its object alive): its typed form, and
	// its digest. Each is used by one goroutine at a time — the code's,
	// the scheduler's — and a conn serves one run at a time.
	typed   remembered[k8sruntime.Object]
	digests remembered[[sha256.Size]byte]

	mu sync.Mutex
	// cur is the actor these clients serve in the run going on now, to
	// which a call from a goroutine no reconcile owns is reported.
	cur *codeActor
}

func (c *conn) bind(a *codeActor) {
	c.mu.Lock()
	c.cur = a
	c.mu.Unlock()
}

// remembered is a bounded memory keyed by a cached object's address.
type remembered[T any] struct {
	m map[*unstructured.Unstructured]T
}

// maxRemembered bounds each memory; past it, it starts again.
const maxRemembered = 1 << 10

func (r *remembered[T]) get(u *unstructured.Unstructured) (T, bool) {
	v, ok := r.m[u]
	return v, ok
}

func (r *remembered[T]) put(u *unstructured.Unstructured, v T) {
	if r.m == nil || len(r.m) >= maxRemembered {
		r.m = map[*unstructured.Unstructured]T{}
	}
	r.m[u] = v
}

// reconcilers maps a reconcile goroutine's id to its actor.
var reconcilers sync.Map

// goid is the calling goroutine's id, from the first line of its stack
// ("goroutine 18 [running]:").
func goid() uint64 {
	var buf [64]byte
	b := buf[:runtime.Stack(buf[:], false)]
	b = bytes.TrimPrefix(b, []byte("goroutine "))
	if i := bytes.IndexByte(b, ' '); i > 0 {
		b = b[:i]
	}
	id, _ := strconv.ParseUint(string(b), 10, 64)
	return id
}

// actorKey marks the context each reconcile is handed with its actor: a
// call made with it (or a context derived from it) is the actor's
// without asking which goroutine makes it.
type actorKey struct{}

// caller is the actor making a call through c, with ctx (Background for
// a lister's, which has none), from the goroutine cs describes. A call from a goroutine that is no reconcile's
// (one the code started) cannot be scheduled: it is reported to the run
// these clients serve, and the goroutine ends.
func (c *conn) caller(ctx context.Context, cs call) *codeActor {
	site, inReconcile := cs.site, cs.inReconcile
	if inReconcile {
		if a, ok := ctx.Value(actorKey{}).(*codeActor); ok {
			if a.conn != c {
				a.run.report(event{actor: a, kind: evWrongClient, site: site, other: c.name})
				runtime.Goexit()
			}
			return a
		}
	}
	c.mu.Lock()
	a := c.cur
	c.mu.Unlock()
	if inReconcile {
		// No reconcile's context (a lister, context.Background()): which
		// reconcile is it? The worker goroutines of clients with listers
		// are registered by goroutine id (asking the runtime for it costs
		// tens of microseconds, so only they are).
		if c.listers.Load() {
			if v, ok := reconcilers.Load(goid()); ok {
				b := v.(*codeActor)
				if b.conn != c {
					b.run.report(event{actor: b, kind: evWrongClient, site: site, other: c.name})
					runtime.Goexit()
				}
				return b
			}
		}
		if a != nil {
			return a
		}
	}
	if a != nil {
		a.run.report(event{actor: a, kind: evForeign, site: site, stack: allStacks()})
	}
	runtime.Goexit()
	return nil
}

// allStacks is every goroutine's stack, for a report that must show one
// the harness did not start.
func allStacks() []byte {
	buf := make([]byte, 1<<16)
	for {
		n := runtime.Stack(buf, true)
		if n < len(buf) || len(buf) >= 8<<20 {
			return buf[:n]
		}
		buf = make([]byte, 2*len(buf))
	}
}

// transport is the clients' http.RoundTripper: the simulator, in-process.
type transport struct{ c *conn }

func (t transport) RoundTrip(r *http.Request) (*http.Response, error) {
	cs := callSite()
	a := t.c.caller(r.Context(), cs)
	call, err := parseCall(r, r.Header.Get("User-Agent"))
	if err != nil {
		// Refused before it reaches the simulator: nothing changes, so no
		// step is taken.
		return errorResponse(r, err), nil
	}
	act := controller.Action{Kind: controller.SendRequest, Request: call.req, Purpose: cs.site}
	if call.list {
		act.Selector = exactLabels(call.sel)
	}
	ans := a.exchange(act, cs.inRetry)
	resp, body := call.encode(r, ans.resp, ans.gone)
	// What the code is told is these bytes: their digest is its state's
	// next part (the scheduler folds it in when the code moves again).
	a.answered = answerSum(resp.StatusCode, body)
	return resp, nil
}

func answerSum(code int, body []byte) [sha256.Size]byte {
	h := sha256.New()
	h.Write([]byte{byte(code >> 8), byte(code)})
	h.Write(body)
	var out [sha256.Size]byte
	h.Sum(out[:0])
	return out
}

// answer is what the scheduler hands a waiting call.
type answer struct {
	resp api.Response
	// gone: after a DELETE, the object is no longer stored.
	gone bool
}
