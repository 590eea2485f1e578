package ui

import (
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/conflictlab/conflictlab/lessons"
	"github.com/conflictlab/conflictlab/ui/home"
)

// warmDelay is how long after the course has loaded the first race starts
// being computed: two frame intervals at Bubble Tea's default 60 frames a
// second (four at the terminal's 120), so that the home screen is drawn
// first instead of sharing the processor with the race and the garbage it
// makes.
const warmDelay = 2 * time.Second / 60

// warmNow is the moment after the first frame (afterFirstFrame); race
// says whether to warm the first race.
type warmNow struct{ race bool }

// afterFirstFrame waits until the screen the program opened on has been
// drawn, then tells the process (Options.Started) and, when race is set
// (the home screen), warms the first race.
func (m Model) afterFirstFrame(race bool) tea.Cmd {
	if m.o.Started == nil && (!race || m.warm() == nil) {
		return nil
	}
	tick := tea.Tick
	if m.o.Ticker != nil {
		tick = m.o.Ticker
	}
	return tick(warmDelay, func(time.Time) tea.Msg { return warmNow{race: race} })
}

// started calls Options.Started, then runs then (the warm-up: the first
// heavy allocation comes after the collector is back), in one command:
// telling the process is not the model's business.
func (m Model) started(then tea.Cmd) tea.Cmd {
	if m.o.Started == nil {
		return then
	}
	return func() tea.Msg {
		m.o.Started()
		if then == nil {
			return nil
		}
		return then()
	}
}

// warmed is the first race computed ahead of need (its result is cached).
type warmed struct{}

// warm computes the race the learner will most likely open first, in a
// command, so that the API server's schema is built while they read the
// home screen rather than when they press enter.
func (m Model) warm() tea.Cmd {
	spec, ok := m.firstRace()
	if !ok {
		return nil
	}
	races := m.races
	return func() tea.Msg {
		races.Race(spec) //nolint:errcheck // the player reports errors when it asks again
		return warmed{}
	}
}

// firstRace is the race the learner will most likely see first: the next
// one in the lesson the home screen offers to continue.
func (m Model) firstRace() (lessons.RaceSpec, bool) {
	if m.pack == nil {
		return lessons.RaceSpec{}, false
	}
	id, step, ok := home.Continue(m.pack.Lessons, m.prog)
	if !ok {
		return lessons.RaceSpec{}, false
	}
	l := m.pack.Lesson(id)
	for i := step; i < len(l.Steps); i++ {
		if s := l.Steps[i]; s.Race != nil {
			return s.Spec(nil), true
		}
	}
	return lessons.RaceSpec{}, false
}
