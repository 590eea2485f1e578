// Package player is the lesson player: a lesson's prose and questions
// beside (or above) the race they are about, and the code of the strategy
// on screen. Read steps play their race; predict steps keep the race at
// its setup until the learner has answered, then play it whether the
// prediction was right or not; choose steps run the race the chosen
// strategy produces and explain it. The first answer to a question is the
// one scored; the others may be tried after it without changing the score.
package player

import (
	"fmt"
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/conflictlab/conflictlab/lessons"
	"github.com/conflictlab/conflictlab/lessons/snippets"
	"github.com/conflictlab/conflictlab/progress"
	"github.com/conflictlab/conflictlab/sim/race"
	"github.com/conflictlab/conflictlab/sim/scenario"
	"github.com/conflictlab/conflictlab/ui/codepane"
	"github.com/conflictlab/conflictlab/ui/keyhelp"
	"github.com/conflictlab/conflictlab/ui/layout"
	"github.com/conflictlab/conflictlab/ui/markdown"
	"github.com/conflictlab/conflictlab/ui/nav"
	"github.com/conflictlab/conflictlab/ui/play"
	"github.com/conflictlab/conflictlab/ui/raceview"
	"github.com/conflictlab/conflictlab/ui/stage"
	"github.com/conflictlab/conflictlab/ui/styles"
	"github.com/conflictlab/conflictlab/ui/textpane"
)

// Races is all the player asks of the simulator (racecache.Races): the
// whole run of a step's race, with an option's strategy applied for
// choose steps, and whether it has been computed already.
type Races = stage.Races

// WideWidth is the player's width from which the prose and the race sit
// side by side; below it they are stacked. The root gives the player the
// terminal's width less a one-column margin, so this is a 120-column
// terminal.
const WideWidth = 119

// scenarios is what a play step also asks of the races (racecache.Races
// has it): the scenario itself, to step it or tune it.
type scenarios interface {
	Scenario(lessons.RaceSpec) (*scenario.Scenario, error)
}

// playReady carries a play step's stage, made off the UI loop (it starts
// the race, which builds the API server the first time).
type playReady struct {
	gen int
	m   play.Model
	err error
}

// raceReady carries a race computed off the UI loop.
type raceReady struct{ stage.Ready }

// Model is the lesson player.
type Model struct {
	lesson *lessons.Lesson
	next   *lessons.Lesson
	// prog is the learner's progress, read here and never written: what
	// the learner does is sent as a progress.Change for the root to apply.
	prog  *progress.Progress
	races Races

	step   int // len(Steps) is the summary
	cursor int
	picked int // the option last answered, -1 for none
	// answered: the step has its scored answer, first (the option of
	// that answer, -1 when not known).
	answered bool
	first    int
	hint     bool
	sol      bool
	code     bool
	zoom     bool
	// optTop is the first option in view when the options do not all
	// fit under the prose and scroll with the cursor.
	optTop int
	// reveal is what each layout scrolls into view, until the learner
	// scrolls: the stage taking more room when its race arrives must not
	// push the verdict just shown out of view.
	reveal reveal

	// req is which race the stage wants and shows ("" for none or a live
	// run); each is computed once, however often it is asked for.
	req     stage.Requests
	raceErr error

	live      Live
	liveState liveState
	liveErr   error

	// play is a play step's stage, once it is made (playOn); playGen
	// drops a stage made for a step since left.
	play    play.Model
	playOn  bool
	playGen int
	playErr error

	// tallies are the counts over every interleaving shown under an
	// answer to a step with explore claims (tally.go).
	tallies *tallies

	race  raceview.Model
	codeP codepane.Model
	// snippet finds a snippet's source; codeBefore is whether the code
	// pane shows it as before an answer (without comments).
	snippet    func(string) (string, error)
	codeBefore bool
	text       textpane.Model
	// textH is the text pane's height in a stacked layout.
	textH int
	w, h  int
	st    *styles.Styles
	Keys  KeyMap
}

// New opens a lesson at a step. next is the lesson after it (nil at the
// end of the course); prog is the learner's progress, which the player
// reads.
func New(l, next *lessons.Lesson, prog *progress.Progress, races Races, st *styles.Styles, step int) (Model, tea.Cmd) {
	m := Model{lesson: l, next: next, prog: prog, races: races,
		tallies: &tallies{jobs: map[string]*tallyJob{}},
		race:    raceview.New(st), codeP: codepane.New(st), text: textpane.New(st), st: st, Keys: DefaultKeys()}
	m.text.Keys = m.Keys.Text
	m.snippet = m.codeP.Source
	step = max(0, min(step, len(l.Steps)))
	cmd := m.enter(step)
	m.relayout()
	return m, cmd
}

// Lesson is the lesson on show.
func (m Model) Lesson() *lessons.Lesson { return m.lesson }

