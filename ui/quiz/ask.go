package quiz

import (
	"errors"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/conflictlab/conflictlab/lessons"
	qz "github.com/conflictlab/conflictlab/quiz"
	"github.com/conflictlab/conflictlab/ui/nav"
	"github.com/conflictlab/conflictlab/ui/raceview"
	"github.com/conflictlab/conflictlab/ui/stage"
	"github.com/conflictlab/conflictlab/ui/textpane"
)

// asking is a question before its answer. It is drawn from the question
// and its race's scenario alone: it holds no way to play the race — no
// Races, no session, no result — so nothing of the outcome can reach the
// screen before the answer. Its stage is the race's setup
// (raceview.NewSetup): the objects as created and what each controller is
// set to do, less what the question is about (a method question's
// choice, every plan when the question says they answer it). Its
// options answer only once the question has been on screen whole.
type asking struct {
	f frame
	// scenario gives the race's scenario, and nothing else: it is the
	// method value of the races, which cannot be asked for an outcome.
	scenario stage.Scenarios
	// setups keeps the setups made, shared by the quiz's questions.
	setups *stage.Setups
	// seen marks the text's lines that have been on screen; stemEnd is
	// where the options start.
	seen    textpane.Seen
	stemEnd int
}

// errNoScenarios: the races given cannot draw a setup.
var errNoScenarios = errors.New("this race cannot be set up here")

// setupReady carries a setup made off the UI loop (the first builds the
// API server's schema).
type setupReady struct{ stage.SetupReady }

func (setupReady) QuizMsg() {}

// newAsking puts question f.item on show, unanswered: its code without
// comments, its race at the setup (from a command when it was not made
// before).
func newAsking(f frame, src stage.Scenarios, ss *stage.Setups, snippets func(string) (string, error)) (asking, tea.Cmd) {
	a := asking{f: f, scenario: src, setups: ss}
	a.f.showCode(snippets, false)
	cmd := a.setup()
	a.relayout()
	return a, cmd
}

// setupKey names a question's setup.
func setupKey(q *qz.Question) string { return "setup/" + q.ID }

// setup puts the race's setup on the stage: at once when it was made
// before, else from a command.
func (a *asking) setup() tea.Cmd {
	q := a.f.item.Question
	if q.Kind != qz.Race && q.Kind != qz.Method {
		return nil
	}
	k := setupKey(q)
	if r, ok := a.setups.Get(k); ok {
		a.place(r)
		return nil
	}
	if a.scenario == nil {
		a.f.stageErr = errNoScenarios
		return nil
	}
	return a.setups.Make(k, a.scenario, q.Spec(nil), func(r *raceview.Run) { withhold(r, q) },
		func(r stage.SetupReady) tea.Msg { return setupReady{r} })
}

// withhold keeps off a setup what the question is about: every plan when
// the question says they answer it, and on a method question the parts
// of the plans its options set (the scenario's own write may be the
// answer).
func withhold(r *raceview.Run, q *qz.Question) {
	parts := lessons.StrategyParts(q.Options, func(o qz.Option) *lessons.Strategy { return o.Strategy })
	stage.Withhold(r, q.PlansAfterAnswer, q.Kind == qz.Method, q.Apply, parts)
}

// place puts a setup on the stage.
func (a *asking) place(r *raceview.Run) {
	a.f.race.SetRun(r, true)
	if a.f.item.Question.Kind == qz.Method {
		a.f.race.SetSetupNote("answer to run it with your choice")
	}
}

// Update handles what reaches a question before its answer; answer is
// the option it was answered with (-1 for none).
func (a asking) Update(msg tea.Msg) (next asking, answer int, cmd tea.Cmd) {
	answer = -1
	switch msg := msg.(type) {
	case setupReady:
		if msg.Key != setupKey(a.f.item.Question) {
			return a, -1, nil
		}
		if msg.Err != nil {
			a.f.stageErr = msg.Err
		} else {
			a.place(msg.Run)
		}
	case raceview.TickMsg:
		a.f.race, cmd = a.f.race.Update(msg)
		return a, -1, cmd
	case tea.MouseWheelMsg:
		a.f.text, _ = a.f.text.Update(msg)
		a.f.reveal = revealNone
	case tea.KeyPressMsg:
		a, answer, cmd = a.key(msg)
	default:
		return a, -1, nil
	}
	a.relayout()
	return a, answer, cmd
}

func (a asking) key(msg tea.KeyPressMsg) (asking, int, tea.Cmd) {
	k := a.f.keys
	p := a.f.item
	switch {
	case key.Matches(msg, k.Zoom) && a.f.hasStage():
		a.f.zoom = !a.f.zoom
	case key.Matches(msg, k.Pick):
		n := int(msg.Code - '1')
		if n < 0 || n >= len(p.Options) {
			return a, -1, nil
		}
		a.f.cursor = n
		return a.answer(n)
	case key.Matches(msg, k.Up):
		a.f.cursor = max(0, a.f.cursor-1)
	case key.Matches(msg, k.Down):
		a.f.cursor = min(len(p.Options)-1, a.f.cursor+1)
	case key.Matches(msg, k.Enter):
		return a.answer(a.f.cursor)
	default:
		cmd, _ := a.f.paneKey(msg)
		return a, -1, cmd
	}
	return a, -1, nil
}

// answer takes option i as the answer, unless some of the question has
// not been on screen (a short window keeps the options pinned under it):
// the key reads on instead, and says why — an answer given before the
// question was read whole is a guess the score would keep.
func (a asking) answer(i int) (asking, int, tea.Cmd) {
	if !a.stemRead() {
		above, _ := a.seen.Reveal(&a.f.text, a.stemEnd)
		a.f.reveal = revealNone
		return a, -1, nav.Say(textpane.UnreadQuestion(above))
	}
	return a, i, nil
}

// stemRead reports whether every line above the options has been on
// screen.
func (a asking) stemRead() bool { return a.seen.Through(a.stemEnd) }

// relayout lays the question out and marks what is on screen as read.
func (a *asking) relayout() {
	a.stemEnd = a.f.relayout(nil)
	a.seen.Mark(a.f.text)
}

func (a asking) View() string { return a.f.view(nil) }
