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

// A line under the "↓ more" mark at the top and under the "↑ more" mark
// at the bottom is on screen at no offset a page key reaches: Reveal
// scrolls to it, so an answer key pressed again and again gets the
// question read; a blank line there counts as read.
func TestRevealShowsWhatThePageKeysSkip(t *testing.T) {
	// 9 lines above a pinned question of 2, in a window of 7: 5 rows of
	// prose with their marks.
	lines := append(numbered(9), "question", "option")
	m := pane(lines, 9, 11, 40, 7)
	var s Seen
	s.Mark(m) // the top
	m.GotoBottom()
	s.Mark(m) // and the bottom
	missed := -1
	for i := range 9 {
		if !s.lines[i] {
			missed = i
		}
	}
	if missed < 0 {
		t.Fatal("top and bottom show every line: the test needs a line between the marks")
	}
	if s.Through(9) {
		t.Fatalf("line %d was never on screen and Through says the prose was read", missed)
	}
	above, moved := s.Reveal(&m, 9)
	if !moved || !above || !m.Visible(missed) || !s.Through(9) {
		t.Fatalf("Reveal: above %v moved %v, line %d visible %v, read %v", above, moved, missed, m.Visible(missed), s.Through(9))
	}
	if _, moved := s.Reveal(&m, 9); moved {
		t.Fatal("Reveal moved with everything read")
	}
	// The same line blank has nothing to read.
	lines[missed] = "   "
	m = pane(lines, 9, 11, 40, 7)
	var b Seen
	b.Mark(m)
	m.GotoBottom()
	b.Mark(m)
	if !b.Through(9) {
		t.Fatal("a blank line under the marks keeps the question unread")
	}
}
