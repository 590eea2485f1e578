package sandbox

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/conflictlab/conflictlab/sandbox/challenges"
	"github.com/conflictlab/conflictlab/sandbox/draft"
	"github.com/conflictlab/conflictlab/sim/scenario"
	"github.com/conflictlab/conflictlab/ui/layout"
	"github.com/conflictlab/conflictlab/ui/nav"
	"github.com/conflictlab/conflictlab/ui/styles"
)

// challengeState is the challenge list and the challenge being played.
type challengeState struct {
	cursor int
	active *challenges.Challenge
	// start is the challenge's race as given: a fix is scored against it.
	start *scenario.Scenario
	// free is the learner's own race, given back when they leave.
	free     *scenario.Scenario
	freeFile string
	// freeClean is the learner's race as a file holds it (see Unsaved).
	freeClean []byte
	// won: this run of a break challenge has lost a field (and was scored).
	won  bool
	hint bool
}

func (m *Model) startChallenge(c *challenges.Challenge) {
	if m.chal.active == nil {
		m.chal.free, m.chal.freeFile, m.chal.freeClean = m.sc, m.file, m.clean
	}
	m.chal.active, m.chal.start, m.chal.hint = c, c.Scenario, false
	m.setRace(draft.Clone(c.Scenario), "")
	if c.Kind == challenges.Break {
		m.tab = raceTab
		m.setNotice(false, "step the controllers with their keys until a field is lost")
	} else {
		m.tab = buildTab
		// Start on the first thing a fix may change.
		for i, r := range m.rows() {
			if r.kind == rowSetting {
				m.build.cursor = i
				break
			}
		}
		m.setNotice(false, "change settings with ←→, then c checks every interleaving")
	}
}

// leaveChallenge gives the learner's own race back.
func (m *Model) leaveChallenge() {
	if m.chal.active == nil {
		return
	}
	free, file, clean := m.chal.free, m.chal.freeFile, m.chal.freeClean
	m.chal = challengeState{cursor: m.chal.cursor}
	if free != nil {
		m.setRace(free, file)
		m.clean = clean
	}
}

// checkBroken scores a break challenge as soon as a field is lost.
func (m *Model) checkBroken() tea.Cmd {
	c := m.chal.active
	if c == nil || c.Kind != challenges.Break || m.chal.won || m.play.out == nil || !challenges.Broken(m.play.out) {
		return nil
	}
	m.chal.won = true
	n := len(m.play.taken())
	field := m.play.out.Lost[0].Field
	msg := fmt.Sprintf("%s Broken: %s lost after %s (par %d)", styles.OK, field, c.Unit(n), c.Par)
	best := m.prog.RecordChallenge(c.ID, n)
	if best {
		msg += " · a new best"
	}
	if n > c.Par {
		msg += " · u undoes: can it be done in fewer?"
	}
	m.setNotice(false, "%s", msg)
	if best {
		return func() tea.Msg { return nav.ProgressChanged{} }
	}
	return nil
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
	if r.Best <= c.Par {
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
	lines := layout.Lines(layout.Wrap(st.Faint.Render(
		"Break it: find a schedule that loses a field, in as few turns as you can. Fix it: change as few settings as you can so that no schedule loses anything or gives up."), w))
	lines = append(lines, "")
	titleW := 0
	for i, c := range all {
		titleW = max(titleW, len(fmt.Sprintf("%d. %s", i+1, c.Title))+2)
	}
	for i, c := range all {
		lead := "  "
		title := layout.Pad(fmt.Sprintf("%d. %s", i+1, c.Title), titleW)
		if i == m.chal.cursor {
			lead = st.Accent.Render(styles.Cursor) + " "
			title = st.Selected.Render(title)
		}
		kind := layout.Pad(kindLabel(c.Kind)+" · "+c.Level, 20)
		best := m.best(c)
		if strings.HasPrefix(best, styles.OK) {
			best = st.OK.Render(best)
		} else {
			best = st.Faint.Render(best)
		}
		lines = append(lines, layout.Truncate(lead+title+st.Faint.Render(kind)+best, w))
	}
	c := all[min(m.chal.cursor, len(all)-1)]
	lines = append(lines, "", layout.Rule(c.Title, w, st.Border))
	lines = append(lines, layout.Lines(layout.Wrap(c.Goal, w))...)
	lines = append(lines, st.Faint.Render(fmt.Sprintf("par: %s", c.Unit(c.Par))))
	if m.chal.hint {
		lines = append(lines, layout.Lines(layout.Wrap(st.Warn.Render("Hint: ")+c.Hint, w))...)
	}
	lines = append(lines, st.Faint.Render("enter starts it · h hint · esc leaves a challenge"))
	return layout.Fit(strings.Join(lines, "\n"), w, h)
}

// challengeBanner is the challenge being played, above every tab.
func (m Model) challengeBanner() []string {
	c := m.chal.active
	if c == nil {
		return nil
	}
	st := m.st
	best := "unsolved"
	if r, ok := m.prog.Challenges[c.ID]; ok {
		best = fmt.Sprintf("best %d", r.Best)
	}
	head := st.Accent.Render("◆ "+strings.ToUpper(kindLabel(c.Kind)[:1])+kindLabel(c.Kind)[1:]) + " · " + st.Bold.Render(c.Title) +
		st.Faint.Render(fmt.Sprintf(" · par %s · %s · esc leaves", c.Unit(c.Par), best))
	out := []string{layout.Truncate(head, m.w)}
	text := c.Goal
	if m.chal.hint {
		text = "Hint: " + c.Hint
	}
	wrapped := layout.Lines(layout.Wrap(text, m.w))
	if len(wrapped) > 2 {
		wrapped = append(wrapped[:1], layout.Truncate(strings.Join(wrapped[1:], " "), m.w))
	}
	for _, l := range wrapped {
		out = append(out, st.Faint.Render(l))
	}
	return out
}
