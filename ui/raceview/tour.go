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
var tourText = []string{
	"How to read a race",
	"",
	"Time runs down. Each row is one step: a controller's request and the",
	"API server's answer, a read from a controller's cache (lister), or a",
	"watch event reaching a cache (↓). Rows are numbered like the status",
	"line's \"step 3/8\"; ↻ rows are a controller waiting (backoff, requeue).",
	"",
	"  a, b …     one lane per controller: what it sent and the",
	"             resourceVersion it carried (rv 101, or no rv)",
	"  API server the answer: ✓ 200 → RV 102 wrote a new version,",
	"             ✗ 409 Conflict refused it",
	"  RV         the server's newest resourceVersion after the step",
	"  cache a/b  the RV each controller's informer cache has reached;",
	"             * marks a cache behind the server",
	"",
	"Below: the object at the selected step, its changes marked + ~ -,",
	"and ✗ LOST on a change another write erased.",
	"",
	"Keys: space play/pause · → ← step · i inspect the row (the request",
	"as sent, the whole answer, the version and its owners) · o object",
	"",
	"Press space (or any race key) to start the race.",
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
		default:
			lines = append(lines, layout.Lines(layout.Wrap(t, m.w))...)
		}
	}
	return layout.FitLines(scrollLines(lines, m.scroll, m.h), m.w, m.h)
}
