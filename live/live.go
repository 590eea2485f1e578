// Package live runs a scenario's controllers against a real Kubernetes API
// server: the same controller programs and the same schedule as the
// simulator (sim/race), with a race.Backend made of client-go's dynamic
// client and a real watch. The World's scheduler and virtual clock still
// decide when each watch event reaches each informer, so a live run is as
// deterministic as the server allows, and prints the same timeline.
//
// Safety rules, enforced here and not by the callers:
//   - the server URL and context are printed before anything is touched;
//   - the run works in a namespace it creates (labelled
//     conflictlab.dev/run=<id>, random suffix), or in one named explicitly;
//   - it refuses the cluster's own namespaces (kube-system, kube-public,
//     kube-node-lease, default);
//   - every request names exactly one of the scenario's objects, in the URL
//     and in the body: a body that renames its object or moves it to
//     another namespace is refused before it is sent (backend.go);
//   - it creates only objects it labels (an apply that creates records the
//     uid instead), refuses to start when an object it would write already
//     exists, and deletes what it created afterwards (unless Keep), each
//     delete carrying the uid the create returned as a precondition;
//   - the Widget CRD is created only with InstallCRD, and removed afterwards
//     only if this run created it and no Widget outside the run is left;
//   - what it creates is journalled (Options.Journal) before and after each
//     create, so `conflictlab cleanup` finds what a killed run left;
//   - every request has a timeout; cancelling the context, or a panic in
//     the race, cleans up.
package live

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/http"
	"sort"
	"strings"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"

	"github.com/conflictlab/conflictlab/sim/api"
	"github.com/conflictlab/conflictlab/sim/race"
	"github.com/conflictlab/conflictlab/sim/scenario"
)

// RunLabel marks everything a live run creates; its value is the run's id.
const RunLabel = "conflictlab.dev/run"

// UserAgent is what the server sees; a write without a fieldManager is
// recorded under its first word, "conflictlab", as the simulator records it.
const UserAgent = "conflictlab"

// Options configure a live run.
type Options struct {
	// Kubeconfig is the file to read; "" follows KUBECONFIG and ~/.kube/config.
	Kubeconfig string
	// Context is the kubeconfig context; "" is the current one.
	Context string
	// Namespace to work in; "" creates a fresh one and deletes it afterwards.
	Namespace string
	// Keep leaves the objects (and the namespace, and the CRD) in place.
	Keep bool
	// InstallCRD allows creating the Widget CRD when a scenario needs it.
	InstallCRD bool
	// Journal is a folder where each run records what it creates (see
	// Footprint); "" keeps no record.
	Journal Journal
	// RequestTimeout bounds every request (default 10s).
	RequestTimeout time.Duration
	// WatchTimeout bounds the wait for the watch event of an own write
	// (default 10s).
	WatchTimeout time.Duration
	// Log receives the safety notices (server, context, namespace, cleanup).
	Log io.Writer
}

func (o *Options) defaults() {
	if o.RequestTimeout == 0 {
		o.RequestTimeout = 10 * time.Second
	}
	if o.WatchTimeout == 0 {
		o.WatchTimeout = 10 * time.Second
	}
	if o.Log == nil {
		o.Log = io.Discard
	}
}

// Cluster is a connection to one API server.
type Cluster struct {
	opts    Options
	Host    string
	Context string
	cfg     *rest.Config
	// dyn carries the race's requests (its transport records status codes
	// and latencies); watch carries the watches.
	dyn   dynamic.Interface
	watch dynamic.Interface
}

// Connect reads the kubeconfig and builds the clients. It sends nothing.
func Connect(opts Options) (*Cluster, error) {
	opts.defaults()
	rules := clientcmd.NewDefaultClientConfigLoadingRules()
	if opts.Kubeconfig != "" {
		rules.ExplicitPath = opts.Kubeconfig
	}
	overrides := &clientcmd.ConfigOverrides{CurrentContext: opts.Context}
	cc := clientcmd.NewNonInteractiveDeferredLoadingClientConfig(rules, overrides)
	raw, err := cc.RawConfig()
	if err != nil {
		return nil, fmt.Errorf("kubeconfig: %w", err)
	}
	cfg, err := cc.ClientConfig()
	if err != nil {
		return nil, fmt.Errorf("kubeconfig: %w", err)
	}
	ctxName := opts.Context
	if ctxName == "" {
		ctxName = raw.CurrentContext
	}
	cfg.UserAgent = UserAgent
	cfg.QPS, cfg.Burst = 1000, 1000 // the race is sequential; never throttle it
	cfg.Timeout = opts.RequestTimeout
	watchCfg := rest.CopyConfig(cfg)
	watchCfg.Timeout = 0 // watches are long requests; their context ends them
	cfg.Wrap(func(rt http.RoundTripper) http.RoundTripper { return &recorder{next: rt} })
	dyn, err := dynamic.NewForConfig(cfg)
	if err != nil {
		return nil, err
	}
	wdyn, err := dynamic.NewForConfig(watchCfg)
	if err != nil {
		return nil, err
	}
	return &Cluster{opts: opts, Host: cfg.Host, Context: ctxName, cfg: cfg, dyn: dyn, watch: wdyn}, nil
}

