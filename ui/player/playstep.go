package player

import (
	"fmt"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/conflictlab/conflictlab/progress"
	"github.com/conflictlab/conflictlab/ui/keyhelp"
	"github.com/conflictlab/conflictlab/ui/layout"
	"github.com/conflictlab/conflictlab/ui/nav"
	"github.com/conflictlab/conflictlab/ui/play"
	"github.com/conflictlab/conflictlab/ui/raceview"
	"github.com/conflictlab/conflictlab/ui/styles"
)

// playing is a play step: its stage is the learner's to play (ui/play),
// the scheduler of a race to break or the settings of one to fix; the
// text says what to do, how it is scored, and how it went.
type playing struct {
	f frame
	// play is the stage once it is made (on), off the UI loop.
	play play.Model
	on   bool
	err  error
	// solved: the step has its scored solution.
	solved    bool
	hint, sol bool
	// live: a replay on a cluster is configured (its key is listed).
	live bool
}

// playReady carries a play step's stage, made off the UI loop (it starts
// the race, which builds the API server the first time).
type playReady struct {
	gen int
	m   play.Model
	err error
}

func newPlaying(f frame, src scenarios, live bool) (step, tea.Cmd) {
	p := playing{f: f, live: live}
	if a, ok := f.env.rec().Answers[f.i]; ok && a.Correct {
		p.solved = true
		p.f.reveal = revealAnswer
	}
	f.code.Show("")
	p.f.setCode(f.s.Code, !p.solved)
	p.relayout()
	s, gen, i, st := *f.s, f.gen, f.i, f.st
	return p, func() tea.Msg {
		if src == nil || s.Goal == nil {
			return playReady{gen: gen, err: fmt.Errorf("this play step cannot be played here")}
		}
		sc, err := src.Scenario(s.Spec(nil))
		if err != nil {
			return playReady{gen: gen, err: err}
		}
		pm, err := play.New(s.Goal, sc, s.Question, i, st)
		return playReady{gen: gen, m: pm, err: err}
	}
}

// arrived puts the stage on, if it is still this visit's.
func (p *playing) arrived(msg playReady) {
	if msg.gen != p.f.gen {
		return
	}
	if msg.err != nil {
		p.err = msg.err
		return
	}
	p.play, p.on = msg.m, true
	p.play.SetTicker(p.f.env.ticker)
	k := p.f.keys()
	p.play.Reserved = append([]key.Binding{k.Up, k.Down, k.Answer, k.Next, k.Prev, k.Hint, k.Solution, k.Code, k.Zoom,
		k.Decide, k.Live, k.Confirm}, k.Text.Bindings()...)
	if a, ok := p.f.env.rec().Answers[p.f.i]; ok {
		p.play.SetBest(a.Best)
	}
	if p.sol {
		p.play.ShowAnswer()
	}
}

// canShowSolution reports whether the solution may be shown: after a
// finished attempt, or once the hint has been read.
func (p playing) canShowSolution() bool { return p.on && (p.hint || p.play.Attempts() > 0) }

// plays reports whether the stage takes msg first: its keys (the
// scheduler's, the settings'), unless the code is on show.
func (p playing) plays(msg tea.KeyPressMsg) bool {
	return p.on && !p.f.showsCode() && p.play.HandlesKey(msg)
}

func (p playing) Update(msg tea.Msg) (step, tea.Cmd) {
	var cmd tea.Cmd
	switch msg := msg.(type) {
	case playReady:
		p.arrived(msg)
	case playMsg:
		if msg.gen != p.f.gen || !p.on {
			return p, nil // the stage of a visit since left
		}
		if s, ok := msg.msg.(play.Solved); ok {
			p.solved = true
			p.f.reveal = revealAnswer
			p.f.setCode(p.f.s.Code, false)
			cmd = nav.Send(progress.Played{Lesson: p.f.env.lesson.ID, Step: p.f.i, Moves: s.Moves, Par: s.Par})
			break
		}
		// Playback ticks and the explorer's reports, for the stage.
		p.play, cmd = p.play.Update(msg.msg)
		cmd = p.wrap(cmd)
	case tea.MouseWheelMsg:
		p.f.wheel(msg)
		return p, nil
	case tea.KeyPressMsg:
		p, cmd = p.key(msg)
	case progress.Change:
	default:
		return p, nil
	}
	p.relayout()
	return p, cmd
}

