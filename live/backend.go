package live

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"sort"
	"strconv"
	"sync"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	utiljson "k8s.io/apimachinery/pkg/util/json"
	"k8s.io/apimachinery/pkg/watch"
	watchtools "k8s.io/client-go/tools/watch"
	sigsyaml "sigs.k8s.io/yaml"

	"github.com/conflictlab/conflictlab/sim/api"
	"github.com/conflictlab/conflictlab/sim/race"
	"github.com/conflictlab/conflictlab/sim/scenario"
)

// Backend is a race.Backend on a real API server. Requests go out through
// client-go's dynamic client and come back as the server's own answers (a
// failed request's error is the real *apierrors.StatusError). A real watch
// per kind fills a buffer of events; after each write the backend waits
// until the watch has delivered that write's event, so the World (which
// decides, with its virtual clock, when each event reaches each informer)
// sees the same history on every run.
//
// The scenario's namespace (usually "default") is mapped onto the run's
// namespace on the way out and back, so controllers, Listers and the
// timeline see the names the scenario uses. resourceVersions are the real
// server's.
type Backend struct {
	s      *Session
	c      *Cluster
	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup
	// scenarioNS maps KIND/NAME to the namespace the scenario wrote.
	scenarioNS map[string]string
	ours       map[api.Ref]bool // live refs the run may write (under mu: a generated name joins them)
	// generated are the scenario's generateName prefixes, by kind (lifecycle.go).
	generated map[api.Kind][]string

	mu      sync.Mutex
	changed chan struct{} // closed and replaced on every new event
	events  []api.Event
	rv      int64
	objRV   map[api.Ref]int64 // newest event RV per live ref
	fatal   error

	requests int
	latency  []time.Duration
	peeks    int
}

var _ race.Backend = (*Backend)(nil)

// NewBackend starts the watches (one per kind, from the namespace's
// current revision) and returns the backend.
func (s *Session) NewBackend(ctx context.Context, sc *scenario.Scenario) (*Backend, error) {
	wctx, cancel := context.WithCancel(ctx)
	b := &Backend{s: s, c: s.c, ctx: wctx, cancel: cancel, scenarioNS: map[string]string{},
		ours: map[api.Ref]bool{}, changed: make(chan struct{}), objRV: map[api.Ref]int64{},
		generated: generatedPrefixes(sc)}
	for _, r := range refsOf(sc) {
		b.scenarioNS[string(r.Kind)+"/"+r.Name] = r.Namespace
		b.ours[b.liveRef(r)] = true
	}
	for _, k := range s.needs {
		gvr, _ := GVR(k)
		rctx, rcancel := s.c.ctx(ctx)
		list, err := s.c.watch.Resource(gvr).Namespace(s.Namespace).List(rctx, metav1.ListOptions{})
		rcancel()
		if err != nil {
			cancel()
			return nil, s.c.explain(err, s.needs, fmt.Sprintf("list %s", gvr.Resource))
		}
		from := list.GetResourceVersion()
		if n, _ := strconv.ParseInt(from, 10, 64); n > b.rv {
			b.rv = n
		}
		// The watch lives as long as the backend (wctx), not one request.
		w, err := s.c.watch.Resource(gvr).Namespace(s.Namespace).Watch(wctx, metav1.ListOptions{ResourceVersion: from, AllowWatchBookmarks: true})
		if err != nil {
			cancel()
			return nil, s.c.explain(err, s.needs, fmt.Sprintf("watch %s", gvr.Resource))
		}
		b.wg.Add(1)
		go b.watchLoop(k, w, from)
	}
	return b, nil
}

// Close stops the watches.
func (b *Backend) Close() {
	b.cancel()
	b.wg.Wait()
}

// Err is the first failure that makes the run meaningless (a request that
// got no answer from the server, a 403, a watch that lost events).
func (b *Backend) Err() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.fatal
}

func (b *Backend) fail(err error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.fatal == nil {
		b.fatal = err
	}
}

func (b *Backend) liveRef(r api.Ref) api.Ref {
	r.Namespace = b.s.Namespace
	return r
}

