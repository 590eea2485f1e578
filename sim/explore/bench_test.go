package explore

import (
	"context"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/conflictlab/conflictlab/sim/api"
	"github.com/conflictlab/conflictlab/sim/apiserver"
	"github.com/conflictlab/conflictlab/sim/controller"
	"github.com/conflictlab/conflictlab/sim/race"
	"github.com/conflictlab/conflictlab/sim/scenario"
)

// benchScenario: n controllers, each reconciling `loops` times a counter
// increment by merge patch from its Lister: every loop is exactly two
// atomic steps (a Lister read and a patch), whatever the interleaving.
func benchScenario(n, loops int) *race.World {
	sc := writers(n, controller.MergePatch, controller.NoRetry(), controller.FromLister, true)
	for i := range sc.Controllers {
		sc.Controllers[i].Reconciles = loops
	}
	w, err := race.New(sc)
	if err != nil {
		panic(err)
	}
	return w
}

func BenchmarkExplore(b *testing.B) {
	apiserver.DefaultSchema() // once per process, not part of any exploration
	tunedGC(b)
	for _, c := range []struct{ n, loops int }{{2, 2}, {2, 3}, {3, 2}} {
		steps := 2 * c.loops
		for _, memo := range []bool{true, false} {
			name := fmt.Sprintf("%dctl_x_%dsteps/memo", c.n, steps)
			if !memo {
				name = fmt.Sprintf("%dctl_x_%dsteps/nomemo", c.n, steps)
			}
			b.Run(name, func(b *testing.B) {
				sc := benchScenario(c.n, c.loops).Scenario()
				var r *Result
				for i := 0; i < b.N; i++ {
					var err error
					if r, err = Explore(context.Background(), sc, Options{NoMemo: !memo}); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(r.Schedules), "schedules")
				b.ReportMetric(float64(r.Schedules)*float64(b.N)/b.Elapsed().Seconds(), "schedules/s")
			})
		}
	}
}

// BenchmarkMerged measures the explorer (state merging up to symmetry
// with sleep sets, "merged": the name is kept so that benchstat compares
// it with earlier runs) against the same without symmetry
// ("nosymmetry"), state merging alone ("mergeonly") and the plain
// enumeration ("reference") on the same races, and reports how many
// distinct states, played paths and sleeping steps stand for the
// interleavings.
func BenchmarkMerged(b *testing.B) {
	apiserver.DefaultSchema()
	tunedGC(b)
	for _, c := range []struct{ n, loops int }{{2, 1}, {2, 2}, {2, 3}, {3, 1}, {3, 2}, {4, 1}} {
		for _, mode := range []string{"merged", "nosymmetry", "mergeonly", "reference"} {
			b.Run(fmt.Sprintf("%dctl_x_%dsteps/%s", c.n, 2*c.loops, mode), func(b *testing.B) {
				sc := benchScenario(c.n, c.loops).Scenario()
				opts := Options{reference: mode == "reference", noSleep: mode == "mergeonly", noSymmetry: mode == "nosymmetry"}
				var r *Result
				for i := 0; i < b.N; i++ {
					var err error
					if r, err = Explore(context.Background(), sc, opts); err != nil {
						b.Fatal(err)
					}
				}
				reportCounts(b, r)
			})
		}
	}
}

// BenchmarkGrowth explores 2–4 controllers × 2–6 steps once each, for the
// table of states and paths against interleavings; a race still running
// after CONFLICTLAB_GROWTH_TIMEOUT (default 60s) is cancelled and reports
// what it had explored (metric "cancelled" 1).
func BenchmarkGrowth(b *testing.B) {
	apiserver.DefaultSchema()
	tunedGC(b)
	limit := 60 * time.Second
	if s := os.Getenv("CONFLICTLAB_GROWTH_TIMEOUT"); s != "" {
		d, err := time.ParseDuration(s)
		if err != nil {
			b.Fatal(err)
		}
		limit = d
	}
	for _, n := range []int{2, 3, 4} {
		for _, loops := range []int{1, 2, 3} {
			b.Run(fmt.Sprintf("%dctl_x_%dsteps", n, 2*loops), func(b *testing.B) {
				sc := benchScenario(n, loops).Scenario()
				var r *Result
				for i := 0; i < b.N; i++ {
					ctx, cancel := context.WithTimeout(context.Background(), limit)
					var err error
					r, err = Explore(ctx, sc, Options{})
					cancel()
					if err != nil {
						b.Fatal(err)
					}
				}
				reportCounts(b, r)
				cancelled := 0.0
				if r.Cancelled {
					cancelled = 1
				}
				b.ReportMetric(cancelled, "cancelled")
			})
		}
	}
}

func reportCounts(b *testing.B, r *Result) {
	b.ReportMetric(float64(r.Schedules), "schedules")
	b.ReportMetric(float64(r.States), "states")
	b.ReportMetric(float64(r.Paths), "paths")
	b.ReportMetric(float64(r.Slept), "slept")
}

// BenchmarkInvariants measures what checking invariants at every played
// path costs: each race explored as it is ("none") and with an invariant
// ("invariant"), which adds a check of the end of every played path and
// wider tallies; the states and paths are the same.
func BenchmarkInvariants(b *testing.B) {
	apiserver.DefaultSchema()
	tunedGC(b)
	delRecreate, err := scenario.Load("../../lessons/course/scenarios/del-recreate.yaml")
	if err != nil {
		b.Fatal(err)
	}
	races := []struct {
		name string
		sc   *scenario.Scenario
		inv  []scenario.Invariant
	}{
		{"del-recreate", delRecreate, delRecreate.Invariants},
		{"3ctl_x_4steps", benchScenario(3, 2).Scenario(), []scenario.Invariant{{Kind: api.ConfigMap, Name: "cm1", Is: 1, Why: "kept"}}},
	}
	for _, c := range races {
		for _, mode := range []string{"none", "invariant"} {
			b.Run(c.name+"/"+mode, func(b *testing.B) {
				sc := *c.sc
				sc.Invariants = nil
				if mode == "invariant" {
					sc.Invariants = c.inv
				}
				var r *Result
				for i := 0; i < b.N; i++ {
					var err error
					if r, err = Explore(context.Background(), &sc, Options{}); err != nil {
						b.Fatal(err)
					}
				}
				reportCounts(b, r)
			})
		}
	}
}