// Step is the step index (len(Steps) for the summary).
func (m Model) Step() int { return m.step }

// Where is the lesson and the step on show.
func (m Model) Where() nav.Place { return nav.Place{Lesson: m.lesson.ID, Step: m.step} }

// Leave keeps nothing between runs: what the learner did is in the
// progress already.
func (m Model) Leave() tea.Cmd { return nil }

// rec is the lesson's record in the progress (an empty one before the
// learner's first visit is applied).
func (m Model) rec() *progress.Lesson { return m.prog.Peek(m.lesson.ID) }

// Race exposes the race view (for tests and the root's ticks).
func (m Model) Race() raceview.Model { return m.race }

// SetTicker replaces the race view's clock (tests drive playback).
func (m *Model) SetTicker(t raceview.Ticker) { m.race.Tick = t }

// SetSnippets replaces where the code pane finds snippets.
func (m *Model) SetSnippets(src func(string) (string, error)) {
	m.snippet = src
	name := m.codeP.Name()
	m.codeP.Show("")
	m.showCode(name)
}

// SetStyles replaces the styles.
func (m *Model) SetStyles(st *styles.Styles) {
	m.st = st
	m.race.SetStyles(st)
	m.codeP.SetStyles(st)
	m.text.SetStyles(st)
	m.relayout()
}

// SetSize sets the player's rectangle.
func (m *Model) SetSize(w, h int) {
	m.w, m.h = w, h
	m.relayout()
}

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
	m.step, m.cursor, m.picked, m.first = i, 0, -1, -1
	m.answered, m.hint, m.sol = false, false, false
	// A step opens unzoomed, its question and options in view, and with
	// its first option in view.
	m.zoom, m.optTop = false, 0
	// A step opens at its top.
	m.reveal = revealTop
	m.req.Clear()
	m.raceErr = nil
	m.stage("", nil, false)
	if m.playOn {
		m.play.Stop()
	}
	m.playOn, m.playErr = false, nil
	m.playGen++
	s := m.cur()
	if s == nil {
		// Reaching the summary completes the lesson only when every
		// question has its answer; otherwise "continue" goes back to the
		// first one skipped.
		visit := progress.Visit{Lesson: m.lesson.ID, Done: m.tally().Complete()}
		if !visit.Done {
			visit.Step = m.firstUnanswered()
		}
		m.syncTally() // cancels a count still running: there is none to show
		m.syncCode()
		return nav.Send(visit)
	}
	var cmds []tea.Cmd
	cmds = append(cmds, nav.Send(progress.Visit{Lesson: m.lesson.ID, Step: i}))
	if a, ok := m.rec().Answers[i]; ok && s.Kind != lessons.Read {
		// Coming back to a step already answered: show it answered, with
		// the first answer (or, when the file does not say which it was,
		// the right one) and its feedback in view.
		m.answered = true
		m.reveal = revealAnswer
		for k, o := range s.Options {
			if a.Picked != "" && o.ID == a.Picked {
				m.first = k
			}
		}
		m.picked = m.first
		if m.picked < 0 {
			for k, o := range s.Options {
				if o.Correct {
					m.picked = k
					break
				}
			}
		}
		m.cursor = max(0, m.picked)
	}
	switch {
	case s.Race == nil:
	case s.Kind == lessons.Play:
		cmds = append(cmds, m.startPlay(s))
	case s.Kind == lessons.Choose && m.picked >= 0:
		cmds = append(cmds, m.show(s, &s.Options[m.picked], false, true))
	case s.Kind == lessons.Choose:
		cmds = append(cmds, m.show(s, nil, true, false))
	case s.Kind == lessons.Predict && !m.answered:
		cmds = append(cmds, m.show(s, nil, true, false))
	default:
		cmds = append(cmds, m.show(s, nil, false, true))
	}
	cmds = append(cmds, m.syncTally())
	m.syncCode()
	return tea.Batch(cmds...)
}

// startPlay makes the play step's stage in a command.
func (m *Model) startPlay(s *lessons.Step) tea.Cmd {
	gen, step := m.playGen, m.step
	src, ok := m.races.(scenarios)
	st := m.st
	return func() tea.Msg {
		if !ok || s.Goal == nil {
			return playReady{gen: gen, err: fmt.Errorf("this play step cannot be played here")}
		}
		sc, err := src.Scenario(s.Spec(nil))
		if err != nil {
			return playReady{gen: gen, err: err}
		}
		pm, err := play.New(s.Goal, sc, s.Question, step, st)
		return playReady{gen: gen, m: pm, err: err}
	}
}

