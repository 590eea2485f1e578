package claims

import (
	"fmt"

	"github.com/conflictlab/conflictlab/lessons"
)

// Quantity names what a claim measures of a race ("the answer to c's
// requests", "data.count at the end"): two questions whose claims measure
// the same quantity of the same race ask the same thing, whatever values
// their options give it. An explore claim measures every interleaving of
// the scenario, so its race is the scenario alone (Interleavings).
func Quantity(c lessons.Claim) string {
	switch {
	case c.Verdict != "":
		return "the verdict"
	case c.Lost != "":
		return "whether " + c.Lost + " is lost"
	case c.Kept != "":
		return "whether " + c.Kept + " is lost"
	case c.Code != nil && c.Code.Step != nil:
		return fmt.Sprintf("the answer at step %d", *c.Code.Step)
	case c.Code != nil && c.Code.By != "":
		return "the answers to " + c.Code.By
	case c.Code != nil:
		return "the answers"
	case c.Final != nil:
		return c.Final.Path + " at the end"
	case c.Message != "":
		return "the answers' messages"
	case c.Requests != nil:
		return c.Requests.Controller + "'s request count"
	case c.Conflicts != nil:
		return c.Conflicts.Controller + "'s conflict count"
	case c.ReconcileMS != nil:
		return c.ReconcileMS.Controller + "'s longest reconcile"
	case c.Status != nil:
		return c.Status.Controller + "'s end state"
	case c.Explore != nil:
		return "how many interleavings end " + string(c.Explore.Verdict)
	case c.Invariant != nil:
		return "the invariants"
	}
	return "nothing"
}

// Interleavings reports whether c is about every interleaving of the
// scenario rather than one schedule.
func Interleavings(c lessons.Claim) bool { return c.Explore != nil }