// toScenario rewrites an object the server returned into the scenario's
// namespace.
func (b *Backend) toScenario(u *unstructured.Unstructured) *unstructured.Unstructured {
	if u == nil {
		return nil
	}
	if ns, ok := b.scenarioNS[u.GetKind()+"/"+u.GetName()]; ok {
		u.SetNamespace(ns)
	} else if u.GetNamespace() == b.s.Namespace {
		u.SetNamespace(scenario.DefaultNamespace)
	}
	return u
}

// watchLoop takes a kind's events for as long as the backend lives: from
// the watch NewBackend started, and when the server closes it (watches
// time out), from client-go's retry watcher, which resumes at the last
// revision seen and backs off between tries within the backend's context.
func (b *Backend) watchLoop(kind api.Kind, w watch.Interface, from string) {
	defer b.wg.Done()
	gvr, _ := GVR(kind)
	from, ok := b.drain(kind, gvr, w, from)
	if !ok || b.ctx.Err() != nil {
		return
	}
	rw, err := watchtools.NewRetryWatcherWithContext(b.ctx, from, watchFunc(func(ctx context.Context, o metav1.ListOptions) (watch.Interface, error) {
		return b.c.watch.Resource(gvr).Namespace(b.s.Namespace).Watch(ctx, o)
	}))
	if err != nil {
		b.fail(fmt.Errorf("re-watching %s: %w", gvr.Resource, err))
		return
	}
	b.drain(kind, gvr, rw, from)
}

// drain takes w's events until it closes, and returns the revision it
// reached; ok is false when a failure ended the run's watching (events
// lost, or the watch refused).
func (b *Backend) drain(kind api.Kind, gvr schema.GroupVersionResource, w watch.Interface, from string) (string, bool) {
	defer w.Stop()
	for ev := range w.ResultChan() {
		switch ev.Type {
		case watch.Added, watch.Modified, watch.Deleted:
			u, ok := ev.Object.(*unstructured.Unstructured)
			if !ok {
				continue
			}
			from = u.GetResourceVersion()
			b.add(kind, ev.Type, u)
		case watch.Bookmark:
			if u, ok := ev.Object.(*unstructured.Unstructured); ok {
				from = u.GetResourceVersion()
			}
		case watch.Error:
			err := apierrors.FromObject(ev.Object)
			switch {
			case apierrors.IsResourceExpired(err) || apierrors.IsGone(err):
				b.fail(fmt.Errorf("the %s watch expired (410) and events were lost: %w", gvr.Resource, err))
				return from, false
			case apierrors.IsForbidden(err) || apierrors.IsUnauthorized(err):
				// The retry watcher says so, then stops.
				b.fail(fmt.Errorf("re-watching %s: %w", gvr.Resource, err))
				return from, false
			}
		}
	}
	return from, true
}

// watchFunc is a function that starts a watch, as the retry watcher asks.
type watchFunc func(ctx context.Context, o metav1.ListOptions) (watch.Interface, error)

func (f watchFunc) WatchWithContext(ctx context.Context, o metav1.ListOptions) (watch.Interface, error) {
	return f(ctx, o)
}

var eventTypes = map[watch.EventType]api.EventType{
	watch.Added: api.Added, watch.Modified: api.Modified, watch.Deleted: api.Deleted,
}

func (b *Backend) add(kind api.Kind, t watch.EventType, u *unstructured.Unstructured) {
	ref := api.Ref{Kind: kind, Namespace: u.GetNamespace(), Name: u.GetName()}
	if !b.watched(ref, u) { // lifecycle.go
		return
	}
	rv, err := strconv.ParseInt(u.GetResourceVersion(), 10, 64)
	if err != nil {
		return
	}
	ev := api.Event{Type: eventTypes[t], RV: rv, Object: b.toScenario(u.DeepCopy())}
	b.mu.Lock()
	defer b.mu.Unlock()
	i := sort.Search(len(b.events), func(i int) bool { return b.events[i].RV >= rv })
	if i < len(b.events) && b.events[i].RV == rv {
		return // a duplicate after a re-watch
	}
	b.events = append(b.events, api.Event{})
	copy(b.events[i+1:], b.events[i:])
	b.events[i] = ev
	if rv > b.objRV[ref] {
		b.objRV[ref] = rv
	}
	if rv > b.rv {
		b.rv = rv
	}
	close(b.changed)
	b.changed = make(chan struct{})
}

