// Package player is the lesson player: a lesson's prose and questions
// beside (or above) the race they are about, and the code of the strategy
// on screen. Read steps play their race; predict steps keep the race at
// its setup until the learner has answered; choose steps run the race the
// chosen strategy produces and explain it.
package player

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	xansi "github.com/charmbracelet/x/ansi"

	"github.com/conflictlab/conflictlab/lessons"
	"github.com/conflictlab/conflictlab/progress"
	"github.com/conflictlab/conflictlab/ui/codepane"
	"github.com/conflictlab/conflictlab/ui/layout"
	"github.com/conflictlab/conflictlab/ui/markdown"
	"github.com/conflictlab/conflictlab/ui/nav"
	"github.com/conflictlab/conflictlab/ui/raceview"
	"github.com/conflictlab/conflictlab/ui/styles"
)

// Races is all the player asks of the simulator: the whole run of a
// step's race, with an option's strategy applied for choose steps.
type Races interface {
	Race(s lessons.Step, opt *lessons.Option) (*raceview.Run, error)
}

// WideWidth is the player's width from which the prose and the race sit
// side by side; below it they are stacked. The root gives the player the
// terminal's width less a one-column margin, so this is a 120-column
// terminal.
const WideWidth = 119

// raceReady carries a race computed off the UI loop.
type raceReady struct {
	key string
	run *raceview.Run
	err error
}

// Model is the lesson player.
type Model struct {
	lesson *lessons.Lesson
	next   *lessons.Lesson
	prog   *progress.Progress
	rec    *progress.Lesson
	races  Races

	step    int // len(Steps) is the summary
	cursor  int
	picked  int // the option last answered, -1 for none
	correct bool
	wrong   bool // the last answer was wrong
	hint    bool
	sol     bool
	code    bool
	zoom    bool
	scroll  int
	// autoScroll puts the newest feedback in view at the next layout.
	autoScroll bool

	runs    map[string]*raceview.Run
	want    string // the race the stage should show
	wantHid bool   // show it at its setup only
	wantRev bool   // reveal and play it as soon as it is ready
	raceErr error

	live      Live
	liveState liveState
	liveErr   error

	race  raceview.Model
	codeP codepane.Model
	w, h  int
	st    *styles.Styles
	Keys  KeyMap
}

// New opens a lesson at a step. next is the lesson after it (nil at the
// end of the course); prog is the shared progress, updated in place.
func New(l, next *lessons.Lesson, prog *progress.Progress, races Races, st *styles.Styles, step int) (Model, tea.Cmd) {
	m := Model{lesson: l, next: next, prog: prog, rec: prog.Lesson(l.ID), races: races, runs: map[string]*raceview.Run{},
		race: raceview.New(st), codeP: codepane.New(st), st: st, Keys: DefaultKeys()}
	prog.Last = l.ID
	step = max(0, min(step, len(l.Steps)))
	cmd := m.enter(step)
	return m, cmd
}

// Lesson is the lesson on show.
func (m Model) Lesson() *lessons.Lesson { return m.lesson }

// Step is the step index (len(Steps) for the summary).
func (m Model) Step() int { return m.step }

// Race exposes the race view (for tests and the root's ticks).
func (m Model) Race() raceview.Model { return m.race }

// SetTicker replaces the race view's clock (tests drive playback).
func (m *Model) SetTicker(t raceview.Ticker) { m.race.Tick = t }

// SetSnippets replaces where the code pane finds snippets.
func (m *Model) SetSnippets(src func(string) (string, error)) {
	m.codeP.Source = src
	name := m.codeP.Name()
	m.codeP.Show("")
	m.codeP.Show(name)
}

// SetStyles replaces the styles.
func (m *Model) SetStyles(st *styles.Styles) {
	m.st = st
	m.race.SetStyles(st)
	m.codeP.SetStyles(st)
}

// SetSize sets the player's rectangle.
func (m *Model) SetSize(w, h int) { m.w, m.h = w, h }

