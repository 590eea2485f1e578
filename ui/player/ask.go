package player

import (
	"errors"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/conflictlab/conflictlab/lessons"
	"github.com/conflictlab/conflictlab/lessons/snippets"
	"github.com/conflictlab/conflictlab/progress"
	"github.com/conflictlab/conflictlab/ui/keyhelp"
	"github.com/conflictlab/conflictlab/ui/nav"
	"github.com/conflictlab/conflictlab/ui/raceview"
	"github.com/conflictlab/conflictlab/ui/stage"
	"github.com/conflictlab/conflictlab/ui/styles"
	"github.com/conflictlab/conflictlab/ui/textpane"
)

// asking is a predict or choose step before its answer. It is drawn from
// the step and the race's scenario alone: it holds no way to play the
// race — no Races, no replay, no count of interleavings — so nothing of
// the outcome can reach the screen before the answer. Its stage is the
// race's setup (raceview.NewSetup): the objects as created and what each
// controller is set to do, less what the question is about (a choose
// step's choice, a step's plans when they answer it). The answer is
// sent to the player (answer), which makes the step's answered model.
type asking struct {
	f frame
	q question
	// scenario gives the race's scenario, and nothing else: it is the
	// method value of the races, which cannot be asked for an outcome.
	scenario stage.Scenarios
	// setups keeps the setups made, shared by the lesson's steps.
	setups   *stage.Setups
	setupErr error
	// live: a replay on a cluster will be offered once the race shows
	// (its key is listed).
	live bool
	// taken is the answer just given, for the player to make the step's
	// answered model (Answered).
	taken *answer
	// seen marks the text's lines that have been on screen; stemEnd is
	// where the options start. The options answer only once every line
	// above them has been shown (stemRead).
	seen    textpane.Seen
	stemEnd int
}

// errNoScenarios: the races given cannot draw a setup.
var errNoScenarios = errors.New("this race cannot be set up here")

// setupReady carries a setup made off the UI loop (the first builds the
// API server's schema) for a visit of the step.
type setupReady struct {
	gen int
	stage.SetupReady
}

// answer is a question answered: the player makes the step's answered
// model from the question and the frame as they stand, at once (a key
// typed right after the answer is the answered step's).
type answer struct {
	f frame
	q question
}

func newAsking(f frame, src scenarios, ss *stage.Setups, live bool) (step, tea.Cmd) {
	a := asking{f: f, q: question{picked: -1, first: -1}, setups: ss, live: live}
	if src != nil {
		a.scenario = src.Scenario
	}
	var cmd tea.Cmd
	if f.s.Race != nil {
		cmd = a.setup()
	}
	a.syncCode()
	a.relayout()
	return a, cmd
}

// setup puts the race's setup on the stage: at once when it was made
// before, else from a command.
func (a *asking) setup() tea.Cmd {
	k := raceKey(a.f, nil)
	if r, ok := a.setups.Get(k); ok {
		a.place(r)
		return nil
	}
	if a.scenario == nil {
		a.setupErr = errNoScenarios
		return nil
	}
	s, gen := *a.f.s, a.f.gen
	return a.setups.Make(k, a.scenario, s.Spec(nil), func(r *raceview.Run) { withhold(r, &s) },
		func(r stage.SetupReady) tea.Msg { return setupReady{gen: gen, SetupReady: r} })
}

// withhold keeps off a setup what the question is about: every plan when
// the step says they answer it, and on a choose step the parts of the
// plans its options set.
func withhold(r *raceview.Run, s *lessons.Step) {
	var apply []string
	if s.Race != nil {
		apply = s.Race.Apply
	}
	parts := lessons.StrategyParts(s.Options, func(o lessons.Option) *lessons.Strategy { return o.Strategy })
	stage.Withhold(r, s.PlansAfterAnswer, s.Kind == lessons.Choose, apply, parts)
}

// place puts a setup on the stage.
func (a *asking) place(r *raceview.Run) {
	a.f.race.SetRun(r, true)
	if a.f.s.Kind == lessons.Choose {
		a.f.race.SetSetupNote("pick a strategy to run it")
	}
	a.syncCode()
}

// syncCode shows the code of the strategy under the cursor (choose), or
// the step's code, without its comments: they name the defect.
func (a *asking) syncCode() {
	s := a.f.s
	name := s.Code
	if s.Kind == lessons.Choose && a.q.cursor < len(s.Options) {
		name = optionCode(s, a.q.cursor)
	}
	if name == "" {
		name = a.f.stepCode()
	}
	a.f.setCode(name, true)
}

// optionCode is the snippet of option i's strategy (a choose step's).
func optionCode(s *lessons.Step, i int) string {
	o := s.Options[i]
	switch {
	case o.Code != "":
		return o.Code
	case o.Strategy != nil && s.Code == "":
		return snippets.ForWrite(string(o.Strategy.Write))
	}
	return s.Code
}

