package quiz

import (
	qz "github.com/conflictlab/conflictlab/quiz"
)

// How the text and the stage share the screen, side by side or stacked.

func (f frame) hasStage() bool {
	q := f.item.Question
	return q != nil && (q.Snippet != "" || q.Kind == qz.Race || q.Kind == qz.Method)
}

func (f frame) wide() bool { return f.w >= WideWidth }

// textWidth is the width of the question column.
func (f frame) textWidth() int {
	switch {
	case !f.hasStage():
		return min(f.w, 100)
	case f.wide():
		return max(40, min(56, f.w*9/25))
	}
	return f.w
}

// textPaneHeight is the height of the question column.
func (f frame) textPaneHeight(v *verdict) int {
	if !f.hasStage() || f.wide() {
		return f.h
	}
	lines, opts, optEnd, _ := f.textBlock(f.w, v)
	need := len(lines)
	share := 50
	switch {
	case v == nil && f.item.Question.Snippet != "":
		// The code is what the question is about.
		share = 45
	case v != nil && v.reviewing:
		// Seen again: the question and the verdict, before the race.
		share = 55
	case v != nil && !f.race.Hidden() && f.race.Run() != nil:
		share = 40
	case v != nil:
		share = 55
	}
	h := max(6, min(need, f.h*share/100))
	if v == nil {
		// The whole question if the stage keeps ten lines, and at least
		// every option, pinned under a line of the question and the marks
		// around it, if it keeps eight.
		h = max(h, min(need, f.h-10), min(need, optEnd-opts+3, f.h-8))
	}
	return h
}

// relayout sizes the question column and gives it its lines, then
// scrolls what the last action asked for into view: before the answer
// the options are pinned under the question, so it opens at its top with
// every option in view; after it, the options and the verdict. It
// returns the line the options start at.
func (f *frame) relayout(v *verdict) int {
	if f.w <= 0 || f.h <= 0 || f.item.Question == nil {
		return 0
	}
	tw, th := f.textWidth(), f.textPaneHeight(v)
	lines, opts, optEnd, verdictAt := f.textBlock(tw, v)
	f.text.SetSize(tw, th)
	if v == nil {
		f.text.SetContent(lines, opts, optEnd)
	} else {
		f.text.SetContent(lines, 0, 0)
	}
	n := len(lines)
	switch f.reveal {
	case revealTop:
		f.text.GotoTop()
	case revealAnswer:
		f.text.EnsureVisible(opts, n)
		if !f.text.Visible(verdictAt) || !f.text.Visible(n-1) {
			f.text.EnsureVisible(verdictAt, n)
		}
	}
	return opts
}

// reveal is what a layout brings into view.
type reveal int

const (
	revealNone reveal = iota
	revealTop
	revealAnswer
)
