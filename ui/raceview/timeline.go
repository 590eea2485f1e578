package raceview

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/conflictlab/conflictlab/sim/race"
	"github.com/conflictlab/conflictlab/sim/report"
	"github.com/conflictlab/conflictlab/ui/layout"
	"github.com/conflictlab/conflictlab/ui/styles"
)

// geometry is the timeline's layout for a whole race, chosen once from
// every step (not only those shown) so that it does not jump while the
// race plays: lanes side by side when each controller's cells fit whole,
// otherwise one column that says who did what ("c: UPDATE w1 rv 101 →
// ✗ 409 Conflict"). Either way no resourceVersion is ever cut and two
// columns are always at least one space apart.
type geometry struct {
	lanes bool
	// named: lane cells name the object ("UPDATE cm1 rv 101"); without
	// it they leave it out ("UPDATE rv 101"), the title names it.
	named                                  bool
	gutter, clock, lane, server, rv, cache int
	// text is the one-column mode's "what happened" width.
	text int
	// legend: the cache header is too wide for its column, so the
	// controllers' order is spelled on a line of its own.
	legend bool
}

// textGap is the least room between the one-column mode's text and the
// RV column: the one space every column keeps, and one more, so that an
// answer ending in a resourceVersion is not read with the RV column's.
const textGap = 2

// maxAnswer is the widest a server cell gets in lanes; longer reasons
// ("UnsupportedMediaType") are cut there, whole in the one-column mode
// and in the inspect panel. No answer with an RV is that long.
const maxAnswer = 20

// plainWidth is the width of text this package writes itself: ASCII and
// single-column symbols, so counting runes is exact (and cheap).
func plainWidth(s string) int { return utf8.RuneCountInString(s) }

func (m Model) geometry(w int) geometry {
	o := m.run.Outcome
	names := m.names()
	n := len(names)
	target := o.Target.Name
	g := geometry{gutter: 5}
	var serverRV int64
	named, short, answer, fullAnswer, clock := 0, 0, plainWidth("API server"), 0, 1
	for _, s := range o.Steps {
		named = max(named, plainWidth(report.Lane(s, true, target)))
		short = max(short, plainWidth(report.Lane(s, false, target)))
		if s.Kind == race.StepRequest {
			a := plainWidth(styles.OK + " " + report.Answer(s))
			answer, fullAnswer = max(answer, min(maxAnswer, a)), max(fullAnswer, a)
		}
		serverRV = max(serverRV, s.ServerRV)
		clock = max(clock, plainWidth(fmt.Sprintf("%dms", s.AtMS)))
	}
	rvW := plainWidth(fmt.Sprint(serverRV))
	g.rv = max(2, rvW) + 2
	values := n*(rvW+1) + (n - 1)
	hdr := plainWidth("cache " + strings.Join(names, "/"))
	g.cache = max(values, hdr)
	nameW := 0
	for _, nm := range names {
		nameW = max(nameW, plainWidth(nm))
	}
	g.server = answer + 2
	fixed := g.gutter + g.server + g.rv + g.cache
	for _, c := range []struct {
		cell  int
		named bool
	}{{named, true}, {short, false}} {
		lane := max(nameW, c.cell) + 2
		if fixed+n*lane <= w {
			g.lanes, g.named, g.lane = true, c.named, lane
			// Spare room first shows whole answers, then widens lanes.
			g.server = max(g.server, min(fullAnswer+2, w-fixed-n*lane+g.server))
			fixed = g.gutter + g.server + g.rv + g.cache
			// Spare room goes to the lanes, up to a comfortable width.
			g.lane = max(lane, min(lane+6, (w-fixed)/max(1, n)))
			if fixed+n*g.lane+clock+2 <= w {
				g.clock = clock + 2
			}
			return g
		}
	}
	// One column: the text gets what the numbers leave.
	g.text = w - g.gutter - g.rv - g.cache
	if g.text < 28 {
		// The cache header alone would squeeze the text: spell the
		// order on its own line and keep the column to the values.
		g.legend, g.cache = true, max(values, plainWidth("cache"))
		g.text = w - g.gutter - g.rv - g.cache
	}
	if g.text-clock-2 >= 36 {
		g.clock = clock + 2
		g.text -= g.clock
	}
	g.text = max(8, g.text)
	return g
}

// block is one entry of the timeline with the lines under it: a step (and
// the LOST notes of the write), or a wait. Blocks are never split when the
// timeline scrolls, so a note never shows without its write.
type block struct {
	lines []string
	step  int // the step's index, -1 for a wait
}

