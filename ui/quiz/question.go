package quiz

import (
	"regexp"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/conflictlab/conflictlab/lessons"
	"github.com/conflictlab/conflictlab/progress"
	qz "github.com/conflictlab/conflictlab/quiz"
	"github.com/conflictlab/conflictlab/sim/race"
	"github.com/conflictlab/conflictlab/ui/nav"
	"github.com/conflictlab/conflictlab/ui/raceview"
	"github.com/conflictlab/conflictlab/ui/stage"
)

// A question on show: asked (ask.go) until it is answered, then its
// verdict, its explanation and its race played — for a method question
// with the strategy of the option under the cursor.

// showItem puts a question on show: unanswered (res nil) as an ask,
// which holds no way to its race's outcome, or answered (reviewed from
// the score).
func (m *Model) showItem(p qz.Presented, res *qz.Result) tea.Cmd {
	m.res = res
	m.req.Clear()
	m.stage("", nil, false)
	f := m.frame().carry(p)
	f.w, f.h = m.w, m.h
	if res == nil {
		var src stage.Scenarios
		if m.data != nil {
			if s, ok := m.data.Races.(scenarios); ok {
				src = s.Scenario
			}
		}
		a, cmd := newAsking(f, src, m.setups, m.cfg.Snippets)
		m.ask = &a
		return tea.Batch(cmd, m.warm())
	}
	m.ask = nil
	f.cursor = res.Chosen
	f.showCode(m.cfg.Snippets, true)
	m.f = f
	return m.stageRace()
}

// warm computes a race question's race while it is read, for the answer
// to play it at once; nothing of it reaches the question.
func (m *Model) warm() tea.Cmd {
	q := m.frame().item.Question
	if q.Kind != qz.Race || m.data == nil || m.data.Races == nil {
		return nil
	}
	_, cmd := m.req.Ask(m.data.Races, m.raceKey(-1), q.Spec(nil), false, true, func(r stage.Ready) tea.Msg { return raceReady{r} })
	return cmd
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

// stageRace plays the race of the answered question: for a method
// question with the strategy of the option under the cursor.
func (m *Model) stageRace() tea.Cmd {
	switch m.f.item.Question.Kind {
	case qz.Race:
		return m.show(-1)
	case qz.Method:
		return m.show(m.f.cursor)
	}
	return nil
}

func (m Model) raceKey(opt int) string {
	p := m.frame().item
	k := p.Question.ID
	if opt >= 0 {
		k += "/" + p.Options[opt].Text
	}
	return k
}

// show plays the race of option opt (-1: the question's own) from its
// start, once it is computed.
func (m *Model) show(opt int) tea.Cmd {
	k := m.raceKey(opt)
	if k == m.req.Shown && m.f.race.Run() != nil {
		return nil
	}
	m.f.stageErr = nil
	var strategy *lessons.Strategy
	if opt >= 0 {
		strategy = m.f.item.Options[opt].Strategy
	}
	if m.data == nil || m.data.Races == nil {
		m.req.Want, m.req.Hidden, m.req.Reveal = k, false, true
		m.stage("", nil, false)
		return nil
	}
	o, cmd := m.req.Ask(m.data.Races, k, m.f.item.Question.Spec(strategy), false, true, func(r stage.Ready) tea.Msg { return raceReady{r} })
	if o != nil {
		return m.apply(k, o)
	}
	m.stage("", nil, false)
	return cmd
}

// apply puts the race of key k on the stage and plays it, if it is the
// one wanted and not on show already.
func (m *Model) apply(k string, o *race.Outcome) tea.Cmd {
	if !m.req.Wanted(k, true) {
		return nil
	}
	r := raceview.NewRun(o)
	m.stage(k, r, false)
	if d, ok := r.DecidingRow(); ok {
		// The verdict names this row: it stays on screen once the race
		// has played, however short the stage.
		m.f.race.Focus(d.Step)
	}
	if m.req.TakeReveal() {
		return m.f.race.Reveal()
	}
	return nil
}

// stage puts r on the race view; k is the race's key ("" for none),
// which tells a late duplicate from a race still to show.
func (m *Model) stage(k string, r *raceview.Run, hidden bool) {
	m.req.Shown = k
	m.f.race.SetRun(r, hidden)
}

// verdict is the answered question's verdict, for its frame.
func (m Model) verdict() *verdict {
	if m.res == nil {
		return nil
	}
	return &verdict{res: m.res, reviewing: m.phase == reviewing, last: m.sess.Done(),
		lesson: m.lessonLabel(m.res.Lesson), canOpen: m.canOpen(m.res.Lesson)}
}

// relayout lays the answered question out (an ask lays itself out).
func (m *Model) relayout() {
	if m.ask == nil && m.res != nil && (m.phase == questioning || m.phase == reviewing) {
		m.f.relayout(m.verdict())
	}
}

// questionKey handles the keys of an answered question.
func (m Model) questionKey(msg tea.KeyPressMsg) (Model, tea.Cmd) {
	k := m.Keys
	p := m.f.item
	switch {
	case key.Matches(msg, k.Zoom) && m.f.hasStage():
		m.f.zoom = !m.f.zoom
	case key.Matches(msg, k.Up):
		if m.f.cursor > 0 {
			m.f.cursor--
			return m, m.cursorMoved()
		}
	case key.Matches(msg, k.Down):
		if m.f.cursor < len(p.Options)-1 {
			m.f.cursor++
			return m, m.cursorMoved()
		}
	case key.Matches(msg, k.Enter):
		switch {
		case m.phase == reviewing, m.sess.Done():
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
	case key.Matches(msg, k.Decide):
		if d, ok := m.f.deciding(); ok {
			m.f.race.SelectRow(d.Step)
		}
	case key.Matches(msg, k.Lesson) && m.canOpen(p.Question.Lesson):
		id := p.Question.Lesson
		return m, func() tea.Msg { return nav.Open{LessonID: id, Step: 0} }
	default:
		cmd, _ := m.f.paneKey(msg)
		return m, cmd
	}
	return m, nil
}

// cursorMoved: after the answer, a method question's stage runs the
// option under the cursor.
func (m *Model) cursorMoved() tea.Cmd {
	if m.f.item.Question.Kind == qz.Method {
		return m.show(m.f.cursor)
	}
	return nil
}

// answer answers the question asked with option i: the ask's frame goes
// on as the answered question's, and its race plays.
func (m Model) answer(i int) (Model, tea.Cmd) {
	r, err := m.sess.Answer(i)
	if err != nil {
		return m, nil
	}
	m.f = m.ask.f
	m.ask = nil
	m.res = &r
	m.f.cursor = i
	m.f.reveal = revealAnswer
	m.f.showCode(m.cfg.Snippets, true)
	m.req.Shown = ""
	cmds := []tea.Cmd{m.stageRace()}
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