// recorder notes the status code (and, for DELETE, the body, which the
// dynamic client drops) of each race request, through the request context.
type recorder struct{ next http.RoundTripper }

type callKey struct{}

type call struct {
	code    int
	body    []byte
	started time.Time
	took    time.Duration
}

func (r *recorder) RoundTrip(req *http.Request) (*http.Response, error) {
	c, _ := req.Context().Value(callKey{}).(*call)
	if c != nil {
		c.started = time.Now()
	}
	resp, err := r.next.RoundTrip(req)
	if c == nil || err != nil {
		return resp, err
	}
	c.code = resp.StatusCode
	if req.Method == http.MethodDelete {
		body, rerr := io.ReadAll(resp.Body)
		resp.Body.Close()
		if rerr != nil {
			return nil, rerr
		}
		c.body = body
		resp.Body = io.NopCloser(strings.NewReader(string(body)))
	}
	c.took = time.Since(c.started)
	return resp, nil
}

// GVR returns the resource of a kind.
func GVR(k api.Kind) (schema.GroupVersionResource, bool) {
	info, ok := api.Lookup(k)
	if !ok {
		return schema.GroupVersionResource{}, false
	}
	gv, _ := schema.ParseGroupVersion(info.APIVersion)
	return gv.WithResource(info.Resource.Resource), true
}

var crdGVR = schema.GroupVersionResource{Group: "apiextensions.k8s.io", Version: "v1", Resource: "customresourcedefinitions"}
var nsGVR = schema.GroupVersionResource{Version: "v1", Resource: "namespaces"}

// Session is one run on the cluster: its namespace, and its footprint
// (the objects it created and (maybe) the namespace and CRD).
type Session struct {
	c         *Cluster
	ID        string
	Namespace string
	fp        Footprint
	needs     []api.Kind
	// journalBroken is set once the journal could not be written.
	journalBroken bool
}

// Footprint is a copy of what the run has created so far.
func (s *Session) Footprint() Footprint {
	f := s.fp
	f.Objects = append([]Owned(nil), s.fp.Objects...)
	return f
}

// record writes the footprint to the journal. A journal that cannot be
// written is said once, and the run goes on: the in-memory footprint
// still drives the cleanup.
func (s *Session) record() {
	if err := s.c.opts.Journal.save(&s.fp); err != nil && !s.journalBroken {
		s.journalBroken = true
		fmt.Fprintf(s.c.opts.Log, "live: warning: cannot write the run record (%v); if this run is killed, `conflictlab cleanup` will find its objects only by their label\n", err)
	}
}

// ReservedNamespaces are the cluster's own: a live run never works there.
var ReservedNamespaces = map[string]string{
	"default":         "it is where unqualified objects of everyone land",
	"kube-system":     "it holds the cluster's own components",
	"kube-public":     "it is readable by everyone, including unauthenticated users",
	"kube-node-lease": "it holds the nodes' heartbeat Leases",
}

// CheckNamespace refuses a namespace a live run must not work in.
func CheckNamespace(ns string) error {
	if why, ok := ReservedNamespaces[ns]; ok {
		return fmt.Errorf("--namespace %s is refused: %s; a live run creates and deletes objects, so give it a namespace of its own (or none: it then creates a fresh one and deletes it afterwards)", ns, why)
	}
	return nil
}

