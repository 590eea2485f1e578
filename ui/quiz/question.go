package quiz

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/conflictlab/conflictlab/lessons"
	"github.com/conflictlab/conflictlab/lessons/snippets"
	"github.com/conflictlab/conflictlab/progress"
	qz "github.com/conflictlab/conflictlab/quiz"
	"github.com/conflictlab/conflictlab/sim/race"
	"github.com/conflictlab/conflictlab/ui/layout"
	"github.com/conflictlab/conflictlab/ui/markdown"
	"github.com/conflictlab/conflictlab/ui/nav"
	"github.com/conflictlab/conflictlab/ui/raceview"
	"github.com/conflictlab/conflictlab/ui/stage"
	"github.com/conflictlab/conflictlab/ui/styles"
)

// A question on show: its options, the race or code it is about, the
// answer and its feedback.

// showItem puts a question on show, unanswered (res nil) or answered.
func (m *Model) showItem(p qz.Presented, res *qz.Result) tea.Cmd {
	m.item, m.res, m.raceErr = p, res, nil
	// A question opens at its top, a reviewed one too, and unzoomed.
	m.reveal, m.zoom = revealTop, false
	m.cursor = 0
	if res != nil {
		m.cursor = res.Chosen
	}
	m.req.Clear()
	m.stage("", nil, false)
	m.showCode()
	return m.stageRace()
}

// defectRemark is the course's marker of a snippet's defect.
var defectRemark = regexp.MustCompile(`[ \t]*// DEFECT\b.*$`)

// HideDefects is a snippet as a spot-the-bug question shows it: without
// the "// DEFECT" remarks and without the comment at its top. The course
// writes both for the lessons, where they explain the bug; in a question
// they would be the answer. They are shown once the question is answered.
func HideDefects(src string) string {
	lines := strings.Split(src, "\n")
	top := 0
	for top < len(lines) && strings.HasPrefix(strings.TrimSpace(lines[top]), "//") {
		top++
	}
	lines = lines[top:]
	for i, l := range lines {
		lines[i] = defectRemark.ReplaceAllString(l, "")
	}
	return strings.Join(lines, "\n")
}

// showCode puts the question's snippet on the stage: without its defect
// remarks until the question is answered, with them afterwards.
func (m *Model) showCode() {
	m.code.Show("")
	q := m.item.Question
	if q == nil || q.Snippet == "" {
		return
	}
	src := m.cfg.Snippets
	if src == nil {
		src = snippets.Get
	}
	m.code.Source = src
	if m.res == nil {
		m.code.Source = func(name string) (string, error) {
			s, err := src(name)
			return lessons.SnippetBeforeAnswer(s), err // every comment: a doc comment or a remark can name the defect too
		}
	}
	m.code.Show(q.Snippet)
}

// stageRace shows the race that goes with the question as it stands: at
// its setup before the answer; afterwards played, for a method question
// with the strategy of the option under the cursor.
func (m *Model) stageRace() tea.Cmd {
	q := m.item.Question
	switch {
	case q.Kind == qz.Race:
		return m.show(-1, m.res == nil, m.res != nil)
	case q.Kind == qz.Method && m.res == nil:
		return m.show(-1, true, false)
	case q.Kind == qz.Method:
		return m.show(m.cursor, false, true)
	}
	return nil
}

func (m Model) raceKey(opt int) string {
	k := m.item.Question.ID
	if opt >= 0 {
		k += "/" + m.item.Options[opt].Text
	}
	return k
}

func (m *Model) show(opt int, hidden, play bool) tea.Cmd {
	k := m.raceKey(opt)
	if k == m.req.Want && m.race.Run() != nil && m.race.Hidden() == hidden {
		return nil
	}
	m.raceErr = nil
	var strategy *lessons.Strategy
	if opt >= 0 {
		strategy = m.item.Options[opt].Strategy
	}
	if m.data == nil || m.data.Races == nil {
		m.req.Want, m.req.Hidden, m.req.Reveal = k, hidden, play
		m.stage("", nil, false)
		return nil
	}
	o, cmd := m.req.Ask(m.data.Races, k, m.item.Question.Spec(strategy), hidden, play, func(r stage.Ready) tea.Msg { return raceReady{r} })
	if o != nil {
		return m.apply(k, o)
	}
	m.stage("", nil, false)
	return cmd
}

