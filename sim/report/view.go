package report

import (
	"fmt"
	"strings"

	"github.com/conflictlab/conflictlab/sim/api"
	"github.com/conflictlab/conflictlab/sim/controller"
	"github.com/conflictlab/conflictlab/sim/race"
)

// This file holds the words of the race view: what a lane says of a
// step, the server's answer with its mark, the note under a write that
// erased a field, a wait, and how the race ended. The terminal's race
// view (ui/raceview) and the picture for slides (svg.go) both call it, so
// a slide says what the screen says.

// Marks that carry meaning without colour.
const (
	MarkOK   = "✓"
	MarkBad  = "✗"
	MarkWarn = "⚠"
	// MarkBehind follows a cache's RV when the cache is behind the server.
	MarkBehind = "*"
)

// Lane is what a controller's lane says of a step: "lister → RV 101",
// "↓ MODIFIED 102", "UPDATE no rv" (named: "UPDATE cm1 no rv"; a request
// to an object other than target always names it).
func Lane(s race.Step, named bool, target string) string {
	switch s.Kind {
	case race.StepWatch:
		// ↓ rather than ⇣: it is in every terminal font.
		return "↓ " + s.Event + QueueNote(s)
	case race.StepLister:
		switch {
		case s.Code != 200:
			return "lister: not cached"
		case s.Verb == api.List:
			// A Lister list (a create's "is it there?"): how many it holds.
			return "lister: " + Answer(s)
		}
		return "lister → RV " + s.RV
	}
	t := Method(s)
	if obj := Object(s); named || obj != target {
		t += " " + obj
	}
	if p := Precondition(s); p != "" {
		t += " " + p
	}
	return t
}

// MarkedAnswer is the server's answer with a mark, so that it reads
// without colour: "✓ 200 → RV 102", "✗ 409 Conflict"; "" for steps that
// are not API calls.
func MarkedAnswer(s race.Step) string {
	if s.Kind != race.StepRequest {
		return ""
	}
	if !s.OK() {
		return MarkBad + " " + Answer(s)
	}
	return MarkOK + " " + Answer(s)
}

// LostNote is the line under a write that erased a field, naming whose
// change it was ("your change" for the learner's own controller).
func LostNote(l race.Loss) string {
	if ToldByReason(l) {
		return fmt.Sprintf("%s LOST %s: %s", MarkBad, l.Field, Reason(l))
	}
	return fmt.Sprintf("%s LOST %s: %s change erased by this write", MarkBad, l.Field, Possessive(l.Owner))
}

// ToldByReason reports whether a loss is told by its reason rather than by
// who erased whose change: a controller's own write, a field its own
// manager's next apply stopped declaring, a field a hand-written body
// named (the eraser and the owner may be two names for one controller, or
// nobody fought at all).
func ToldByReason(l race.Loss) bool {
	return l.ErasedBy == l.Owner || l.Cause.Kind == race.CauseOwnApplyDropped || l.Cause.Kind == race.CauseNamedInBody
}

// WaitText is a row for time a controller spends asleep, backing off
// before a retry or requeued: "↻ a backs off before its retry, next try at
// 13ms (waits 10ms)".
func WaitText(wt race.Wait) string {
	if wt.Kind == race.WaitOwnWrite {
		return ownWriteText(wt)
	}
	why := agree(wt.Actor, "backs off before its retry", "back off before your retry")
	if wt.Kind == race.WaitRequeue {
		why = agree(wt.Actor, "returns", "return") + " the error to the workqueue: requeued"
	}
	switch wt.Kind {
	case race.WaitEvent:
		return fmt.Sprintf("↻ a watch event puts %s key back on the queue: next try at %dms (waits %dms)", Possessive(wt.Actor), wt.UntilMS, wt.UntilMS-wt.FromMS)
	case race.WaitWorker:
		if wt.Open {
			return fmt.Sprintf("↻ %s key waits in the queue: the worker is busy with %s reconcile, from %dms and still at %dms, when the run stops", Possessive(wt.Actor), Possessive(wt.For), wt.FromMS, wt.UntilMS)
		}
		return fmt.Sprintf("↻ %s key waits in the queue: the worker is busy with %s reconcile, %dms to %dms", Possessive(wt.Actor), Possessive(wt.For), wt.FromMS, wt.UntilMS)
	}
	return fmt.Sprintf("↻ %s %s, next try at %dms (waits %dms)", wt.Actor, why, wt.UntilMS, wt.UntilMS-wt.FromMS)
}