// timelineLines is the header and the rows shown so far, as blocks. The
// rows come from the frame cache: each is rendered once per run and width,
// and only the current row is restyled. The slices are shared with the
// cache: callers copy before changing them.
func (m Model) timelineLines(w int) (header []string, blocks []block) {
	fc := m.frames()
	tl := fc.tl
	fc.mu.Unlock()
	if tl == nil || tl.w != w {
		tl = m.newTimeline(w)
		fc = m.frames()
		fc.tl = tl
		fc.mu.Unlock()
	}
	// The rows are built under the timeline's own lock, not the cache's.
	tl.mu.Lock()
	defer tl.mu.Unlock()
	steps := m.run.Outcome.Steps
	if m.idx < 0 || len(steps) == 0 {
		return tl.header, nil
	}
	last := min(m.idx, len(steps)-1)
	m.extendTimeline(tl, last)
	n := tl.end[last]
	blocks = make([]block, n)
	copy(blocks, tl.blocks[:n])
	if m.idx == last {
		cur, ok := tl.cur[last]
		if !ok {
			cur = append(m.stepLines(steps[last], tl.g, m.names(), laneIndex(m.names()), true), tl.notes[last]...)
			remember(&tl.cur, last, cur)
		}
		blocks[tl.at[last]].lines = cur
	}
	return tl.header, blocks
}

// newTimeline starts the timeline at width w: its geometry and header.
func (m Model) newTimeline(w int) *timeline {
	st := m.st
	names := m.names()
	g := m.geometry(w)
	var hdr strings.Builder
	hdr.WriteString(layout.Pad(st.Faint.Render("   #"), g.gutter))
	if g.clock > 0 {
		hdr.WriteString(layout.Pad(st.Faint.Render("t"), g.clock))
	}
	if g.lanes {
		for i, n := range names {
			hdr.WriteString(layout.Pad(st.Lane(i).Render(n), g.lane))
		}
		hdr.WriteString(layout.Pad(st.Server.Render("API server"), g.server))
	} else {
		hdr.WriteString(layout.Pad(st.Faint.Render("who: request → answer"), g.text))
	}
	hdr.WriteString(layout.Pad(st.Faint.Render("RV"), g.rv))
	if g.legend {
		hdr.WriteString(st.Faint.Render("cache"))
	} else {
		hdr.WriteString(st.Faint.Render("cache " + strings.Join(names, "/")))
	}
	header := []string{hdr.String()}
	if g.legend {
		header = append(header, st.Faint.Render(layout.Truncate("cache columns: "+strings.Join(names, " / "), w)))
	}
	return &timeline{w: w, g: g, header: header}
}

func laneIndex(names []string) map[string]int {
	lane := map[string]int{}
	for i, n := range names {
		lane[n] = i
	}
	return lane
}

// extendTimeline renders the blocks of the steps up to last not rendered
// yet: each step's row as it is drawn when not current, the LOST notes
// under it, and the waits after it.
func (m Model) extendTimeline(tl *timeline, last int) {
	if len(tl.at) > last {
		return
	}
	st := m.st
	o := m.run.Outcome
	names := m.names()
	lane := laneIndex(names)
	g, w := tl.g, tl.w
	for i := len(tl.at); i <= last; i++ {
		s := o.Steps[i]
		var notes []string
		for _, l := range o.Lost {
			if l.ErasedAtStep == s.Index {
				// The note hangs under its row, its lines after
				// the first under its text ("└ ✗ " is 4 columns).
				pad := strings.Repeat(" ", g.gutter)
				for _, nl := range hang("└ "+report.LostNote(l), w-g.gutter, 4, ",") {
					notes = append(notes, st.Bad.Render(pad+nl))
				}
			}
		}
		tl.notes = append(tl.notes, notes)
		tl.at = append(tl.at, len(tl.blocks))
		tl.blocks = append(tl.blocks, block{step: i, lines: append(m.stepLines(s, g, names, lane, false), notes...)})
		for _, wt := range o.Waits {
			if wt.AfterStep == s.Index {
				tl.blocks = append(tl.blocks, block{step: -1, lines: m.waitLines(wt, g, lane[wt.Actor], w)})
			}
		}
		tl.end = append(tl.end, len(tl.blocks))
	}
}

