// Package player is the lesson player: a lesson's prose and questions
// beside (or above) the race they are about, and the code of the strategy
// on screen. Read steps play their race; predict and choose steps show
// the race's setup, drawn from its scenario alone, until the learner has
// answered, then play it (a choose step the race the chosen strategy
// produces) whether the answer was right or not; play steps hand the
// learner the race to break or to fix. The first answer to a question is
// the one scored; the others may be tried after it without changing the
// score.
//
// Each kind of step is a model of its own behind one interface (step):
// reading (read.go), asking — a question before its answer, which holds
// no way to play a race (ask.go) — answered (answered.go), playing
// (playstep.go) and the summary (summary.go). They share the frame
// (frame.go: the text pane, the stage, the code pane) and ui/stage's
// bookkeeping of the races asked for. The Model is the lesson: it makes
// the step on show, moves between steps, and records where the learner is.
package player

import (
	"fmt"
	"slices"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/conflictlab/conflictlab/lessons"
	"github.com/conflictlab/conflictlab/progress"
	"github.com/conflictlab/conflictlab/sim/scenario"
	"github.com/conflictlab/conflictlab/ui/codepane"
	"github.com/conflictlab/conflictlab/ui/keyhelp"
	"github.com/conflictlab/conflictlab/ui/nav"
	"github.com/conflictlab/conflictlab/ui/raceview"
	"github.com/conflictlab/conflictlab/ui/stage"
	"github.com/conflictlab/conflictlab/ui/styles"
	"github.com/conflictlab/conflictlab/ui/textpane"
)

// Races is all the player asks of the simulator (lessons/racecache): the
// whole run of a step's race, with an option's strategy applied for
// choose steps, and whether it has been computed already.
type Races = stage.Races

// WideWidth is the player's width from which the prose and the race sit
// side by side; below it they are stacked. The root gives the player the
// terminal's width less a one-column margin, so this is a 120-column
// terminal.
const WideWidth = 119

// scenarios is what a question before its answer and a play step ask of
// the races (lessons/racecache has it): the scenario itself, to draw its
// setup, step it or tune it.
type scenarios interface {
	Scenario(lessons.RaceSpec) (*scenario.Scenario, error)
}

// step is one step of the lesson on show, as the player talks to it:
// each kind of step is a model of its own, a value like the player.
type step interface {
	Update(tea.Msg) (step, tea.Cmd)
	View() string
	SetSize(w, h int) step
	SetStyles(*styles.Styles) step
	ShortHelp() []key.Binding
	HelpGroups() []keyhelp.Group
	// TakesKey reports whether the step takes a key before the root's
	// (esc closes the race's inspect panel, stops a play step's proof).
	TakesKey(tea.KeyPressMsg) bool
	// Owns reports whether the step takes a key before the lesson's own
	// (n, p, and enter as "continue"): enter answers a question, proves a
	// fix, scrolls text not read yet; every key answers a replay's prompt.
	Owns(tea.KeyPressMsg) bool
	// Frame is the step's frame as it stands: the next step goes on with
	// its panes.
	Frame() frame
	// Refresh draws the step again from what the player was given since
	// it was made (a snippet source, a cluster to replay on).
	Refresh(Live) step
	// Stop ends what the step runs when the learner leaves it (a proof).
	Stop()
	// Answered is the answer a question has just taken: the player then
	// puts the step's answered model in its place, in the same Update.
	Answered() (answer, bool)
}

// Model is the lesson player.
type Model struct {
	env  *lessonEnv
	next *lessons.Lesson
	// races play the steps' races; req is the bookkeeping of those asked
	// for, shared by the steps (a race computing for one visit of a step
	// is not computed again for the next); setups are the questions'
	// setups made so far; tallies the counts over every interleaving.
	races   Races
	req     stage.Requests
	setups  *stage.Setups
	tallies *tallies
	live    Live

	i   int // the step on show; len(Steps) is the summary
	gen int // counts the visits of steps
	cur step

	w, h int
	st   *styles.Styles
	// Keys are the player's keys; the root's esc is Keys.Back.
	Keys KeyMap
}

// New opens a lesson at a step. next is the lesson after it (nil at the
// end of the course); prog is the learner's progress, which the player
// reads (what the learner does it sends as a progress.Change).
func New(l, next *lessons.Lesson, prog *progress.Progress, races Races, st *styles.Styles, step int) (Model, tea.Cmd) {
	keys := DefaultKeys()
	code := codepane.New(st)
	env := &lessonEnv{lesson: l, prog: prog, keys: keys, snippet: code.Source, tick: tea.Tick}
	text := textpane.New(st)
	text.Keys = keys.Text
	race := raceview.New(st)
	race.Tick = env.ticker
	m := Model{env: env, next: next, races: races, req: stage.NewRequests(), setups: stage.NewSetups(),
		tallies: &tallies{jobs: map[string]*tallyJob{}}, st: st, Keys: keys}
	m.cur = none{frame{env: env, text: text, race: race, code: code, st: st}}
	cmd := m.enter(max(0, min(step, len(l.Steps))))
	return m, cmd
}