// apply puts the race of key k on the stage if it is the one wanted,
// leaving the race already there as it is (maybe playing) unless it is
// to be revealed or hidden.
func (m *Model) apply(k string, o *race.Outcome) tea.Cmd {
	if !m.req.Wanted(k, m.race.Hidden() == m.req.Hidden) {
		return nil
	}
	r := raceview.NewRun(o)
	hidden := m.req.Hidden
	if hidden && m.item.Question.Kind == qz.Method {
		r.Withheld = m.withheld(o)
	}
	m.stage(k, r, hidden)
	if m.item.Question.Kind == qz.Method && hidden {
		m.race.SetSetupNote("answer to run it with that write")
	}
	if m.req.TakeReveal() {
		return m.race.Reveal()
	}
	return nil
}

// withheld names the controllers of a method question whose write is
// the answer: its setup says what they read and change, not how they
// write — the scenario's own write method would give the answer away.
func (m *Model) withheld(o *race.Outcome) []string {
	q := m.item.Question
	var names []string
	for _, c := range o.Controllers {
		if len(q.Apply) == 0 || slices.Contains(q.Apply, c.Name) {
			names = append(names, c.Name)
		}
	}
	return names
}

// stage puts r on the race view; k is the race's key ("" for none),
// which tells a late duplicate from a race still to show.
func (m *Model) stage(k string, r *raceview.Run, hidden bool) {
	m.req.Shown = k
	m.race.SetRun(r, hidden)
}

func (m Model) questionKey(msg tea.KeyPressMsg) (Model, tea.Cmd) {
	k := m.Keys
	p := m.item
	answered := m.res != nil
	switch {
	case key.Matches(msg, k.Zoom) && m.hasStage():
		m.zoom = !m.zoom
	case !answered && key.Matches(msg, k.Pick):
		n := int(msg.Code - '1')
		if n < 0 || n >= len(p.Options) {
			return m, nil
		}
		m.cursor = n
		return m.answer(n)
	case key.Matches(msg, k.Up):
		if m.cursor > 0 {
			m.cursor--
			return m, m.cursorMoved()
		}
	case key.Matches(msg, k.Down):
		if m.cursor < len(p.Options)-1 {
			m.cursor++
			return m, m.cursorMoved()
		}
	case key.Matches(msg, k.Enter):
		switch {
		case !answered:
			return m.answer(m.cursor)
		case m.phase == reviewing:
			m.phase = results
			m.stage("", nil, false)
			return m, nil
		case m.sess.Done():
			m.phase = results
			m.stage("", nil, false)
			return m, nil
		}
		next, _ := m.sess.Current()
		return m, m.showItem(next, nil)
	case m.phase == reviewing && key.Matches(msg, k.NextMissed):
		return m, m.review(m.missI + 1)
	case m.phase == reviewing && key.Matches(msg, k.PrevMissed):
		return m, m.review(m.missI - 1)
	case answered && key.Matches(msg, k.Lesson) && m.canOpen(p.Question.Lesson):
		id := p.Question.Lesson
		return m, func() tea.Msg { return nav.Open{LessonID: id, Step: 0} }
	case k.Text.Matches(msg):
		m.text, _ = m.text.Update(msg)
		m.reveal = revealNone
	case p.Question.Snippet != "" && key.Matches(msg, k.Race.ScrollDown):
		m.code.Scroll(1)
	case p.Question.Snippet != "" && key.Matches(msg, k.Race.ScrollUp):
		m.code.Scroll(-1)
	case m.race.HandlesKey(msg):
		var cmd tea.Cmd
		m.race, cmd = m.race.Update(msg)
		return m, cmd
	}
	return m, nil
}

