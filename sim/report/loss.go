package report

import (
	"fmt"

	"github.com/conflictlab/conflictlab/sim/race"
)

// LossWho says whose change a loss was: a controller's intent, or (owner
// "setup") a value the object had before the race.
func LossWho(l race.Loss) string {
	if l.Owner == "setup" {
		return fmt.Sprintf("%q was there before the race", l.Intended)
	}
	return fmt.Sprintf("%s wanted %q", l.Owner, l.Intended)
}
