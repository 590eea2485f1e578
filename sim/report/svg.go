package report

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/conflictlab/conflictlab/sim/race"
	"github.com/conflictlab/conflictlab/sim/scenario"
)

// SVG draws the race view as a picture for slides: one lane per
// controller with what it did at each step, the server's answer, the
// server's RV and each cache's beside it, the note under every write that
// erased a field, how the race ended, and beside the lanes the object
// pane: the target as the race left it, each field marked with how the
// last write changed it and a lost field with whose change it was. It says what the terminal's race
// view says, in the same words and with the rows numbered the same way,
// and it reads without colour: answers carry ✓ or ✗, a cache behind the
// server a *, a write that erased a field a dashed frame and the ✗ LOST
// note, requests a frame and reads none, the object's fields their
// gutter (+ added, ~ changed, - removed, ✗ lost). Colour only tells the
// lanes apart.
func SVG(w io.Writer, o *race.Outcome) error {
	p := newPicture(o)
	var b bytes.Buffer
	p.draw(&b)
	_, err := w.Write(b.Bytes())
	return err
}

// The picture's measures, in pixels. The text is monospaced, so a column
// is as wide as its longest text in characters.
const (
	svgFont    = 14
	svgCharW   = 8.43 // DejaVu Sans Mono's advance at 14px (0.602 em)
	svgRowH    = 22
	svgBase    = 16 // a row's baseline below its top
	svgPad     = 16 // around the picture
	svgGap     = 2  // characters between columns
	svgMinWrap = 72 // the narrowest a wrapped line gets, in characters
	// The object pane's width in characters: as wide as its widest field
	// line, within these bounds (longer lines wrap).
	svgPaneMin = 36
	svgPaneMax = 60
)

// laneColours tell the lanes apart (on white, each dark enough for text);
// a fifth controller takes the first colour again.
var laneColours = []string{"#1f5fbf", "#a64d00", "#6b3fa0", "#0b6e69"}

type column struct {
	head string
	x    float64 // left edge, px
	w    int     // characters
}

type picture struct {
	o     *race.Outcome
	names []string
	lane  map[string]int
	cols  []column // #, t, one per controller, API server, RV, caches
	width float64
	// tableW is the lanes' width, which the rules, stripes and frames
	// span (the object pane is right of it).
	tableW float64
	wrapAt int // characters
	// pane is the object pane's title and lines (none when the target
	// was never written), paneX its left edge and paneW its width in
	// characters.
	paneTitle string
	pane      []ObjectLine
	paneX     float64
	paneW     int
}

func newPicture(o *race.Outcome) *picture {
	p := &picture{o: o, lane: map[string]int{}}
	for i, c := range o.Controllers {
		p.names = append(p.names, c.Name)
		p.lane[c.Name] = i
	}
	target := o.Target.Name
	// Lane cells leave the target's name out, as the race view does when
	// the lanes are narrow; a request to another object names it.
	laneW := 0
	for _, n := range p.names {
		laneW = max(laneW, runes(n))
	}
	answerW, clockW, rvW := runes("API server"), runes("t"), runes("RV")
	cachesW := runes("cache " + strings.Join(p.names, "/"))
	for _, s := range o.Steps {
		laneW = max(laneW, runes(Lane(s, false, target)))
		answerW = max(answerW, runes(MarkedAnswer(s)))
		clockW = max(clockW, runes(fmt.Sprintf("%dms", s.AtMS)))
		rvW = max(rvW, runes(fmt.Sprint(s.ServerRV)))
		cachesW = max(cachesW, runes(p.caches(s)))
	}
	numW := max(1, runes(fmt.Sprint(len(o.Steps))))
	p.cols = append(p.cols, column{head: "#", w: numW}, column{head: "t", w: clockW})
	for _, n := range p.names {
		p.cols = append(p.cols, column{head: n, w: laneW + 2}) // + the frame's room
	}
	p.cols = append(p.cols, column{head: "API server", w: answerW}, column{head: "RV", w: rvW},
		column{head: "cache " + strings.Join(p.names, "/"), w: cachesW})
	x := float64(svgPad)
	chars := 0
	for i := range p.cols {
		p.cols[i].x = x
		x += float64(p.cols[i].w+svgGap) * svgCharW
		chars += p.cols[i].w + svgGap
	}
	p.wrapAt = max(svgMinWrap, chars-svgGap)
	p.tableW = float64(p.wrapAt) * svgCharW
	p.width = float64(2*svgPad) + p.tableW
	p.objectPane()
	return p
}