// playArrived puts a play step's stage on, if it is still the step's.
func (m *Model) playArrived(msg playReady) {
	if msg.gen != m.playGen {
		return
	}
	if msg.err != nil {
		m.playErr = msg.err
		return
	}
	m.play, m.playOn = msg.m, true
	m.play.SetTicker(m.race.Tick)
	k := m.Keys
	m.play.Reserved = append([]key.Binding{k.Up, k.Down, k.Answer, k.Next, k.Prev, k.Hint, k.Solution, k.Code, k.Zoom,
		k.Decide, k.Live, k.Confirm}, k.Text.Bindings()...)
	if a, ok := m.rec().Answers[m.step]; ok {
		m.play.SetBest(a.Best)
	}
	if m.sol {
		m.play.ShowAnswer()
	}
}

// solved records a play step's solution.
func (m *Model) solved(msg play.Solved) tea.Cmd {
	s := m.cur()
	if s == nil || s.Kind != lessons.Play || msg.ID != m.step || !m.playOn {
		return nil
	}
	m.answered = true
	m.reveal = revealAnswer
	m.syncCode()
	return nav.Send(progress.Played{Lesson: m.lesson.ID, Step: m.step, Moves: msg.Moves, Par: msg.Par})
}

// canShowSolution reports whether a play step's solution may be shown:
// after a finished attempt, or once the hint has been read.
func (m Model) canShowSolution() bool {
	return m.playOn && (m.hint || m.play.Attempts() > 0)
}

// stage puts r on the race view; k is the race's key ("" for none or a
// live run), which tells a late duplicate from a race still to show.
func (m *Model) stage(k string, r *raceview.Run, hidden bool) {
	m.req.Shown = k
	m.race.SetRun(r, hidden)
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
	o, cmd := m.req.Ask(m.races, k, s.Spec(opt), hidden, play, func(r stage.Ready) tea.Msg { return raceReady{r} })
	if o != nil {
		return m.apply(k, o)
	}
	m.stage("", nil, false)
	return cmd
}

// apply puts the race of key k on the stage if it is the one wanted. The
// race already there is left as it is, maybe playing, unless it is to be
// revealed.
func (m *Model) apply(k string, o *race.Outcome) tea.Cmd {
	if !m.req.Wanted(k, true) {
		return nil
	}
	r := raceview.NewRun(o)
	if s := m.cur(); s != nil && s.PlansAfterAnswer {
		r.WithholdPlans()
	}
	m.stage(k, r, m.req.Hidden)
	if m.lesson.ID == "versions" && m.step == 0 { // lesson 1's first race: the race view's tour first
		m.race.ShowTour()
	}
	if s := m.cur(); s != nil && s.Kind == lessons.Choose {
		m.race.SetSetupNote("pick a strategy to run it")
	}
	if m.req.TakeReveal() {
		return m.race.Reveal()
	}
	return nil
}

// syncCode shows the code of the strategy under the cursor (choose), or
// the step's code: without its comments while the question is open (they
// name the defect), whole once it is answered.
func (m *Model) syncCode() {
	s := m.cur()
	if s == nil {
		m.codeP.Show("")
		return
	}
	before := s.Kind != lessons.Read && !m.answered
	if before != m.codeBefore {
		// The pane keeps a snippet by name: the same name must load again.
		m.codeBefore = before
		m.codeP.Show("")
	}
	name := s.Code
	if s.Kind == lessons.Choose && m.cursor < len(s.Options) {
		if c := s.Options[m.cursor].Code; c != "" {
			name = c
		} else if st := s.Options[m.cursor].Strategy; st != nil && name == "" {
			name = snippets.ForWrite(string(st.Write))
		}
	}
	if name == "" {
		if r := m.race.Run(); r != nil && len(r.Outcome.Controllers) > 0 {
			name = snippets.ForWrite(r.Outcome.Controllers[0].Write)
		}
	}
	m.showCode(name)
}

// showCode loads a snippet into the code pane, as it is to be shown now.
func (m *Model) showCode(name string) {
	src, before := m.snippet, m.codeBefore
	m.codeP.Source = func(n string) (string, error) {
		code, err := src(n)
		if err != nil || !before {
			return code, err
		}
		return lessons.SnippetBeforeAnswer(code), nil
	}
	m.codeP.Show(name)
}

