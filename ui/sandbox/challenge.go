package sandbox

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/conflictlab/conflictlab/level"
	"github.com/conflictlab/conflictlab/progress"
	"github.com/conflictlab/conflictlab/sandbox/challenges"
	"github.com/conflictlab/conflictlab/sandbox/draft"
	"github.com/conflictlab/conflictlab/sim/scenario"
	"github.com/conflictlab/conflictlab/termsafe"
	"github.com/conflictlab/conflictlab/ui/layout"
	"github.com/conflictlab/conflictlab/ui/nav"
	"github.com/conflictlab/conflictlab/ui/play"
	"github.com/conflictlab/conflictlab/ui/raceview"
	"github.com/conflictlab/conflictlab/ui/styles"
)

// A challenge is a level with a goal, played as a lesson's play step is
// (ui/play): break it, by stepping the controllers until the goal holds;
// fix it, by turning the settings the goal offers until the explorer
// proves that no order fails it. The sandbox's own challenges keep their
// best with the learner's progress; a level opened from a file or a text
// is played the same way and keeps its best for the session.

// challengeState is the challenge list and the challenge being played.
type challengeState struct {
	cursor int
	active *challenges.Challenge
	// play is the challenge on the stage: the scheduler or the settings.
	play play.Model
	// free is the learner's own race, given back when they leave.
	free     *scenario.Scenario
	freeFile string
	// freeClean is the learner's race as a file holds it (see Unsaved).
	freeClean []byte
	hint      bool
	// best is a level's best this session (a challenge's is in progress).
	best int
}

// playMsg carries the play component's messages (its proof's reports,
// its race view's ticks) under the sandbox's Msg, so that the root
// delivers them whichever screen is on show.
type playMsg struct{ msg tea.Msg }

func (playMsg) sandboxMsg() {}

// solvedMsg is the play component's solution, the sandbox's (every
// screen hears what is not a key, and a lesson's play step solves too).
type solvedMsg struct{ play.Solved }

func (solvedMsg) sandboxMsg() {}

// playTick is a playMsg that is a playback tick (a test driver holds
// those).
type playTick struct{ playMsg }

// PlaybackTick marks it for the test driver.
func (playTick) PlaybackTick() {}

// wrapPlay wraps a command of the play component so that what it sends
// comes back as a playMsg.
func wrapPlay(cmd tea.Cmd) tea.Cmd {
	if cmd == nil {
		return nil
	}
	return func() tea.Msg {
		switch msg := cmd().(type) {
		case nil:
			return nil
		case tea.BatchMsg:
			out := make(tea.BatchMsg, len(msg))
			for i, c := range msg {
				out[i] = wrapPlay(c)
			}
			return out
		case play.Solved:
			return solvedMsg{msg} // the sandbox's own: a lesson's play step sends one too
		case raceview.TickMsg:
			return playTick{playMsg{msg: msg}}
		default:
			return playMsg{msg: msg}
		}
	}
}

// startChallenge puts the learner's race aside and plays c.
func (m *Model) startChallenge(c *challenges.Challenge) {
	pm, err := play.New(c.Goal, c.Race, termsafe.Escape(c.Question), 0, m.st)
	if err != nil {
		m.setNotice(true, "this level cannot be played: %v", err)
		return
	}
	if m.chal.active == nil {
		m.chal.free, m.chal.freeFile, m.chal.freeClean = m.sc, m.file, m.clean
	}
	m.chal.active, m.chal.hint, m.chal.best = c, false, 0
	m.setRace(draft.Clone(c.Race), "")
	m.sc.Name = termsafe.Escape(m.sc.Name) // a level's text is shown, never obeyed
	k := m.Keys
	pm.Reserved = []key.Binding{k.NextTab, k.PrevTab, k.Save, k.Load, k.Export, k.Share, k.Hint, k.Explore, k.Back}
	if m.play.tick != nil {
		pm.SetTicker(m.play.tick)
	}
	if r, ok := m.prog.Challenges[c.ID]; ok && c.ID != "" {
		pm.SetBest(r.Best)
	}
	m.chal.play = pm
	m.tab = raceTab
	m.notice = ""
}

// OpenLevel opens a level: its race, and, when it has a goal, the level
// to play (as a challenge whose best is kept for the session only).
func (m *Model) OpenLevel(l *level.Level, file string) error {
	if l.Goal == nil {
		return m.Open(l.Race, file)
	}
	if err := draft.Editable(l.Race); err != nil {
		return err
	}
	m.leaveChallenge()
	m.startChallenge(&challenges.Challenge{Level: l, Difficulty: "shared"})
	if m.chal.active == nil {
		return fmt.Errorf("%s", m.notice)
	}
	return nil
}

// leaveChallenge gives the learner's own race back.
func (m *Model) leaveChallenge() {
	if m.chal.active == nil {
		return
	}
	m.chal.play.Stop()
	free, file, clean := m.chal.free, m.chal.freeFile, m.chal.freeClean
	m.chal = challengeState{cursor: m.chal.cursor}
	if free != nil {
		m.setRace(free, file)
		m.clean = clean
	}
}

// playing reports whether a challenge is on the stage.
func (m Model) playing() bool { return m.chal.active != nil }

// playKey hands a key to the challenge on the stage.
func (m Model) playKey(msg tea.Msg) (Model, tea.Cmd) {
	var cmd tea.Cmd
	m.chal.play, cmd = m.chal.play.Update(msg)
	return m, wrapPlay(cmd)
}

