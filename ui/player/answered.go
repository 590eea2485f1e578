package player

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/conflictlab/conflictlab/lessons"
	"github.com/conflictlab/conflictlab/progress"
	"github.com/conflictlab/conflictlab/ui/keyhelp"
	"github.com/conflictlab/conflictlab/ui/layout"
	"github.com/conflictlab/conflictlab/ui/markdown"
	"github.com/conflictlab/conflictlab/ui/nav"
	"github.com/conflictlab/conflictlab/ui/raceview"
	"github.com/conflictlab/conflictlab/ui/stage"
	"github.com/conflictlab/conflictlab/ui/styles"
)

// answered is a predict or choose step once it has its scored answer:
// the race plays (a choose step's with the strategy picked), the text
// says what was predicted beside what happened and which row of the race
// decides it, and the other options may be tried (choosing, each plays
// its race) without changing the score.
type answered struct {
	f    frame
	q    question
	show shown
	// tallies are the counts over every interleaving shown under an
	// answer to a step with explore claims (tally.go).
	tallies *tallies
}

func newAnswered(f frame, q question, races Races, req stage.Requests, t *tallies, l Live) (step, tea.Cmd) {
	a := answered{f: f, q: q, show: shown{races: races, req: req, live: l, named: true}, tallies: t}
	if a.f.reveal == revealTop {
		a.f.reveal = revealAnswer // an answered step opens on its verdict
	}
	var cmds []tea.Cmd
	if f.s.Race != nil {
		cmds = append(cmds, a.show.ask(&a.f, a.opt(), false, true))
	}
	cmds = append(cmds, a.syncTally())
	a.syncCode()
	a.relayout()
	return a, tea.Batch(cmds...)
}

// opt is the option whose race is on the stage: a choose step's pick
// (a predict step's race is the step's own).
func (a answered) opt() *lessons.Option {
	if a.f.s.Kind != lessons.Choose || a.q.picked < 0 {
		return nil
	}
	return &a.f.s.Options[a.q.picked]
}

// firstWrong reports whether the step's scored answer was wrong.
func (a answered) firstWrong() bool {
	r, ok := a.f.env.rec().Answers[a.f.i]
	return ok && !r.FirstTry
}

// syncCode shows the code of the strategy under the cursor (choose), or
// the step's code, whole: the question is answered.
func (a *answered) syncCode() {
	s := a.f.s
	name := s.Code
	if s.Kind == lessons.Choose && a.q.cursor < len(s.Options) {
		name = optionCode(s, a.q.cursor)
	}
	if name == "" {
		name = a.f.stepCode()
	}
	a.f.setCode(name, false)
}

func (a answered) Update(msg tea.Msg) (step, tea.Cmd) {
	var cmd tea.Cmd
	switch msg := msg.(type) {
	case raceReady:
		var placed bool
		cmd, placed = a.show.arrived(&a.f, msg)
		if !placed {
			return a, nil
		}
		a.syncCode()
	case tallyReady:
		if !a.tallyArrived(msg) {
			return a, nil
		}
	case liveReady:
		cmd = a.show.liveArrived(&a.f, msg, a.opt())
	case raceview.TickMsg:
		a.f.race, cmd = a.f.race.Update(msg)
		return a, cmd
	case tea.MouseWheelMsg:
		a.f.wheel(msg)
		return a, nil
	case tea.KeyPressMsg:
		a, cmd = a.key(msg)
	case progress.Change:
	default:
		return a, nil
	}
	a.relayout()
	return a, cmd
}

func (a answered) key(msg tea.KeyPressMsg) (answered, tea.Cmd) {
	k := a.f.keys()
	if cmd, took := a.show.liveKey(&a.f, msg, a.opt()); took {
		return a, cmd
	}
	if a.f.inspecting() && a.f.race.HandlesKey(msg) {
		var cmd tea.Cmd
		a.f.race, cmd = a.f.race.Update(msg)
		return a, cmd
	}
	// After the scored answer, enter on another option shows its feedback
	// (and, choosing, plays its race): trying the others is how the
	// lesson sinks in. (On the option answered, enter is the lesson's:
	// continue.)
	if key.Matches(msg, k.Answer) && a.q.cursor == a.q.picked && a.f.unread() {
		// The feedback goes on below the pane: enter reads on, as on a
		// read step, rather than leave the step with it half read.
		a.f.text.ScrollBy(a.f.textH - 1)
		a.f.reveal = revealNone
		return a, nil
	}
	if took, n, hint := a.q.key(msg, k, a.f.s); took {
		if n >= 0 {
			return a, a.answer(n)
		}
		if hint {
			a.f.reveal = revealHint
		}
		a.syncCode()
		return a, nil
	}
	switch {
	case key.Matches(msg, k.Solution):
		if a.firstWrong() {
			a.q.sol = true
			a.f.reveal = revealSolution
		}
	case key.Matches(msg, k.Decide):
		if d, ok := deciding(a.f); ok {
			a.f.race.SelectRow(d.Step)
		}
	default:
		cmd, _ := a.f.paneKey(msg)
		return a, cmd
	}
	return a, nil
}

