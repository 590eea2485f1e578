package ui

import (
	"time"

	tea "charm.land/bubbletea/v2"
)

// warmDelay is how long after the course has loaded the first race starts
// being computed: two of Bubble Tea's frame intervals (it draws at most
// 60 frames a second), so that the home screen is drawn first instead of
// sharing the processor with the race and the garbage it makes.
const warmDelay = 2 * time.Second / 60

// warmNow starts the warm-up (warmAfterFrame).
type warmNow struct{}

// warmAfterFrame warms the first race once the home screen has been drawn.
func (m Model) warmAfterFrame() tea.Cmd {
	if m.warm() == nil {
		return nil
	}
	tick := tea.Tick
	if m.cfg.Ticker != nil {
		tick = m.cfg.Ticker
	}
	return tick(warmDelay, func(time.Time) tea.Msg { return warmNow{} })
}
