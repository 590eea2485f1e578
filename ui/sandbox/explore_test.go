package sandbox

import (
	"context"
	"testing"

	"github.com/conflictlab/conflictlab/sim/explore"
)

// TestEstimateStopsOnCancel: the progress bar's estimate plays 64 random
// races before the search starts; it too stops at the first step after
// Esc, instead of playing them all.
func TestEstimateStopsOnCancel(t *testing.T) {
	sc := benchScenario()
	if n := estimate(context.Background(), sc, explore.DefaultMaxSchedules); n <= 0 {
		t.Fatalf("no estimate: %d", n)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if n := estimate(ctx, sc, explore.DefaultMaxSchedules); n != 0 {
		t.Fatalf("a cancelled estimate went on: %d", n)
	}
}