// playMsg carries what the stage sends (its proof's reports, its
// solution, its race view's ticks) under this visit of the step: every
// screen hears what is not a key, and the sandbox plays levels too.
type playMsg struct {
	gen int
	msg tea.Msg
}

// playTick is a playMsg that is a playback tick (a test driver holds
// those).
type playTick struct{ playMsg }

// PlaybackTick marks it for the test driver.
func (playTick) PlaybackTick() {}

// wrap makes what cmd sends come back as a playMsg of this visit.
func (p playing) wrap(cmd tea.Cmd) tea.Cmd {
	if cmd == nil {
		return nil
	}
	gen := p.f.gen
	return func() tea.Msg {
		switch msg := cmd().(type) {
		case nil:
			return nil
		case tea.BatchMsg:
			out := make(tea.BatchMsg, len(msg))
			for i, c := range msg {
				out[i] = p.wrap(c)
			}
			return out
		case raceview.TickMsg:
			return playTick{playMsg{gen: gen, msg: msg}}
		default:
			return playMsg{gen: gen, msg: msg}
		}
	}
}

func (p playing) key(msg tea.KeyPressMsg) (playing, tea.Cmd) {
	k := p.f.keys()
	var cmd tea.Cmd
	switch {
	case p.plays(msg):
		p.play, cmd = p.play.Update(msg)
		cmd = p.wrap(cmd)
	case key.Matches(msg, k.Hint):
		p.hint = !p.hint
		if p.hint {
			p.f.reveal = revealHint
		}
	case key.Matches(msg, k.Solution):
		if p.canShowSolution() {
			p.sol = true
			p.play.ShowAnswer()
			p.f.reveal = revealSolution
		}
	default:
		cmd, _ = p.f.paneKey(msg)
	}
	return p, cmd
}

func (p *playing) relayout() {
	f := &p.f
	if !f.ready() {
		return
	}
	tb := p.textBlock(f.textWidth())
	// The stage is where the learner works.
	f.layout(tb, f.height(tb, 35, false), false)
}

func (p playing) laidOut() step {
	p.relayout()
	return p
}

// textBlock ends a play step's text with what to do on the stage, or how
// it was solved, then the hint and the solution.
func (p playing) textBlock(w int) textBlock {
	f, st, s := p.f, p.f.st, p.f.s
	lines := append(f.prose(w), "")
	tb := textBlock{question: true, q: len(lines)}
	for _, l := range layout.Lines(layout.Wrap(s.Question, w)) {
		lines = append(lines, st.Bold.Render(l))
	}
	tb.optEnd = len(lines)
	lines = append(lines, "")
	tb.feedback = len(lines)
	word := "move"
	if s.Goal != nil && !s.Goal.IsBreak() {
		word = "change"
	}
	if a, ok := f.env.rec().Answers[f.i]; ok && a.Correct {
		par := 0
		if s.Goal != nil {
			par = s.Goal.Par
		}
		text := st.OK.Render(styles.OK+" Solved.") + fmt.Sprintf(" Best: %s; par %d.", play.Count(a.Best, word), par)
		if a.FirstTry {
			text += st.Faint.Render(" The score counts your first solution: at par.")
		} else {
			text += st.Faint.Render(" The score counts your first solution: over par.")
		}
		lines = append(lines, layout.Lines(layout.Wrap(text, w))...)
	} else if s.Goal != nil && s.Goal.IsBreak() {
		lines = append(lines, layout.Lines(layout.Wrap(st.Faint.Render(
			"On the stage: step the controllers by their keys until the goal is met, in as few moves as you can. ⌫ takes a move back."), w))...)
		lines = append(lines, layout.Lines(layout.Wrap(st.Faint.Render(scoringRule), w))...)
	} else {
		lines = append(lines, layout.Lines(layout.Wrap(st.Faint.Render(
			"On the stage: ↑↓ pick a setting, ←→ change it, enter proves the settings over every order. Change as few as you can."), w))...)
		lines = append(lines, layout.Lines(layout.Wrap(st.Faint.Render(scoringRule), w))...)
	}
	tb.lines = hintAndSolution(f, &tb, lines, p.hint, p.sol, p.solved, w)
	return tb
}