// Update handles the player's keys and races arriving.
func (m Model) Update(msg tea.Msg) (Model, tea.Cmd) {
	switch msg := msg.(type) {
	case raceReady:
		place, err := m.req.Arrived(msg.Ready)
		if err != nil {
			m.raceErr = err
			m.relayout()
		}
		if !place {
			return m, nil
		}
		cmd := m.apply(msg.Key, msg.Out)
		m.syncCode()
		m.relayout()
		return m, cmd
	case tallyReady:
		if m.tallyArrived(msg) {
			m.relayout()
		}
		return m, nil
	case liveReady:
		cmd := m.liveArrived(msg)
		m.relayout()
		return m, cmd
	case raceview.TickMsg:
		// Playback changes the stage, never the text.
		var cmd, pcmd tea.Cmd
		m.race, cmd = m.race.Update(msg)
		if m.playOn {
			m.play, pcmd = m.play.Update(msg)
		}
		return m, tea.Batch(cmd, pcmd)
	case playReady:
		m.playArrived(msg)
		m.relayout()
		return m, nil
	case play.Solved:
		cmd := m.solved(msg)
		m.relayout()
		return m, cmd
	case progress.Change:
		// Applied by the root: the text shows the record (a play step's
		// best, the summary's score).
		m.relayout()
		return m, nil
	case tea.MouseWheelMsg:
		if m.cur() != nil && !m.zoomed() {
			m.text, _ = m.text.Update(msg)
			m.reveal = revealNone
		}
		return m, nil
	case tea.KeyPressMsg:
		m, cmd := m.key(msg)
		m.relayout()
		return m, cmd
	}
	if m.playOn {
		// The explorer's reports, for a play step's proof.
		var cmd tea.Cmd
		m.play, cmd = m.play.Update(msg)
		m.relayout()
		return m, cmd
	}
	return m, nil
}

// TakesKey reports whether the player wants a key the screen around it
// would otherwise take: esc, while the race's inspect panel is open (it
// closes the panel) and while a play step's proof runs or its example
// plays (it stops them).
func (m Model) TakesKey(msg tea.KeyPressMsg) bool {
	if msg.String() != "esc" {
		return false
	}
	if m.inspecting() {
		// esc closes the race's inspect panel, as its help says.
		return m.race.HandlesKey(msg)
	}
	s := m.cur()
	return s != nil && s.Kind == lessons.Play && m.playOn && !m.showsCode() && m.play.HandlesKey(msg)
}

// inspecting reports whether the race's inspect panel is open on the
// stage: the keys it claims (↑/↓ scroll it, esc closes it) are its.
func (m Model) inspecting() bool {
	s := m.cur()
	return s != nil && s.Race != nil && s.Kind != lessons.Play && !m.showsCode() && m.race.Inspecting()
}