// NewID returns a random run id.
func NewID() string {
	b := make([]byte, 3)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

func (c *Cluster) ctx(parent context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(parent, c.opts.RequestTimeout)
}

// kindsOf lists the kinds a scenario touches.
func kindsOf(sc *scenario.Scenario) []api.Kind {
	seen := map[api.Kind]bool{}
	for _, o := range sc.Objects {
		seen[api.Kind(o.GetKind())] = true
	}
	for _, c := range sc.Controllers {
		seen[c.Target.Kind] = true
	}
	out := make([]api.Kind, 0, len(seen))
	for k := range seen {
		out = append(out, k)
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}

// refsOf lists the objects a scenario creates or writes.
func refsOf(sc *scenario.Scenario) []api.Ref {
	seen := map[api.Ref]bool{}
	var out []api.Ref
	add := func(r api.Ref) {
		if !seen[r] {
			seen[r] = true
			out = append(out, r)
		}
	}
	for _, o := range sc.Objects {
		add(api.RefOf(o))
	}
	for _, c := range sc.Controllers {
		if c.Target.Name != "" { // a create with generateName names none (lifecycle.go)
			add(c.Target)
		}
	}
	return out
}

// Prepare checks the scenario can run here, then creates the namespace and
// (when allowed) the CRD. On error nothing is left behind.
func (c *Cluster) Prepare(ctx context.Context, sc *scenario.Scenario) (s *Session, err error) {
	if err := CheckNamespace(c.opts.Namespace); err != nil {
		return nil, err
	}
	s = &Session{c: c, ID: NewID(), needs: kindsOf(sc)}
	s.fp = Footprint{RunID: s.ID, Server: c.Host, Context: c.Context, Started: now()}
	defer func() {
		if err != nil {
			s.Cleanup(context.Background())
			s = nil
		}
	}()
	// Every scenario namespace maps onto the one live namespace: names must
	// not collide there.
	names := map[string]string{}
	for _, r := range refsOf(sc) {
		key := string(r.Kind) + "/" + r.Name
		if ns, dup := names[key]; dup && ns != r.Namespace {
			return s, fmt.Errorf("%s exists in namespaces %s and %s: a live run uses one namespace", key, ns, r.Namespace)
		}
		names[key] = r.Namespace
	}
	for _, k := range s.needs {
		if k == api.Widget {
			if err := s.ensureCRD(ctx); err != nil {
				return s, err
			}
		}
	}
	if c.opts.Namespace == "" {
		name := "conflictlab-" + dnsLabel(sc.Name, 40) + "-" + s.ID
		ns := &unstructured.Unstructured{Object: map[string]any{
			"apiVersion": "v1", "kind": "Namespace",
			"metadata": map[string]any{"name": name, "labels": map[string]any{RunLabel: s.ID}},
		}}
		rctx, cancel := c.ctx(ctx)
		defer cancel()
		s.fp.Namespace = name
		s.record()
		got, err := c.dyn.Resource(nsGVR).Create(rctx, ns, metav1.CreateOptions{FieldManager: UserAgent})
		if err != nil {
			return s, c.explain(err, s.needs, "create namespace "+name)
		}
		s.Namespace, s.fp.NamespaceUID = name, string(got.GetUID())
		s.record()
		fmt.Fprintf(c.opts.Log, "live: created namespace %s (label %s=%s)\n", name, RunLabel, s.ID)
	} else {
		s.Namespace, s.fp.Namespace = c.opts.Namespace, c.opts.Namespace
		rctx, cancel := c.ctx(ctx)
		defer cancel()
		if _, err := c.dyn.Resource(nsGVR).Get(rctx, s.Namespace, metav1.GetOptions{}); err != nil {
			return s, c.explain(err, s.needs, "read namespace "+s.Namespace)
		}
		fmt.Fprintf(c.opts.Log, "live: working in namespace %s (named explicitly)\n", s.Namespace)
	}
	// Touch nothing that is not ours: every object the race writes must not
	// exist yet.
	for _, r := range refsOf(sc) {
		gvr, ok := GVR(r.Kind)
		if !ok {
			return s, fmt.Errorf("live mode does not know kind %s", r.Kind)
		}
		rctx, cancel := c.ctx(ctx)
		_, err := c.dyn.Resource(gvr).Namespace(s.Namespace).Get(rctx, r.Name, metav1.GetOptions{})
		cancel()
		switch {
		case err == nil:
			return s, fmt.Errorf("%s %s already exists in namespace %s and is not this run's: refusing to touch it (use another --namespace, or none to get a fresh one)",
				r.Kind, r.Name, s.Namespace)
		case !apierrors.IsNotFound(err):
			return s, c.explain(err, s.needs, fmt.Sprintf("read %s %s", r.Kind, r.Name))
		}
	}
	return s, nil
}

// dnsLabel makes a string fit a DNS label.
func dnsLabel(s string, max int) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9':
			b.WriteRune(r)
		default:
			b.WriteRune('-')
		}
	}
	out := strings.Trim(b.String(), "-")
	if len(out) > max {
		out = strings.TrimRight(out[:max], "-")
	}
	if out == "" {
		out = "race"
	}
	return out
}