// Title is the header text for the root's top bar.
func (m Model) Title() string {
	n := len(m.lesson.Steps)
	if m.step >= n {
		return fmt.Sprintf("%s · summary", m.lesson.Title)
	}
	s := m.lesson.Steps[m.step]
	return fmt.Sprintf("%s · step %d/%d · %s", m.lesson.Title, m.step+1, n, s.Kind)
}

func (m Model) cur() *lessons.Step {
	if m.step >= len(m.lesson.Steps) {
		return nil
	}
	return &m.lesson.Steps[m.step]
}

// enter shows step i afresh, restoring an earlier right answer, and saves
// where the learner is.
func (m *Model) enter(i int) tea.Cmd {
	m.step, m.cursor, m.picked = i, 0, -1
	m.correct, m.wrong, m.hint, m.sol, m.scroll = false, false, false, false, 0
	m.autoScroll = false
	m.want, m.raceErr = "", nil
	m.race.SetRun(nil, false)
	changed := func() tea.Msg { return nav.ProgressChanged{} }
	s := m.cur()
	if s == nil {
		m.rec.Done = true
		m.rec.Step = 0
		return changed
	}
	m.rec.Step = i
	var cmds []tea.Cmd
	cmds = append(cmds, changed)
	if a, ok := m.rec.Answers[i]; ok && a.Correct {
		// Coming back to a step already answered: show it answered, with
		// its feedback in view.
		m.correct = true
		m.autoScroll = true
		for k, o := range s.Options {
			if o.Correct {
				m.picked, m.cursor = k, k
				break
			}
		}
	}
	switch {
	case s.Race == nil:
	case s.Kind == lessons.Choose && m.picked >= 0:
		cmds = append(cmds, m.show(s, &s.Options[m.picked], false, true))
	case s.Kind == lessons.Choose:
		cmds = append(cmds, m.show(s, nil, true, false))
	case s.Kind == lessons.Predict && !m.correct:
		cmds = append(cmds, m.show(s, nil, true, false))
	default:
		cmds = append(cmds, m.show(s, nil, false, true))
	}
	m.syncCode()
	return tea.Batch(cmds...)
}

func (m Model) raceKey(opt *lessons.Option) string {
	id := ""
	if opt != nil {
		id = opt.ID
	}
	return fmt.Sprintf("%s/%d/%s", m.lesson.ID, m.step, id)
}

// show puts a step's race on the stage: hidden (setup only) or revealed
// and playing. The race is computed in a command, off the UI loop (the
// first one builds the API server's schema), and kept for next time.
func (m *Model) show(s *lessons.Step, opt *lessons.Option, hidden, play bool) tea.Cmd {
	// A new race on the stage: any replay offer or result was about the old one.
	m.liveState, m.liveErr = liveIdle, nil
	k := m.raceKey(opt)
	m.want, m.wantHid, m.wantRev = k, hidden, play
	if r, ok := m.runs[k]; ok {
		return m.apply(k, r)
	}
	m.race.SetRun(nil, false)
	races, step := m.races, *s
	var o *lessons.Option
	if opt != nil {
		cp := *opt
		o = &cp
	}
	return func() tea.Msg {
		r, err := races.Race(step, o)
		return raceReady{key: k, run: r, err: err}
	}
}

func (m *Model) apply(k string, r *raceview.Run) tea.Cmd {
	if k != m.want {
		return nil
	}
	if m.race.Run() == r && !m.wantRev {
		return nil
	}
	m.race.SetRun(r, m.wantHid)
	if s := m.cur(); s != nil && s.Kind == lessons.Choose {
		m.race.SetSetupNote("pick a strategy to run it")
	}
	if m.wantRev {
		m.wantRev = false
		return m.race.Reveal()
	}
	return nil
}

// syncCode shows the code of the strategy under the cursor (choose), or
// the step's code.
func (m *Model) syncCode() {
	s := m.cur()
	if s == nil {
		m.codeP.Show("")
		return
	}
	name := s.Code
	if s.Kind == lessons.Choose && m.cursor < len(s.Options) {
		if c := s.Options[m.cursor].Code; c != "" {
			name = c
		} else if st := s.Options[m.cursor].Strategy; st != nil && name == "" {
			name = CodeForWrite[string(st.Write)]
		}
	}
	if name == "" {
		if r := m.race.Run(); r != nil && len(r.Outcome.Controllers) > 0 {
			name = CodeForWrite[r.Outcome.Controllers[0].Write]
		}
	}
	m.codeP.Show(name)
}

