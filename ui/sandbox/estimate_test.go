package sandbox

import (
	"context"
	"testing"

	"github.com/conflictlab/conflictlab/sandbox/draft"
	"github.com/conflictlab/conflictlab/sim/explore"
)

// TestEstimateIsNotCappedAtTheLimit: the explorer's limit bounds the
// paths it plays, not the interleavings it counts (a merged state counts
// its whole subtree at once), so the progress bar's estimate for the
// sandbox's largest race, four controllers × four steps (63,063,000
// interleavings), must not stop at the limit: done would pass it and the
// bar sit at 99% for most of the search.
func TestEstimateIsNotCappedAtTheLimit(t *testing.T) {
	sc := benchScenario()
	if err := draft.AddController(sc); err != nil {
		t.Fatal(err)
	}
	first := sc.Controllers[0].Program
	for i := range sc.Controllers {
		p := &sc.Controllers[i].Program
		p.Mutations, p.Write, p.Reconciles, p.Read = first.Mutations, first.Write, first.Reconciles, first.Read
	}
	if len(sc.Controllers) != 4 {
		t.Fatalf("%d controllers", len(sc.Controllers))
	}
	n := estimate(context.Background(), sc, explore.DefaultMaxSchedules)
	if n <= 4*explore.DefaultMaxSchedules || n > 1_000_000_000 {
		t.Fatalf("estimate %d for 63,063,000 interleavings", n)
	}
}
