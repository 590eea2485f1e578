// Package markdown renders the course's prose and code to a given width,
// drawing what glamour drew (prose.go says why it is not glamour), and
// remembers what it rendered: the same text is drawn on many frames.
package markdown

import (
	"strings"
	"sync"

	xansi "github.com/charmbracelet/x/ansi"

	"github.com/conflictlab/conflictlab/ui/layout"
)

type key struct {
	style string
	width int
	text  string
}

// rendered is what Render and Code have drawn, shared by every program
// of the process (a workshop server's sessions draw the same course at
// the same few widths): a read finds an entry under a read lock, and a
// text is rendered with no lock held, so sessions never wait for one
// another's rendering — two that miss the same entry at once both
// render it, and one result is kept.
var rendered = newCache(cacheLimit)

// cacheLimit bounds each of the cache's two generations, in bytes (text
// and rendering): every width a window is resized through renders every
// text again, so an unbounded cache grows for as long as the learner
// drags the window's edge — or, on a workshop server, a client sends
// resizes. A course's texts at a couple of widths fit well under it.
const cacheLimit = 4 << 20

// cache keeps two generations: when the newer is full it becomes the
// older and the older is dropped, so what is drawn on every frame stays
// (a hit in the older moves it to the newer) and the rest ages out.
type cache struct {
	mu       sync.RWMutex
	cur, old map[key]string
	size     int // bytes in cur
	limit    int
}

func newCache(limit int) *cache {
	return &cache{cur: map[key]string{}, old: map[key]string{}, limit: limit}
}

func (c *cache) get(k key) (string, bool) {
	c.mu.RLock()
	out, ok := c.cur[k]
	older := false
	if !ok {
		out, ok = c.old[k]
		older = ok
	}
	c.mu.RUnlock()
	if older {
		c.put(k, out)
	}
	return out, ok
}

func (c *cache) put(k key, out string) {
	n := len(k.text) + len(k.style) + len(out)
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.cur[k]; ok {
		return
	}
	if c.size+n > c.limit {
		c.old, c.cur, c.size = c.cur, map[key]string{}, 0
	}
	c.cur[k] = out
	c.size += n
}

// Render renders Markdown to width columns in the named style ("dark",
// "light" or "notty", glamour's names). There are no document margins
// (the panes draw their own) and no blank lines around the document. It
// is safe to call from many goroutines.
func Render(text, style string, width int) string {
	if width < 4 {
		width = 4
	}
	k := key{style, width, text}
	if out, ok := rendered.get(k); ok {
		return out
	}
	out, err := renderDoc(text, style, width, renderProse)
	if err != nil {
		out = layout.Wrap(strings.TrimSpace(text), width)
	}
	out = layout.Width(out, width)
	rendered.put(k, out)
	return out
}

// renderProse is the prose renderer Render uses: prose, which a test
// replaces to hold renders in progress and see that they overlap.
var renderProse = prose

// renderDoc renders a document segment by segment: Go code fences like
// the code pane, prose by render, inline code kept whole (see
// protectCode), and lists here, each item wrapped like a paragraph at
// the width left by its marker with its lines hanging under the text.
func renderDoc(text, style string, width int, render func(text, style string, width int) (string, error)) (string, error) {
	var parts []string
	for _, seg := range segments(text) {
		if seg.fence && goFence(seg.text) {
			// Go in the prose is drawn like the code pane draws it: a
			// line too long continues after a mark, its indent intact.
			parts = append(parts, code(fenceBody(seg.text), style, width))
			continue
		}
		if seg.fence {
			// Another language (the lessons' recorded runs are "text"):
			// its lines as written, unstyled, continued like code.
			parts = append(parts, plainCode(fenceBody(seg.text), width))
			continue
		}
		if seg.items == nil {
			src := seg.text
			if !seg.fence {
				src = protectCode(src, width)
			}
			out, err := render(src, style, width)
			if err != nil {
				return "", err
			}
			if out != "" {
				parts = append(parts, restore(out))
			}
			continue
		}
		var lines []string
		for _, it := range seg.items {
			lead := xansi.StringWidth(it.marker)
			out, err := render(protectCode(it.text, width-lead), style, max(4, width-lead))
			if err != nil {
				return "", err
			}
			for j, l := range strings.Split(restore(out), "\n") {
				switch {
				case j == 0:
					l = it.marker + l
				case l != "":
					l = strings.Repeat(" ", lead) + l
				}
				lines = append(lines, l)
			}
		}
		parts = append(parts, strings.Join(lines, "\n"))
	}
	return strings.Join(parts, "\n\n"), nil
}

// NoColor is the style name for terminals without colour: the dark style
// with every colour removed, keeping bold and italic, and inline code set
// off with backticks since it has no background.
const NoColor = "notty"

// trimBlankEdges drops the blank lines before and after the document (its lines are padded with spaces, so "blank" is judged on the
// visible text).
func trimBlankEdges(s string) string {
	lines := strings.Split(s, "\n")
	for len(lines) > 0 && isBlank(lines[0]) {
		lines = lines[1:]
	}
	for len(lines) > 0 && isBlank(lines[len(lines)-1]) {
		lines = lines[:len(lines)-1]
	}
	return strings.Join(lines, "\n")
}

// trimRight cuts the spaces every line is padded with to the wrap width, so text can be indented or framed without overflowing.
func trimRight(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		plain := xansi.Strip(l)
		if t := strings.TrimRight(plain, " "); len(t) != len(plain) {
			lines[i] = xansi.Truncate(l, xansi.StringWidth(t), "")
		}
	}
	return strings.Join(lines, "\n")
}

func isBlank(l string) bool { return strings.TrimSpace(xansi.Strip(l)) == "" }

// cut returns the columns [from, to) of a styled line.
func cut(line string, from, to int) string { return xansi.Cut(line, from, to) }
