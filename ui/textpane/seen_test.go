package textpane

import "testing"

// Seen keeps what has been on screen as the pane scrolls, and forgets it
// when the width, and so the lines, change.
func TestSeenKeepsWhatWasShown(t *testing.T) {
	m := pane(numbered(20), 16, 20, 40, 8)
	var s Seen
	s.Mark(m)
	if s.Through(16) {
		t.Fatal("16 lines read in a window of 8")
	}
	if !s.Through(2) {
		t.Fatal("the first lines on screen are not marked")
	}
	for !m.AtBottom() {
		m.ScrollBy(1)
		s.Mark(m)
	}
	if !s.Through(16) {
		t.Fatal("every line was on screen on the way down, and Through says not")
	}
	m.GotoTop()
	s.Mark(m)
	if !s.Through(16) {
		t.Fatal("scrolling back up forgot what was read")
	}
	if s.Through(21) {
		t.Fatal("Through counts lines the pane does not have")
	}
	m.SetSize(30, 8)
	s.Mark(m)
	if s.Through(16) {
		t.Fatal("a new width keeps the old width's lines as read")
	}
}