// waitEvent waits until the watch has delivered an event of ref at or
// after rv.
func (b *Backend) waitEvent(ref api.Ref, rv int64) {
	timer := time.NewTimer(b.c.opts.WatchTimeout)
	defer timer.Stop()
	for {
		b.mu.Lock()
		got, ch := b.objRV[ref] >= rv, b.changed
		b.mu.Unlock()
		if got {
			return
		}
		select {
		case <-ch:
		case <-timer.C:
			b.fail(fmt.Errorf("the watch did not deliver the event of %s %s at resourceVersion %d within %s",
				ref.Kind, ref.Name, rv, b.c.opts.WatchTimeout))
			return
		case <-b.ctx.Done():
			b.fail(b.ctx.Err())
			return
		}
	}
}

// Events returns the watch events after from, in order.
func (b *Backend) Events(from int64) ([]api.Event, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	i := sort.Search(len(b.events), func(i int) bool { return b.events[i].RV > from })
	// A copy: the watch goroutine may insert into the buffer meanwhile.
	return append([]api.Event(nil), b.events[i:]...), nil
}

// RV is the newest revision the run has seen (its own writes and its watch).
func (b *Backend) RV() int64 {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.rv
}

// SetTime is the simulator's clock; a real server has its own.
func (b *Backend) SetTime(time.Duration) {}

// Peek reads the server's copy (a GET), for the timeline.
func (b *Backend) Peek(ref api.Ref) *unstructured.Unstructured {
	gvr, ok := GVR(ref.Kind)
	if !ok || b.ctx.Err() != nil || ref.Name == "" {
		return nil
	}
	ctx, cancel := b.c.ctx(b.ctx)
	defer cancel()
	b.peeks++
	u, err := b.c.dyn.Resource(gvr).Namespace(b.s.Namespace).Get(ctx, ref.Name, metav1.GetOptions{})
	if err != nil {
		if !apierrors.IsNotFound(err) {
			b.fail(b.c.explain(err, b.s.needs, fmt.Sprintf("GET %s %s", ref.Kind, ref.Name)))
		}
		return nil
	}
	return b.toScenario(u)
}

// Latency lists the round trips of the race's requests so far.
func (b *Backend) Latency() []time.Duration { return b.latency }