// answer takes option i as the learner's answer, tried after the scored
// one: its feedback, and on a choose step its race; it counts as a try
// until one is right (progress.Answered).
func (a *answered) answer(i int) tea.Cmd {
	s := a.f.s
	opt := &s.Options[i]
	a.q.picked = i
	a.f.reveal = revealAnswer
	cmds := []tea.Cmd{nav.Send(progress.Answered{Lesson: a.f.env.lesson.ID, Step: a.f.i, Option: opt.ID, Correct: opt.Correct})}
	if s.Kind == lessons.Choose {
		cmds = append(cmds, a.show.ask(&a.f, opt, false, true))
	}
	cmds = append(cmds, a.syncTally())
	a.syncCode()
	return tea.Batch(cmds...)
}

func (a *answered) relayout() {
	f := &a.f
	if !f.ready() {
		return
	}
	tb := a.textBlock(f.textWidth())
	f.layout(tb, f.height(tb, f.share(true), false), false)
}

func (a answered) laidOut() step {
	a.relayout()
	return a
}

// textBlock is the prose, the question and its options marked, the
// verdict and the feedback, the count over every interleaving, the row
// that decides the race, the hint and the solution, and a replay.
func (a answered) textBlock(w int) textBlock {
	f, st := a.f, a.f.st
	lines, tb := a.q.block(f, f.prose(w), w, 0, true)
	if a.q.picked >= 0 {
		o := f.s.Options[a.q.picked]
		lines = append(lines, "")
		tb.feedback = len(lines)
		lines = append(lines, a.verdictLine(w)...)
		lines = append(lines, layout.Lines(markdown.Render(o.Feedback, st.Markdown, w))...)
		lines = append(lines, a.tallyLines(w)...)
		lines = append(lines, decidingLines(f, w)...)
	}
	lines = hintAndSolution(f, &tb, lines, a.q.hint, a.q.sol, true, w)
	tb.lines = append(lines, a.show.liveLines(f, w)...)
	return tb
}

func (a answered) View() string { return a.f.view(a.stage) }

// stage is the race (with the strategy picked, on a choose step), or the
// code.
func (a answered) stage(w, h int) string {
	label := ""
	if s := a.f.s; s.Kind == lessons.Choose && a.q.picked >= 0 && !a.f.race.Hidden() {
		label = s.Options[a.q.picked].Label
	}
	return a.f.raceStage(w, h, a.show.raceErr, label)
}

func (a answered) SetSize(w, h int) step {
	a.f.setSize(w, h)
	return a.laidOut()
}

func (a answered) SetStyles(st *styles.Styles) step {
	a.f.setStyles(st)
	return a.laidOut()
}

func (a answered) Refresh(l Live) step {
	a.show.live = l
	a.f.reloadCode(false)
	return a.laidOut()
}

func (a answered) ShortHelp() []key.Binding {
	k := a.f.keys()
	var out []key.Binding
	if a.f.inspecting() {
		// The panel has ↑↓ and esc; the app's esc (back) is not listed.
		out = append(out, withHelp(k.Race.Down, "↑↓", "scroll details"), withHelp(k.Race.Close, "esc/i", "close details"))
	} else {
		if a.f.unread() {
			out = append(out, withHelp(k.Answer, "enter", "read on"))
		} else {
			out = append(out, withHelp(k.Answer, "enter", "continue"))
		}
		if a.firstWrong() {
			out = append(out, k.Solution)
		}
	}
	if a.f.race.Run() != nil && !a.f.race.Hidden() {
		out = append(out, k.Race.Play, k.Race.Step, k.Race.Back)
	}
	return append(a.f.codeKey(out), k.Prev)
}

func (a answered) HelpGroups() []keyhelp.Group { return questionGroups(a.f, a.show.live != nil) }

// TakesKey: esc closes the race's inspect panel, as its help says.
func (a answered) TakesKey(msg tea.KeyPressMsg) bool {
	return msg.String() == "esc" && a.f.inspecting() && a.f.race.HandlesKey(msg)
}

// Owns: every key while a replay's prompt is open; enter on an option
// other than the one answered answers it.
// Enter is the step's too while the feedback goes on below the pane.
func (a answered) Owns(msg tea.KeyPressMsg) bool {
	return a.show.prompting() || key.Matches(msg, a.f.keys().Answer) && (a.q.cursor != a.q.picked || a.f.unread())
}

func (a answered) Frame() frame { return a.f }
func (a answered) Stop()        {}

// Answered: only a question before its answer takes one.
func (a answered) Answered() (answer, bool) { return answer{}, false }