// objectPane lays out what the race view shows beside the lanes once the
// race is over: the target's newest version, marked against the one
// before, right of everything else.
func (p *picture) objectPane() {
	o := p.o
	targets := TargetVersions(o)
	if len(targets) == 0 {
		return
	}
	vi, pi := targets[len(targets)-1], -1
	if len(targets) > 1 {
		pi = targets[len(targets)-2]
	}
	p.paneTitle = VersionTitle(o.Versions[vi], o.Target)
	p.pane = ObjectYAML(o, targets, vi, pi, GenerationMatters(o, targets, false))
	w := svgPaneMin
	for _, l := range p.pane {
		if !l.Note {
			w = max(w, runes(l.String()))
		}
	}
	p.paneW = min(w, svgPaneMax)
	p.paneX = p.width - svgPad + float64(svgGap+1)*svgCharW
	p.width = p.paneX + float64(p.paneW)*svgCharW + svgPad
}

// paneLines are the pane's lines wrapped at its width, each with its
// class: the title, then every field, a note under a lost one.
func (p *picture) paneLines() []line {
	class := map[LineMark]string{LineSame: "", LineAdded: "added", LineChanged: "changed", LineRemoved: "removed", LineLost: "lost"}
	out := p.wrapPane(line{text: p.paneTitle, class: "head", indent: 2})
	for _, l := range p.pane {
		// A wrapped field goes on under its value: past the gutter, the
		// field's own indent and two more.
		indent := 2 + len(l.Text) - len(strings.TrimLeft(l.Text, " ")) + 2
		if l.Note {
			indent = 6
		}
		out = append(out, p.wrapPane(line{text: l.String(), class: class[l.Mark], indent: indent})...)
	}
	return out
}

// wrapPane wraps a line at the pane's width.
func (p *picture) wrapPane(l line) []line {
	wrapAt := p.wrapAt
	p.wrapAt = p.paneW
	defer func() { p.wrapAt = wrapAt }()
	return p.wrap(l)
}

// drawPane draws the object pane from top down, framed, and returns its
// bottom.
func (p *picture) drawPane(b *bytes.Buffer, top float64) float64 {
	lines := p.paneLines()
	titleLines := len(p.wrapPane(line{text: p.paneTitle, class: "head", indent: 2}))
	y := top
	for i, l := range lines {
		y += svgRowH
		p.text(b, p.paneX, y, l.class, l.text)
		if i == titleLines-1 {
			fmt.Fprintf(b, `<line class="rule" x1="%s" y1="%s" x2="%s" y2="%s"/>`+"\n", px(p.paneX), px(y+7), px(p.paneX+float64(p.paneW)*svgCharW), px(y+7))
			y += 9
		}
	}
	x0 := p.paneX - svgCharW
	fmt.Fprintf(b, `<rect class="pane" x="%s" y="%s" width="%s" height="%s" rx="4"/>`+"\n", px(x0), px(top+2), px(float64(p.paneW+2)*svgCharW), px(y-top+8))
	return y + 8
}

// caches is the cache column of a step: each informer's RV, with a * when
// it is behind the server.
func (p *picture) caches(s race.Step) string {
	parts := make([]string, len(p.names))
	for i, n := range p.names {
		rv := s.CacheRVs[n]
		parts[i] = fmt.Sprint(rv)
		if rv < s.ServerRV {
			parts[i] += MarkBehind
		}
	}
	return strings.Join(parts, "/")
}

// line is one line of text of the picture, with its class.
type line struct {
	text, class string
	indent      int // characters of hanging indent, for its wrapped lines
}