// none is the step before the first: it only hands its panes on.
type none struct{ f frame }

func (n none) Update(tea.Msg) (step, tea.Cmd) { return n, nil }
func (n none) View() string                   { return "" }
func (n none) SetSize(int, int) step          { return n }
func (n none) SetStyles(*styles.Styles) step  { return n }
func (n none) ShortHelp() []key.Binding       { return nil }
func (n none) HelpGroups() []keyhelp.Group    { return nil }
func (n none) TakesKey(tea.KeyPressMsg) bool  { return false }
func (n none) Owns(tea.KeyPressMsg) bool      { return false }
func (n none) Frame() frame                   { return n.f }
func (n none) Refresh(Live) step              { return n }
func (n none) Stop()                          {}
func (n none) Answered() (answer, bool)       { return answer{}, false }

// ticker is the race views' clock: tea.Tick, or the tests' (SetTicker).
func (e *lessonEnv) ticker(d time.Duration, fn func(time.Time) tea.Msg) tea.Cmd { return e.tick(d, fn) }

// Lesson is the lesson on show.
func (m Model) Lesson() *lessons.Lesson { return m.env.lesson }

// Step is the step index (len(Steps) for the summary).
func (m Model) Step() int { return m.i }

// Race exposes the race view (for tests).
func (m Model) Race() raceview.Model { return m.cur.Frame().race }

// TextLines are the text pane's lines (for tests: what a learner can
// read of the step).
func (m Model) TextLines() []string { return m.cur.Frame().text.Lines() }

// Where is the lesson and the step on show.
func (m Model) Where() nav.Place { return nav.Place{Lesson: m.env.lesson.ID, Step: m.i} }

// Leave keeps nothing between runs: what the learner did is in the
// progress already.
func (m Model) Leave() tea.Cmd { return nil }

// SetTicker replaces the race views' clock (tests drive playback).
func (m *Model) SetTicker(t raceview.Ticker) { m.env.tick = t }

// SetSnippets replaces where the code pane finds snippets.
func (m *Model) SetSnippets(src func(string) (string, error)) {
	m.env.snippet = src
	m.cur = m.cur.Refresh(m.live)
}

// SetLive enables "replay this race on my cluster".
func (m *Model) SetLive(l Live) {
	m.live = l
	m.cur = m.cur.Refresh(l)
}

// SetStyles replaces the styles.
func (m *Model) SetStyles(st *styles.Styles) {
	m.st = st
	m.cur = m.cur.SetStyles(st)
}

// SetSize sets the player's rectangle.
func (m *Model) SetSize(w, h int) {
	m.w, m.h = w, h
	m.cur = m.cur.SetSize(w, h)
}

// Title is the header text for the root's top bar.
func (m Model) Title() string {
	l := m.env.lesson
	n := len(l.Steps)
	if m.i >= n {
		return fmt.Sprintf("%s · summary", l.Title)
	}
	return fmt.Sprintf("%s · step %d/%d · %s", l.Title, m.i+1, n, l.Steps[m.i].Kind)
}

// enter shows step i afresh (restoring an earlier answer), and records
// where the learner is.
func (m *Model) enter(i int) tea.Cmd {
	m.cur.Stop()
	m.gen++
	m.i = i
	f := m.cur.Frame().carry(i, m.gen)
	// A count still running was for the step left.
	m.tallies.cancelExcept("")
	var cmd tea.Cmd
	m.cur, cmd = m.open(f)
	m.cur = m.cur.SetStyles(m.st).SetSize(m.w, m.h)
	return tea.Batch(nav.Send(m.visit()), cmd)
}

// visit is where the learner is now: the step, or at the summary the
// lesson's state. Reaching the summary completes the lesson only when
// every question has its answer; otherwise "continue" goes back to the
// first one skipped.
func (m Model) visit() progress.Visit {
	v := progress.Visit{Lesson: m.env.lesson.ID, Step: m.i}
	if m.i >= len(m.env.lesson.Steps) {
		v.Step, v.Done = 0, tallyOf(m.env).Complete()
		if !v.Done {
			v.Step = firstUnanswered(m.env)
		}
	}
	return v
}