// stepLines is one step's row (several lines when a one-column row wraps).
func (m Model) stepLines(s race.Step, g geometry, names []string, lane map[string]int, cur bool) []string {
	st := m.st
	mark := " "
	if cur {
		mark = st.Accent.Render(styles.Current)
	}
	var b strings.Builder
	// Rows are numbered as the status line counts steps: from 1.
	b.WriteString(layout.Pad(fmt.Sprintf("%s%3d", mark, s.Index+1), g.gutter))
	if g.clock > 0 {
		b.WriteString(layout.Pad(st.Faint.Render(fmt.Sprintf("%dms", s.AtMS)), g.clock))
	}
	li := lane[s.Actor]
	laneStyle := st.Lane(li)
	if s.Kind != race.StepRequest {
		laneStyle = st.Faint
	}
	var cont []string
	if g.lanes {
		text := report.Lane(s, g.named, m.run.Outcome.Target.Name)
		for i := range names {
			cell := ""
			if i == li {
				cell = laneStyle.Render(text)
			}
			b.WriteString(layout.Pad(cell, g.lane))
		}
		ans := report.MarkedAnswer(s)
		if plainWidth(ans) > g.server-2 {
			ans = layout.Truncate(ans, g.server-2)
		}
		b.WriteString(layout.Pad(st.Code(s.Code).Render(ans), g.server))
	} else {
		// The answer and the precondition wrap as wholes (no-break
		// spaces): an RV is never split from what it belongs to.
		req := strings.Replace(report.Lane(s, true, m.run.Outcome.Target.Name), "rv ", "rv\u00a0", 1)
		what := st.Lane(li).Render(s.Actor+":") + " " + laneStyle.Render(req)
		if a := report.MarkedAnswer(s); a != "" {
			// "no-op" neither: a non-breaking hyphen until wrapped.
			what += " " + st.Code(s.Code).Render(strings.NewReplacer(" ", "\u00a0", "-", "\u2011").Replace("→ "+a))
		}
		// Two columns short of the RV column, as lanes keep two
		// columns from it: an answer that ends in "→ RV 102" must
		// not read as one with the RV beside it ("RV 102 102").
		wrapped := layout.Lines(layout.Wrap(what, g.text-textGap))
		for i := range wrapped {
			wrapped[i] = strings.NewReplacer("\u00a0", " ", "\u2011", "-").Replace(wrapped[i])
		}
		b.WriteString(layout.Pad(wrapped[0], g.text))
		indent := strings.Repeat(" ", g.gutter+g.clock+2)
		for _, l := range wrapped[1:] {
			cont = append(cont, indent+l)
		}
	}
	b.WriteString(layout.Pad(fmt.Sprint(s.ServerRV), g.rv))
	caches := make([]string, len(names))
	for k, n := range names {
		rv := s.CacheRVs[n]
		caches[k] = fmt.Sprint(rv)
		if rv < s.ServerRV {
			caches[k] = st.Warn.Render(caches[k] + styles.Stale)
		}
	}
	b.WriteString(strings.Join(caches, "/"))
	lines := append([]string{b.String()}, cont...)
	if cur {
		for i := range lines {
			lines[i] = st.Bold.Render(lines[i])
		}
	}
	return lines
}

// waitLines is a row for time a controller spends asleep: it is not a
// step, so it has no number, but it has its virtual time.
func (m Model) waitLines(wt race.Wait, g geometry, lane, w int) []string {
	st := m.st
	var b strings.Builder
	b.WriteString(strings.Repeat(" ", g.gutter))
	if g.clock > 0 {
		b.WriteString(layout.Pad(st.Faint.Render(fmt.Sprintf("%dms", wt.FromMS)), g.clock))
	}
	text := report.WaitText(wt)
	// Its lines after the first start under its text, after "↻ ", so
	// they are two columns narrower.
	lines := hang(text, max(12, w-g.gutter-g.clock), 2, "")
	out := []string{b.String() + st.Lane(lane).Render(lines[0])}
	for _, l := range lines[1:] {
		out = append(out, strings.Repeat(" ", g.gutter+g.clock+2)+st.Lane(lane).Render(strings.TrimLeft(l, " ")))
	}
	return out
}

// windowBlocks keeps the header and as many whole blocks as fit, ending
// with the newest; a block taller than the room shows its first lines.
func windowBlocks(header []string, blocks []block, h int) []string {
	return windowAround(header, blocks, h, -1)
}

// windowAround is windowBlocks keeping the row of step focus in view
// (-1: none): when the last rows leave it out, the window starts a row
// above it and goes on as far as it can.
func windowAround(header []string, blocks []block, h, focus int) []string {
	if h <= 0 {
		return nil
	}
	if len(header) >= h {
		return append([]string(nil), header[:h]...)
	}
	room := h - len(header)
	start := len(blocks)
	used := 0
	for start > 0 && used+len(blocks[start-1].lines) <= room {
		start--
		used += len(blocks[start].lines)
	}
	if at := slices.IndexFunc(blocks, func(b block) bool { return b.step == focus }); focus >= 0 && at >= 0 && at < start {
		// The row above it, for context, when it fits with it.
		start = at
		if at > 0 && len(blocks[at-1].lines)+len(blocks[at].lines) <= room {
			start = at - 1
		}
		out := append([]string(nil), header...)
		for _, b := range blocks[start:] {
			if len(out)+len(b.lines) > h {
				break
			}
			out = append(out, b.lines...)
		}
		if len(out) == len(header) {
			// A row taller than the room: its first lines.
			out = append(out, blocks[at].lines[:room]...)
		}
		return out
	}
	out := append([]string(nil), header...)
	if start == len(blocks) && len(blocks) > 0 {
		return append(out, blocks[len(blocks)-1].lines[:room]...)
	}
	for _, b := range blocks[start:] {
		out = append(out, b.lines...)
	}
	return out
}

func countLines(blocks []block) int {
	n := 0
	for _, b := range blocks {
		n += len(b.lines)
	}
	return n
}
