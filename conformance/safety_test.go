package conformance

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"

	"github.com/conflictlab/conflictlab/cli"
	"github.com/conflictlab/conflictlab/live"
	"github.com/conflictlab/conflictlab/sim/race"
	"github.com/conflictlab/conflictlab/sim/scenario"
)

// churn are resources the API server itself rewrites on its own schedule
// (its identity Leases are renewed every few seconds; Events come and go;
// the aggregator adds and removes an APIService for each CRD's group a
// moment after the CRD comes or goes — the conformance run's CRD, deleted
// just before this test, included): a snapshot cannot compare them, and no
// request of a race touches them.
var churn = map[string]bool{"leases": true, "events": true, "apiservices": true}

// objState is what must not change about an object nobody asked us to
// touch: the same uid, at the same resourceVersion.
type objState struct {
	uid, rv  string
	deleting bool
	labels   map[string]string
}

// clusterAccess is what the safety test reads the cluster with: clients of
// its own, independent of the live package under test.
type clusterAccess struct {
	dyn       dynamic.Interface
	resources []schema.GroupVersionResource
	kc        string
}

func access(t *testing.T) *clusterAccess {
	t.Helper()
	kc := os.Getenv(EnvAPIServer)
	if kc == "" {
		t.Skip(howToRun)
	}
	cfg, err := clientcmd.BuildConfigFromFlags("", kc)
	if err != nil {
		t.Fatal(err)
	}
	cfg.QPS, cfg.Burst = 500, 500
	cfg.WarningHandler = rest.NoWarnings{} // deprecated kinds are listed on purpose
	dc, err := discovery.NewDiscoveryClientForConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	dyn, err := dynamic.NewForConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return &clusterAccess{dyn: dyn, kc: kc, resources: listable(t, dc)}
}

// listable is every resource the server serves that can be listed
// (preferred versions, no subresources), the churning ones aside.
func listable(t *testing.T, dc discovery.DiscoveryInterface) []schema.GroupVersionResource {
	t.Helper()
	lists, err := dc.ServerPreferredResources()
	if err != nil && len(lists) == 0 {
		t.Fatal(err)
	}
	var out []schema.GroupVersionResource
	for _, l := range lists {
		gv, _ := schema.ParseGroupVersion(l.GroupVersion)
		for _, r := range l.APIResources {
			if strings.Contains(r.Name, "/") || churn[r.Name] || !slices.Contains(r.Verbs, "list") {
				continue
			}
			out = append(out, gv.WithResource(r.Name))
		}
	}
	return out
}

// snapshot lists every object of every listable resource.
func (a *clusterAccess) snapshot(t *testing.T) map[string]objState {
	t.Helper()
	a.refresh(t)
	out := map[string]objState{}
	ctx := context.Background()
	for _, gvr := range a.resources {
		l, err := a.dyn.Resource(gvr).List(ctx, metav1.ListOptions{})
		if apierrors.IsNotFound(err) || apierrors.IsMethodNotSupported(err) {
			continue
		}
		if err != nil {
			t.Fatalf("list %s: %v", gvr, err)
		}
		for _, o := range l.Items {
			key := gvr.GroupResource().String() + " " + o.GetNamespace() + "/" + o.GetName()
			out[key] = objState{uid: string(o.GetUID()), rv: o.GetResourceVersion(),
				deleting: o.GetDeletionTimestamp() != nil, labels: o.GetLabels()}
		}
	}
	return out
}

// refresh re-reads the resources (a CRD adds one).
func (a *clusterAccess) refresh(t *testing.T) {
	cfg, err := clientcmd.BuildConfigFromFlags("", a.kc)
	if err != nil {
		t.Fatal(err)
	}
	cfg.WarningHandler = rest.NoWarnings{}
	dc, err := discovery.NewDiscoveryClientForConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	a.resources = listable(t, dc)
}

