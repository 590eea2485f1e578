package explore

import (
	"context"
	"fmt"
	"testing"

	"github.com/conflictlab/conflictlab/sim/apiserver"
	"github.com/conflictlab/conflictlab/sim/controller"
	"github.com/conflictlab/conflictlab/sim/race"
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

// BenchmarkMerged measures the state-merging search against the plain
// enumeration on the same races, and reports how many distinct states and
// played paths stand for the interleavings.
func BenchmarkMerged(b *testing.B) {
	apiserver.DefaultSchema()
	for _, c := range []struct{ n, loops int }{{2, 1}, {2, 2}, {2, 3}, {3, 1}, {3, 2}, {4, 1}} {
		for _, reference := range []bool{false, true} {
			name := fmt.Sprintf("%dctl_x_%dsteps/merged", c.n, 2*c.loops)
			if reference {
				name = fmt.Sprintf("%dctl_x_%dsteps/reference", c.n, 2*c.loops)
			}
			b.Run(name, func(b *testing.B) {
				sc := benchScenario(c.n, c.loops).Scenario()
				var r *Result
				for i := 0; i < b.N; i++ {
					var err error
					if r, err = Explore(context.Background(), sc, Options{reference: reference}); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(r.Schedules), "schedules")
				b.ReportMetric(float64(r.States), "states")
				b.ReportMetric(float64(r.Paths), "paths")
			})
		}
	}
}