func (a asking) Update(msg tea.Msg) (step, tea.Cmd) {
	switch msg := msg.(type) {
	case setupReady:
		if msg.gen != a.f.gen {
			return a, nil
		}
		if msg.Err != nil {
			a.setupErr = msg.Err
		} else {
			a.place(msg.Run)
		}
	case raceview.TickMsg:
		var cmd tea.Cmd
		a.f.race, cmd = a.f.race.Update(msg)
		return a, cmd
	case tea.MouseWheelMsg:
		a.f.wheel(msg)
		a.see()
		return a, nil
	case tea.KeyPressMsg:
		var cmd tea.Cmd
		a, cmd = a.key(msg)
		a.relayout()
		return a, cmd
	case progress.Change:
	default:
		return a, nil
	}
	a.relayout()
	return a, nil
}

func (a asking) key(msg tea.KeyPressMsg) (asking, tea.Cmd) {
	k := a.f.keys()
	if took, n, hint := a.q.key(msg, k, a.f.s); took {
		if n >= 0 {
			return a.answer(n)
		}
		if hint {
			a.f.reveal = revealHint
		}
		a.syncCode()
		return a, nil
	}
	if key.Matches(msg, k.Decide) || key.Matches(msg, k.Solution) {
		// Nothing decides a race not run yet; the solution follows a
		// wrong answer.
		return a, nil
	}
	cmd, _ := a.f.paneKey(msg)
	return a, cmd
}

// see marks the lines on screen as shown.
func (a *asking) see() { a.seen.Mark(a.f.text) }

// stemRead reports whether every line above the options — the prose
// and the question — has been on screen.
func (a asking) stemRead() bool { return a.seen.Through(a.stemEnd) }

// answer takes option i as the learner's answer: the first to a
// question is the one scored, right or wrong (progress.Answered). While
// some of the question has not been on screen (a short window keeps the
// options pinned under it), the key reads on instead: an answer given
// before the question was read whole is a guess the score would keep.
func (a asking) answer(i int) (asking, tea.Cmd) {
	if !a.stemRead() {
		above, _ := a.seen.Reveal(&a.f.text, a.stemEnd)
		a.f.reveal = revealNone
		return a, nav.Say(textpane.UnreadQuestion(above))
	}
	s := a.f.s
	opt := s.Options[i]
	q := a.q
	q.picked, q.first, q.cursor = i, i, i
	f := a.f
	f.reveal = revealAnswer
	a.taken = &answer{f: f, q: q}
	return a, nav.Send(progress.Answered{Lesson: f.env.lesson.ID, Step: f.i, Option: opt.ID, Correct: opt.Correct})
}

// Answered is the answer just given, once.
func (a asking) Answered() (answer, bool) {
	if a.taken == nil {
		return answer{}, false
	}
	return *a.taken, true
}

// relayout lays the question out: the options pinned under the prose,
// and scrolling with the cursor when they would crowd it out.
func (a *asking) relayout() {
	f := &a.f
	if !f.ready() {
		return
	}
	tw := f.textWidth()
	tb := a.textBlock(tw, 0)
	share := 50
	if a.q.hint {
		share = 55
	}
	th := f.height(tb, share, true)
	if rows := optionRows(tb, th); rows > 0 {
		tb = a.textBlock(tw, rows)
		a.q.optTop = tb.optTop
	}
	f.layout(tb, th, true)
	a.stemEnd = tb.opt
	a.see()
}

func (a asking) laidOut() step {
	a.relayout()
	return a
}

// textBlock is the prose, the question and its options, and the hint.
func (a asking) textBlock(w, optRows int) textBlock {
	lines, tb := a.q.block(a.f, a.f.prose(w), w, optRows, false)
	tb.lines = hintAndSolution(a.f, &tb, lines, a.q.hint, false, false, w)
	return tb
}

func (a asking) View() string { return a.f.view(a.stage) }

// stage is the race's setup, or the code.
func (a asking) stage(w, h int) string { return a.f.raceStage(w, h, a.setupErr, "") }

func (a asking) SetSize(w, h int) step {
	a.f.setSize(w, h)
	return a.laidOut()
}

func (a asking) SetStyles(st *styles.Styles) step {
	a.f.setStyles(st)
	return a.laidOut()
}

func (a asking) Refresh(l Live) step {
	a.live = l != nil
	a.f.reloadCode(true)
	return a.laidOut()
}

func (a asking) ShortHelp() []key.Binding {
	k := a.f.keys()
	out := []key.Binding{withHelp(k.Down, "↑↓", "choose"), withHelp(k.Answer, "enter", "answer"), k.Hint}
	return append(a.f.codeKey(out), k.Prev)
}

func (a asking) HelpGroups() []keyhelp.Group { return questionGroups(a.f, a.live) }

// TakesKey: no panel is open before the answer (the race is its setup).
func (a asking) TakesKey(tea.KeyPressMsg) bool { return false }

// Owns: enter answers.
func (a asking) Owns(msg tea.KeyPressMsg) bool { return key.Matches(msg, a.f.keys().Answer) }

func (a asking) Frame() frame { return a.f }
func (a asking) Stop()        {}