// draw writes the whole picture: the header, the rows, the ending.
func (p *picture) draw(b *bytes.Buffer) {
	o := p.o
	var body bytes.Buffer
	y := float64(svgPad)
	// Title: the race and its target, and the schedule it ran.
	y += svgRowH
	p.text(&body, float64(svgPad), y, "title", fmt.Sprintf("race %s · target %s", o.Scenario, o.Target))
	for _, l := range p.wrap(line{text: "schedule " + strings.Join(scenario.Tokens(o.Schedule), " "), class: "faint", indent: 9}) {
		y += svgRowH
		p.text(&body, float64(svgPad), y, l.class, l.text)
	}
	// The column heads, the lanes' in their colours; the object pane
	// beside the lanes, from the heads down.
	y += svgRowH * 0.5
	paneBottom := y
	if len(p.pane) > 0 {
		paneBottom = p.drawPane(&body, y)
	}
	y += svgRowH
	for i, c := range p.cols {
		class := "head"
		if k := i - 2; k >= 0 && k < len(p.names) {
			class = fmt.Sprintf("head lane%d", k%len(laneColours))
		}
		p.text(&body, c.x, y, class, c.head)
	}
	y += 7
	fmt.Fprintf(&body, `<line class="rule" x1="%s" y1="%s" x2="%s" y2="%s"/>`+"\n", px(svgPad), px(y), px(svgPad+p.tableW), px(y))
	p.laneEdges(&body, y-svgRowH-9, y+2)
	y += 2
	for i, s := range o.Steps {
		y = p.row(&body, i, s, y)
	}
	y += 2
	fmt.Fprintf(&body, `<line class="rule" x1="%s" y1="%s" x2="%s" y2="%s"/>`+"\n", px(svgPad), px(y), px(svgPad+p.tableW), px(y))
	y += svgRowH
	p.text(&body, float64(svgPad), y, "faint", MarkBehind+" cache behind the server")
	// How it ended.
	y += svgRowH * 0.5
	for _, l := range p.ending() {
		for _, wl := range p.wrap(l) {
			y += svgRowH
			p.text(&body, float64(svgPad), y, wl.class, wl.text)
		}
	}
	height := max(y, paneBottom) + svgPad + 6
	fmt.Fprintf(b, `<svg xmlns="http://www.w3.org/2000/svg" width="%s" height="%s" viewBox="0 0 %s %s" xml:space="preserve" font-family="DejaVu Sans Mono, Menlo, Consolas, monospace" font-size="%d">`+"\n",
		px(p.width), px(height), px(p.width), px(height), svgFont)
	b.WriteString("<title>")
	xmlText(b, fmt.Sprintf("race %s", o.Scenario))
	b.WriteString("</title>\n<desc>")
	_, text := Ending(o)
	xmlText(b, fmt.Sprintf("%d steps of %s racing on %s; %s", len(o.Steps), strings.Join(p.names, ", "), o.Target, text))
	b.WriteString("</desc>\n<style>\n")
	b.WriteString(`text { fill: #1a1a1a; white-space: pre; }
.title { font-weight: bold; font-size: 16px; }
.head { font-weight: bold; }
.faint, .read { fill: #5c5c5c; }
.read { font-style: italic; }
.num { fill: #5c5c5c; text-anchor: end; }
.ok { fill: #1b7f35; }
.bad { fill: #b3261e; font-weight: bold; }
.warn { fill: #8a5a00; font-weight: bold; }
.behind { fill: #8a5a00; }
.lost { fill: #b3261e; font-weight: bold; }
.wait { fill: #5c5c5c; font-style: italic; }
.rule { stroke: #9e9e9e; stroke-width: 1; }
.lanesep { stroke: #d0d0d0; stroke-width: 1; }
.stripe { fill: #f3f3f3; }
.erased { fill: none; stroke: #b3261e; stroke-width: 2; stroke-dasharray: 6 3; }
.pane { fill: none; stroke: #9e9e9e; stroke-width: 1; }
.added { fill: #1b7f35; }
.changed { fill: #8a5a00; }
.removed { fill: #5c5c5c; text-decoration: line-through; }
`)
	for i, c := range laneColours {
		fmt.Fprintf(b, ".lane%d { fill: %s; }\n.frame%d { fill: #ffffff; stroke: %s; stroke-width: 1.5; }\n", i, c, i, c)
	}
	b.WriteString("</style>\n")
	fmt.Fprintf(b, `<rect x="0" y="0" width="%s" height="%s" fill="#ffffff"/>`+"\n", px(p.width), px(height))
	b.Write(body.Bytes())
	b.WriteString("</svg>\n")
}

