package player

import (
	tea "charm.land/bubbletea/v2"

	"github.com/conflictlab/conflictlab/lessons"
	"github.com/conflictlab/conflictlab/sim/race"
	"github.com/conflictlab/conflictlab/ui/raceview"
	"github.com/conflictlab/conflictlab/ui/stage"
)

// shown is the stage of a step whose race is for watching — a read step,
// a question once answered: the races that play it, the bookkeeping of
// the races asked for, and the offer to replay it on a cluster.
type shown struct {
	races Races
	// req is which race the stage wants and shows ("" for none or a live
	// run); each is computed once, however often it is asked for.
	req     stage.Requests
	raceErr error

	live      Live
	liveState liveState
	liveErr   error
	// named: the text names the row that decides the race (an answered
	// question's does), so the race view keeps it in view.
	named bool
}

// ask puts the step's race (with opt's strategy) on the stage: hidden at
// its setup, or shown and playing. The race is computed in a command, off
// the UI loop (the first one builds the API server's schema), and kept
// for next time.
func (sh *shown) ask(f *frame, opt *lessons.Option, hidden, play bool) tea.Cmd {
	// A new race on the stage: any replay offer or result was about the old one.
	sh.liveState, sh.liveErr = liveIdle, nil
	k := raceKey(*f, opt)
	o, cmd := sh.req.Ask(sh.races, k, f.s.Spec(opt), hidden, play, func(r stage.Ready) tea.Msg { return raceReady{r} })
	if o != nil {
		return sh.apply(f, k, o)
	}
	sh.put(f, "", nil, false)
	return cmd
}

// put puts r on the race view; k is the race's key ("" for none or a
// live run), which tells a late duplicate from a race still to show.
func (sh *shown) put(f *frame, k string, r *raceview.Run, hidden bool) {
	sh.req.Shown = k
	f.race.SetRun(r, hidden)
}

// apply puts the race of key k on the stage if it is the one wanted. The
// race already there is left as it is, maybe playing, unless it is to be
// revealed.
func (sh *shown) apply(f *frame, k string, o *race.Outcome) tea.Cmd {
	if !sh.req.Wanted(k, true) {
		return nil
	}
	r := raceview.NewRun(o)
	sh.put(f, k, r, sh.req.Hidden)
	if d, ok := r.DecidingRow(); ok && sh.named {
		f.race.Focus(d.Step)
	}
	if f.env.lesson.ID == "versions" && f.i == 0 { // lesson 1's first race: the race view's tour first
		f.race.ShowTour()
	}
	if sh.req.TakeReveal() {
		return f.race.Reveal()
	}
	return nil
}

// arrived takes a race computed off the UI loop; placed says whether it
// went on the stage.
func (sh *shown) arrived(f *frame, msg raceReady) (tea.Cmd, bool) {
	place, err := sh.req.Arrived(msg.Ready)
	if err != nil {
		sh.raceErr = err
	}
	if !place {
		return nil, err != nil
	}
	return sh.apply(f, msg.Key, msg.Out), true
}