// unchanged compares two snapshots: every object of before is still there
// at the same uid and resourceVersion, and nothing is new — except a
// namespace a run created that is now being deleted (without a namespace
// controller, as in envtest, it stays Terminating; the objects in it the
// run created are already gone, which the snapshot shows).
func unchanged(before, after map[string]objState) []string {
	var d []string
	for k, b := range before {
		a, ok := after[k]
		switch {
		case !ok:
			d = append(d, "deleted: "+k)
		case a.uid != b.uid:
			d = append(d, fmt.Sprintf("replaced: %s (uid %s → %s)", k, b.uid, a.uid))
		case a.rv != b.rv && !(b.deleting && a.deleting):
			d = append(d, fmt.Sprintf("changed: %s (resourceVersion %s → %s)", k, b.rv, a.rv))
		}
	}
	for k, a := range after {
		if _, ok := before[k]; ok {
			continue
		}
		if strings.HasPrefix(k, "namespaces /conflictlab-") && a.deleting && a.labels[live.RunLabel] != "" {
			continue
		}
		d = append(d, "left behind: "+k)
	}
	sort.Strings(d)
	return d
}

const hostileBase = `
name: %s
objects:
- apiVersion: v1
  kind: ConfigMap
  metadata:
    name: cm1
  data:
    x: "1"
controllers:
- name: a
  target: ConfigMap/cm1
  read: live
  mutations:
  - set: {path: %s, value: %s}
  - remove: metadata.uid # else the server's uid precondition would save the victim
  write: %s
`

func hostile(t *testing.T, name, path, value, write string) *scenario.Scenario {
	t.Helper()
	sc, err := scenario.Parse(name+".yaml", []byte(fmt.Sprintf(hostileBase, name, path, value, write)))
	if err != nil {
		t.Fatal(err)
	}
	return sc
}

const widgetRace = `
name: widget-race
objects:
- apiVersion: oracle.example.com/v1
  kind: Widget
  metadata:
    name: w1
  spec:
    size: 1
controllers:
- name: a
  target: Widget/w1
  read: live
  mutations:
  - set: {path: spec.color, value: blue}
  write: apply
- name: b
  target: Widget/w1
  read: live
  mutations:
  - set: {path: spec.size, value: 2}
  write: update
`

// busy writes again and again, so a run can be interrupted in the middle.
const busy = `
name: busy
objects:
- apiVersion: v1
  kind: ConfigMap
  metadata:
    name: cm1
  data:
    x: "1"
controllers:
- name: a
  target: ConfigMap/cm1
  read: live
  mutations:
  - set: {path: data.y, value: "2"}
  write: update
  reconciles: 200
`

// lifecycleRace creates, deletes and creates again: generated names (two
// children: the caches do not see each other's), a delete with
// preconditions, a name deleted and created again.
const lifecycleRace = `
name: lifecycle
objects:
- apiVersion: v1
  kind: ConfigMap
  metadata: {name: cm1}
controllers:
- name: a
  write: create
  object: {apiVersion: v1, kind: ConfigMap, metadata: {generateName: child-, labels: {app: web}}}
  when: absent
  lag: manual
- name: b
  write: create
  object: {apiVersion: v1, kind: ConfigMap, metadata: {generateName: child-, labels: {app: web}}}
  when: absent
  lag: manual
- name: d
  target: ConfigMap/cm1
  write: delete
  preconditions: [uid, resourceVersion]
- name: c
  write: create
  object: {apiVersion: v1, kind: ConfigMap, metadata: {name: cm1}}
schedule: [a, b, a, b, d, d, c]
`

// createVictim would create an object the team already has.
const createVictim = `
name: create-victim
objects:
- apiVersion: v1
  kind: ConfigMap
  metadata: {name: cm1}
controllers:
- name: a
  write: create
  object: {apiVersion: v1, kind: ConfigMap, metadata: {name: victim}}
`