// CodeForWrite names the snippet that shows a write method, for steps and
// options that do not name their code themselves.
var CodeForWrite = map[string]string{
	"update":          "update-with-rv",
	"update-clear-rv": "update-clear-rv",
}

// Update handles the player's keys and races arriving.
func (m Model) Update(msg tea.Msg) (Model, tea.Cmd) {
	switch msg := msg.(type) {
	case raceReady:
		if msg.err != nil {
			if msg.key == m.want {
				m.raceErr = msg.err
			}
			return m, nil
		}
		m.runs[msg.key] = msg.run
		cmd := m.apply(msg.key, msg.run)
		m.syncCode()
		return m, cmd
	case liveReady:
		return m, m.liveArrived(msg)
	case raceview.TickMsg:
		var cmd tea.Cmd
		m.race, cmd = m.race.Update(msg)
		return m, cmd
	case tea.KeyPressMsg:
		return m.key(msg)
	}
	return m, nil
}

func (m Model) key(msg tea.KeyPressMsg) (Model, tea.Cmd) {
	k := m.Keys
	s := m.cur()
	if s == nil {
		return m.summaryKey(msg)
	}
	if cmd, took := m.liveKey(msg); took {
		return m, cmd
	}
	question := s.Kind == lessons.Predict || s.Kind == lessons.Choose
	switch {
	case question && key.Matches(msg, k.Up):
		if m.cursor > 0 {
			m.cursor--
		}
		m.syncCode()
	case question && key.Matches(msg, k.Down):
		if m.cursor < len(s.Options)-1 {
			m.cursor++
		}
		m.syncCode()
	case question && key.Matches(msg, k.Pick):
		n := int(msg.Code - '1')
		if n < 0 || n >= len(s.Options) {
			return m, nil
		}
		m.cursor = n
		return m, m.answer(n)
	case key.Matches(msg, k.Answer):
		if question && !m.correct {
			return m, m.answer(m.cursor)
		}
		if question && s.Kind == lessons.Choose && m.cursor != m.picked {
			// After the right answer, enter on another strategy plays its
			// race too: trying the wrong ones is how the lesson sinks in.
			return m, m.answer(m.cursor)
		}
		return m, m.enter(m.step + 1)
	case key.Matches(msg, k.Next):
		return m, m.enter(m.step + 1)
	case key.Matches(msg, k.Prev):
		if m.step > 0 {
			return m, m.enter(m.step - 1)
		}
	case question && key.Matches(msg, k.Hint):
		m.hint = !m.hint
		m.autoScroll = m.hint
	case question && key.Matches(msg, k.Solution):
		if m.wrong || m.picked >= 0 && !m.correct {
			m.sol = true
			m.autoScroll = true
			if s.Kind == lessons.Predict && m.race.Hidden() {
				// The answer is given away now, so the race may be shown.
				return m, m.show(s, nil, false, true)
			}
		}
	case key.Matches(msg, k.Code):
		m.code = !m.code
	case key.Matches(msg, k.Zoom):
		m.zoom = !m.zoom
	case key.Matches(msg, k.PageUp):
		m.scroll = max(0, m.scroll-max(1, m.proseHeight()-1))
	case key.Matches(msg, k.PageDown):
		m.scroll += max(1, m.proseHeight()-1)
	case m.code && key.Matches(msg, k.Race.ScrollDown):
		m.codeP.Scroll(1)
	case m.code && key.Matches(msg, k.Race.ScrollUp):
		m.codeP.Scroll(-1)
	case m.race.HandlesKey(msg):
		var cmd tea.Cmd
		m.race, cmd = m.race.Update(msg)
		return m, cmd
	}
	return m, nil
}