// Do sends one request to the server.
func (b *Backend) Do(req api.Request) api.Response {
	if err := b.Err(); err != nil {
		return api.Response{Code: http.StatusServiceUnavailable, Err: apierrors.NewServiceUnavailable("live run stopped: " + err.Error())}
	}
	gvr, ok := GVR(req.Ref.Kind)
	if !ok {
		err := apierrors.NewNotFound(api.KindInfo{}.Resource, string(req.Ref.Kind))
		return api.Response{Code: http.StatusNotFound, Err: err}
	}
	ref := b.liveRef(req.Ref)
	if !b.mayTouch(req, ref) { // lifecycle.go
		// Never touch an object the run did not set out to create.
		err := fmt.Errorf("live: refusing %s of %s: not an object of this scenario", req.Verb, req.Ref)
		b.fail(err)
		return api.Response{Code: http.StatusForbidden, Err: apierrors.NewForbidden(gvr.GroupResource(), req.Ref.Name, err)}
	}
	if err := checkSubresource(req); err != nil { // identity.go
		return b.refuse(req, gvr, err)
	}
	ri := b.c.dyn.Resource(gvr).Namespace(b.s.Namespace)
	ctx, cancel := b.c.ctx(b.ctx)
	defer cancel()
	cl := &call{}
	ctx = context.WithValue(ctx, callKey{}, cl)
	var (
		obj  *unstructured.Unstructured
		err  error
		resp api.Response
	)
	switch {
	case req.Verb == api.Get:
		obj, err = ri.Get(ctx, req.Ref.Name, metav1.GetOptions{})
	case req.Verb == api.List:
		var list *unstructured.UnstructuredList
		list, err = ri.List(ctx, metav1.ListOptions{})
		if err == nil {
			resp = api.Response{Code: cl.code, ListRV: list.GetResourceVersion()}
			for i := range list.Items {
				it := &list.Items[i]
				if b.isOurs(api.Ref{Kind: req.Ref.Kind, Namespace: it.GetNamespace(), Name: it.GetName()}) {
					resp.Items = append(resp.Items, b.toScenario(it))
				}
			}
		}
	case req.Verb == api.Create, req.Verb == api.Update:
		var u *unstructured.Unstructured
		u, err = b.outgoing(req)
		if err != nil {
			return b.refuse(req, gvr, err)
		}
		switch {
		case req.Verb == api.Create:
			obj, err = b.create(ctx, ri, req, ref, u) // lifecycle.go
		case req.Subresource == "status":
			obj, err = ri.UpdateStatus(ctx, u, metav1.UpdateOptions{FieldManager: req.FieldManager})
		default:
			obj, err = ri.Update(ctx, u, metav1.UpdateOptions{FieldManager: req.FieldManager})
		}
	case req.Verb == api.Patch:
		opts := metav1.PatchOptions{FieldManager: req.FieldManager}
		if req.Force {
			t := true
			opts.Force = &t
		}
		var sub []string
		if req.Subresource != "" {
			sub = []string{req.Subresource}
		}
		body, berr := b.patchBody(req)
		if berr != nil {
			return b.refuse(req, gvr, berr)
		}
		// An apply may create the object (unlabelled: the label would be
		// the applier's field): journal it first, so a killed run's record
		// still names it.
		mayCreate := req.PatchType == api.ApplyPatch && b.Peek(req.Ref) == nil
		if mayCreate {
			b.s.intend(ref)
		}
		obj, err = ri.Patch(ctx, req.Ref.Name, req.PatchType, body, opts, sub...)
		switch {
		case err == nil && cl.code == http.StatusCreated:
			b.s.created(ref, string(obj.GetUID()))
		case mayCreate:
			if _, isAPI := err.(apierrors.APIStatus); err == nil || isAPI {
				b.s.notCreated(ref)
			}
		}
	case req.Verb == api.Delete:
		obj, err = b.delete(ctx, ri, req, ref, cl) // lifecycle.go
	default:
		err = apierrors.NewMethodNotSupported(gvr.GroupResource(), string(req.Verb))
	}
	if req.Verb != api.List || err != nil {
		resp = api.Response{Code: cl.code, Object: b.toScenario(obj), Err: err}
	}
	b.requests++
	b.latency = append(b.latency, cl.took)
	if err != nil {
		st, isAPI := err.(apierrors.APIStatus)
		switch {
		case !isAPI:
			// No answer from the server: the run is meaningless from here.
			b.fail(fmt.Errorf("%s %s: %w", req.Verb, req.Ref, err))
			resp.Code = 0
		case apierrors.IsForbidden(err):
			b.fail(b.c.explain(err, b.s.needs, fmt.Sprintf("%s %s", req.Describe(), req.Ref.Kind)))
			resp.Code = int(st.Status().Code)
		default:
			resp.Code = int(st.Status().Code)
		}
		return resp
	}
	if resp.Code == 0 {
		resp.Code = http.StatusOK
	}
	if req.Verb != api.Get && req.Verb != api.List && obj != nil {
		if ref.Name == "" { // a generated name: the object the create made
			ref.Name = obj.GetName()
		}
		b.afterWrite(ref, obj)
	}
	return resp
}

// afterWrite waits for the watch event of a write that changed the object
// (a no-op write keeps the RV and sends no event).
func (b *Backend) afterWrite(ref api.Ref, obj *unstructured.Unstructured) {
	rv, err := strconv.ParseInt(obj.GetResourceVersion(), 10, 64)
	if err != nil {
		return
	}
	if obj.GetDeletionTimestamp() != nil && len(obj.GetFinalizers()) == 0 {
		// The write removed the last finalizer of an object being
		// deleted: the server answered with the object as it was read,
		// and deleted it at a new revision. Wait for that DELETED event.
		b.waitDeleted(ref, rv) // lifecycle.go
		return
	}
	b.mu.Lock()
	known := b.objRV[ref]
	if rv > b.rv {
		b.rv = rv
	}
	b.mu.Unlock()
	if rv > known {
		b.waitEvent(ref, rv)
	}
}