// solved records a solution: a challenge's best goes to the progress, a
// level's is kept for the session.
func (m Model) solved(s play.Solved) (Model, tea.Cmd) {
	c := m.chal.active
	if c == nil {
		return m, nil
	}
	msg := fmt.Sprintf("%s Solved with %s (par %d)", styles.OK, c.Unit(s.Moves), c.Par())
	var cmd tea.Cmd
	switch {
	case c.ID == "":
		if m.chal.best == 0 || s.Moves < m.chal.best {
			m.chal.best = s.Moves
			msg += " · a new best"
		}
	case m.prog.Beats(c.ID, s.Moves):
		msg += " · a new best"
		cmd = nav.Send(progress.ChallengeSolved{ID: c.ID, Score: s.Moves})
	}
	if s.Moves > c.Par() {
		msg += " · can it be done in fewer?"
	}
	m.setNotice(false, "%s", msg)
	return m, cmd
}

func (m Model) challengesKey(msg tea.KeyPressMsg) (Model, tea.Cmd) {
	all, err := challenges.All()
	if err != nil || len(all) == 0 {
		return m, nil
	}
	k := m.Keys
	switch {
	case key.Matches(msg, k.Up):
		m.chal.cursor = max(0, m.chal.cursor-1)
	case key.Matches(msg, k.Down):
		m.chal.cursor = min(len(all)-1, m.chal.cursor+1)
	case key.Matches(msg, k.Hint):
		m.chal.hint = !m.chal.hint
	case key.Matches(msg, k.Enter):
		m.startChallenge(all[m.chal.cursor])
	}
	return m, nil
}

// best is a challenge's stored best in words.
func (m Model) best(c *challenges.Challenge) string {
	r, ok := m.prog.Challenges[c.ID]
	if !ok {
		return "not solved yet"
	}
	s := fmt.Sprintf("%s best %s", styles.OK, c.Unit(r.Best))
	if r.Best <= c.Par() {
		s += " · par"
	}
	return s
}

func kindLabel(k challenges.Kind) string {
	if k == challenges.Break {
		return "break it"
	}
	return "fix it"
}

func (m Model) viewChallenges(w, h int) string {
	st := m.st
	all, err := challenges.All()
	if err != nil {
		return layout.Fit(st.Bad.Render(styles.Bad+" the challenges could not be loaded: ")+err.Error(), w, h)
	}
	var lines []string
	for _, l := range hang("Break it: find an order of steps that meets the goal, in as few moves as you can. Fix it: change as few settings as you can so that no order fails it; the first proof counts, and every solution keeps your best.", w, 0) {
		lines = append(lines, st.Faint.Render(l))
	}
	lines = append(lines, "")
	titleW := 0
	for i, c := range all {
		titleW = max(titleW, len(fmt.Sprintf("%d. %s", i+1, c.Title))+2)
	}
	titleW = min(titleW, max(20, w-40))
	for i, c := range all {
		lead := "  "
		title := fmt.Sprintf("%d. %s", i+1, c.Title)
		if i == m.chal.cursor {
			lead = st.Accent.Render(styles.Cursor) + " "
			title = st.Selected.Render(title)
		}
		kind := kindLabel(c.Kind()) + " · " + c.Difficulty + " · par " + fmt.Sprint(c.Par())
		best := m.best(c)
		if strings.HasPrefix(best, styles.OK) {
			best = st.OK.Render(best)
		} else {
			best = st.Faint.Render(best)
		}
		// The title wraps in its column; what and how well follow it.
		ts := hang(title, titleW-1, 3)
		rest := st.Faint.Render(layout.Pad(kind, 26)) + best
		lines = append(lines, lead+layout.Pad(ts[0], titleW)+rest)
		for _, t := range ts[1:] {
			lines = append(lines, "  "+t)
		}
	}
	c := all[min(m.chal.cursor, len(all)-1)]
	lines = append(lines, "", layout.Rule(c.Title, w, st.Border))
	lines = append(lines, hang(c.Question, w, 0)...)
	if m.chal.hint {
		lines = append(lines, hang(st.Warn.Render("Hint: ")+c.Hint, w, 6)...)
	}
	lines = append(lines, hang(st.Faint.Render("enter starts it · h hint · esc leaves a challenge"), w, 0)...)
	return layout.Fit(strings.Join(lines, "\n"), w, h)
}

// challengeBanner is the challenge being played, above every tab but the
// race tab, where the stage says the goal itself.
func (m Model) challengeBanner() []string {
	c := m.chal.active
	if c == nil || m.tab == raceTab {
		return nil
	}
	st := m.st
	head := st.Accent.Render("◆ "+strings.ToUpper(kindLabel(c.Kind())[:1])+kindLabel(c.Kind())[1:]) + " · " + st.Bold.Render(termsafe.Escape(c.Title)) +
		st.Faint.Render(fmt.Sprintf(" · par %s · played in the race tab · esc leaves", c.Unit(c.Par())))
	return hang(head, m.w, 2)
}

// viewLevel is the race tab while a challenge is played: the stage, and
// the hint when asked for.
func (m Model) viewLevel(w, h int) string {
	var top []string
	if m.chal.hint {
		top = hang(m.st.Warn.Render("Hint: ")+termsafe.Escape(m.chal.active.Hint), w, 6)
	}
	pm := m.chal.play
	pm.SetSize(w, max(0, h-len(top)))
	body := pm.View()
	if len(top) > 0 {
		body = strings.Join(top, "\n") + "\n" + body
	}
	return layout.Fit(body, w, h)
}
