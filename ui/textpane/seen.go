package textpane

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// Seen is which of a pane's lines have been on screen: a question's
// options answer only once every line above them has been read (a short
// window keeps the options pinned under a question cut off above them).
// The zero value has seen nothing. The lines are marked afresh when the
// pane's width changes: the text wraps into other lines then.
type Seen struct {
	lines []bool
	w     int
}

// Mark adds the lines m shows now.
func (s *Seen) Mark(m Model) {
	shown := make([]bool, len(m.lines))
	if m.w == s.w {
		copy(shown, s.lines)
	}
	for i, l := range m.lines {
		// A blank line has nothing to read: it may sit under the "↑ more"
		// or "↓ more" mark at every offset a page key reaches.
		shown[i] = shown[i] || m.Visible(i) || strings.TrimSpace(ansi.Strip(l)) == ""
	}
	s.lines, s.w = shown, m.w
}

// Reveal scrolls m to the first line before line n not yet on screen
// and marks what it shows: an answer refused because the question was
// not read whole leads to what was missed, wherever it is, so that
// pressing the key again always gets further. It reports whether that
// line was above the window, and false when every line was seen.
func (s *Seen) Reveal(m *Model, n int) (above, moved bool) {
	s.Mark(*m)
	for i := range min(n, len(s.lines)) {
		if !s.lines[i] {
			// The missed line at the top (under the "↑ more" mark, which
			// covers the first row once scrolled): as much new text as
			// the window holds.
			before := m.off
			m.off = max(0, i-1)
			m.clamp()
			if !m.Visible(i) {
				m.EnsureVisible(i, i+1)
			}
			s.Mark(*m)
			return m.off < before, true
		}
	}
	return false, false
}

// Through reports whether every line before line n has been on screen.
func (s Seen) Through(n int) bool {
	if len(s.lines) < n {
		return false
	}
	for _, v := range s.lines[:n] {
		if !v {
			return false
		}
	}
	return true
}

// UnreadQuestion is why an answer key scrolled (Reveal) instead of
// answering: above says the line it showed was above the window.
func UnreadQuestion(above bool) string {
	if above {
		return "The question starts above what you have read: read it whole first (pgup)."
	}
	return "The question goes on below what you have read: read it whole first (pgdn)."
}