// row draws step i below y and returns the new bottom: its number, time,
// lane cell, answer, RVs, then the note of each field it erased and the
// waits that follow it. Each line of it is a band svgRowH high, its text
// on a baseline svgBase below the band's top.
func (p *picture) row(b *bytes.Buffer, i int, s race.Step, y float64) float64 {
	o := p.o
	top := y
	base := top + svgBase
	if i%2 == 1 {
		fmt.Fprintf(b, `<rect class="stripe" x="%s" y="%s" width="%s" height="%d"/>`+"\n", px(svgPad-4), px(top), px(p.tableW+8), svgRowH)
	}
	num, clock := p.cols[0], p.cols[1]
	p.text(b, num.x+float64(num.w)*svgCharW, base, "num", fmt.Sprint(s.Index+1))
	p.text(b, clock.x, base, "faint", fmt.Sprintf("%dms", s.AtMS))
	k := p.lane[s.Actor]
	c := p.cols[2+k]
	colour := k % len(laneColours)
	cell := Lane(s, false, o.Target.Name)
	if s.Kind == race.StepRequest {
		// A request is framed in its lane's colour; a read from the cache
		// and a watch event are not requests, and are not framed.
		fmt.Fprintf(b, `<rect class="frame%d" x="%s" y="%s" width="%s" height="%d" rx="3"/>`+"\n", colour,
			px(c.x-4), px(top+2), px(float64(runes(cell))*svgCharW+8), svgRowH-3)
		p.text(b, c.x, base, fmt.Sprintf("lane%d", colour), cell)
		class := "ok"
		if !s.OK() {
			class = "bad"
		}
		p.text(b, p.cols[len(p.cols)-3].x, base, class, MarkedAnswer(s))
	} else {
		p.text(b, c.x, base, "read", cell)
	}
	p.text(b, p.cols[len(p.cols)-2].x, base, "", fmt.Sprint(s.ServerRV))
	p.caches1(b, p.cols[len(p.cols)-1].x, base, s)
	p.laneEdges(b, top, top+svgRowH)
	bottom := top + svgRowH
	var notes []line
	for _, l := range o.Lost {
		if l.ErasedAtStep == s.Index {
			notes = append(notes, p.wrapFrom(line{text: "└ " + LostNote(l), class: "lost", indent: 4}, num.w+svgGap)...)
		}
	}
	if len(notes) > 0 {
		// The write and its notes in one dashed frame: the mark that a
		// field was erased here, whatever the colours.
		h := float64(svgRowH * (1 + len(notes)))
		fmt.Fprintf(b, `<rect class="erased" x="%s" y="%s" width="%s" height="%s" rx="4"/>`+"\n", px(svgPad-6), px(top), px(p.tableW+12), px(h))
		for _, n := range notes {
			p.text(b, num.x+float64(num.w+svgGap)*svgCharW, bottom+svgBase, n.class, n.text)
			bottom += svgRowH
		}
	}
	for _, wt := range o.Waits {
		if wt.AfterStep == s.Index {
			// A wait is no step: no number, and its time where the
			// steps' times are.
			for _, l := range p.wrapFrom(line{text: WaitText(wt), class: "wait", indent: 2}, num.w+svgGap) {
				p.text(b, clock.x, bottom+svgBase, l.class, l.text)
				bottom += svgRowH
			}
		}
	}
	return bottom
}

// caches1 writes the cache column with the RVs behind the server marked.
func (p *picture) caches1(b *bytes.Buffer, x, y float64, s race.Step) {
	fmt.Fprintf(b, `<text x="%s" y="%s">`, px(x), px(y))
	for i, n := range p.names {
		if i > 0 {
			b.WriteString("/")
		}
		rv := fmt.Sprint(s.CacheRVs[n])
		if s.CacheRVs[n] < s.ServerRV {
			b.WriteString(`<tspan class="behind">`)
			xmlText(b, rv+MarkBehind)
			b.WriteString("</tspan>")
			continue
		}
		xmlText(b, rv)
	}
	b.WriteString("</text>\n")
}

