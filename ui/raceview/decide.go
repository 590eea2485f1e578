package raceview

import (
	"fmt"

	"github.com/conflictlab/conflictlab/sim/api"
	"github.com/conflictlab/conflictlab/sim/controller"
	"github.com/conflictlab/conflictlab/sim/race"
	"github.com/conflictlab/conflictlab/sim/report"
)

// Deciding is the row of a race that decides how it ends, for the
// explanation beside it to point at.
type Deciding struct {
	// Step indexes Outcome.Steps; Row is its number on screen (from 1).
	Step, Row int
	// What says what happened there, in the timeline's words.
	What string
}

// DecidingRow is the row that decides the race, the one the verdict's
// outcome comes from: the write that erased a lost field; else the write
// that lost its own change (a status the main endpoint ignored, a count
// computed from a stale read, often a no-op the server answered 200);
// else the write that carried a decision taken from stale data; else, when a controller
// gave up (or is still retrying when the budget ran out), its last refused
// write; else, when a write was refused and its controller's change landed
// later (a retry, a requeue), the write that landed it; else the first
// refused write; else the last write to the target, a no-op included
// (the write that changed nothing decides what the race ends with). ok is
// false for a race without writes.
func (r *Run) DecidingRow() (d Deciding, ok bool) {
	if r == nil {
		return Deciding{}, false
	}
	o := r.Outcome
	at := func(i int, what string) (Deciding, bool) {
		if i < 0 || i >= len(o.Steps) {
			return Deciding{}, false
		}
		return Deciding{Step: i, Row: i + 1, What: what}, true
	}
	for _, l := range o.Lost {
		if !report.ToldByReason(l) && l.ErasedBy != "" {
			s := stepAt(o, l.ErasedAtStep)
			return at(l.ErasedAtStep, fmt.Sprintf("%s %s erased %s change to %s", report.Possessive(l.ErasedBy), report.Call(s), report.Possessive(l.Owner), l.Field))
		}
	}
	for _, l := range o.Lost {
		if report.ToldByReason(l) && l.ErasedBy != "" {
			s := stepAt(o, l.ErasedAtStep)
			if l.ErasedBy != l.Owner {
				// Nobody fought over it: its own manager's next apply
				// left it out, or a hand-written body named it.
				return at(l.ErasedAtStep, fmt.Sprintf("%s %s lost %s (%s)", report.Possessive(l.ErasedBy), report.Call(s), l.Field, report.Answer(s)))
			}
			return at(l.ErasedAtStep, fmt.Sprintf("%s %s lost %s own change to %s (%s)", report.Possessive(l.ErasedBy), report.Call(s), agree(l.Owner, "its", "your"), l.Field, report.Answer(s)))
		}
	}
	for _, sd := range o.Stale {
		s := stepAt(o, sd.WriteStep)
		return at(sd.WriteStep, fmt.Sprintf("%s %s acted on %s = %v in the copy %s read; it was %v by then", report.Possessive(sd.Actor), report.Call(s), sd.Basis, sd.Read, report.Pronoun(sd.Actor), sd.Now))
	}
	// refused says a write was refused, and that it was its
	// controller's last try when it had tried before.
	// A controller still retrying when the run was cut off had no last
	// try: its latest one is the one refused.
	retrying := map[string]bool{}
	refused := func(i int, tries int) string {
		s := o.Steps[i]
		last := ""
		switch {
		case tries > 1 && retrying[s.Actor]:
			last = ", " + agree(s.Actor, "its", "your") + " latest try when the run stopped,"
		case tries > 1:
			last = ", " + agree(s.Actor, "its", "your") + " last try,"
		}
		return fmt.Sprintf("%s %s%s was refused: %s", report.Possessive(s.Actor), report.Call(s), last, report.Answer(s))
	}
	// stopped: the controllers whose change was not made, by the
	// verdict (gave up, or still retrying when the race stopped).
	stopped := map[string]bool{}
	for _, c := range o.Controllers {
		switch {
		case c.Status == controller.GaveUp:
			stopped[c.Name] = true
		case o.Verdict == race.VerdictUnfinished && (c.Status == controller.Running || c.Status == controller.Sleeping):
			stopped[c.Name], retrying[c.Name] = true, true
		}
	}
	firstRefused, lastStopped, stoppedTries, last := -1, -1, 0, -1
	// landed: the write that landed a controller's change after it was
	// refused, the latest such change winning (it is the race's end).
	landed, tries := -1, 0
	refusals := map[string]int{}
	for i, s := range o.Steps {
		if !isWrite(s) {
			continue
		}
		if !s.OK() {
			if firstRefused < 0 {
				firstRefused = i
			}
			refusals[s.Actor]++
			if stopped[s.Actor] {
				lastStopped, stoppedTries = i, refusals[s.Actor]
			}
			continue
		}
		if last < 0 || !touchesTarget(o, o.Steps[last]) || touchesTarget(o, s) {
			// The race is about its target: a later write to another
			// object (a second ConfigMap) does not decide it.
			last = i
		}
		if n := refusals[s.Actor]; n > 0 {
			landed, tries = i, n
			refusals[s.Actor] = 0
		}
	}
	switch {
	case lastStopped >= 0:
		return at(lastStopped, refused(lastStopped, stoppedTries))
	case landed >= 0:
		s := o.Steps[landed]
		attempts := "a refused attempt"
		if tries > 1 {
			attempts = fmt.Sprintf("%d refused attempts", tries)
		}
		return at(landed, fmt.Sprintf("%s %s landed at last, after %s: %s", report.Possessive(s.Actor), report.Call(s), attempts, report.Answer(s)))
	case firstRefused >= 0:
		return at(firstRefused, refused(firstRefused, 1))
	case last >= 0:
		s := o.Steps[last]
		if s.Version < 0 {
			return at(last, fmt.Sprintf("%s %s, the last write, changed nothing: %s", report.Possessive(s.Actor), report.Call(s), report.Answer(s)))
		}
		return at(last, fmt.Sprintf("%s %s landed last: %s", report.Possessive(s.Actor), report.Call(s), report.Answer(s)))
	}
	return Deciding{}, false
}

// writesTarget reports whether step s wrote a version of the race's target.
func writesTarget(o *race.Outcome, s race.Step) bool {
	return s.Version >= 0 && s.Version < len(o.Versions) && report.IsTarget(o, s.Version)
}

// touchesTarget reports whether step s wrote the race's target: a version
// of it, or a no-op answered for it (a write that changed nothing makes
// no version, but it was sent to the target all the same).
func touchesTarget(o *race.Outcome, s race.Step) bool {
	if writesTarget(o, s) {
		return true
	}
	return s.Version < 0 && s.OK() && report.Object(s) == o.Target.Name
}

// isWrite reports whether a step is a request that writes (not a read,
// a lister read or a watch event).
func isWrite(s race.Step) bool {
	return s.Kind == race.StepRequest && s.Verb != api.Get && s.Verb != api.List
}

func stepAt(o *race.Outcome, i int) race.Step {
	if i >= 0 && i < len(o.Steps) {
		return o.Steps[i]
	}
	return race.Step{}
}

// SelectRow shows the race up to step i, paused, with that row current:
// the row an explanation points at, ready for the inspect key.
func (m *Model) SelectRow(i int) {
	if m.run == nil || m.hidden {
		return
	}
	m.SetIndex(i)
}