// cursorMoved: after the answer, a method question's stage runs the
// option under the cursor.
func (m *Model) cursorMoved() tea.Cmd {
	if m.res != nil && m.item.Question.Kind == qz.Method {
		return m.show(m.cursor, false, true)
	}
	return nil
}

func (m Model) answer(i int) (Model, tea.Cmd) {
	r, err := m.sess.Answer(i)
	if err != nil {
		return m, nil
	}
	m.res = &r
	m.reveal = revealAnswer
	m.showCode()
	var cmds []tea.Cmd
	cmds = append(cmds, m.stageRace())
	if m.sess.Done() {
		sc := m.sess.Score()
		if m.cfg.Prog != nil {
			// The root records it; the best before this quiz says whether
			// it is a new one.
			m.newBest = !m.hadPrev || m.prev.BeatenBy(sc.Right, sc.Total)
			cmds = append(cmds, nav.Send(progress.QuizTaken{Topic: m.sessTopic.key, Right: sc.Right, Total: sc.Total}))
		}
	}
	return m, tea.Batch(cmds...)
}

// review shows the i-th missed question again, answered.
func (m *Model) review(i int) tea.Cmd {
	missed := m.sess.Score().Missed
	if len(missed) == 0 {
		return nil
	}
	i = max(0, min(i, len(missed)-1))
	m.missI = i
	m.phase = reviewing
	r := missed[i]
	return m.showItem(m.items[r.Number-1], &r)
}

// kindLabel is the kind's label as a heading.
func kindLabel(k qz.Kind) string {
	l := k.Label()
	return strings.ToUpper(l[:1]) + l[1:]
}

// textBlock is the question column, the lines its options start and end
// at, and the line the verdict is on (len(lines) before the answer).
func (m Model) textBlock(w int) (lines []string, opts, optEnd, verdictAt int) {
	st := m.st
	p := m.item
	q := p.Question
	head := st.Heading.Render(kindLabel(q.Kind))
	if m.phase == reviewing {
		head = st.Bad.Render(styles.Bad+" Missed · ") + head
	}
	// The number is in the header too: it goes when the column is narrow.
	if num := st.Faint.Render(fmt.Sprintf(" · question %d of %d", p.Number, p.Total)); layout.MaxWidth(head+num) <= w {
		head += num
	}
	lines = append(lines, layout.Truncate(head, w))
	lines = append(lines, layout.Lines(markdown.Render(q.Text, st.Markdown, w))...)
	if m.res == nil {
		note := ""
		switch q.Kind {
		case qz.Race:
			note = "The race waits at its start until you answer."
		case qz.Method:
			note = "Once you answer, the race runs with that write."
		case qz.Bug:
			note = "The code's own comments show once you answer."
		}
		for _, l := range layout.Lines(layout.Wrap(note, w)) {
			lines = append(lines, st.Faint.Render(l))
		}
	}
	lines = append(lines, "")
	opts = len(lines)
	for i, o := range p.Options {
		mark := ""
		if m.res != nil {
			switch {
			case i == m.res.Correct:
				mark = st.OK.Render(styles.OK) + " "
			case i == m.res.Chosen:
				mark = st.Bad.Render(styles.Bad) + " "
			default:
				mark = "  "
			}
		}
		cursor := "  "
		if i == m.cursor {
			cursor = st.Accent.Render(styles.Cursor) + " "
		}
		// Continuation lines line up under the text, after "N. ".
		lead := 2 + layout.MaxWidth(mark) + 3
		for j, l := range layout.Lines(layout.Wrap(o.Text, max(8, w-lead))) {
			if j == 0 {
				l = fmt.Sprintf("%d. %s", i+1, l)
			}
			if i == m.cursor {
				l = st.Selected.Render(l)
			}
			if j == 0 {
				lines = append(lines, cursor+mark+l)
			} else {
				lines = append(lines, strings.Repeat(" ", lead)+l)
			}
		}
	}
	optEnd = len(lines)
	verdictAt = len(lines)
	if m.res != nil {
		r := m.res
		lines = append(lines, "")
		verdictAt = len(lines)
		verdict := st.OK.Render(styles.OK + " Right.")
		if !r.Right {
			// The answer in words too: the options may be scrolled away.
			answer := fmt.Sprintf(" The answer is %d: %s", r.Correct+1, p.Options[r.Correct].Text)
			verdict = st.Bad.Render(styles.Bad+" Not quite.") + answer
			if m.phase == reviewing {
				verdict = st.Bad.Render(styles.Bad+fmt.Sprintf(" You answered %d.", r.Chosen+1)) + answer
			}
		}
		lines = append(lines, layout.Lines(layout.Wrap(verdict, w))...)
		lines = append(lines, layout.Lines(markdown.Render(r.Explanation, st.Markdown, w))...)
		review := "Lesson to review: " + m.lessonLabel(r.Lesson)
		if m.canOpen(r.Lesson) {
			review += st.Faint.Render(" (l opens it)")
		}
		lines = append(lines, layout.Lines(layout.Wrap(review, w))...)
		if q.Kind == qz.Method {
			for _, l := range layout.Lines(layout.Wrap("↑/↓ runs the race with another answer.", w)) {
				lines = append(lines, st.Faint.Render(l))
			}
		}
		next := "enter: next question"
		switch {
		case m.phase == reviewing:
			next = "enter: back to the score · n/p: next/previous missed"
		case m.sess.Done():
			next = "enter: see your score"
		}
		for _, l := range layout.Lines(layout.Wrap(next, w)) {
			lines = append(lines, st.Faint.Render(l))
		}
	}
	return lines, opts, optEnd, verdictAt
}

