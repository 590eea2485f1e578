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

// TestExploreLeavesTheCollectorAlone: the engine never changes the
// process's garbage collector; a caller that wants it tuned (conflictlab
// explore, cli/gc.go) does it around the call.
func TestExploreLeavesTheCollectorAlone(t *testing.T) {
	sc := writers(2, controller.UpdateClearRV, controller.NoRetry(), controller.FromLister, false)
	before := gcPercent()
	during := map[int]bool{}
	_, err := Explore(context.Background(), sc, Options{Progress: func(int) bool {
		during[gcPercent()] = true
		return true
	}})
	if err != nil {
		t.Fatal(err)
	}
	if len(during) != 1 || !during[before] || gcPercent() != before {
		t.Errorf("GOGC during the search %v, after %d; the process's is %d", during, gcPercent(), before)
	}
}

// tunedGC runs a benchmark with the collector as conflictlab explore sets
// it (cli/gc.go), so that its numbers are the command's.
func tunedGC(b *testing.B) {
	percent := debug.SetGCPercent(400)
	limit := debug.SetMemoryLimit(384 << 20)
	b.Cleanup(func() {
		debug.SetGCPercent(percent)
		debug.SetMemoryLimit(limit)
	})
}
