package raceview

import (
	"fmt"

	"github.com/conflictlab/conflictlab/sim/api"
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

// DecidingRow is the row that decides the race: the write that erased a
// lost field, else the write that carried a decision taken from stale
// data, else the first write the server refused (a 409, a 422), else the
// last write that landed. ok is false for a race without writes.
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
		if l.ErasedBy != l.Owner && l.ErasedBy != "" {
			s := stepAt(o, l.ErasedAtStep)
			return at(l.ErasedAtStep, fmt.Sprintf("%s %s erased %s change to %s", race.Possessive(l.ErasedBy), report.Call(s), race.Possessive(l.Owner), l.Field))
		}
	}
	for _, sd := range o.Stale {
		s := stepAt(o, sd.WriteStep)
		return at(sd.WriteStep, fmt.Sprintf("%s %s acted on %s = %v in the copy %s read; it was %v by then", race.Possessive(sd.Actor), report.Call(s), sd.Basis, sd.Read, pronoun(sd.Actor), sd.Now))
	}
	last := -1
	for i, s := range o.Steps {
		if s.Kind != race.StepRequest || s.Verb == api.Get || s.Verb == api.List {
			continue
		}
		if !s.OK() {
			return at(i, fmt.Sprintf("%s %s was refused: %s", race.Possessive(s.Actor), report.Call(s), report.Answer(s)))
		}
		last = i
	}
	if last >= 0 {
		s := o.Steps[last]
		return at(last, fmt.Sprintf("%s %s landed last: %s", race.Possessive(s.Actor), report.Call(s), report.Answer(s)))
	}
	return Deciding{}, false
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
