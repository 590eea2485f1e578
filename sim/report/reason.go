package report

import (
	"fmt"

	"github.com/conflictlab/conflictlab/sim/race"
)

// Learner is the name a lesson gives the learner's own controller; it is
// written in the second person ("your change", "the copy you read").
const Learner = "you"

// Possessive is a controller's name as an owner: "b's", and "your" for the
// Learner.
func Possessive(name string) string {
	if name == Learner {
		return "your"
	}
	return name + "'s"
}

// Pronoun stands for a controller named before it: "it", or "you" for the
// Learner.
func Pronoun(name string) string {
	if name == Learner {
		return "you"
	}
	return "it"
}

// Reason says why a field was lost (or overwritten), from the cause the
// outcome carries.
func Reason(l race.Loss) string {
	c := l.Cause
	if s, ok := fixedReasons[c.Kind]; ok {
		return s
	}
	switch c.Kind {
	case race.CauseDeliberate:
		return fmt.Sprintf("%s deliberately wrote this field", c.Actor)
	case race.CauseStaleCopy:
		return fmt.Sprintf("%s %s did not mean to change it: it sent a copy read at RV %s, before %s change",
			Possessive(c.Actor), c.Request, c.HeldRV, Possessive(l.Owner))
	case race.CauseOwnApplyDropped:
		return fmt.Sprintf("%s applied as %s, the field manager that had set it, and left it out: an apply gives up the fields its manager no longer declares, and a field nobody owns is removed",
			c.Actor, c.Value)
	case race.CauseNamedInBody:
		return fmt.Sprintf("%s %s named it in its body, as %s", Possessive(c.Actor), c.Request, c.Value)
	case race.CauseOlderCount:
		return fmt.Sprintf("%s's %s wrote back an older count", c.Actor, c.Request)
	case race.CauseStaleCount:
		return fmt.Sprintf("%s computed %d from a stale read (%d at RV %s) while the server held %d: one increment vanished",
			c.Actor, c.Computed, c.Read, c.HeldRV, c.Held)
	case race.CauseRoundedIncrement:
		sent := "did not carry the counter at all"
		if c.Value != "" {
			sent = "carried " + c.Value
		}
		return fmt.Sprintf("%s read the live version (RV %s: %d) and computed %d, but its request %s: the request builder passed the number through a float64, which is exact only up to 2^53, and rounded the increment away",
			c.Actor, c.HeldRV, c.Read, c.Computed, sent)
	case race.CauseManagedFieldsReset:
		return fmt.Sprintf("the server reset them: managedFields: %s asks the field manager to drop every entry, and an update that is no apply records none until the next apply", c.Value)
	case race.CauseDefaulted:
		return fmt.Sprintf("the server defaulted it to %s: a field left out gets its default (API server defaulting, not a race)", c.Value)
	case race.CauseCollateral:
		return fmt.Sprintf("%s removed %s, which nobody meant to remove: %s %s was computed from its copy at RV %s, and the list had changed since",
			c.Actor, c.Value, Possessive(c.Actor), c.Request, c.HeldRV)
	case race.CauseNotMade:
		return fmt.Sprintf("%s reconcile returned without making it", Possessive(c.Actor))
	case race.CauseMissedPosition:
		return fmt.Sprintf("%s write removed %s instead: it named a position in a list that had changed since its copy was read",
			Possessive(l.Owner), c.Value)
	}
	return string(c.Kind)
}

// fixedReasons are the causes said the same way every time.
var fixedReasons = map[race.CauseKind]string{
	race.CauseNeverVisible:        "never visible on the server",
	race.CauseIgnoredStatus:       "the server ignored it: a write to the main resource keeps the old status (status is a subresource)",
	race.CauseIgnoredSpec:         "the server ignored it: a write to /status keeps the spec and the labels",
	race.CauseIgnoredAllButStatus: "the server ignored it: a write to /status keeps everything but the status",
	race.CauseNotShown:            "the write succeeded but the server's object does not show it",
}

// Word fills in every loss's Reason, for the outputs that print an
// outcome as JSON.
func Word(o *race.Outcome) {
	for _, ls := range [][]race.Loss{o.Lost, o.Overwritten} {
		for i := range ls {
			ls[i].Reason = Reason(ls[i])
		}
	}
}
