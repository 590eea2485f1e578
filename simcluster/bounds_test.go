package simcluster_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/conflictlab/conflictlab/sim/race"
	"github.com/conflictlab/conflictlab/sim/scenario"
	"github.com/conflictlab/conflictlab/simcluster"
)

// Everything the harness cannot schedule or judge is reported, with the
// controller, the schedule so far and where in the code; nothing crashes
// the process, and a run cut short by a bound ends unfinished.

func soloRace(t *testing.T, lag string, code func(simcluster.Clients) reconcile.Reconciler, opts simcluster.Options) *simcluster.Race {
	t.Helper()
	sc := load(t, "solo.yaml")
	if lag == "manual" {
		sc.Lag = scenario.Lag{Manual: true}
	}
	rc, err := simcluster.New(sc, opts, simcluster.Controller{Name: "you", New: code})
	if err != nil {
		t.Fatal(err)
	}
	return rc
}

func codeError(t *testing.T, err error, kind simcluster.ErrorKind, wants ...string) *simcluster.Error {
	t.Helper()
	var e *simcluster.Error
	if !errors.As(err, &e) {
		t.Fatalf("want a *simcluster.Error of kind %s, got %v", kind, err)
	}
	if e.Kind != kind || e.Controller != "you" {
		t.Fatalf("want kind %s of you, got %s of %s: %v", kind, e.Kind, e.Controller, err)
	}
	for _, w := range wants {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("the error lacks %q:\n%v", w, err)
		}
	}
	return e
}

func TestPanicIsReportedWithItsStack(t *testing.T) {
	rc := soloRace(t, "0", func(c simcluster.Clients) reconcile.Reconciler {
		return reconcile.Func(func(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
			var cm corev1.ConfigMap
			if err := c.Client.Get(ctx, req.NamespacedName, &cm); err != nil {
				return reconcile.Result{}, err
			}
			parts := strings.Split(cm.Name, "-")
			_ = parts[2] // out of range: the panic a learner makes
			return reconcile.Result{}, nil
		})
	}, simcluster.Options{})
	_, err := rc.Run(context.Background(), race.Schedule{})
	e := codeError(t, err, simcluster.ErrPanic, "its reconcile panicked: runtime error: index out of range [2] with length 1", "bounds_test.go:")
	if !strings.Contains(e.Stack, "TestPanicIsReportedWithItsStack") || len(e.Schedule) != 1 {
		t.Errorf("stack or schedule missing: %v %q", e.Schedule, e.Stack)
	}
	// Over every interleaving too.
	_, err = rc.Explore(context.Background())
	codeError(t, err, simcluster.ErrPanic, "index out of range")
}

func TestPanicInNewIsReported(t *testing.T) {
	rc := soloRace(t, "0", func(c simcluster.Clients) reconcile.Reconciler { panic("no clients for me") }, simcluster.Options{})
	_, err := rc.Run(context.Background(), race.Schedule{})
	codeError(t, err, simcluster.ErrPanic, "New panicked: no clients for me")
}

// retryForever updates from a stale cache until it works: with a manual
// lag the cache never catches up, so it never does.
func retryForever(c simcluster.Clients) reconcile.Reconciler {
	return reconcile.Func(func(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
		for {
			var cm corev1.ConfigMap
			if err := c.Client.Get(ctx, req.NamespacedName, &cm); err != nil {
				return reconcile.Result{}, err
			}
			cm.Data["you"] = "1"
			if err := c.Client.Update(ctx, &cm); !apierrors.IsConflict(err) {
				return reconcile.Result{}, err
			}
		}
	})
}

