package race

import (
	"testing"

	"github.com/conflictlab/conflictlab/sim/apiserver"
	"github.com/conflictlab/conflictlab/sim/controller"
	"github.com/conflictlab/conflictlab/sim/scenario"
)

// BenchmarkRace is one whole two-controller race: setup, informer sync,
// two read-modify-writes with a conflict and a live re-read, outcome.
func BenchmarkRace(b *testing.B) {
	apiserver.DefaultSchema() // built once per process, not per race
	a := prog("a", controller.Update, set("data.a", "1"))
	bb := prog("b", controller.Update, set("data.b", "1"))
	bb.Retry = controller.DefaultRetry()
	sc := twoWriters(configMap(map[string]any{"x": "0"}), a, bb)
	sched := Schedule{Moves: scenario.MustMoves("a", "b", "a", "b", "b", "b")}
	for i := 0; i < b.N; i++ {
		o, err := Run(sc, sched)
		if err != nil {
			b.Fatal(err)
		}
		if o.Verdict != VerdictNoLoss {
			b.Fatal(o.Verdict)
		}
	}
}