func (m Model) viewQuestion() string {
	if m.zoom && m.hasStage() {
		return m.viewStage(m.w, m.h)
	}
	if !m.hasStage() {
		return layout.Fit(m.text.View(), m.w, m.h)
	}
	if m.wide() {
		lw := m.textWidth()
		rw := m.w - lw - 3
		sep := layout.Fit(strings.TrimSuffix(strings.Repeat(m.st.Border.Render("│")+"\n", m.h), "\n"), 1, m.h)
		return layout.Fit(layout.Beside(m.text.View(), " ", sep, " ", m.viewStage(rw, m.h)), m.w, m.h)
	}
	topH := m.textPaneHeight()
	stageH := m.h - topH - 1
	return layout.Fit(m.text.View()+"\n"+m.st.Border.Render(strings.Repeat("─", m.w))+"\n"+m.viewStage(m.w, stageH), m.w, m.h)
}

func (m Model) viewStage(w, h int) string {
	if h < 2 {
		return layout.Fit("", w, h)
	}
	q := m.item.Question
	var title, body string
	switch {
	case q.Snippet != "":
		title = "code"
		if m.res != nil { // snippets are named for their defect
			title = "code: " + q.Snippet
		}
		m.code.SetSize(w, h-1)
		body = m.code.View()
	case m.raceErr != nil:
		title = "race"
		body = layout.Fit(m.st.Bad.Render(styles.Bad+" the race could not run: "+m.raceErr.Error()), w, h-1)
	default:
		title = "race " + q.Scenario
		if m.res != nil && q.Kind == qz.Method {
			who := ", a wrong answer " + styles.Bad
			switch {
			case m.cursor == m.res.Chosen && m.res.Right:
				who = ", your answer " + styles.OK
			case m.cursor == m.res.Chosen:
				who = ", your answer " + styles.Bad
			case m.cursor == m.res.Correct:
				who = ", the answer " + styles.OK
			}
			title += fmt.Sprintf(" · with %d%s", m.cursor+1, who)
		}
		m.race.SetSize(w, h-1)
		body = m.race.View()
	}
	return layout.Fit(layout.Rule(title, w, m.st.Border)+"\n"+body, w, h)
}
