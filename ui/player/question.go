package player

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/conflictlab/conflictlab/lessons"
	"github.com/conflictlab/conflictlab/ui/keyhelp"
	"github.com/conflictlab/conflictlab/ui/layout"
	"github.com/conflictlab/conflictlab/ui/markdown"
	"github.com/conflictlab/conflictlab/ui/styles"
)

// question is a predict or choose step's options as the learner works
// them, before the answer (ask.go) and after it (answered.go).
type question struct {
	// cursor is the option under the cursor; optTop the first option in
	// view when the options do not all fit under the prose and scroll
	// with the cursor.
	cursor, optTop int
	// picked is the option last answered, first the scored one (-1 for
	// none, or not known).
	picked, first int
	hint, sol     bool
}

// up and down move the cursor.
func (q *question) up() {
	if q.cursor > 0 {
		q.cursor--
	}
}

func (q *question) down(s *lessons.Step) {
	if q.cursor < len(s.Options)-1 {
		q.cursor++
	}
}

// key handles the keys of the options, before the answer and after:
// ↑↓ move the cursor, h opens or closes the hint, a number or enter
// answers. It reports whether it took the key and the option answered
// (-1 for none); hint says the hint was just opened.
func (q *question) key(msg tea.KeyPressMsg, k KeyMap, s *lessons.Step) (took bool, answer int, hint bool) {
	answer = -1
	switch {
	case key.Matches(msg, k.Up):
		q.up()
	case key.Matches(msg, k.Down):
		q.down(s)
	case key.Matches(msg, k.Pick):
		if n := pick(s, msg.Code); n >= 0 {
			q.cursor, answer = n, n
		}
	case key.Matches(msg, k.Answer):
		answer = q.cursor
	case key.Matches(msg, k.Hint):
		q.hint = !q.hint
		hint = q.hint
	default:
		return false, -1, false
	}
	return true, answer, hint
}

// pick is the option a number key names, or -1.
func pick(s *lessons.Step, r rune) int {
	n := int(r - '1')
	if n < 0 || n >= len(s.Options) {
		return -1
	}
	return n
}

// block lays out the question and its options after the prose: the
// options w wide, in optRows rows when > 0 (they then scroll with the
// cursor), marked once answered (answered: the right one too).
func (q question) block(f frame, lines []string, w, optRows int, answered bool) ([]string, textBlock) {
	st, s := f.st, f.s
	tb := textBlock{question: true}
	lines = append(lines, "")
	tb.q = len(lines)
	for _, l := range layout.Lines(layout.Wrap(s.Question, w)) {
		lines = append(lines, st.Bold.Render(l))
	}
	tb.opt = len(lines)
	opts := make([][]string, len(s.Options))
	for i, o := range s.Options {
		mark := ""
		if q.picked >= 0 {
			mark = "  "
		}
		if i == q.picked || answered && o.Correct {
			// Once answered, the right option is marked too: it is what
			// happened, beside what was picked.
			if o.Correct {
				mark = st.OK.Render(styles.OK) + " "
			} else {
				mark = st.Bad.Render(styles.Bad) + " "
			}
		}
		cursor := "  "
		if i == q.cursor {
			cursor = st.Accent.Render(styles.Cursor) + " "
		}
		// Continuation lines line up under the label, after "N. ".
		num := fmt.Sprintf("%d. ", i+1)
		lead := 2 + layout.MaxWidth(mark) + len(num)
		for j, l := range layout.Lines(layout.Wrap(o.Label, max(8, w-lead))) {
			if j == 0 {
				l = num + l
			}
			if i == q.cursor {
				l = st.Selected.Render(l)
			}
			if j == 0 {
				opts[i] = append(opts[i], cursor+mark+l)
			} else {
				opts[i] = append(opts[i], strings.Repeat(" ", lead)+l)
			}
		}
	}
	a, b := 0, len(opts)
	if optRows > 0 {
		heights := make([]int, len(opts))
		for i, o := range opts {
			heights[i] = len(o)
		}
		a, b = optionWindow(heights, q.cursor, q.optTop, optRows)
	}
	tb.optTop = a
	if a > 0 {
		lines = append(lines, st.Faint.Render("  "+moreOptions("↑", a, "above")))
	}
	for _, o := range opts[a:b] {
		lines = append(lines, o...)
	}
	if b < len(opts) {
		lines = append(lines, st.Faint.Render("  "+moreOptions("↓", len(opts)-b, "below")))
	}
	tb.optEnd = len(lines)
	tb.feedback = len(lines)
	return lines, tb
}

