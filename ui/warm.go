package ui

import (
	"time"

	tea "charm.land/bubbletea/v2"
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
// drawn, then tells the process (Config.Started) and, when race is set
// (the home screen), warms the first race.
func (m Model) afterFirstFrame(race bool) tea.Cmd {
	if m.cfg.Started == nil && (!race || m.warm() == nil) {
		return nil
	}
	tick := tea.Tick
	if m.cfg.Ticker != nil {
		tick = m.cfg.Ticker
	}
	return tick(warmDelay, func(time.Time) tea.Msg { return warmNow{race: race} })
}

// started calls Config.Started, then runs then (the warm-up: the first
// heavy allocation comes after the collector is back), in one command:
// telling the process is not the model's business.
func (m Model) started(then tea.Cmd) tea.Cmd {
	if m.cfg.Started == nil {
		return then
	}
	return func() tea.Msg {
		m.cfg.Started()
		if then == nil {
			return nil
		}
		return then()
	}
}
