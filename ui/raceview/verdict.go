package raceview

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/conflictlab/conflictlab/sim/race"
	"github.com/conflictlab/conflictlab/sim/report"
	"github.com/conflictlab/conflictlab/ui/layout"
	"github.com/conflictlab/conflictlab/ui/styles"
)

// staleEnd is the end line of a race whose every write landed but one
// carried a decision taken from data that had changed: nothing is lost,
// yet the object is not what the controllers meant.
func (m Model) staleEnd() string {
	return m.st.Warn.Render(styles.Warn + " finished: every write landed, but a decision was taken from stale data")
}

// invariantEnd is the end line of a race that lost nothing but broke an
// invariant of its scenario: every request may have succeeded, and the
// world is still not what it had to be ("⚠ finished: nothing was lost,
// but 2 ConfigMaps match app=web (want 1): the parent needs exactly one
// child").
func (m Model) invariantEnd(r race.InvariantResult) string {
	after := ""
	if m.run.Outcome.Verdict == race.VerdictRequeued {
		after = " (after a requeue)"
	}
	return m.st.Warn.Render(fmt.Sprintf("%s finished: nothing was lost%s, but %s", styles.Warn, after, report.InvariantLine(r)))
}

// invariantLines give each broken invariant the end line has not named.
func (m Model) invariantLines(broken []race.InvariantResult) []string {
	var out []string
	for _, r := range broken {
		out = append(out, m.st.Warn.Render(fmt.Sprintf("  %s %s", styles.Warn, report.InvariantLine(r))))
	}
	return out
}

// staleLines give each stale decision in the outcome's words, with the
// steps numbered as the rows are (from 1, as the report numbers them).
func (m Model) staleLines() []string {
	var out []string
	for _, d := range m.run.Outcome.Stale {
		out = append(out, m.st.Warn.Render("  "+report.StaleLine(d)))
	}
	return out
}

// wrapWide wraps the verdict's lines wider than w (a stale decision's
// account ends with the write that made it stale: the point of it), with
// continuation lines indented under their text. The verdict is drawn once
// per run for every width, so this is done per frame; lines that fit are
// returned as they are, without a copy.
func wrapWide(lines []string, w int) []string {
	wide := false
	for _, l := range lines {
		wide = wide || layout.MaxWidth(l) > w
	}
	if !wide || w < 20 {
		return lines
	}
	out := make([]string, 0, len(lines)+4)
	for _, l := range lines {
		if layout.MaxWidth(l) <= w {
			out = append(out, l)
			continue
		}
		plain := ansi.Strip(l)
		ind := len(plain) - len(strings.TrimLeft(plain, " ")) + 2
		for i, wl := range layout.Lines(layout.Wrap(l, w-ind)) {
			if i > 0 {
				wl = strings.Repeat(" ", ind) + wl
			}
			out = append(out, wl)
		}
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
		if names[0] == "you" {
			return "you stopped with your change not made"
		}
		return names[0] + " stopped with its change not made"
	}
	who := strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
	return who + " stopped with their changes not made"
}

// reconcileLine is each controller's longest single reconcile, when a
// controller retried or was requeued: how long a worker was held is the
// cost of a retry loop that the fields alone do not show. "" otherwise.
func (m Model) reconcileLine() string {
	o := m.run.Outcome
	busy := false
	var parts []string
	for _, c := range o.Controllers {
		busy = busy || c.Stats.Retries > 0 || c.Stats.Requeues > 0
		parts = append(parts, fmt.Sprintf("%s %dms", c.Name, c.Stats.LongestReconcileMS))
	}
	if !busy {
		return ""
	}
	return m.st.Faint.Render("  longest reconcile (worker held): " + strings.Join(parts, " · "))
}

// lostNote is the line under a write that erased a field, naming whose
// change it was ("your change" for the learner's own controller).
func lostNote(l race.Loss) string {
	if l.ErasedBy == l.Owner {
		return fmt.Sprintf("%s LOST %s: %s", styles.Bad, l.Field, report.Reason(l))
	}
	return fmt.Sprintf("%s LOST %s: %s change erased by this write", styles.Bad, l.Field, report.Possessive(l.Owner))
}