func (m Model) key(msg tea.KeyPressMsg) (Model, tea.Cmd) {
	k := m.Keys
	if m.live == nil && key.Matches(msg, k.Live) {
		// A key that is silently ignored looks like a broken one.
		return m, nav.Say("L is off: no kubeconfig found (set KUBECONFIG or create ~/.kube/config)")
	}
	s := m.cur()
	if s == nil {
		return m.summaryKey(msg)
	}
	if cmd, took := m.liveKey(msg); took {
		return m, cmd
	}
	question := s.Kind == lessons.Predict || s.Kind == lessons.Choose
	if s.Kind == lessons.Play && m.playOn && !m.showsCode() && m.play.HandlesKey(msg) {
		var cmd tea.Cmd
		m.play, cmd = m.play.Update(msg)
		return m, cmd
	}
	if m.inspecting() && m.race.HandlesKey(msg) {
		var cmd tea.Cmd
		m.race, cmd = m.race.Update(msg)
		return m, cmd
	}
	switch {
	case s.Kind == lessons.Play && key.Matches(msg, k.Hint):
		m.hint = !m.hint
		if m.hint {
			m.reveal = revealHint
		}
	case s.Kind == lessons.Play && key.Matches(msg, k.Solution):
		if m.canShowSolution() {
			m.sol = true
			m.play.ShowAnswer()
			m.reveal = revealSolution
		}
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
		if question && (!m.answered || m.cursor != m.picked) {
			// After the scored answer, enter on another option shows its
			// feedback (and, choosing, plays its race): trying the others
			// is how the lesson sinks in.
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
		if m.hint {
			m.reveal = revealHint
		}
	case question && key.Matches(msg, k.Solution):
		if m.firstWrong() {
			m.sol = true
			m.reveal = revealSolution
		}
	case key.Matches(msg, k.Decide):
		if d, ok := m.deciding(); ok {
			m.race.SelectRow(d.Step)
		}
	case key.Matches(msg, k.Code):
		if m.canToggleCode() {
			m.code = !m.code
		}
	case key.Matches(msg, k.Zoom):
		if m.hasStage() {
			m.zoom = !m.zoom
		}
	case !m.zoomed() && m.Keys.Text.Matches(msg):
		m.text, _ = m.text.Update(msg)
		m.reveal = revealNone
	case m.showsCode() && key.Matches(msg, k.Race.ScrollDown):
		m.codeP.Scroll(1)
	case m.showsCode() && key.Matches(msg, k.Race.ScrollUp):
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
	m.reveal = revealAnswer
	var cmds []tea.Cmd
	// The first answer is the scored one, right or wrong; tries after it
	// count until one is right, and the score stays (progress.Answered).
	cmds = append(cmds, nav.Send(progress.Answered{Lesson: m.lesson.ID, Step: m.step, Option: opt.ID, Correct: opt.Correct}))
	if !m.answered {
		m.first = i
	}
	m.answered = true
	switch s.Kind {
	case lessons.Choose:
		cmds = append(cmds, m.show(s, opt, false, true))
	case lessons.Predict:
		// Answered: what really happens is the learner's to watch now,
		// beside what they predicted.
		if m.race.Hidden() || m.race.Run() == nil {
			cmds = append(cmds, m.show(s, nil, false, true))
		}
	}
	cmds = append(cmds, m.syncTally())
	m.syncCode()
	return tea.Batch(cmds...)
}

// ShortHelp is the key bar: the step's keys, then esc (back to where the
// lesson was opened from) unless the step's esc means something else.
func (m Model) ShortHelp() []key.Binding {
	out := m.shortHelp()
	for _, b := range out {
		if b.Enabled() && slices.Contains(b.Keys(), "esc") {
			return out
		}
	}
	return append(out, m.Keys.Back)
}

func (m Model) shortHelp() []key.Binding {
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
	if s.Kind == lessons.Play {
		if m.playOn {
			out = append(out, m.play.ShortHelp()...)
		}
		if m.answered {
			out = append(out, withHelp(k.Answer, "enter", "continue"))
		}
		out = append(out, k.Hint)
		if m.canShowSolution() && !m.sol {
			out = append(out, k.Solution)
		}
		return append(m.codeKey(out), k.Prev)
	}
	question := s.Kind == lessons.Predict || s.Kind == lessons.Choose
	if m.inspecting() {
		// The panel has ↑↓ and esc; the app's esc (back) is not listed.
		out = append(out, withHelp(k.Race.Down, "↑↓", "scroll details"), withHelp(k.Race.Close, "esc/i", "close details"))
	} else if question && !m.answered {
		out = append(out, withHelp(k.Down, "↑↓", "choose"), withHelp(k.Answer, "enter", "answer"), k.Hint)
	} else {
		out = append(out, withHelp(k.Answer, "enter", "continue"))
		if question && m.firstWrong() {
			out = append(out, k.Solution)
		}
	}
	if m.race.Run() != nil && !m.race.Hidden() {
		out = append(out, k.Race.Play, k.Race.Step, k.Race.Back)
	}
	return append(m.codeKey(out), k.Prev)
}

// codeKey adds the code key to keys when it does something on this step.
func (m Model) codeKey(keys []key.Binding) []key.Binding {
	if m.canToggleCode() {
		keys = append(keys, m.Keys.Code)
	}
	return keys
}

// FullHelp is the full key list, by column.
func (m Model) FullHelp() [][]key.Binding {
	var out [][]key.Binding
	for _, g := range m.HelpGroups() {
		out = append(out, g.Keys)
	}
	return out
}

// HelpGroups is every key, in named groups: the root's key list flows
// them into as many columns as the window has room for.
//
// Only the keys that do something on the step are listed: a read step
// has no options, a step without a race no race keys, and a step without
// both a race and code nothing for the code key to switch.
func (m Model) HelpGroups() []keyhelp.Group {
	k := m.Keys
	s := m.cur()
	lesson := []key.Binding{k.Next, k.Prev}
	var groups []keyhelp.Group
	switch {
	case s == nil:
		// The summary: its key bar is every key it has.
		return []keyhelp.Group{{Title: "Lesson", Keys: m.ShortHelp()}}
	case s.Kind == lessons.Play:
		// A play step has no options to pick: its own keys (once its
		// stage is set up) take their place.
		var keys []key.Binding
		if m.playOn {
			keys = m.play.FullHelp()
		}
		groups = append(groups, keyhelp.Group{Title: "Play", Keys: append(keys, withHelp(k.Answer, "enter", "continue"), k.Hint, k.Solution)})
	case s.Kind == lessons.Predict || s.Kind == lessons.Choose:
		groups = append(groups, keyhelp.Group{Title: "Answer", Keys: []key.Binding{k.Up, k.Down, k.Pick, k.Answer, k.Hint, k.Solution}})
	default:
		lesson = append([]key.Binding{withHelp(k.Answer, "enter", "continue")}, lesson...)
	}
	lesson = m.codeKey(lesson)
	switch {
	case s.Race != nil:
		lesson = append(lesson, k.Zoom)
	case m.hasStage():
		// The code is the stage: it zooms and scrolls as a race would.
		lesson = append(lesson, withHelp(k.Zoom, "tab", "zoom code"), withHelp(k.Race.ScrollUp, "K/J", "scroll code"))
	}
	if s.Race != nil && s.Kind != lessons.Play {
		lesson = append(lesson, k.Decide)
	}
	groups = append(groups, keyhelp.Group{Title: "Lesson", Keys: lesson}, keyhelp.Group{Title: "Text", Keys: k.Text.Bindings()})
	if s.Race != nil {
		groups = append(groups, keyhelp.Group{Title: "Race", Keys: k.Race.Bindings()})
	}
	if m.live != nil {
		groups = append(groups, keyhelp.Group{Title: "Live", Keys: []key.Binding{k.Live}})
	}
	if m.inspecting() {
		// The inspect panel takes ↑/↓ and esc while it is open: they are
		// listed as its, once.
		panel := keyhelp.Group{Title: "Inspect panel", Keys: []key.Binding{withHelp(k.Race.Up, "↑/k", "scroll details"), withHelp(k.Race.Down, "↓/j", "scroll details down"), k.Race.Close, withHelp(k.Race.Inspect, "i", "close details")}}
		return keyhelp.OneMeaning(append([]keyhelp.Group{panel}, groups...))
	}
	if s.Kind == lessons.Play && m.playOn {
		// The play step takes its keys first: the race's r, space, ←→
		// are its own there.
		return keyhelp.OneMeaning(groups)
	}
	return groups
}

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
	if m.zoomed() {
		return m.viewStage(m.w, m.h)
	}
	switch {
	case !m.hasStage():
		return layout.Fit(m.text.View(), m.w, m.h)
	case m.w >= WideWidth:
		tw, _ := m.text.Size()
		rw := m.w - tw - 3
		sep := layout.Fit(strings.TrimSuffix(strings.Repeat(m.st.Border.Render("│")+"\n", m.h), "\n"), 1, m.h)
		return layout.Fit(layout.Beside(m.text.View(), " ", sep, " ", m.viewStage(rw, m.h)), m.w, m.h)
	}
	stageH := m.h - m.textH - 1
	return layout.Fit(m.text.View()+"\n"+m.st.Border.Render(strings.Repeat("─", m.w))+"\n"+m.viewStage(m.w, stageH), m.w, m.h)
}

// hasStage reports whether the step has something to show beside its
// text: a race, or code. A step without either gives the text the whole
// screen.
func (m Model) hasStage() bool {
	s := m.cur()
	return s != nil && (s.Race != nil || m.codeP.Name() != "")
}

// showsCode reports whether the stage shows the code: when the learner
// asked for it, and at once on a step with code and no race.
func (m Model) showsCode() bool {
	s := m.cur()
	if s == nil || m.codeP.Name() == "" {
		return false
	}
	return m.code || s.Race == nil
}

// canToggleCode reports whether the code key does anything: the step
// has both a race and code to switch between.
func (m Model) canToggleCode() bool {
	s := m.cur()
	return s != nil && s.Race != nil && m.codeP.Name() != ""
}

// zoomed reports whether the stage has the whole screen: zoom is on and
// the step has a stage to zoom.
func (m Model) zoomed() bool { return m.zoom && m.hasStage() }

// maxProse is the widest the text runs when it has the screen to itself:
// longer lines are hard to follow.
const maxProse = 100

// stageMin is the fewest rows a stacked stage keeps (its title and seven
// rows of the race) when the window allows it.
const stageMin = 8

// relayout sizes the text pane and gives it the step's lines, then
// scrolls what the last action asked for into view (again, as the sizes
// change, until the learner scrolls). It runs after every
// change to what the text says and to the size, so View only draws.
func (m *Model) relayout() {
	if m.lesson == nil || m.w <= 0 || m.h <= 0 || m.cur() == nil {
		// No lesson yet (the root sizes every screen), or the summary.
		return
	}
	var tw int
	switch {
	case !m.hasStage():
		tw = min(m.w, maxProse)
	case m.w >= WideWidth:
		tw = max(40, min(56, m.w*9/25))
	default:
		tw = m.w
	}
	tb := m.textBlock(tw, 0)
	th := m.h
	if m.hasStage() && m.w < WideWidth {
		th = m.textHeight(tb)
	}
	if rows := m.optionRows(tb, th); rows > 0 {
		// The options would crowd out the prose: they scroll with the
		// cursor in the rows left under proseMin lines of it.
		tb = m.textBlock(tw, rows)
		m.optTop = tb.optTop
	}
	m.textH = th
	m.text.SetSize(tw, th)
	pin, pinEnd := 0, 0
	if tb.question && m.picked < 0 {
		pin, pinEnd = tb.q, tb.optEnd
	}
	m.text.SetContent(tb.lines, pin, pinEnd)
	n := len(tb.lines)
	switch m.reveal {
	case revealTop:
		m.text.GotoTop()
	case revealAnswer:
		// The options and all that follows them; when that is too much,
		// the verdict and all that follows it.
		m.text.EnsureVisible(tb.q, n)
		if !m.text.Visible(tb.feedback) || !m.text.Visible(n-1) {
			m.text.EnsureVisible(tb.feedback, n)
		}
	case revealHint:
		m.text.EnsureVisible(tb.hint, tb.hintEnd)
	case revealSolution:
		m.text.EnsureVisible(tb.sol, tb.solEnd)
	case revealLive:
		m.text.EnsureVisible(tb.live, n)
	}
}

// reveal is what a layout brings into view.
type reveal int

const (
	revealNone reveal = iota
	revealTop
	revealAnswer
	revealHint
	revealSolution
	revealLive
)

// textHeight is the text pane's share of a stacked layout: what it needs,
// up to a share of the height that depends on what is to be read or
// watched now, but always room for the question and every option under a
// line of the prose, and never less than stageMin rows for the stage.
func (m Model) textHeight(tb textBlock) int {
	need := len(tb.lines)
	share := 50
	switch {
	case m.cur().Kind == lessons.Play:
		// The stage is where the learner works.
		share = 35
	case m.race.Run() != nil && !m.race.Hidden():
		// A race is playing: it is what to watch.
		share = 40
	case m.picked >= 0 || m.hint || m.sol:
		// Feedback is what to read now; a hidden race has little to show.
		share = 55
	}
	h := min(need, m.h*share/100)
	if tb.question && m.picked < 0 {
		// The options pinned under the prose, with proseMin lines of prose
		// and the mark under them.
		h = max(h, min(need, tb.optEnd-tb.q+1+min(proseMin, tb.q)))
	}
	h = max(h, min(need, 6))
	h = min(h, m.h-1-min(stageMin, m.h/3))
	return max(1, h)
}

// proseMin is the fewest lines of a step's prose (its title and text)
// the text pane shows above the question and its options while they are
// pinned under it: options that do not fit under them scroll with the
// cursor.
const proseMin = 4

// optionRows is how many rows the options of an unanswered question get
// when all of them, pinned under the prose in a pane th lines high, would
// leave it fewer than proseMin lines; 0 when they fit.
func (m Model) optionRows(tb textBlock, th int) int {
	s := m.cur()
	if !tb.question || m.picked >= 0 || s.Kind == lessons.Play || tb.optEnd != len(tb.lines) || len(tb.lines) <= th {
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

// textBlock is the whole text column — the step's prose, then the
// question, its options, feedback, hint and solution — and where each
// part starts.
type textBlock struct {
	lines    []string
	question bool
	// q and optEnd bound the question and its options, opt is the first
	// option's line; optTop is the first option in view; feedback is the
	// verdict's line; hint, sol and live start those parts and hintEnd
	// and solEnd end them (all len(lines) when absent).
	q, opt, optEnd, optTop, feedback, hint, hintEnd, sol, solEnd, live int
}

// textBlock lays out the text column w wide; optRows > 0 is the rows the
// options get (they scroll with the cursor when they need more).
func (m Model) textBlock(w, optRows int) textBlock {
	st := m.st
	s := m.cur()
	var lines []string
	lines = append(lines, st.Title.Render(layout.Truncate(s.Title, w)))
	if strings.TrimSpace(s.Text) != "" {
		lines = append(lines, layout.Lines(markdown.Render(s.Text, st.Markdown, w))...)
	}
	tb := textBlock{}
	if s.Kind == lessons.Read {
		lines = append(lines, "", st.Faint.Render("enter: continue"))
		tb.q, tb.optEnd, tb.feedback, tb.hint, tb.hintEnd, tb.sol, tb.solEnd = len(lines), len(lines), len(lines), len(lines), len(lines), len(lines), len(lines)
		tb.live = len(lines)
		tb.lines = append(lines, m.liveLines(w)...)
		return tb
	}
	tb.question = true
	lines = append(lines, "")
	tb.q = len(lines)
	for _, l := range layout.Lines(layout.Wrap(s.Question, w)) {
		lines = append(lines, st.Bold.Render(l))
	}
	if s.Kind == lessons.Play {
		return m.playBlock(tb, lines, w)
	}
	tb.opt = len(lines)
	opts := make([][]string, len(s.Options))
	for i, o := range s.Options {
		mark := ""
		if m.picked >= 0 {
			mark = "  "
		}
		if i == m.picked || m.answered && o.Correct {
			// Once answered, the right option is marked too: it is what
			// happened, beside what was picked.
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
		// Continuation lines line up under the label, after "N. ".
		num := fmt.Sprintf("%d. ", i+1)
		lead := 2 + layout.MaxWidth(mark) + len(num)
		for j, l := range layout.Lines(layout.Wrap(o.Label, max(8, w-lead))) {
			if j == 0 {
				l = num + l
			}
			if i == m.cursor {
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
		a, b = optionWindow(heights, m.cursor, m.optTop, optRows)
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
	if m.picked >= 0 {
		o := s.Options[m.picked]
		lines = append(lines, "")
		tb.feedback = len(lines)
		lines = append(lines, m.verdictLine(s, w)...)
		lines = append(lines, layout.Lines(markdown.Render(o.Feedback, st.Markdown, w))...)
		lines = append(lines, m.tallyLines(w)...)
		lines = append(lines, m.decidingLines(w)...)
	}
	lines = m.hintAndSolution(&tb, lines, s, w)
	tb.lines = append(lines, m.liveLines(w)...)
	return tb
}

// moreOptions marks options scrolled out of view: "↓ 2 options below".
func moreOptions(arrow string, n int, where string) string {
	if n == 1 {
		return arrow + " 1 option " + where
	}
	return fmt.Sprintf("%s %d options %s", arrow, n, where)
}

// hintAndSolution adds the hint, the solution and "enter: continue" as
// they are open, marking where each starts and ends in tb (the question
// steps and the play steps end alike).
func (m Model) hintAndSolution(tb *textBlock, lines []string, s *lessons.Step, w int) []string {
	st := m.st
	tb.hint = len(lines)
	if m.hint {
		lines = append(lines, "")
		lines = append(lines, layout.Lines(layout.Wrap(st.Warn.Render("Hint: ")+s.Hint, w))...)
	}
	tb.hintEnd = len(lines)
	tb.sol = len(lines)
	if m.sol && s.Solution != "" {
		lines = append(lines, "", st.Heading.Render("Solution"))
		lines = append(lines, layout.Lines(markdown.Render(s.Solution, st.Markdown, w))...)
	}
	tb.solEnd = len(lines)
	if m.answered {
		lines = append(lines, "", st.Faint.Render("enter: continue"))
	}
	tb.live = len(lines)
	return lines
}

// viewStage is the race (or the code) with a title rule.
func (m Model) viewStage(w, h int) string {
	if h < 2 {
		return layout.Fit("", w, h)
	}
	s := m.cur()
	var title, body string
	switch {
	case m.showsCode():
		title = "code: " + m.codeP.Name()
		if m.codeP.Name() == "" {
			title = "code"
		}
		m.codeP.SetSize(w, h-1)
		body = m.codeP.View()
	case s.Race == nil:
		title = "race"
		body = layout.Fit(m.st.Faint.Render("This step has no race."), w, h-1)
	case s.Kind == lessons.Play:
		title = "play · race " + s.Race.Scenario
		switch {
		case m.playErr != nil:
			body = layout.Fit(m.st.Bad.Render(styles.Bad+" the race could not run: "+m.playErr.Error()), w, h-1)
		case !m.playOn:
			body = layout.Fit(m.st.Faint.Render("Setting up the race…"), w, h-1)
		default:
			title = "play: fix it · race " + m.play.Scenario()
			if m.play.IsBreak() {
				title = "play: break it · race " + m.play.Scenario()
			}
			m.play.SetSize(w, h-1)
			body = m.play.View()
		}
	case m.raceErr != nil:
		title = "race"
		body = layout.Fit(m.st.Bad.Render(styles.Bad+" the race could not run: "+m.raceErr.Error()), w, h-1)
	default:
		title = "race " + s.Race.Scenario
		if r := m.race.Run(); r != nil {
			title = "race " + r.Outcome.Scenario
		}
		if r := m.race.Run(); r != nil && r.Source != "" {
			title += " · " + r.Source
		}
		var strategy []string
		if s.Kind == lessons.Choose && m.picked >= 0 && !m.race.Hidden() {
			// The strategy is in the title when the whole of it fits there,
			// and otherwise on lines of its own under it.
			label := s.Options[m.picked].Label
			if full := title + " · strategy: " + label; layout.MaxWidth("─ "+full+" ") <= w {
				title = full
			} else {
				strategy = layout.Lines(layout.Wrap(m.st.Faint.Render("strategy: ")+label, w))
				strategy = strategy[:min(len(strategy), max(0, h-2))]
			}
		}
		m.race.SetSize(w, h-1-len(strategy))
		body = m.race.View()
		if len(strategy) > 0 {
			body = strings.Join(strategy, "\n") + "\n" + body
		}
	}
	return layout.Fit(layout.Rule(title, w, m.st.Border)+"\n"+body, w, h)
}

// viewSummary is the end of the lesson: the two-line take-away, the
// score, and what comes next.
func (m Model) viewSummary() string {
	st := m.st
	w := min(m.w, 100)
	var lines []string
	t := m.tally()
	if t.Complete() {
		lines = append(lines, st.OK.Render(styles.OK+" Lesson complete: ")+st.Title.Render(m.lesson.Title), "")
	} else {
		lines = append(lines, st.Warn.Render(styles.Warn+" Not complete yet: ")+st.Title.Render(m.lesson.Title), "")
	}
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
	lines = append(lines, m.scoreLines(w)...)
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
