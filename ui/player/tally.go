package player

import (
	"context"
	"fmt"
	"math"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/conflictlab/conflictlab/lessons"
	"github.com/conflictlab/conflictlab/sim/explore"
	"github.com/conflictlab/conflictlab/sim/race"
	"github.com/conflictlab/conflictlab/ui/layout"
)

// A step whose answer (or the step itself) makes a claim about every
// interleaving shows, once answered, the tally those claims were checked
// against: the explorer is run on the race the step plays (with the
// chosen option's strategy on a choose step), in a command, once per
// race.

// tallies keeps each race's count, shared by the copies of the Model.
type tallies struct {
	gen  int
	jobs map[string]*tallyJob
}

// tallyJob is one count, running (done false) or finished.
type tallyJob struct {
	gen    int
	done   bool
	res    *explore.Result
	err    error
	cancel context.CancelFunc
}

// tallyReady carries a count made off the UI loop, for the race of key
// (a raceKey: the step and, on a choose step, the option).
type tallyReady struct {
	key string
	gen int
	res *explore.Result
	err error
}

// hasExplore says whether any of cs is an explore claim.
func hasExplore(cs []lessons.Claim) bool {
	for _, c := range cs {
		if c.Explore != nil {
			return true
		}
	}
	return false
}

// tallyWanted is the race whose tally the step shows now: "" on a step
// with no explore claim.
func (a answered) tallyWanted() (key string, spec lessons.RaceSpec) {
	s := a.f.s
	if s.Race == nil || a.q.picked < 0 || a.q.picked >= len(s.Options) {
		return "", spec
	}
	opt := &s.Options[a.q.picked]
	if !hasExplore(s.Claims) && !hasExplore(opt.Claims) {
		return "", spec
	}
	var on *lessons.Option
	if s.Kind == lessons.Choose {
		on = opt // the race on the stage runs the chosen strategy
	}
	return raceKey(a.f, on), s.Spec(on)
}

// cancelExcept cancels every count still running but the one of key
// (the learner moved on or picked another option).
func (t *tallies) cancelExcept(key string) {
	for k, j := range t.jobs {
		if k != key && !j.done {
			j.cancel()
			delete(t.jobs, k)
		}
	}
}

// syncTally starts the count the step wants, unless it is kept or
// running, and cancels any other still running.
func (a *answered) syncTally() tea.Cmd {
	key, spec := a.tallyWanted()
	a.tallies.cancelExcept(key)
	if key == "" || a.tallies.jobs[key] != nil {
		return nil
	}
	src, ok := a.show.races.(scenarios)
	if !ok {
		return nil
	}
	a.tallies.gen++
	ctx, cancel := context.WithCancel(context.Background())
	j := &tallyJob{gen: a.tallies.gen, cancel: cancel}
	a.tallies.jobs[key] = j
	gen := j.gen
	return func() tea.Msg {
		sc, err := src.Scenario(spec)
		if err != nil {
			return tallyReady{key: key, gen: gen, err: err}
		}
		// The options lessons' explore claims are checked with, so the
		// numbers are theirs; the default MaxSchedules bounds a big race.
		r, err := explore.Explore(ctx, sc, explore.Options{})
		return tallyReady{key: key, gen: gen, res: r, err: err}
	}
}

// tallyArrived keeps a count if it is the one the step wants, and drops
// it otherwise. It says whether the screen changes.
func (a *answered) tallyArrived(msg tallyReady) bool {
	j := a.tallies.jobs[msg.key]
	if want, _ := a.tallyWanted(); j == nil || j.gen != msg.gen || msg.key != want || j.done {
		return false
	}
	if msg.res != nil && msg.res.Cancelled {
		// Cancelled for a step left; counted afresh on coming back.
		delete(a.tallies.jobs, msg.key)
		return false
	}
	j.done, j.res, j.err = true, msg.res, msg.err
	j.cancel()
	return true
}

// tallyLines is the tally right under the feedback (where a short
// screen shows it with the verdict), or that it is being
// counted; nothing on a step without explore claims or before an answer.
func (a answered) tallyLines(w int) []string {
	key, _ := a.tallyWanted()
	if key == "" {
		return nil
	}
	j := a.tallies.jobs[key]
	if j == nil {
		return nil
	}
	st := a.f.st
	var text string
	switch {
	case !j.done:
		return []string{st.Faint.Render("counting every interleaving…")}
	case j.err != nil:
		return layout.Lines(layout.Wrap(st.Warn.Render("Could not count the interleavings: ")+j.err.Error(), w))
	case j.res.Truncated:
		text = fmt.Sprintf("Stopped counting after %d interleavings: too many to count them all here.", j.res.Schedules)
	default:
		text = tallyText(j.res)
	}
	return layout.Lines(layout.Wrap(text, w))
}

// tallyText reads "Over all 142 interleavings: gave-up 86 (61%) ·
// no-loss 56 (39%)", the verdicts in their usual order.
func tallyText(r *explore.Result) string {
	var parts []string
	for _, v := range race.Verdicts {
		n := r.Tally[v]
		if n == 0 {
			continue
		}
		pct := 0
		if r.Schedules > 0 {
			pct = int(math.Round(float64(n) * 100 / float64(r.Schedules)))
		}
		parts = append(parts, fmt.Sprintf("%s %d (%d%%)", v, n, pct))
	}
	head := fmt.Sprintf("Over all %d interleavings: ", r.Schedules)
	if r.Schedules == 1 {
		head = "Over its only interleaving: "
	}
	return head + strings.Join(parts, " · ")
}