// intend records, before the request is sent, an object the run may be
// about to create; created records it with the uid the server gave it.
func (s *Session) intend(r api.Ref) {
	s.fp.intend(r.Kind, r.Name)
	s.record()
}

func (s *Session) created(r api.Ref, uid string) {
	s.fp.created(r.Kind, r.Name, uid)
	s.record()
}

// notCreated drops an intent whose request created nothing.
func (s *Session) notCreated(r api.Ref) {
	s.fp.forget(r.Kind, r.Name)
	s.record()
}

// Cleanup deletes what the run created, unless Keep. It uses its own
// timeouts, so it works after the run's context was cancelled (Ctrl+C).
// Every delete carries the uid the create returned as a precondition. On
// failure the error says exactly what is left, with the commands that
// remove it; the journal keeps the record for `conflictlab cleanup`.
func (s *Session) Cleanup(parent context.Context) error {
	if s == nil {
		return nil
	}
	c := s.c
	if c.opts.Keep {
		fmt.Fprintf(c.opts.Log, "live: --keep: leaving namespace %s, its objects labelled %s=%s", s.Namespace, RunLabel, s.ID)
		if s.fp.CRDUID != "" {
			fmt.Fprintf(c.opts.Log, " and the Widget CRD")
		}
		fmt.Fprintln(c.opts.Log)
		return nil
	}
	ctx := context.WithoutCancel(parent)
	left, err := c.Remove(ctx, s.fp)
	if left.Empty() {
		if jerr := c.opts.Journal.remove(s.ID); jerr != nil {
			fmt.Fprintf(c.opts.Log, "live: warning: cannot remove the run record: %v\n", jerr)
		}
		return err
	}
	s.fp = left
	s.record()
	return &LeftError{Err: err, Left: left}
}

// LeftError is a cleanup that could not delete everything: Left is what
// remains on the cluster.
type LeftError struct {
	Err  error
	Left Footprint
}

func (e *LeftError) Error() string {
	return fmt.Sprintf("%v\nleft on the cluster (remove with `conflictlab cleanup`, or):\n  %s",
		e.Err, strings.Join(e.Left.Describe(), "\n  "))
}

func (e *LeftError) Unwrap() error { return e.Err }

// Remove deletes what a footprint holds: each object (its run's finalizers
// dropped first, so nothing stays terminating), the namespace, the CRD.
// Each delete carries the recorded uid as a precondition; an object whose
// create was never answered (no uid) is deleted only if it carries this
// run's label. It returns what it could not remove.
func (c *Cluster) Remove(ctx context.Context, f Footprint) (left Footprint, err error) {
	left = Footprint{RunID: f.RunID, Server: f.Server, Context: f.Context, Started: f.Started, Namespace: f.Namespace}
	var errs []error
	for _, o := range f.Objects {
		remove := c.removeObject
		if o.Name == "" {
			remove = c.removeGenerated // lifecycle.go
		}
		if err := remove(ctx, f, o); err != nil {
			errs = append(errs, fmt.Errorf("delete %s %s/%s: %w", o.Kind, f.Namespace, o.Name, err))
			left.Objects = append(left.Objects, o)
		}
	}
	if f.NamespaceUID != "" {
		rctx, cancel := c.ctx(ctx)
		err := c.dyn.Resource(nsGVR).Delete(rctx, f.Namespace, deleteUID(f.NamespaceUID))
		cancel()
		switch {
		case err == nil:
			fmt.Fprintf(c.opts.Log, "live: deleted namespace %s\n", f.Namespace)
		case apierrors.IsNotFound(err):
		case apierrors.IsConflict(err):
			// Someone else's namespace by that name now: not ours to delete.
			fmt.Fprintf(c.opts.Log, "live: namespace %s is no longer the one this run created (uid changed): left alone\n", f.Namespace)
		default:
			errs = append(errs, fmt.Errorf("delete namespace %s: %w", f.Namespace, err))
			left.NamespaceUID = f.NamespaceUID
		}
	} else if n := len(f.Objects) - len(left.Objects); n > 0 {
		fmt.Fprintf(c.opts.Log, "live: deleted %d object(s) from namespace %s\n", n, f.Namespace)
	}
	if f.CRDUID != "" {
		if err := c.removeCRD(ctx, f); err != nil {
			errs = append(errs, fmt.Errorf("delete CRD %s: %w", WidgetCRDName, err))
			left.CRDUID = f.CRDUID
		}
	}
	return left, errors.Join(errs...)
}

func deleteUID(uid string) metav1.DeleteOptions {
	u := types.UID(uid)
	return metav1.DeleteOptions{Preconditions: &metav1.Preconditions{UID: &u}}
}