// scoringRule says how a play step is scored, before it is solved (the
// solved line says how it was).
const scoringRule = "Scored: your first solution, at par or over it; the best one is kept."

func (p playing) View() string { return p.f.view(p.stage) }

// stage is the race to break or to fix, or the code.
func (p playing) stage(w, h int) string {
	f := p.f
	if f.showsCode() {
		return f.codeStage(w, h)
	}
	title := "play · race " + f.s.Race.Scenario
	switch {
	case p.err != nil:
		return f.stageFrame(title, f.bad("the race could not run: "+p.err.Error(), w, h-1), w, h)
	case !p.on:
		return f.stageFrame(title, f.faint("Setting up the race…", w, h-1), w, h)
	}
	title = "play: fix it · race " + p.play.Scenario()
	if p.play.IsBreak() {
		title = "play: break it · race " + p.play.Scenario()
	}
	p.play.SetSize(w, h-1)
	return f.stageFrame(title, p.play.View(), w, h)
}

func (p playing) SetSize(w, h int) step {
	p.f.setSize(w, h)
	return p.laidOut()
}

func (p playing) SetStyles(st *styles.Styles) step {
	p.f.setStyles(st)
	if p.on {
		p.play.SetStyles(st)
	}
	return p.laidOut()
}

func (p playing) Refresh(l Live) step {
	p.live = l != nil
	p.f.code.Show("")
	p.f.setCode(p.f.s.Code, !p.solved)
	return p.laidOut()
}

func (p playing) ShortHelp() []key.Binding {
	k := p.f.keys()
	var out []key.Binding
	if p.on {
		out = append(out, p.play.ShortHelp()...)
	}
	if p.solved {
		out = append(out, withHelp(k.Answer, "enter", "continue"))
	}
	out = append(out, k.Hint)
	if p.canShowSolution() && !p.sol {
		out = append(out, k.Solution)
	}
	return append(p.f.codeKey(out), k.Prev)
}

func (p playing) HelpGroups() []keyhelp.Group {
	f := p.f
	k := f.keys()
	// A play step has no options to pick: its own keys (once its stage
	// is set up) take their place.
	var keys []key.Binding
	if p.on {
		keys = p.play.FullHelp()
	}
	groups := []keyhelp.Group{
		{Title: "Play", Keys: append(keys, withHelp(k.Answer, "enter", "continue"), k.Hint, k.Solution)},
		{Title: "Lesson", Keys: f.lessonKeys()},
		{Title: "Text", Keys: k.Text.Bindings()},
	}
	if f.s.Race != nil {
		groups = append(groups, keyhelp.Group{Title: "Race", Keys: k.Race.Bindings()})
	}
	if p.live {
		groups = append(groups, keyhelp.Group{Title: "Live", Keys: []key.Binding{k.Live}})
	}
	if p.on {
		// The play step takes its keys first: the race's r, space, ←→
		// are its own there.
		return keyhelp.OneMeaning(groups)
	}
	return groups
}

// TakesKey: esc stops a proof or the example played, not the lesson.
func (p playing) TakesKey(msg tea.KeyPressMsg) bool { return msg.String() == "esc" && p.plays(msg) }

// Owns: the stage's keys (enter proves a fix not yet proven).
func (p playing) Owns(msg tea.KeyPressMsg) bool { return p.plays(msg) }

func (p playing) Frame() frame { return p.f }

// Stop cancels a proof that runs: the step is left.
func (p playing) Stop() {
	if p.on {
		p.play.Stop()
	}
}

// Answered: only a question before its answer takes one.
func (p playing) Answered() (answer, bool) { return answer{}, false }
