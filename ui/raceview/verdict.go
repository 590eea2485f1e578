package raceview

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/conflictlab/conflictlab/sim/report"
	"github.com/conflictlab/conflictlab/ui/layout"
)

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