func (c *Cluster) removeObject(ctx context.Context, f Footprint, o Owned) error {
	gvr, ok := GVR(o.Kind)
	if !ok {
		return fmt.Errorf("unknown kind")
	}
	ri := c.dyn.Resource(gvr).Namespace(f.Namespace)
	rctx, cancel := c.ctx(ctx)
	defer cancel()
	uid := o.UID
	if uid == "" {
		// The create's answer never arrived: the object is this run's only
		// if it carries the run's label.
		got, err := ri.Get(rctx, o.Name, metav1.GetOptions{})
		if apierrors.IsNotFound(err) {
			return nil
		}
		if err != nil {
			return err
		}
		if got.GetLabels()[RunLabel] != f.RunID {
			fmt.Fprintf(c.opts.Log, "live: %s %s/%s does not carry %s=%s: not provably this run's, left alone\n",
				o.Kind, f.Namespace, o.Name, RunLabel, f.RunID)
			return nil
		}
		uid = string(got.GetUID())
	}
	// Finalizers the race left would keep the object (and the namespace)
	// terminating: drop them first. The patch carries the uid, so it can
	// only change the object this run created (another uid is a 409).
	patch := fmt.Sprintf(`{"metadata":{"uid":%q,"finalizers":null}}`, uid)
	_, err := ri.Patch(rctx, o.Name, types.MergePatchType, []byte(patch), metav1.PatchOptions{FieldManager: UserAgent})
	switch {
	case apierrors.IsNotFound(err):
		return nil
	case apierrors.IsConflict(err) || apierrors.IsInvalid(err):
		fmt.Fprintf(c.opts.Log, "live: %s %s/%s is no longer the object this run created (uid changed): left alone\n",
			o.Kind, f.Namespace, o.Name)
		return nil
	case err != nil:
		return err
	}
	err = ri.Delete(rctx, o.Name, deleteUID(uid))
	if apierrors.IsNotFound(err) || apierrors.IsConflict(err) {
		return nil
	}
	return err
}

// Result is a live run's outcome and what it cost.
type Result struct {
	Outcome *race.Outcome
	Session *Session
	// Requests is the number of race requests sent (not counting the reads
	// the timeline needs); Latency lists their round trips.
	Requests int
	Latency  []time.Duration
	// Peeks are the extra GETs that show the server's copy between steps.
	Peeks int
}

// guard runs one part of the race; a panic in it becomes an error, so
// that Run's cleanup runs and the caller reports it like any failure.
func guard[T any](f func() (T, error)) (v T, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("internal error in the race (please report it): %v", r)
		}
	}()
	return f()
}

// Run plays the scenario on the cluster and cleans up.
func (c *Cluster) Run(ctx context.Context, sc *scenario.Scenario, sched race.Schedule) (res *Result, err error) {
	s, err := c.Prepare(ctx, sc)
	if err != nil {
		return nil, err
	}
	defer func() {
		if cerr := s.Cleanup(ctx); cerr != nil {
			err = errors.Join(err, fmt.Errorf("cleanup: %w", cerr))
		}
	}()
	b, err := s.NewBackend(ctx, sc)
	if err != nil {
		if ctx.Err() != nil {
			return nil, fmt.Errorf("interrupted: %w", ctx.Err())
		}
		return nil, err
	}
	defer b.Close()
	w, err := guard(func() (*race.World, error) { return race.NewWithBackend(sc, b) })
	if err != nil {
		if ctx.Err() != nil {
			// Cancelled while the race's objects were being created (a
			// create's answer may never have arrived): the cleanup below
			// still removes what it made, by name and run label.
			return nil, fmt.Errorf("interrupted: %w", ctx.Err())
		}
		if ferr := b.Err(); ferr != nil {
			return nil, ferr
		}
		return nil, err
	}
	_, perr := guard(func() (struct{}, error) { return struct{}{}, w.Play(sched) })
	if ctx.Err() != nil {
		return nil, fmt.Errorf("interrupted: %w", ctx.Err())
	}
	if ferr := b.Err(); ferr != nil {
		return nil, ferr
	}
	if perr != nil {
		return nil, perr
	}
	o, err := guard(func() (*race.Outcome, error) { return w.Outcome(), nil })
	if err != nil {
		return nil, err
	}
	if ferr := b.Err(); ferr != nil {
		return nil, ferr
	}
	return &Result{Outcome: o, Session: s, Requests: b.requests, Latency: b.latency, Peeks: b.peeks}, nil
}