// hintAndSolution adds the hint, the solution and "enter: continue" as
// they are open, marking where each starts and ends in tb (the question
// steps and the play steps end alike).
func hintAndSolution(f frame, tb *textBlock, lines []string, hint, sol, answered bool, w int) []string {
	st, s := f.st, f.s
	tb.hint = len(lines)
	if hint {
		lines = append(lines, "")
		lines = append(lines, layout.Lines(layout.Wrap(st.Warn.Render("Hint: ")+s.Hint, w))...)
	}
	tb.hintEnd = len(lines)
	tb.sol = len(lines)
	if sol && s.Solution != "" {
		lines = append(lines, "", st.Heading.Render("Solution"))
		lines = append(lines, layout.Lines(markdown.Render(s.Solution, st.Markdown, w))...)
	}
	tb.solEnd = len(lines)
	if answered {
		lines = append(lines, "", st.Faint.Render("enter: continue"))
	}
	tb.live = len(lines)
	return lines
}

// moreOptions marks options scrolled out of view: "↓ 2 options below".
func moreOptions(arrow string, n int, where string) string {
	if n == 1 {
		return arrow + " 1 option " + where
	}
	return fmt.Sprintf("%s %d options %s", arrow, n, where)
}

// optionRows is how many rows the options of an unanswered question get
// when all of them, pinned under the prose in a pane th lines high, would
// leave it fewer than proseMin lines; 0 when they fit.
func optionRows(tb textBlock, th int) int {
	if tb.optEnd != len(tb.lines) || len(tb.lines) <= th {
		return 0
	}
	// The pinned block, the "↓ more" mark above it and the prose.
	room := th - 1 - min(proseMin, tb.q)
	if tb.optEnd-tb.q <= room {
		return 0
	}
	return max(1, room-(tb.opt-tb.q))
}

// optionWindow is the options in view, [a, b), when the option i has
// heights[i] lines and rows are to hold them with a mark line for those
// cut above and below: the one under the cursor always, and from top
// (the first in view before) as far as it can be kept.
func optionWindow(heights []int, cursor, top, rows int) (a, b int) {
	fits := func(a, b int) bool {
		n := 0
		for _, h := range heights[a:b] {
			n += h
		}
		if a > 0 {
			n++
		}
		if b < len(heights) {
			n++
		}
		return n <= rows
	}
	a = max(0, min(top, cursor))
	for a < cursor && !fits(a, cursor+1) {
		a++
	}
	b = cursor + 1
	for b < len(heights) && fits(a, b+1) {
		b++
	}
	for a > 0 && fits(a-1, b) {
		a--
	}
	return a, b
}

// questionGroups are a question step's key groups, before its answer and
// after: the answer keys, the lesson's, the text's, the race's, a replay.
func questionGroups(f frame, live bool) []keyhelp.Group {
	k := f.keys()
	lesson := f.lessonKeys()
	if f.s.Race != nil {
		lesson = append(lesson, k.Decide)
	}
	groups := []keyhelp.Group{
		{Title: "Answer", Keys: []key.Binding{k.Up, k.Down, k.Pick, k.Answer, k.Hint, k.Solution}},
		{Title: "Lesson", Keys: lesson},
		{Title: "Text", Keys: k.Text.Bindings()},
	}
	if f.s.Race != nil {
		groups = append(groups, keyhelp.Group{Title: "Race", Keys: k.Race.Bindings()})
	}
	if live {
		groups = append(groups, keyhelp.Group{Title: "Live", Keys: []key.Binding{k.Live}})
	}
	return inspectFirst(f, groups)
}

// inspectFirst lists the inspect panel's keys first while it is open: it
// takes ↑/↓ and esc then, and they are listed as its, once.
func inspectFirst(f frame, groups []keyhelp.Group) []keyhelp.Group {
	if !f.inspecting() {
		return groups
	}
	k := f.keys()
	panel := keyhelp.Group{Title: "Inspect panel", Keys: []key.Binding{withHelp(k.Race.Up, "↑/k", "scroll details"), withHelp(k.Race.Down, "↓/j", "scroll details down"), k.Race.Close, withHelp(k.Race.Inspect, "i", "close details")}}
	return keyhelp.OneMeaning(append([]keyhelp.Group{panel}, groups...))
}
