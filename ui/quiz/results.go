package quiz

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/conflictlab/conflictlab/ui/layout"
	"github.com/conflictlab/conflictlab/ui/styles"
)

// The score at the end, and the missed questions to review.

func (m Model) resultsKey(msg tea.KeyPressMsg) (Model, tea.Cmd) {
	k := m.Keys
	missed := m.sess.Score().Missed
	switch {
	case key.Matches(msg, k.Up):
		m.missI = max(0, m.missI-1)
	case key.Matches(msg, k.Down):
		m.missI = max(0, min(m.missI+1, len(missed)-1))
	case key.Matches(msg, k.Enter):
		return m, m.review(m.missI)
	case key.Matches(msg, k.New):
		m.phase = setup
		m.field = fieldStart
		m.stage("", nil, false)
	}
	return m, nil
}

func (m Model) viewResults() string {
	st := m.st
	w := min(m.w, 100)
	sc := m.sess.Score()
	var lines []string
	lines = append(lines, st.Title.Render("Quiz complete"))
	lines = append(lines, st.Faint.Render(layout.Truncate(fmt.Sprintf("%s · %s · seed %d", m.sessTopic.label, plural(sc.Total, "question", "questions"), m.sess.Seed()), w)))
	lines = append(lines, "")
	score := fmt.Sprintf("Score: %d of %d right (%d%%)", sc.Right, sc.Total, percent(sc.Right, sc.Total))
	if sc.Right == sc.Total {
		score = st.OK.Render(styles.OK+" ") + score
	}
	lines = append(lines, st.Bold.Render(score))
	switch {
	case m.newBest && m.hadPrev:
		lines = append(lines, st.OK.Render(layout.Truncate(fmt.Sprintf("New best on %s (was %d/%d).", m.sessTopic.label, m.prev.Right, m.prev.Total), w)))
	case m.newBest:
		lines = append(lines, st.Faint.Render(layout.Truncate("Your first score on "+m.sessTopic.label+": kept as your best.", w)))
	case m.cfg.Prog != nil:
		if b, ok := m.cfg.Prog.QuizBestOf(m.sessTopic.key); ok {
			lines = append(lines, st.Faint.Render(layout.Truncate(fmt.Sprintf("Your best on %s: %d/%d (%d%%).", m.sessTopic.label, b.Right, b.Total, percent(b.Right, b.Total)), w)))
		}
	}
	lines = append(lines, "")
	if len(sc.Missed) == 0 {
		lines = append(lines, st.OK.Render(styles.OK+" Nothing missed."))
	} else {
		lines = append(lines, st.Heading.Render(fmt.Sprintf("Missed: %d to review", len(sc.Missed)))+st.Faint.Render(" · enter shows one again"))
	}
	top := len(lines)
	var list []string
	for i, r := range sc.Missed {
		cursor := "  "
		text := fmt.Sprintf("%s %d. %s", styles.Bad, r.Number, oneLine(r.Question.Text))
		text = layout.Truncate(text, w-4)
		if i == m.missI {
			cursor = st.Accent.Render(styles.Cursor) + " "
			text = st.Selected.Render(text)
		}
		list = append(list, cursor+text)
		list = append(list, "    "+st.Faint.Render(layout.Truncate(kindLabel(r.Question.Kind)+" · "+m.lessonLabel(r.Lesson), w-4)))
	}
	foot := []string{"", st.Faint.Render(layout.Truncate("n: new quiz · esc: lessons", w))}
	avail := m.h - top - len(foot)
	if len(list) > avail && avail > 0 {
		// Keep the selected entry (two lines) in view.
		sel := m.missI * 2
		start := max(0, min(sel-avail+2, len(list)-avail))
		list = list[start : start+avail]
		if start > 0 {
			list[0] = st.Faint.Render("  ↑ more above")
		}
		if start+avail < len(sc.Missed)*2 {
			list[len(list)-1] = st.Faint.Render("  ↓ more below")
		}
	}
	lines = append(lines, list...)
	lines = append(lines, foot...)
	return layout.Fit(strings.Join(lines, "\n"), m.w, m.h)
}

func percent(right, total int) int {
	if total == 0 {
		return 0
	}
	return right * 100 / total
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}
