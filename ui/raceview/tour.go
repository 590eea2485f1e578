package raceview

import (
	"github.com/conflictlab/conflictlab/ui/layout"
)

// ShowTour puts the one-screen tour of the race view in front of the race
// (the lesson player calls it before the course's first race). Playback
// waits behind it; any of the view's keys ends it and starts the race.
// It is shown once per view.
func (m *Model) ShowTour() {
	if m.toured {
		return
	}
	m.tour, m.toured = true, true
}

// Touring reports whether the tour is on show.
func (m Model) Touring() bool { return m.tour }

// tourText is what the tour says: what a row is, each column, the keys.
// columnsAt marks where the legend of the columns goes: it is drawn for
// the layout the race uses (lanes side by side, or one column).
var tourText = []string{
	"How to read a race",
	"",
	"Time runs down. Each row is one step: a controller's request and the",
	"API server's answer, a read from a controller's cache (lister), or a",
	"watch event reaching a cache (↓). Rows are numbered like the status",
	"line's \"step 3/8\"; ↻ rows are a controller waiting (backoff, requeue).",
	"",
	columnsAt,
	"",
	"Below: the object at the selected step, its changes marked + ~ -,",
	"and ✗ LOST on a change another write erased.",
	"",
	"Keys: space play/pause · → ← step · i inspect the row (the request",
	"as sent, the whole answer, the version and its owners) · o object",
	"",
	"Press space (or any race key) to start the race.",
}

const columnsAt = "\x00columns"

// laneColumns is the legend of the timeline drawn as lanes: one column
// per controller, then the server's answer.
var laneColumns = []string{
	"  a, b …     one lane per controller: what it sent and the",
	"             resourceVersion it carried (rv 101, or no rv)",
	"  API server the answer: ✓ 200 → RV 102 wrote a new version,",
	"             ✗ 409 Conflict refused it",
}

// oneColumn is the legend of the timeline drawn in one column, each row
// naming its controller (a window too narrow for lanes).
var oneColumn = []string{
	"  who: request → answer",
	"             the controller, what it sent with the resourceVersion",
	"             it carried (rv 101, or no rv), and the API server's answer:",
	"             ✓ 200 → RV 102 wrote a new version, ✗ 409 Conflict",
	"             refused it",
}

// commonColumns are the columns both layouts end with.
var commonColumns = []string{
	"  RV         the server's newest resourceVersion after the step",
	"  cache a/b  the RV each controller's informer cache has reached;",
	"             * marks a cache behind the server",
}

// clockColumn is the legend of the time column, when the race has one.
const clockColumn = "  t          the step's time in the simulation, in milliseconds"

// tourColumns is the legend of the columns as the race on show draws
// them at width w.
func (m Model) tourColumns(w int) []string {
	cols := laneColumns
	clock := false
	if m.run != nil {
		g := m.geometry(w)
		if !g.lanes {
			cols = oneColumn
		}
		clock = g.clock > 0
	}
	var out []string
	if clock {
		out = append(out, clockColumn)
	}
	out = append(out, cols...)
	return append(out, commonColumns...)
}

// viewTour draws the tour, wrapped to the view and scrolled with J/K
// when the view is short.
func (m Model) viewTour() string {
	var lines []string
	for i, t := range tourText {
		switch {
		case i == 0:
			lines = append(lines, layout.Rule(t, m.w, m.st.Heading))
		case t == "":
			lines = append(lines, "")
		case t == columnsAt:
			for _, c := range m.tourColumns(m.w) {
				lines = append(lines, layout.Lines(layout.Wrap(c, m.w))...)
			}
		default:
			lines = append(lines, layout.Lines(layout.Wrap(t, m.w))...)
		}
	}
	return layout.FitLines(scrollLines(lines, m.scroll, m.h), m.w, m.h)
}