func (m Model) summaryKey(msg tea.KeyPressMsg) (Model, tea.Cmd) {
	switch {
	case key.Matches(msg, m.Keys.Answer), key.Matches(msg, m.Keys.Next):
		if m.next != nil {
			id := m.next.ID
			step := 0
			if r, ok := m.prog.Lessons[id]; ok && !r.Done {
				step = r.Step
			}
			return m, func() tea.Msg { return nav.Open{LessonID: id, Step: step} }
		}
		return m, func() tea.Msg { return nav.Home{} }
	case key.Matches(msg, m.Keys.Prev):
		return m, m.enter(len(m.lesson.Steps) - 1)
	}
	return m, nil
}

// answer takes option i as the learner's answer.
func (m *Model) answer(i int) tea.Cmd {
	s := m.cur()
	opt := &s.Options[i]
	m.picked = i
	m.autoScroll = true
	var cmds []tea.Cmd
	if !m.correct {
		m.rec.Record(m.step, opt.Correct)
		cmds = append(cmds, func() tea.Msg { return nav.ProgressChanged{} })
		m.wrong = !opt.Correct
		m.correct = opt.Correct
	}
	switch s.Kind {
	case lessons.Choose:
		cmds = append(cmds, m.show(s, opt, false, true))
	case lessons.Predict:
		if opt.Correct || m.sol {
			if m.race.Hidden() || m.race.Run() == nil {
				cmds = append(cmds, m.show(s, nil, false, true))
			}
		}
	}
	m.syncCode()
	return tea.Batch(cmds...)
}

// ShortHelp is the key bar.
func (m Model) ShortHelp() []key.Binding {
	k := m.Keys
	s := m.cur()
	if s == nil {
		desc := "back to lessons"
		if m.next != nil {
			desc = "next lesson"
		}
		return []key.Binding{withHelp(k.Answer, "enter", desc), k.Prev}
	}
	var out []key.Binding
	question := s.Kind == lessons.Predict || s.Kind == lessons.Choose
	if question && !m.correct {
		out = append(out, withHelp(k.Down, "↑↓", "choose"), withHelp(k.Answer, "enter", "answer"), k.Hint)
		if m.wrong {
			out = append(out, k.Solution)
		}
	} else {
		out = append(out, withHelp(k.Answer, "enter", "continue"))
	}
	if m.race.Run() != nil && !m.race.Hidden() {
		out = append(out, k.Race.Play, k.Race.Step, k.Race.Back)
	}
	out = append(out, k.Code, k.Prev)
	return out
}

// FullHelp is the full key list, by column.
func (m Model) FullHelp() [][]key.Binding {
	k := m.Keys
	groups := [][]key.Binding{
		{k.Up, k.Down, k.Pick, k.Answer, k.Hint, k.Solution},
		{k.Next, k.Prev, k.Code, k.Zoom, k.PageUp},
		k.Race.Bindings(),
	}
	if m.live != nil {
		groups = append(groups, []key.Binding{k.Live})
	}
	return groups
}

func ansiStrip(s string) string { return xansi.Strip(s) }

func withHelp(b key.Binding, keys, desc string) key.Binding {
	b.SetHelp(keys, desc)
	return b
}

// View draws the player into exactly its size.
func (m Model) View() string {
	if m.w <= 0 || m.h <= 0 {
		return ""
	}
	if m.cur() == nil {
		return m.viewSummary()
	}
	if m.zoom {
		return m.viewStage(m.w, m.h)
	}
	if m.w >= WideWidth {
		lw := max(40, min(56, m.w*9/25))
		rw := m.w - lw - 3
		left := m.viewText(lw, m.h)
		sep := layout.Fit(strings.TrimSuffix(strings.Repeat(m.st.Border.Render("│")+"\n", m.h), "\n"), 1, m.h)
		return layout.Fit(layout.Beside(left, " ", sep, " ", m.viewStage(rw, m.h)), m.w, m.h)
	}
	topH := m.textHeight()
	top := m.viewText(m.w, topH)
	stageH := m.h - topH - 1
	return layout.Fit(top+"\n"+m.st.Border.Render(strings.Repeat("─", m.w))+"\n"+m.viewStage(m.w, stageH), m.w, m.h)
}