// TestSafetyOnARealCluster runs hostile scenarios on a real API server and
// proves that a live run touches nothing it did not create and leaves
// nothing of its own behind (issue 9): renames and namespace moves in a
// write's body, reserved namespaces, an object that already has the
// target's name, a Widget CRD that is not the run's, an interrupted run,
// and a killed run found afterwards by `conflictlab cleanup`.
func TestSafetyOnARealCluster(t *testing.T) {
	a := access(t)
	ctx := context.Background()
	state := t.TempDir()
	journal := live.JournalIn(filepath.Join(state, "conflictlab"))
	var log bytes.Buffer
	connect := func(ns string, installCRD bool) *live.Cluster {
		c, err := live.Connect(live.Options{Kubeconfig: a.kc, Namespace: ns, InstallCRD: installCRD, Journal: journal, Log: &log})
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	// The team's namespace, with their objects: a victim a renamed write
	// would land on, and an object with the name the races use.
	nsGVR := schema.GroupVersionResource{Version: "v1", Resource: "namespaces"}
	cmGVR := schema.GroupVersionResource{Version: "v1", Resource: "configmaps"}
	team := fmt.Sprintf("team-prod-%d", time.Now().UnixNano()%100000)
	other := team + "-b"
	for _, ns := range []string{team, other} {
		mustCreate(t, a.dyn.Resource(nsGVR), obj("v1", "Namespace", "", ns, nil))
	}
	mustCreate(t, a.dyn.Resource(cmGVR).Namespace(team), obj("v1", "ConfigMap", team, "victim", map[string]any{"data": map[string]any{"keep": "me"}}))
	mustCreate(t, a.dyn.Resource(cmGVR).Namespace(other), obj("v1", "ConfigMap", other, "cm1", map[string]any{"data": map[string]any{"theirs": "yes"}}))

	phase := func(name string, body func(t *testing.T)) {
		t.Run(name, func(t *testing.T) {
			before := a.snapshot(t)
			t.Logf("%d objects in %d resources before", len(before), len(a.resources))
			body(t)
			if d := unchanged(before, a.snapshot(t)); len(d) > 0 {
				t.Errorf("the cluster changed outside what the runs created, or they left something:\n  %s\nlog:\n%s",
					strings.Join(d, "\n  "), log.String())
			}
		})
	}
	refused := func(t *testing.T, c *live.Cluster, sc *scenario.Scenario, want string) {
		t.Helper()
		_, err := c.Run(ctx, sc, race.Schedule{})
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: err = %v, want one saying %q", sc.Name, err, want)
		}
	}

	phase("renames and moves are refused before they are sent", func(t *testing.T) {
		for _, w := range []string{"update-clear-rv", "update", "merge-patch", "strategic-patch", "json-patch", "apply"} {
			refused(t, connect(team, false), hostile(t, "rename-"+w, "metadata.name", "victim", w), "refusing")
			refused(t, connect("", false), hostile(t, "rename-"+w, "metadata.name", "victim", w), "refusing")
			refused(t, connect(team, false), hostile(t, "move-"+w, "metadata.namespace", other, w), "refusing")
		}
	})
	phase("reserved namespaces are refused", func(t *testing.T) {
		for _, ns := range []string{"default", "kube-system", "kube-public", "kube-node-lease"} {
			refused(t, connect(ns, false), hostile(t, "plain", "data.y", "2", "update"), "is refused")
		}
	})
	phase("an object with the target's name is not touched", func(t *testing.T) {
		refused(t, connect(other, false), hostile(t, "plain", "data.y", "2", "update"), "already exists")
	})
	phase("creates and deletes touch only the run's objects", func(t *testing.T) {
		// The team has a child-… of its own: a run creating child-… names
		// must neither touch it nor take it for one of its children.
		mustCreate(t, a.dyn.Resource(cmGVR).Namespace(team), obj("v1", "ConfigMap", team, "child-theirs", map[string]any{
			"metadata": map[string]any{"labels": map[string]any{"app": "web"}}}))
		defer func() { _ = a.dyn.Resource(cmGVR).Namespace(team).Delete(ctx, "child-theirs", metav1.DeleteOptions{}) }()
		sc, err := scenario.Parse("lifecycle.yaml", []byte(lifecycleRace))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := connect(team, false).Run(ctx, sc, race.Schedule{}); err != nil {
			t.Fatal(err)
		}
		victim, err := scenario.Parse("create-victim.yaml", []byte(createVictim))
		if err != nil {
			t.Fatal(err)
		}
		refused(t, connect(team, false), victim, "already exists")
	})
	phase("a run's own CRD is installed and removed", func(t *testing.T) {
		sc, err := scenario.Parse("widget.yaml", []byte(widgetRace))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := connect("", true).Run(ctx, sc, race.Schedule{}); err != nil {
			t.Fatal(err)
		}
		waitCRDGone(t, a)
	})
	phase("an interrupted run cleans up", func(t *testing.T) {
		// Cancel the run as soon as its first object exists on the server.
		rctx, cancel := context.WithCancel(ctx)
		defer cancel()
		sc, err := scenario.Parse("busy.yaml", []byte(busy))
		if err != nil {
			t.Fatal(err)
		}
		var wg sync.WaitGroup
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer cancel()
			for rctx.Err() == nil {
				l, err := a.dyn.Resource(cmGVR).Namespace(team).List(rctx, metav1.ListOptions{LabelSelector: live.RunLabel})
				if err == nil && len(l.Items) > 0 {
					return
				}
			}
		}()
		_, err = connect(team, false).Run(rctx, sc, race.Schedule{})
		cancel()
		wg.Wait()
		if err == nil || !strings.Contains(err.Error(), "interrupted") {
			t.Errorf("the run was not interrupted (err = %v): the test proves nothing", err)
		}
		if recs, _ := journal.Load(); len(recs) != 0 {
			t.Errorf("the run's record was kept after a complete cleanup: %+v", recs)
		}
	})
	phase("a killed run is found and removed by conflictlab cleanup", func(t *testing.T) {
		// Two runs that never clean up (as if killed): one in a fresh
		// namespace, one in the team's.
		for _, tc := range []struct {
			ns, yaml string
		}{{"", fmt.Sprintf(hostileBase, "killed", "data.y", "2", "update")}, {team, fmt.Sprintf(hostileBase, "killed", "data.y", "2", "apply")}} {
			sc, err := scenario.Parse("killed.yaml", []byte(tc.yaml))
			if err != nil {
				t.Fatal(err)
			}
			c := connect(tc.ns, false)
			s, err := c.Prepare(ctx, sc)
			if err != nil {
				t.Fatal(err)
			}
			b, err := s.NewBackend(ctx, sc)
			if err != nil {
				t.Fatal(err)
			}
			w, err := race.NewWithBackend(sc, b)
			if err != nil {
				t.Fatal(err)
			}
			if err := w.Play(race.Schedule{}); err != nil {
				t.Fatal(err)
			}
			b.Close()
			if s.Footprint().Empty() {
				t.Fatalf("%s: the run recorded nothing", sc.Name)
			}
		}
		recs, _ := journal.Load()
		if len(recs) != 2 {
			t.Fatalf("%d run records, want 2", len(recs))
		}
		env := func(in string) (cli.Env, *bytes.Buffer) {
			var out bytes.Buffer
			return cli.Env{Stdin: strings.NewReader(in), Stdout: &out, Stderr: &out,
				IsTerminal: func() bool { return true },
				Getenv: func(k string) string {
					switch k {
					case "XDG_STATE_HOME":
						return state
					case "KUBECONFIG":
						return a.kc
					}
					return ""
				}}, &out
		}
		e, out := env("n\n")
		if code := cli.Run([]string{"cleanup"}, e); code != 0 || !strings.Contains(out.String(), "nothing deleted") ||
			!strings.Contains(out.String(), "ConfigMap "+team+"/cm1") {
			t.Fatalf("cleanup, answered no: exit %d\n%s", code, out)
		}
		e, out = env("")
		if code := cli.Run([]string{"cleanup", "--yes"}, e); code != 0 {
			t.Fatalf("cleanup --yes: exit %d\n%s", code, out)
		}
		t.Logf("cleanup --yes:\n%s", out)
		e, out = env("")
		if code := cli.Run([]string{"cleanup", "--yes"}, e); code != 0 || !strings.Contains(out.String(), "nothing left") {
			t.Fatalf("second cleanup: exit %d\n%s", code, out)
		}
		if recs, _ := journal.Load(); len(recs) != 0 {
			t.Errorf("records kept after cleanup: %+v", recs)
		}
	})

	// Someone else's CRD, with someone else's Widget: used, never deleted.
	crdUID, err := connect("", true).InstallWidgetCRD(ctx, "someone-else")
	if err != nil || crdUID == "" {
		t.Fatalf("installing the team's CRD: %q %v", crdUID, err)
	}
	wGVR := schema.GroupVersionResource{Group: "oracle.example.com", Version: "v1", Resource: "widgets"}
	mustCreate(t, a.dyn.Resource(wGVR).Namespace(other), obj("oracle.example.com/v1", "Widget", other, "theirs", map[string]any{"spec": map[string]any{"size": int64(3)}}))
	crdGVR := schema.GroupVersionResource{Group: "apiextensions.k8s.io", Version: "v1", Resource: "customresourcedefinitions"}
	crd, err := a.dyn.Resource(crdGVR).Get(ctx, live.WidgetCRDName, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	// Not labelled as a run's: it looks like the team's own.
	unstructured.RemoveNestedField(crd.Object, "metadata", "labels")
	if _, err := a.dyn.Resource(crdGVR).Update(ctx, crd, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	phase("a CRD the run did not create is used and kept", func(t *testing.T) {
		sc, err := scenario.Parse("widget.yaml", []byte(widgetRace))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := connect("", true).Run(ctx, sc, race.Schedule{}); err != nil {
			t.Fatal(err)
		}
		e := cli.Env{Stdin: strings.NewReader(""), Stdout: io.Discard, Stderr: io.Discard, IsTerminal: func() bool { return false },
			Getenv: func(k string) string {
				if k == "XDG_STATE_HOME" {
					return state
				}
				if k == "KUBECONFIG" {
					return a.kc
				}
				return ""
			}}
		if code := cli.Run([]string{"cleanup", "--yes"}, e); code != 0 {
			t.Errorf("cleanup: exit %d", code)
		}
	})
	// The test's own things.
	if err := connect("", false).DeleteWidgetCRD(ctx, crdUID); err != nil {
		t.Error(err)
	}
	for _, ns := range []string{team, other} {
		_ = a.dyn.Resource(nsGVR).Delete(ctx, ns, metav1.DeleteOptions{})
	}
}

func obj(apiVersion, kind, ns, name string, rest map[string]any) *unstructured.Unstructured {
	u := &unstructured.Unstructured{Object: map[string]any{"apiVersion": apiVersion, "kind": kind}}
	for k, v := range rest {
		u.Object[k] = v
	}
	u.SetName(name)
	if ns != "" {
		u.SetNamespace(ns)
	}
	return u
}

func mustCreate(t *testing.T, ri dynamic.ResourceInterface, u *unstructured.Unstructured) {
	t.Helper()
	if _, err := ri.Create(context.Background(), u, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
}

// waitCRDGone waits until a deleted CRD is gone (its Widgets are removed
// first by the server's own finalizer, so it takes a moment).
func waitCRDGone(t *testing.T, a *clusterAccess) {
	t.Helper()
	crdGVR := schema.GroupVersionResource{Group: "apiextensions.k8s.io", Version: "v1", Resource: "customresourcedefinitions"}
	deadline := time.Now().Add(60 * time.Second)
	for {
		_, err := a.dyn.Resource(crdGVR).Get(context.Background(), live.WidgetCRDName, metav1.GetOptions{})
		if apierrors.IsNotFound(err) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the CRD is still there 60s after the run's cleanup: %v", err)
		}
		time.Sleep(100 * time.Millisecond) // polling a server-side deletion, not standing in for sync of ours
	}
}
