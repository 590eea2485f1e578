package simcluster_test

import (
	"context"
	"fmt"
	"runtime/debug"
	"strconv"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/util/retry"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/conflictlab/conflictlab/bench/cputime"
	"github.com/conflictlab/conflictlab/sim/controller"
	"github.com/conflictlab/conflictlab/sim/race"
	"github.com/conflictlab/conflictlab/sim/scenario"
	"github.com/conflictlab/conflictlab/simcluster"
)

// sixCalls reads its cache and patches its own key three times: 6 calls,
// none of which conflicts, so C(12,6) = 924 interleavings.
func sixCalls(c simcluster.Clients) reconcile.Reconciler {
	return reconcile.Func(func(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
		for i := 0; i < 3; i++ {
			var cm corev1.ConfigMap
			if err := c.Client.Get(ctx, req.NamespacedName, &cm); err != nil {
				return reconcile.Result{}, err
			}
			base := cm.DeepCopy()
			cm.Data[fmt.Sprintf("%s%d", c.Name, i)] = "x"
			if err := c.Client.Patch(ctx, &cm, client.MergeFrom(base)); err != nil {
				return reconcile.Result{}, err
			}
		}
		return reconcile.Result{}, nil
	})
}

// retryingIncrements increments data.count twice, each time in
// retry.RetryOnConflict around a live GET and an update: 4 calls without
// a conflict, 6 with one (the backoff sleeps 10ms on the wall clock).
func retryingIncrements(c simcluster.Clients) reconcile.Reconciler {
	return reconcile.Func(func(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
		cms := c.Kube.CoreV1().ConfigMaps(req.Namespace)
		for i := 0; i < 2; i++ {
			err := retry.RetryOnConflict(retry.DefaultRetry, func() error {
				cm, err := cms.Get(ctx, req.Name, metav1.GetOptions{})
				if err != nil {
					return err
				}
				n, _ := strconv.Atoi(cm.Data["count"])
				cm.Data["count"] = strconv.Itoa(n + 1)
				_, err = cms.Update(ctx, cm, metav1.UpdateOptions{})
				return err
			})
			if err != nil {
				return reconcile.Result{}, err
			}
		}
		return reconcile.Result{}, nil
	})
}

// counting makes the controllers of two-coders.yaml mean to add one to
// data.count with each of their writes.
var counting = []controller.Mutation{{Op: controller.Increment, Path: controller.MustPath("data.count"), By: 1}}

// twoCoderRace is two-coders.yaml with code playing both; intent, when
// set, is what both mean to change.
func twoCoderRace(tb testing.TB, code func(simcluster.Clients) reconcile.Reconciler, intent []controller.Mutation, opts simcluster.Options) *simcluster.Race {
	tb.Helper()
	sc := load(tb, "two-coders.yaml")
	for i := range sc.Controllers {
		if intent != nil {
			sc.Controllers[i].Mutations = intent // both count
		}
	}
	rc, err := simcluster.New(sc, opts, simcluster.Controller{Name: "a", New: code}, simcluster.Controller{Name: "b", New: code})
	if err != nil {
		tb.Fatal(err)
	}
	return rc
}

func TestSixCallsEachExhaustively(t *testing.T) {
	x, err := twoCoderRace(t, sixCalls, nil, simcluster.Options{}).Explore(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if x.Schedules != 924 || x.Tally[race.VerdictNoLoss] != 924 || x.Truncated {
		t.Fatalf("%d interleavings %v (truncated %v), want 924 no-loss", x.Schedules, x.Tally, x.Truncated)
	}
	t.Logf("%d interleavings from %d states, %d replays", x.Schedules, x.States, x.Replays)
}

func TestRetryingIncrementsNeverLose(t *testing.T) {
	x, err := twoCoderRace(t, retryingIncrements, counting, simcluster.Options{}).Explore(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if x.Tally[race.VerdictLost] != 0 || x.Tally[race.VerdictNoLoss] != x.Schedules || x.Schedules == 0 {
		t.Fatalf("%d interleavings %v", x.Schedules, x.Tally)
	}
	t.Logf("%d interleavings from %d states, %d replays", x.Schedules, x.States, x.Replays)
}

// BenchmarkExploreSixCalls is the exhaustive exploration of two
// controllers of six calls each (924 interleavings).
func BenchmarkExploreSixCalls(b *testing.B) { benchExplore(b, sixCalls, nil, 1, 2, 8) }

// BenchmarkExploreRetryingIncrements: up to six calls each, with
// RetryOnConflict's wall-clock backoff in every conflicting interleaving.
func BenchmarkExploreRetryingIncrements(b *testing.B) {
	benchExplore(b, retryingIncrements, counting, 1, 8, 32)
}

func benchExplore(b *testing.B, code func(simcluster.Clients) reconcile.Reconciler, intent []controller.Mutation, workers ...int) {
	for _, w := range workers {
		b.Run(fmt.Sprintf("workers=%d", w), func(b *testing.B) {
			rc := twoCoderRace(b, code, intent, simcluster.Options{Workers: w})
			// As conflictlab explore runs the explorer: the heap may grow to
			// five times the live data (cli/gc.go).
			defer debug.SetGCPercent(debug.SetGCPercent(400))
			cpu := cputime.Start()
			for i := 0; i < b.N; i++ {
				if _, err := rc.Explore(context.Background()); err != nil {
					b.Fatal(err)
				}
			}
			cpu.Report(b)
		})
	}
}

// BenchmarkRun is one schedule of the six-call race played from the
// start: 12 calls.
func BenchmarkRun(b *testing.B) {
	rc := twoCoderRace(b, sixCalls, nil, simcluster.Options{})
	sched := race.Schedule{Moves: scenario.MustMoves("a", "b", "a", "b", "a", "b", "a", "b", "a", "b", "a", "b")}
	cpu := cputime.Start()
	for i := 0; i < b.N; i++ {
		if _, err := rc.Run(context.Background(), sched); err != nil {
			b.Fatal(err)
		}
	}
	cpu.Report(b)
}

// BenchmarkRunModel is BenchmarkRun's race written as data (the same
// requests through the same simulator, no code, no clients): the
// harness's share of a run is the difference.
func BenchmarkRunModel(b *testing.B) {
	sc := load(b, "two-models.yaml")
	sched := race.Schedule{Moves: scenario.MustMoves("a", "b", "a", "b", "a", "b", "a", "b", "a", "b", "a", "b")}
	cpu := cputime.Start()
	for i := 0; i < b.N; i++ {
		if _, err := race.Run(sc, sched); err != nil {
			b.Fatal(err)
		}
	}
	cpu.Report(b)
}