// open is the model of the step f is for.
func (m Model) open(f frame) (step, tea.Cmd) {
	s := f.s
	switch {
	case s == nil:
		return newSummary(f, m.next), nil
	case s.Kind == lessons.Read:
		return newReading(f, m.races, m.req, m.live)
	case s.Kind == lessons.Play:
		src, _ := m.races.(scenarios)
		return newPlaying(f, src, m.live != nil)
	}
	if a, ok := m.env.rec().Answers[f.i]; ok {
		// Coming back to a step already answered: show it answered, with
		// the first answer (or, when the file does not say which it was,
		// the right one) and its feedback in view.
		q := question{picked: -1, first: -1}
		for k, o := range s.Options {
			if a.Picked != "" && o.ID == a.Picked {
				q.first = k
			}
		}
		q.picked = q.first
		if q.picked < 0 {
			q.picked = slices.IndexFunc(s.Options, func(o lessons.Option) bool { return o.Correct })
		}
		q.cursor = max(0, q.picked)
		return m.answered(f, q)
	}
	src, _ := m.races.(scenarios)
	a, cmd := newAsking(f, src, m.setups, m.live != nil)
	if s.Race != nil {
		// The race is computed while the learner reads, for the answer
		// to play it at once; the question never sees it.
		_, warm := m.req.Ask(m.races, raceKey(f, nil), s.Spec(nil), true, false, func(r stage.Ready) tea.Msg { return raceReady{r} })
		cmd = tea.Batch(cmd, warm)
	}
	return a, cmd
}

// answered is the model of a question step once answered.
func (m Model) answered(f frame, q question) (step, tea.Cmd) {
	return newAnswered(f, q, m.races, m.req, m.tallies, m.live)
}

// Update handles the player's keys and what arrives for its steps.
func (m Model) Update(msg tea.Msg) (Model, tea.Cmd) {
	var cmd tea.Cmd
	switch msg := msg.(type) {
	case raceReady:
		// The bookkeeping is the lesson's: a race computed while a
		// question was open is not being computed any more.
		m.req.Arrived(msg.Ready) //nolint:errcheck // the step on show reports its own errors
	case tea.KeyPressMsg:
		return m.key(msg)
	}
	m.cur, cmd = m.cur.Update(msg)
	return m, cmd
}

// key handles a key: the step's first when it owns it, then the lesson's
// own (next and previous step, enter to continue), then the step's.
func (m Model) key(msg tea.KeyPressMsg) (Model, tea.Cmd) {
	k := m.env.keys
	if m.live == nil && key.Matches(msg, k.Live) {
		// A key that is silently ignored looks like a broken one.
		return m, nav.Say("L is off: no kubeconfig found (set KUBECONFIG or create ~/.kube/config)")
	}
	if !m.cur.Owns(msg) {
		switch {
		case key.Matches(msg, k.Next), key.Matches(msg, k.Answer):
			if m.i < len(m.env.lesson.Steps) {
				return m, m.enter(m.i + 1)
			}
		case key.Matches(msg, k.Prev):
			if m.i > 0 {
				return m, m.enter(m.i - 1)
			}
			return m, nil
		}
	}
	var cmd tea.Cmd
	m.cur, cmd = m.cur.Update(msg)
	if a, ok := m.cur.Answered(); ok {
		// The question is answered: its next model may play the race.
		var shown tea.Cmd
		m.cur, shown = m.answered(a.f, a.q)
		m.cur = m.cur.SetStyles(m.st).SetSize(m.w, m.h)
		cmd = tea.Batch(cmd, shown)
	}
	return m, cmd
}

// TakesKey reports whether the player wants a key the screen around it
// would otherwise take: esc, while the race's inspect panel is open (it
// closes the panel) and while a play step's proof runs or its example
// plays (it stops them).
func (m Model) TakesKey(msg tea.KeyPressMsg) bool { return m.cur.TakesKey(msg) }

// ShortHelp is the key bar: the step's keys, then esc (back to where the
// lesson was opened from) unless the step's esc means something else.
func (m Model) ShortHelp() []key.Binding {
	out := m.cur.ShortHelp()
	for _, b := range out {
		if b.Enabled() && slices.Contains(b.Keys(), "esc") {
			return out
		}
	}
	return append(out, m.Keys.Back)
}

// HelpGroups is every key, in named groups: the root's key list flows
// them into as many columns as the window has room for. Only the keys
// that do something on the step are listed.
func (m Model) HelpGroups() []keyhelp.Group { return m.cur.HelpGroups() }

// FullHelp is the full key list, by column.
func (m Model) FullHelp() [][]key.Binding {
	var out [][]key.Binding
	for _, g := range m.HelpGroups() {
		out = append(out, g.Keys)
	}
	return out
}

// View draws the player into exactly its size.
func (m Model) View() string {
	if m.w <= 0 || m.h <= 0 {
		return ""
	}
	return m.cur.View()
}

// raceKey names the race of a step (with an option's strategy on a
// choose step): the lesson, the step, the option.
func raceKey(f frame, opt *lessons.Option) string {
	id := ""
	if opt != nil {
		id = opt.ID
	}
	return fmt.Sprintf("%s/%d/%s", f.env.lesson.ID, f.i, id)
}

// raceReady carries a race computed off the UI loop.
type raceReady struct{ stage.Ready }
