package explore

import (
	"context"
	"testing"
	"time"

	"github.com/conflictlab/conflictlab/sim/controller"
	"github.com/conflictlab/conflictlab/sim/race"
)

// stopAfter is a context whose Err turns to Canceled on its n-th call:
// it cancels the search at a step chosen by the test, not by the clock.
type stopAfter struct {
	context.Context
	calls, n int
}

func (c *stopAfter) Err() error {
	c.calls++
	if c.calls >= c.n {
		return context.Canceled
	}
	return nil
}

// TestCancelStopsWithinAnInterleaving: the search checks its context
// before every step. A race whose single interleaving is 1,000 steps long
// used to be cancellable only at its end (the Progress callback runs per
// complete schedule): Esc in the sandbox waited for it.
func TestCancelStopsWithinAnInterleaving(t *testing.T) {
	sc := writers(1, controller.Update, controller.DefaultRetry(), controller.FromLive, false)
	sc.MaxSteps = 1000
	sc.Controllers[0].Reconciles = 1000
	full, err := Explore(context.Background(), sc, Options{})
	if err != nil || full.Schedules != 1 || len(full.Examples[firstVerdict(full)]) != 1000 {
		t.Fatalf("the race is not one 1,000-step interleaving: %+v, %v", full, err)
	}
	for _, n := range []int{1, 2, 10, 500} {
		ctx := &stopAfter{Context: context.Background(), n: n}
		r, err := Explore(ctx, sc, Options{})
		if err != nil {
			t.Fatal(err)
		}
		// Cancelled on the n-th check, after n-1 steps, and not one
		// check (or step) more.
		if !r.Cancelled || r.Schedules != 0 || ctx.calls != n {
			t.Fatalf("cancelled at check %d: %d checks, result %+v", n, ctx.calls, r)
		}
	}
}

// TestCancelAnswersQuickly is the wall-clock view of the same, with a real
// cancel from another goroutine, as the sandbox does on Esc: generous
// bounds, a sanity check rather than a measurement.
func TestCancelAnswersQuickly(t *testing.T) {
	sc := writers(3, controller.MergePatch, controller.NoRetry(), controller.FromLister, true)
	for i := range sc.Controllers {
		sc.Controllers[i].Reconciles = 2
	}
	ctx, cancel := context.WithCancel(context.Background())
	started := make(chan struct{})
	done := make(chan *Result)
	go func() {
		r, _ := Explore(ctx, sc, Options{Progress: func(n int) bool {
			if n == 1 {
				close(started)
			}
			return true
		}})
		done <- r
	}()
	<-started
	cancel()
	at := time.Now()
	select {
	case r := <-done:
		if took := time.Since(at); !r.Cancelled || took > 100*time.Millisecond {
			t.Fatalf("cancel answered in %s: %+v", took, r)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the search went on after cancel")
	}
}

func firstVerdict(r *Result) race.Verdict {
	for v := range r.Tally {
		return v
	}
	return ""
}
