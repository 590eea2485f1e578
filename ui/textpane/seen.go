package textpane

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
	for i := range m.lines {
		shown[i] = shown[i] || m.Visible(i)
	}
	s.lines, s.w = shown, m.w
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
