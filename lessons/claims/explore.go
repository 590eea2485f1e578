package claims

import (
	"context"
	"fmt"
	"time"

	"github.com/conflictlab/conflictlab/budget"
	"github.com/conflictlab/conflictlab/sim/explore"
	"github.com/conflictlab/conflictlab/sim/scenario"
)

// What one explore claim may take to be proved. A claim is about every
// interleaving: one whose race cannot be explored to the end within this
// is refused, never checked against part of its tally.
const (
	ClaimMaxWork = 200_000
	ClaimTimeout = 10 * time.Second
	ClaimMemory  = 256 << 20
)

// exploreClaim explores sc to the end for a claim, within the claim's
// budget.
func exploreClaim(sc *scenario.Scenario) (*explore.Result, error) {
	ctx, done := budget.Budget{Timeout: ClaimTimeout, MaxMemory: ClaimMemory}.Start(context.Background())
	r, err := explore.Explore(ctx, sc, explore.Options{MaxSchedules: ClaimMaxWork})
	over := budget.Of(ctx)
	done()
	if err != nil {
		return nil, err
	}
	var why string
	switch {
	case over != nil:
		why = over.Error()
	case r.Truncated || r.Cancelled:
		why = fmt.Sprintf("it needed more than %d units of work (schedules played and states kept)", ClaimMaxWork)
	default:
		return r, nil
	}
	return nil, fmt.Errorf("not proved: %s, after %d interleavings; an explore claim covers every interleaving, "+
		"within %d units of work, %s and %s: make the race smaller (fewer controllers, reconciles, retries or steps)",
		why, r.Schedules, ClaimMaxWork, ClaimTimeout, budget.Bytes(ClaimMemory))
}