// ending is how the race ended, as the race view says it: the ending, the
// invariants it does not name, each lost field, each stale decision and
// each controller's conflicts.
func (p *picture) ending() []line {
	o := p.o
	tone, text := Ending(o)
	class := map[Tone]string{ToneOK: "ok", ToneBad: "bad", ToneWarn: "warn"}[tone]
	out := []line{{text: text, class: class + " head", indent: 2}}
	for _, l := range EndingInvariants(o) {
		out = append(out, line{text: "  " + l, class: "warn", indent: 4})
	}
	for _, l := range o.Lost {
		out = append(out, line{text: "  " + LossLine(l), class: "lost", indent: 4})
	}
	for _, d := range o.Stale {
		out = append(out, line{text: "  " + StaleLine(d), class: "warn", indent: 4})
	}
	for _, c := range o.Controllers {
		if l := ConflictLine(c); l != "" {
			out = append(out, line{text: "  " + l, class: "warn", indent: 4})
		}
	}
	return out
}

// laneEdges draws the lines between the lanes from y0 to y1: they are
// drawn band by band, so that a note or a wait across the lanes (which
// has none) is not struck through.
func (p *picture) laneEdges(b *bytes.Buffer, y0, y1 float64) {
	for k := range p.names {
		x := p.cols[2+k].x - svgCharW*float64(svgGap)/2
		fmt.Fprintf(b, `<line class="lanesep" x1="%s" y1="%s" x2="%s" y2="%s"/>`+"\n", px(x), px(y0), px(x), px(y1))
	}
}

// wrap breaks a line longer than the picture at spaces, its later lines
// indented under its text; a word longer than a line is cut.
func (p *picture) wrap(l line) []line { return p.wrapFrom(l, 0) }

// wrapFrom is wrap for a line that starts from characters into the
// picture.
func (p *picture) wrapFrom(l line, from int) []line {
	w := p.wrapAt - from
	if runes(l.text) <= w {
		return []line{l}
	}
	var out []line
	cur := ""
	pad := strings.Repeat(" ", l.indent)
	emit := func() {
		out = append(out, line{text: strings.TrimRight(cur, " "), class: l.class})
		cur = pad
	}
	lead := len(l.text) - len(strings.TrimLeft(l.text, " "))
	cur = l.text[:lead]
	for _, word := range strings.Fields(l.text) {
		for runes(word) > w-l.indent {
			if strings.TrimSpace(cur) != "" {
				emit()
			}
			r := []rune(word)
			cur += string(r[:w-l.indent])
			word = string(r[w-l.indent:])
			emit()
		}
		switch {
		case strings.TrimSpace(cur) == "":
			cur += word
		case runes(cur)+1+runes(word) > w:
			emit()
			cur += word
		default:
			cur += " " + word
		}
	}
	if strings.TrimSpace(cur) != "" {
		emit()
	}
	return out
}

// text writes one <text> element.
func (p *picture) text(b *bytes.Buffer, x, y float64, class, s string) {
	if s == "" {
		return
	}
	if class != "" {
		fmt.Fprintf(b, `<text x="%s" y="%s" class="%s">`, px(x), px(y), class)
	} else {
		fmt.Fprintf(b, `<text x="%s" y="%s">`, px(x), px(y))
	}
	xmlText(b, s)
	b.WriteString("</text>\n")
}

// xmlText escapes s as XML character data; a character XML cannot hold
// (a control character from a scenario's values) becomes U+FFFD.
func xmlText(b *bytes.Buffer, s string) {
	_ = xml.EscapeText(b, []byte(s))
}

func px(v float64) string {
	s := fmt.Sprintf("%.1f", v)
	return strings.TrimSuffix(s, ".0")
}

func runes(s string) int { return utf8.RuneCountInString(s) }
