package quiz

import (
	"fmt"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/conflictlab/conflictlab/progress"
	qz "github.com/conflictlab/conflictlab/quiz"
	"github.com/conflictlab/conflictlab/ui/layout"
	"github.com/conflictlab/conflictlab/ui/styles"
)

// The setup form: topic, count and seed, before the first question.

func (m Model) setupKey(msg tea.KeyPressMsg) (Model, tea.Cmd) {
	k := m.Keys
	m.formErr = ""
	switch {
	case key.Matches(msg, k.Enter):
		return m.start()
	case key.Matches(msg, k.Up):
		m.focus(m.field - 1)
	case key.Matches(msg, k.Down):
		m.focus(m.field + 1)
	case key.Matches(msg, k.Left, k.Right):
		d := 1
		if key.Matches(msg, k.Left) {
			d = -1
		}
		switch m.field {
		case fieldTopic:
			m.topicI = (m.topicI + d + len(m.topics)) % len(m.topics)
		case fieldCount:
			m.countI = (m.countI + d + len(Counts)) % len(Counts)
		}
	case m.field == fieldSeed && key.Matches(msg, k.Digit):
		if m.seedFresh {
			m.seed, m.seedFresh = "", false
		}
		if len(m.seed) < maxSeedDigits {
			m.seed += msg.Text
		}
	case m.field == fieldSeed && key.Matches(msg, k.Erase):
		m.seedFresh = false
		if m.seed != "" {
			m.seed = m.seed[:len(m.seed)-1]
		}
	}
	return m, nil
}

func (m *Model) focus(f int) {
	f = max(0, min(f, nFields-1))
	if f == fieldSeed && m.field != fieldSeed {
		m.seedFresh = true
	}
	m.field = f
}

// seedValue is the seed the form would start with.
func (m Model) seedValue() (uint64, error) {
	s := m.seed
	if s == "" {
		s = m.defaultSeed()
	}
	return strconv.ParseUint(s, 10, 64)
}

func (m Model) start() (Model, tea.Cmd) {
	seed, err := m.seedValue()
	if err != nil {
		m.formErr = fmt.Sprintf("seed %q: want a number of up to %d digits", m.seed, maxSeedDigits)
		return m, nil
	}
	t := m.topics[m.topicI]
	sess, err := qz.NewSession(m.data.Bank, qz.Filter{Topic: t.key}, Counts[m.countI], seed)
	if err != nil {
		m.formErr = err.Error()
		return m, nil
	}
	if m.seed == "" {
		m.seed = strconv.FormatUint(seed, 10)
	}
	m.sess, m.sessTopic, m.items = sess, t, sess.Questions()
	m.newBest, m.missI = false, 0
	m.prev, m.hadPrev = progress.QuizBest{}, false
	if m.cfg.Prog != nil {
		m.prev, m.hadPrev = m.cfg.Prog.QuizBestOf(t.key)
	}
	m.phase = questioning
	p, _ := sess.Current()
	return m, m.showItem(p, nil)
}

func (m Model) viewSetup() string {
	st := m.st
	w := min(m.w, 100)
	var lines []string
	lines = append(lines, st.Title.Render("New quiz"))
	lines = append(lines, layout.Lines(layout.Wrap(st.Faint.Render(
		"Questions from the course's bank, one at a time: multiple choice, the outcome of a race, the bug in a snippet, the write method for a change."), w))...)
	lines = append(lines, "")
	t := m.topics[m.topicI]
	count := Counts[m.countI]
	n := count
	if count == 0 || count > t.n {
		n = t.n
	}
	countText := "all"
	if count > 0 {
		countText = strconv.Itoa(count)
	}
	countNote := ""
	switch {
	case count == 0:
		countNote = fmt.Sprintf("%d questions", t.n)
	case count > t.n:
		countNote = fmt.Sprintf("only %d match: all of them", t.n)
	}
	seedText, seedNote := m.seed, ""
	switch {
	case m.seed == "":
		seedNote = "empty: today's date, " + m.defaultSeed()
	case m.seed == m.defaultSeed():
		seedNote = "today's date"
	}
	labelW := 12
	row := func(f int, label, value, note string) {
		cursor := "  "
		if f == m.field {
			cursor = st.Accent.Render(styles.Cursor) + " "
			value = st.Selected.Render(value)
		}
		line := cursor + layout.Pad(label, labelW) + value
		if note != "" {
			line += "  " + st.Faint.Render(note)
		}
		lines = append(lines, layout.Truncate(line, w))
	}
	row(fieldTopic, "Topic", "‹ "+t.label+" ›", fmt.Sprintf("%d questions", t.n))
	row(fieldCount, "Questions", "‹ "+countText+" ›", countNote)
	if m.field == fieldSeed {
		seedText += "▏"
	}
	row(fieldSeed, "Seed", seedText, seedNote)
	start := fmt.Sprintf("%s Start: %d questions", styles.Current, n)
	if m.field == fieldStart {
		lines = append(lines, "", st.Accent.Render(styles.Cursor)+" "+st.Selected.Render(start)+st.Faint.Render("  (enter)"))
	} else {
		lines = append(lines, "", "  "+start+st.Faint.Render("  (enter, from any field)"))
	}
	if m.formErr != "" {
		lines = append(lines, "", st.Bad.Render(layout.Truncate(styles.Bad+" "+m.formErr, w)))
	}
	lines = append(lines, "")
	var help string
	switch m.field {
	case fieldTopic:
		help = "←/→ changes the topic: every question, one lesson's, or one concept's. " + t.about
	case fieldCount:
		help = "←/→ changes how many questions are drawn from the topic."
	case fieldSeed:
		help = "Type digits to replace the seed; backspace erases one. The same topic, number and seed give the same questions in the same order: give a room one seed and everyone takes the same quiz."
	default:
		help = "Enter starts the quiz; ↑ goes back to the settings."
	}
	for _, l := range layout.Lines(layout.Wrap(help, w-4)) {
		lines = append(lines, "  "+l)
	}
	lines = append(lines, "")
	cmd := fmt.Sprintf("conflictlab quiz --count %d --seed %s", count, m.seed)
	if m.seed == "" {
		cmd = fmt.Sprintf("conflictlab quiz --count %d --seed %s", count, m.defaultSeed())
	}
	if t.key != "" {
		cmd += " --topic " + t.key
	}
	lines = append(lines, layout.Lines(layout.Wrap(st.Faint.Render("The same quiz on the command line: ")+cmd, w))...)
	if m.cfg.Prog != nil {
		if b, ok := m.cfg.Prog.QuizBestOf(t.key); ok {
			lines = append(lines, st.Faint.Render(layout.Truncate(fmt.Sprintf("Your best on %s: %d/%d (%d%%), %s taken.",
				t.label, b.Right, b.Total, percent(b.Right, b.Total), plural(b.Taken, "quiz", "quizzes")), w)))
		}
	}
	return layout.Fit(strings.Join(lines, "\n"), m.w, m.h)
}