// ownWriteText says why a controller with expectations did nothing: its
// cache has not seen its own last write, so it does not read it yet.
func ownWriteText(wt race.Wait) string {
	its := agree(wt.Actor, "its", "your")
	text := fmt.Sprintf("… %s %s: %s cache is at RV %d, %s own write at %d, so no read yet",
		wt.Actor, agree(wt.Actor, "waits", "wait"), its, wt.CacheRV, its, wt.AwaitRV)
	if d := wt.UntilMS - wt.FromMS; d > 0 {
		text += fmt.Sprintf(" (%dms)", d)
	}
	return text
}

// agree picks the verb form for a name: the learner is "you".
func agree(name, third, plain string) string {
	if name == Learner {
		return plain
	}
	return third
}

// Tone is what an ending means, for the colour a screen gives it; its
// mark says the same without colour.
type Tone int

// The tones of an ending.
const (
	ToneOK Tone = iota
	ToneBad
	ToneWarn
)

// Ending says how a race that is over ended: "finished: a change was
// lost", with its tone and mark. A race that lost nothing but broke an
// invariant says so in place of the ✓, naming the first one broken.
func Ending(o *race.Outcome) (Tone, string) {
	broken := o.BrokenInvariants()
	switch o.Verdict {
	case race.VerdictNoLoss, race.VerdictRequeued:
		if len(broken) > 0 {
			after := ""
			if o.Verdict == race.VerdictRequeued {
				after = " (after a requeue)"
			}
			return ToneWarn, fmt.Sprintf("%s finished: nothing was lost%s, but %s", MarkWarn, after, InvariantLine(broken[0]))
		}
		if o.Verdict == race.VerdictNoLoss {
			return ToneOK, MarkOK + " finished: every change landed, none was lost"
		}
		return ToneOK, MarkOK + " finished: every change landed, after a requeue"
	case race.VerdictLost:
		return ToneBad, MarkBad + " finished: a change was lost"
	case race.VerdictGaveUp:
		var gaveUp []string
		for _, c := range o.Controllers {
			if c.Status == controller.GaveUp {
				gaveUp = append(gaveUp, c.Name)
			}
		}
		return ToneWarn, fmt.Sprintf("%s finished: nothing was lost, but %s", MarkWarn, stoppedText(gaveUp))
	case race.VerdictStale:
		return ToneWarn, MarkWarn + " finished: every write landed, but a decision was taken from stale data"
	case race.VerdictUnfinished:
		return ToneWarn, MarkWarn + " stopped: the step budget ran out with a controller still retrying"
	}
	return ToneWarn, MarkWarn + " finished: " + string(o.Verdict)
}

// EndingInvariants are the broken invariants the ending line has not
// named, each as a line.
func EndingInvariants(o *race.Outcome) []string {
	broken := o.BrokenInvariants()
	if len(broken) > 0 && (o.Verdict == race.VerdictNoLoss || o.Verdict == race.VerdictRequeued) {
		broken = broken[1:]
	}
	var out []string
	for _, r := range broken {
		out = append(out, fmt.Sprintf("%s %s", MarkWarn, InvariantLine(r)))
	}
	return out
}

// stoppedText says who stopped with their change not made, in agreement
// with how many did: "b stopped with its change not made", "a, c and d
// stopped with their changes not made", "you stopped with your change…".
func stoppedText(names []string) string {
	switch len(names) {
	case 0:
		return "a controller stopped with its change not made"
	case 1:
		if names[0] == Learner {
			return "you stopped with your change not made"
		}
		return names[0] + " stopped with its change not made"
	}
	who := strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
	return who + " stopped with their changes not made"
}

// LossLine names a lost field under the ending: "✗ LOST data.owner — a's
// change, erased by b at step 6 (RV 103)", steps numbered as the rows.
func LossLine(l race.Loss) string {
	by := fmt.Sprintf("erased by %s at step %d (RV %s)", l.ErasedBy, l.ErasedAtStep+1, l.ErasedRV)
	if ToldByReason(l) {
		by = Reason(l)
	}
	return fmt.Sprintf("%s LOST %s — %s change, %s", MarkBad, l.Field, Possessive(l.Owner), by)
}

// ConflictLine says what a controller's 409s cost: "⚠ b got 2 × 409
// Conflict; nothing it sent then was written"; "" for none.
func ConflictLine(c race.ControllerResult) string {
	if c.Stats.Conflicts == 0 {
		return ""
	}
	return fmt.Sprintf("%s %s got %d × 409 Conflict; nothing %s sent then was written", MarkWarn, c.Name, c.Stats.Conflicts, Pronoun(c.Name))
}