func TestEndlessReconcileIsCutShort(t *testing.T) {
	rc := soloRace(t, "manual", retryForever, simcluster.Options{MaxCallsPerReconcile: 20})
	run, err := rc.Run(context.Background(), race.Schedule{Moves: scenario.MustMoves("b", "b")})
	if err != nil {
		t.Fatal(err)
	}
	if run.Outcome.Verdict != race.VerdictUnfinished || !strings.Contains(run.Bound, "one reconcile made 20 calls without returning") ||
		!strings.Contains(run.Bound, "bounds_test.go:") {
		t.Fatalf("verdict %s, bound %q", run.Outcome.Verdict, run.Bound)
	}
	x, err := rc.Explore(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if x.Tally[race.VerdictUnfinished] == 0 || x.Bound == "" || len(x.BoundSchedule) == 0 {
		t.Fatalf("tally %v, bound %q %v", x.Tally, x.Bound, x.BoundSchedule)
	}
	var rec recorder
	simcluster.Prove(&rec, rc.Scenario(), simcluster.Options{MaxCallsPerReconcile: 20}, simcluster.Controller{Name: "you", New: retryForever})
	if len(rec.errors) != 1 || !strings.Contains(rec.errors[0], "unfinished") || !strings.Contains(rec.errors[0], "cut short: controller you: one reconcile made 20 calls") {
		t.Fatalf("Prove said %q", rec.errors)
	}
}

func TestTooManyRequestsIsCutShort(t *testing.T) {
	rc := soloRace(t, "manual", retryForever, simcluster.Options{MaxRequests: 7})
	run, err := rc.Run(context.Background(), race.Schedule{Moves: scenario.MustMoves("b", "b")})
	if err != nil {
		t.Fatal(err)
	}
	if run.Outcome.Verdict != race.VerdictUnfinished || !strings.Contains(run.Bound, "controller you sent more than 7 requests") {
		t.Fatalf("verdict %s, bound %q", run.Outcome.Verdict, run.Bound)
	}
}

func TestReconcileThatNeverCallsAgainTimesOut(t *testing.T) {
	release := make(chan struct{})
	defer close(release)
	rc := soloRace(t, "0", func(c simcluster.Clients) reconcile.Reconciler {
		return reconcile.Func(func(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
			var cm corev1.ConfigMap
			_ = c.Client.Get(ctx, req.NamespacedName, &cm)
			<-release // waits for something that never comes (in the run)
			return reconcile.Result{}, c.Client.Update(ctx, &cm)
		})
	}, simcluster.Options{CallTimeout: 100 * time.Millisecond})
	start := time.Now()
	_, err := rc.Run(context.Background(), race.Schedule{})
	e := codeError(t, err, simcluster.ErrTimeout, "neither made a call nor returned within 100ms")
	if !strings.Contains(e.Stack, "bounds_test.go") || time.Since(start) > 5*time.Second {
		t.Errorf("took %s; stacks %q", time.Since(start), e.Stack)
	}
}

func TestNondeterminismNamesTheCall(t *testing.T) {
	var runs atomic.Int64
	rc := soloRace(t, "0", func(c simcluster.Clients) reconcile.Reconciler {
		n := runs.Add(1) // state kept outside the reconciler, across runs
		return reconcile.Func(func(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
			var cm corev1.ConfigMap
			if err := c.Client.Get(ctx, req.NamespacedName, &cm); err != nil {
				return reconcile.Result{}, err
			}
			cm.Data["run"] = fmt.Sprint(n)
			return reconcile.Result{}, c.Client.Update(ctx, &cm)
		})
	}, simcluster.Options{Workers: 1})
	_, err := rc.Explore(context.Background())
	codeError(t, err, simcluster.ErrNondeterministic, "controller you is not deterministic", "before: UPDATE cm1 at bounds_test.go:", `the body differs: data.run: "1" → "2"`)
}

func TestCallFromAnotherGoroutineIsRefused(t *testing.T) {
	rc := soloRace(t, "0", func(c simcluster.Clients) reconcile.Reconciler {
		return reconcile.Func(func(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
			done := make(chan error)
			go func() {
				var cm corev1.ConfigMap
				done <- c.Client.Get(context.Background(), req.NamespacedName, &cm)
			}()
			return reconcile.Result{}, <-done
		})
	}, simcluster.Options{CallTimeout: 2 * time.Second})
	_, err := rc.Run(context.Background(), race.Schedule{})
	codeError(t, err, simcluster.ErrForeignGoroutine, "came from a goroutine its reconcile started", "bounds_test.go:")
}

func TestCallOverlappingTheReconcilesOwnIsRefused(t *testing.T) {
	rc := soloRace(t, "0", func(c simcluster.Clients) reconcile.Reconciler {
		return reconcile.Func(func(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
			go func() { // with the reconcile's context, so it looks like the reconcile's call
				var cm corev1.ConfigMap
				_ = c.Client.Get(ctx, req.NamespacedName, &cm)
			}()
			var cm corev1.ConfigMap
			time.Sleep(10 * time.Millisecond)
			return reconcile.Result{}, c.Client.Get(ctx, req.NamespacedName, &cm)
		})
	}, simcluster.Options{CallTimeout: 2 * time.Second})
	_, err := rc.Run(context.Background(), race.Schedule{})
	var e *simcluster.Error
	if !errors.As(err, &e) || (e.Kind != simcluster.ErrForeignGoroutine && e.Kind != simcluster.ErrNondeterministic) {
		t.Fatalf("want a foreign call reported, got %v", err)
	}
}

func TestCancelledExplorationSaysSo(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	x, err := soloRace(t, "manual", retryForever, simcluster.Options{}).Explore(ctx)
	if err == nil && !x.Cancelled {
		t.Fatalf("neither cancelled nor an error: %+v", x)
	}
}
