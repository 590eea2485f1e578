package report

import (
	"fmt"
	"io"

	"github.com/conflictlab/conflictlab/sim/race"
)

// MarkStale marks a decision written from data that had changed: no field
// is lost, so without it the outcome would read as a clean run.
const MarkStale = "⚠ decided on stale data"

// StaleLine says what one stale decision was: what was written, from
// which read, and the write that had made that read stale. Steps are
// numbered from 1, as the race view's rows are.
func StaleLine(d race.StaleDecision) string {
	changed := fmt.Sprintf("%s had made it %s at step %d (RV %s)", d.ChangedBy, compact(d.Now), d.ChangedAtStep+1, d.ChangedRV)
	if serverMaintained[d.Basis] {
		// Nobody writes these: the server moved it, on that write.
		changed = fmt.Sprintf("the server had made it %s at step %d (RV %s), on %s write", compact(d.Now), d.ChangedAtStep+1, d.ChangedRV, Possessive(d.ChangedBy))
	}
	return fmt.Sprintf("%s — %s write at step %d (%s) was decided from %s = %s in the copy %s read at RV %s; %s",
		MarkStale, Possessive(d.Actor), d.WriteStep+1, d.Decided, d.Basis, compact(d.Read), Pronoun(d.Actor), d.ReadRV, changed)
}

// serverMaintained are the fields a write never sets itself: the server
// sets them as a consequence of it.
var serverMaintained = map[string]bool{
	"metadata.generation": true, "metadata.resourceVersion": true, "metadata.uid": true,
	"metadata.deletionTimestamp": true, "metadata.deletionGracePeriodSeconds": true,
}

func writeStale(w io.Writer, o *race.Outcome) {
	for _, d := range o.Stale {
		fmt.Fprintf(w, "  %s\n", StaleLine(d))
	}
}
