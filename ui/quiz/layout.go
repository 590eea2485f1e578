package quiz

import (
	qz "github.com/conflictlab/conflictlab/quiz"
)

// How the text and the stage share the screen, side by side or stacked.

func (m Model) hasStage() bool {
	q := m.item.Question
	return q != nil && (q.Snippet != "" || q.Kind == qz.Race || q.Kind == qz.Method)
}

func (m Model) wide() bool { return m.w >= WideWidth }

// textWidth is the width of the question column.
func (m Model) textWidth() int {
	switch {
	case !m.hasStage():
		return min(m.w, 100)
	case m.wide():
		return max(40, min(56, m.w*9/25))
	}
	return m.w
}

// textPaneHeight is the height of the question column.
func (m Model) textPaneHeight() int {
	if !m.hasStage() || m.wide() {
		return m.h
	}
	lines, opts, optEnd, _ := m.textBlock(m.w)
	need := len(lines)
	share := 50
	switch {
	case m.res == nil && m.item.Question.Snippet != "":
		// The code is what the question is about.
		share = 45
	case m.phase == reviewing:
		// Seen again: the question and the verdict, before the race.
		share = 55
	case m.res != nil && !m.race.Hidden() && m.race.Run() != nil:
		share = 40
	case m.res != nil:
		share = 55
	}
	h := max(6, min(need, m.h*share/100))
	if m.res == nil {
		// The whole question if the stage keeps ten lines, and at least
		// every option, pinned under a line of the question and the marks
		// around it, if it keeps eight.
		h = max(h, min(need, m.h-10), min(need, optEnd-opts+3, m.h-8))
	}
	return h
}

// relayout sizes the question column and gives it its lines, then
// scrolls what the last action asked for into view: before the answer
// the options are pinned under the question, so it opens at its top with
// every option in view; after it, the options and the verdict.
func (m *Model) relayout() {
	if m.w <= 0 || m.h <= 0 || (m.phase != asking && m.phase != reviewing) || m.item.Question == nil {
		return
	}
	tw, th := m.textWidth(), m.textPaneHeight()
	lines, opts, optEnd, verdictAt := m.textBlock(tw)
	m.text.SetSize(tw, th)
	if m.res == nil {
		m.text.SetContent(lines, opts, optEnd)
	} else {
		m.text.SetContent(lines, 0, 0)
	}
	n := len(lines)
	switch m.reveal {
	case revealTop:
		m.text.GotoTop()
	case revealAnswer:
		m.text.EnsureVisible(opts, n)
		if !m.text.Visible(verdictAt) || !m.text.Visible(n-1) {
			m.text.EnsureVisible(verdictAt, n)
		}
	}
}

// reveal is what a layout brings into view.
type reveal int

const (
	revealNone reveal = iota
	revealTop
	revealAnswer
)