// textHeight is the prose pane's share of a stacked layout: what it
// needs, but at most 45% (the race needs room to be read).
func (m Model) textHeight() int {
	need := len(m.textLines(m.w))
	share := 45
	switch {
	case m.race.Run() != nil && !m.race.Hidden():
		// A race is playing: it is what to watch.
		share = 40
	case m.picked >= 0 || m.hint || m.sol:
		// Feedback is what to read now; a hidden race has little to show.
		share = 55
	}
	return max(6, min(need, m.h*share/100))
}

func (m Model) proseHeight() int {
	if m.w >= WideWidth {
		return m.h
	}
	return m.textHeight()
}

// textLines is the whole left column: the step's prose, then the
// question, its options, feedback, hint and solution.
func (m Model) textLines(w int) []string {
	lines, _ := m.textBlock(w)
	return lines
}

// textBlock returns the column and the line where the question starts
// (len(lines) when there is none).
func (m Model) textBlock(w int) ([]string, int) {
	st := m.st
	s := m.cur()
	var lines []string
	lines = append(lines, st.Title.Render(layout.Truncate(s.Title, w)))
	if strings.TrimSpace(s.Text) != "" {
		lines = append(lines, layout.Lines(markdown.Render(s.Text, st.Markdown, w))...)
	}
	q := len(lines)
	if s.Kind == lessons.Read {
		lines = append(lines, "", st.Faint.Render("enter: continue"))
		return append(lines, m.liveLines(w)...), q
	}
	lines = append(lines, "")
	q = len(lines)
	for _, l := range layout.Lines(layout.Wrap(s.Question, w)) {
		lines = append(lines, st.Bold.Render(l))
	}
	for i, o := range s.Options {
		mark := ""
		if m.picked >= 0 {
			mark = "  "
		}
		if i == m.picked {
			if o.Correct {
				mark = st.OK.Render(styles.OK) + " "
			} else {
				mark = st.Bad.Render(styles.Bad) + " "
			}
		}
		cursor := "  "
		if i == m.cursor {
			cursor = st.Accent.Render(styles.Cursor) + " "
		}
		label := fmt.Sprintf("%d. %s", i+1, o.Label)
		lead := 2 + len([]rune(ansiStrip(mark)))
		wrapped := layout.Lines(layout.Wrap(label, max(8, w-lead)))
		for j, l := range wrapped {
			if i == m.cursor {
				l = st.Selected.Render(l)
			}
			if j == 0 {
				lines = append(lines, cursor+mark+l)
			} else {
				// Continuation lines line up under the label.
				lines = append(lines, strings.Repeat(" ", lead+3)+l)
			}
		}
	}
	if m.picked >= 0 {
		o := s.Options[m.picked]
		lines = append(lines, "")
		verdict := st.OK.Render(styles.OK + " Correct.")
		if !o.Correct {
			verdict = st.Bad.Render(styles.Bad + " Not quite.")
		}
		if s.Kind == lessons.Choose {
			verdict += st.Faint.Render(" The race on the stage is this strategy's.")
		}
		lines = append(lines, layout.Lines(layout.Wrap(verdict, w))...)
		lines = append(lines, layout.Lines(markdown.Render(o.Feedback, st.Markdown, w))...)
		if !o.Correct && !m.sol {
			tip := "Try another answer"
			if s.Kind == lessons.Predict {
				tip += " (the race stays hidden until you get it)"
			}
			lines = append(lines, st.Faint.Render(layout.Truncate(tip+".", w)), st.Faint.Render("s: show the solution · h: hint"))
		}
		if m.correct && s.Kind == lessons.Predict {
			lines = append(lines, st.Faint.Render(layout.Truncate("The race plays on the stage: watch for it.", w)))
		}
	}
	if m.hint {
		lines = append(lines, "")
		lines = append(lines, layout.Lines(layout.Wrap(st.Warn.Render("Hint: ")+s.Hint, w))...)
	}
	if m.sol && s.Solution != "" {
		lines = append(lines, "", st.Heading.Render("Solution"))
		lines = append(lines, layout.Lines(markdown.Render(s.Solution, st.Markdown, w))...)
	}
	if m.correct {
		lines = append(lines, "", st.Faint.Render("enter: continue"))
	}
	return append(lines, m.liveLines(w)...), q
}

