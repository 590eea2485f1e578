package simcluster_test

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/conflictlab/conflictlab/sim/explore"
	"github.com/conflictlab/conflictlab/simcluster"
	"github.com/conflictlab/conflictlab/simcluster/strategies"
)

// Each strategy a controller can take, written twice: as real code
// against the real clients, and as the scenario format's controller that
// the course already proves things with. Over every interleaving both must
// tally the same — verdict by verdict, with the same first schedule of
// each — or the harness (or the model) does not do what the code does.

// twoControllers is a race on cm1 between "you" (YOU is replaced by its
// settings) and b, a controller written as data.
const twoControllers = `
name: equivalence
lag: LAG
objects:
- apiVersion: v1
  kind: ConfigMap
  metadata: {name: cm1, finalizers: [example.com/setup]}
  data: {count: "0"}
- apiVersion: oracle.example.com/v1
  kind: Widget
  metadata: {name: w1}
  spec: {size: 1}
controllers:
- name: you
YOU
- name: b
B
`

type equivalence struct {
	name string
	// you is the controller as data; code its Go code; mutations what
	// both mean to change (the code's intent).
	you, mutations, b string
	code              func(simcluster.Clients) reconcile.Reconciler
}

var equivalences = []equivalence{
	{
		name:      "controller-runtime: update from the cache, a conflict requeued",
		you:       "read: lister\n  write: update\n  requeue: {max: 3}",
		mutations: "- addFinalizer: example.com/you",
		b:         "  target: ConfigMap/cm1\n  mutations: [{addFinalizer: example.com/b}]\n  write: update\n  retry: default",
		code:      strategies.Finalizer("example.com/you", false),
	},
	{
		name:      "controller-runtime: MergeFrom patch of a finalizer from the cache",
		you:       "read: lister\n  write: merge-patch",
		mutations: "- addFinalizer: example.com/you",
		b:         "  target: ConfigMap/cm1\n  mutations: [{addFinalizer: example.com/b}]\n  write: update\n  retry: default",
		code:      strategies.Finalizer("example.com/you", true),
	},
	{
		name:      "controller-runtime: a blind MergeFrom increment",
		you:       "read: lister\n  write: merge-patch",
		mutations: "- increment: data.count",
		b:         "  target: ConfigMap/cm1\n  mutations: [{increment: data.count}]\n  write: update\n  retry: default",
		code:      strategies.Increment("count", false),
	},
	{
		name:      "controller-runtime: MergeFromWithOptimisticLock increment, requeued",
		you:       "read: lister\n  write: merge-patch\n  withRV: true\n  requeue: {max: 3}",
		mutations: "- increment: data.count",
		b:         "  target: ConfigMap/cm1\n  mutations: [{increment: data.count}]\n  write: update\n  retry: default",
		code:      strategies.Increment("count", true),
	},
	{
		name:      "client-go: RetryOnConflict around a live GET and an update",
		you:       "read: live\n  write: update\n  retry: default",
		mutations: "- set: {path: data.you, value: \"1\"}",
		b:         "  target: ConfigMap/cm1\n  mutations: [{set: {path: data.b, value: \"1\"}}]\n  write: update\n  retry: default",
		code:      strategies.RetryLive("you", "1"),
	},
	{
		name:      "client-go: a lister read, written back without its resourceVersion",
		you:       "read: lister\n  write: update-clear-rv",
		mutations: "- set: {path: data.you, value: \"1\"}",
		b:         "  target: ConfigMap/cm1\n  mutations: [{set: {path: data.b, value: \"1\"}}]\n  write: update\n  retry: default",
		code:      strategies.ListerOverwrite("you", "1"),
	},
	{
		name:      "dynamic client: a live GET of a Widget and an update",
		you:       "read: live\n  write: update",
		mutations: "- set: {path: spec.color, value: blue}",
		b:         "  target: Widget/w1\n  mutations: [{set: {path: spec.size, value: 2}}]\n  write: update\n  retry: default",
		code:      strategies.WidgetColor("blue"),
	},
	{
		name:      "controller-runtime: server-side apply of the fields it owns",
		you:       "read: lister\n  write: apply\n  force: true",
		mutations: "- set: {path: data.owner, value: you}",
		b:         "  target: ConfigMap/cm1\n  mutations: [{set: {path: data.owner, value: b}}]\n  write: update\n  retry: default",
		// The scenario format's apply reads first; so does this one, to
		// take the same steps.
		code: strategies.Apply("owner", "you", "you", true),
	},
}

func scenarioFor(t *testing.T, e equivalence, code bool, lag string) string {
	you := "  target: ConfigMap/cm1\n"
	if strings.Contains(e.mutations, "spec.") {
		you = "  target: Widget/w1\n"
	}
	you += "  mutations:\n" + indent(e.mutations, "  ") + "\n"
	if code {
		you += "  write: code"
		for _, line := range strings.Split(e.you, "\n") {
			if strings.Contains(line, "requeue") {
				you += "\n  " + strings.TrimSpace(line)
			}
		}
	} else {
		you += "  " + e.you
	}
	return strings.NewReplacer("YOU", you, "B", e.b, "LAG", lag).Replace(twoControllers)
}

func indent(s, by string) string {
	return by + strings.ReplaceAll(s, "\n", "\n"+by)
}

func TestCodeTalliesAsItsModel(t *testing.T) {
	for _, lag := range []string{"0", "3ms", "manual"} {
		for _, e := range equivalences {
			t.Run("lag "+lag+"/"+e.name, func(t *testing.T) {
				model, err := explore.Explore(context.Background(), parse(t, scenarioFor(t, e, false, lag)), explore.Options{})
				if err != nil {
					t.Fatal(err)
				}
				rc, err := simcluster.New(parse(t, scenarioFor(t, e, true, lag)), simcluster.Options{},
					simcluster.Controller{Name: "you", New: e.code})
				if err != nil {
					t.Fatal(err)
				}
				got, err := rc.Explore(context.Background())
				if err != nil {
					t.Fatal(err)
				}
				if got.Schedules != model.Schedules || !reflect.DeepEqual(got.Tally, model.Tally) || !reflect.DeepEqual(got.Examples, model.Examples) {
					t.Fatalf("code: %d interleavings %v, first of each %v\nmodel: %d interleavings %v, first of each %v",
						got.Schedules, got.Tally, got.Examples, model.Schedules, model.Tally, model.Examples)
				}
				t.Logf("%d interleavings %v; %d states, %d runs played, %d replays", got.Schedules, got.Tally, got.States, got.Paths, got.Replays)
			})
		}
	}
}