// refuse answers a request that would name another object than the
// race's target, without sending it: the run stops with a message that
// says why. (The simulator answers the same write with the real server's
// 400; live mode never sends it, because client-go's dynamic client takes
// the URL of a PUT from the body's name.)
func (b *Backend) refuse(req api.Request, gvr schema.GroupVersionResource, err error) api.Response {
	err = fmt.Errorf("live: refusing %s of %s before sending it: %v; a live run only sends requests that name the race's own object, in the URL and in the body",
		req.Describe(), req.Ref, err)
	b.fail(err)
	return api.Response{Code: http.StatusForbidden, Err: apierrors.NewForbidden(gvr.GroupResource(), req.Ref.Name, err)}
}

// checkIdentity verifies that what a body says about its object — kind,
// apiVersion, namespace, name — names exactly the request's target, as the
// scenario wrote it. Absent fields are fine (the server fills them in from
// the URL).
func (b *Backend) checkIdentity(req api.Request, m map[string]any) error {
	info, _ := api.Lookup(req.Ref.Kind)
	if k, ok := m["kind"]; ok && k != string(req.Ref.Kind) {
		return fmt.Errorf("the body's kind is %v, not %s", k, req.Ref.Kind)
	}
	if v, ok := m["apiVersion"]; ok && v != info.APIVersion {
		return fmt.Errorf("the body's apiVersion is %v, not %s", v, info.APIVersion)
	}
	meta, present := m["metadata"]
	if !present || meta == nil {
		if req.Verb == api.Create || req.Verb == api.Update {
			return fmt.Errorf("the body has no metadata.name")
		}
		return nil
	}
	md, ok := meta.(map[string]any)
	if !ok {
		return fmt.Errorf("the body's metadata is not an object")
	}
	if req.Verb == api.Create && req.Ref.Name == "" {
		return b.checkGenerated(req, md) // lifecycle.go
	}
	if n, ok := md["name"]; ok || req.Verb == api.Create || req.Verb == api.Update {
		if n != req.Ref.Name {
			return fmt.Errorf("the body names %s %v, not %s", req.Ref.Kind, printable(n), req.Ref.Name)
		}
	}
	if _, ok := md["generateName"]; ok && req.Verb == api.Create {
		return fmt.Errorf("the body asks for a generated name")
	}
	if ns, ok := md["namespace"]; ok && ns != req.Ref.Namespace {
		return fmt.Errorf("the body puts it in namespace %v, not the scenario's %s", printable(ns), req.Ref.Namespace)
	}
	return nil
}

func printable(v any) string {
	if v == nil {
		return "null"
	}
	return fmt.Sprintf("%q", fmt.Sprint(v))
}

// outgoing decodes a Create/Update body, checks it names the target, puts
// it in the run's namespace and labels it (so a PUT from a copy that lost
// the label keeps it).
func (b *Backend) outgoing(req api.Request) (*unstructured.Unstructured, error) {
	var m map[string]any
	if err := utiljson.Unmarshal(req.Body, &m); err != nil {
		return nil, fmt.Errorf("request body: %v", err)
	}
	if err := b.checkIdentity(req, m); err != nil {
		return nil, err
	}
	u := &unstructured.Unstructured{Object: m}
	u.SetNamespace(b.s.Namespace)
	labels := u.GetLabels()
	if labels == nil {
		labels = map[string]string{}
	}
	labels[RunLabel] = b.s.ID
	u.SetLabels(labels)
	return u, nil
}

// patchBody checks that a patch names only its target, and moves a patch
// that names a namespace (an apply configuration does) into the run's
// namespace. A JSON patch may not touch the object's identity at all.
// Other bodies go out byte for byte.
func (b *Backend) patchBody(req api.Request) ([]byte, error) {
	if req.PatchType == api.JSONPatch {
		if err := checkJSONPatchIdentity(req.Body); err != nil {
			return nil, err
		}
		return req.Body, nil
	}
	var m map[string]any
	if err := sigsyaml.Unmarshal(req.Body, &m); err != nil {
		return req.Body, nil // malformed: the server answers it, harmlessly
	}
	if err := b.checkIdentity(req, m); err != nil {
		return nil, err
	}
	meta, _ := m["metadata"].(map[string]any)
	if _, ok := meta["namespace"]; !ok {
		return req.Body, nil
	}
	meta["namespace"] = b.s.Namespace
	out, err := json.Marshal(m)
	if err != nil {
		return nil, err
	}
	return out, nil
}
