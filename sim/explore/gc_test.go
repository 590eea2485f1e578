package explore

import (
	"context"
	"runtime/debug"
	"testing"

	"github.com/conflictlab/conflictlab/sim/controller"
)

// gcPercent reads the collector's GOGC without changing it.
func gcPercent() int {
	p := debug.SetGCPercent(-1)
	debug.SetGCPercent(p)
	return p
}

// TestTuneGCOnlyWhenAsked: the collector is let grow the heap only for an
// exploration that asks (the command line's), and the process's setting
// is back afterwards; the tutorial's and a server's explorations leave it
// alone.
func TestTuneGCOnlyWhenAsked(t *testing.T) {
	sc := writers(2, controller.UpdateClearRV, controller.NoRetry(), controller.FromLister, false)
	before := gcPercent()
	for _, tune := range []bool{false, true} {
		during := map[int]bool{}
		_, err := Explore(context.Background(), sc, Options{TuneGC: tune, Progress: func(int) bool {
			during[gcPercent()] = true
			return true
		}})
		if err != nil {
			t.Fatal(err)
		}
		want := before
		if tune {
			want = exploreGCPercent
		}
		if len(during) != 1 || !during[want] {
			t.Errorf("TuneGC %v: GOGC during the search %v, want only %d", tune, during, want)
		}
		if got := gcPercent(); got != before {
			t.Errorf("TuneGC %v: GOGC %d after the search, want the process's %d back", tune, got, before)
		}
	}
}