// viewText draws the text column with scrolling that keeps the question
// (or the newest feedback) in view, and marks text cut above or below.
func (m Model) viewText(w, h int) string {
	lines, q := m.textBlock(w)
	off := m.scroll
	if len(lines) > h {
		// Never hide the options on arrival: if they do not fit under the
		// prose, scroll just enough to bring them in.
		optEnd := len(lines)
		if s := m.cur(); s != nil && s.Kind != lessons.Read {
			optEnd = q + len(s.Options) + 1
		}
		base := max(0, min(q, optEnd-h))
		if m.autoScroll {
			base = len(lines) - h
		}
		off = min(base+m.scroll, len(lines)-h)
	} else {
		off = 0
	}
	view := append([]string(nil), lines[off:min(len(lines), off+h)]...)
	if off > 0 && len(view) > 0 {
		view[0] = m.st.Faint.Render(layout.Truncate("↑ more above (pgup)", w))
	}
	if off+h < len(lines) && len(view) > 0 {
		view[len(view)-1] = m.st.Faint.Render(layout.Truncate("↓ more below (pgdn)", w))
	}
	return layout.Fit(strings.Join(view, "\n"), w, h)
}

// viewStage is the race (or the code) with a title rule.
func (m Model) viewStage(w, h int) string {
	if h < 2 {
		return layout.Fit("", w, h)
	}
	s := m.cur()
	var title, body string
	switch {
	case m.code:
		title = "code: " + m.codeP.Name()
		if m.codeP.Name() == "" {
			title = "code"
		}
		m.codeP.SetSize(w, h-1)
		body = m.codeP.View()
	case s.Race == nil:
		title = "race"
		body = layout.Fit(m.st.Faint.Render("This step has no race."), w, h-1)
	case m.raceErr != nil:
		title = "race"
		body = layout.Fit(m.st.Bad.Render(styles.Bad+" the race could not run: "+m.raceErr.Error()), w, h-1)
	default:
		title = "race " + s.Race.Scenario
		if r := m.race.Run(); r != nil {
			title = "race " + r.Outcome.Scenario
		}
		if s.Kind == lessons.Choose && m.picked >= 0 && !m.race.Hidden() {
			title += " · strategy: " + s.Options[m.picked].Label
		}
		if r := m.race.Run(); r != nil && r.Source != "" {
			title += " · " + r.Source
		}
		m.race.SetSize(w, h-1)
		body = m.race.View()
	}
	return layout.Fit(layout.Rule(title, w, m.st.Border)+"\n"+body, w, h)
}

// viewSummary is the end of the lesson: the two-line take-away, the
// score, and what comes next.
func (m Model) viewSummary() string {
	st := m.st
	w := min(m.w, 100)
	var lines []string
	lines = append(lines, st.OK.Render(styles.OK+" Lesson complete: ")+st.Title.Render(m.lesson.Title), "")
	lines = append(lines, st.Heading.Render("Take-away"))
	for _, s := range m.lesson.Summary {
		// The lead takes four columns and the renderer keeps a margin of its own.
		wrapped := layout.Lines(markdown.Render(s, st.Markdown, w-8))
		for i, l := range wrapped {
			lead := "  " + styles.Bullet + " "
			if i > 0 {
				lead = "    "
			}
			lines = append(lines, lead+l)
		}
	}
	lines = append(lines, "")
	right, answered := m.rec.Score()
	total := 0
	for _, s := range m.lesson.Steps {
		if s.Kind != lessons.Read {
			total++
		}
	}
	if total > 0 {
		lines = append(lines, fmt.Sprintf("Score: %d of %d questions right on the first try (%d answered).", right, total, answered))
	}
	lines = append(lines, "")
	if m.next != nil {
		lines = append(lines, st.Accent.Render("enter")+": next lesson — "+m.next.Title)
	} else {
		lines = append(lines, st.Accent.Render("enter")+": back to the lessons — that was the last one so far")
	}
	lines = append(lines, st.Faint.Render("p: back to the last step · esc: lessons"))
	for i, l := range lines {
		lines[i] = " " + l
	}
	block := strings.Join(lines, "\n")
	return layout.Fit(layout.Width(block, m.w), m.w, m.h)
}
