package raceview

import (
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/conflictlab/conflictlab/sim/report"
	"github.com/conflictlab/conflictlab/ui/layout"
)

// hang wraps plain text to w columns with a hanging indent: the first
// line takes the whole width, the lines after it start ind columns in, so
// they read as the first line's continuation. Besides spaces it breaks
// after the characters in bp (a JSON value has no spaces: "," lets it
// break between items); a word longer than a line is cut where it must
// be. The continuation lines carry their indent; the text is never cut
// short.
func hang(text string, w, ind int, bp string) (out []string) {
	if ansi.StringWidth(text) <= w || w <= 0 {
		return []string{text}
	}
	ind = min(ind, max(0, w-10))
	// The wrap always breaks after a hyphen, which would split a
	// timestamp ("2026-12-" / "01T10:00:00Z"): hyphens are held
	// together while it wraps.
	text = strings.ReplaceAll(text, "-", nbHyphen)
	defer func() {
		for i := range out {
			out[i] = strings.ReplaceAll(out[i], nbHyphen, "-")
		}
	}()
	pad := strings.Repeat(" ", ind)
	first := layout.Lines(ansi.Wrap(text, w, bp))[0]
	rest, ok := strings.CutPrefix(text, first)
	if !ok {
		// The wrap changed the first line (it does not for plain
		// text): wrap everything at the narrower width.
		for i, l := range layout.Lines(ansi.Wrap(text, w-ind, bp)) {
			if i > 0 {
				l = pad + l
			}
			out = append(out, strings.TrimRight(l, " "))
		}
		return out
	}
	out = []string{strings.TrimRight(first, " ")}
	for _, l := range layout.Lines(ansi.Wrap(strings.TrimLeft(rest, " "), w-ind, bp)) {
		out = append(out, pad+strings.TrimRight(l, " "))
	}
	return out
}

// nbHyphen is a non-breaking hyphen, one column wide like "-".
const nbHyphen = "\u2011"

// planSep parts a controller's plan (race.Plan's String).
const planSep = " · "

// wrapPlan lays a plan out in lines of at most w columns, breaking it at
// its " · " separators where it can: each continuation line starts with
// "· " and the part it goes on with. A part too long for a line of its
// own (a condition written as JSON) wraps inside, indented under its text.
func wrapPlan(plan string, w int) []string {
	if ansi.StringWidth(plan) <= w || w < 12 {
		return hang(plan, w, 2, ",")
	}
	var out []string
	cur := ""
	for i, p := range strings.Split(plan, planSep) {
		switch {
		case i == 0:
			cur = p
		case ansi.StringWidth(cur+planSep+p) <= w:
			cur += planSep + p
		default:
			out = append(out, cur)
			cur = strings.TrimSpace(planSep) + " " + p
		}
		if ansi.StringWidth(cur) > w {
			// The part wraps inside; the parts after it may go on
			// its last line.
			ls := hang(cur, w, 2, ",")
			out = append(out, ls[:len(ls)-1]...)
			cur = ls[len(ls)-1]
		}
	}
	return append(out, cur)
}

// agree is the verb that goes with a controller's name: third, as in "b
// owns", or plain for the learner's ("you own").
func agree(name, third, plain string) string {
	if name == report.Learner {
		return plain
	}
	return third
}
