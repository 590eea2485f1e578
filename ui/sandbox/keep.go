package sandbox

import (
	"bytes"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/conflictlab/conflictlab/sandbox/draft"
	"github.com/conflictlab/conflictlab/sim/scenario"
)

// The race being built outlives the program: the root writes Draft to the
// state folder when the learner leaves and hands it back to Restore at
// the next start. Because it is always kept, quitting never asks; what
// asks is replacing it (loading a file over it) while it has changes not
// saved to a file of its own.

// Draft is the race being built, as a scenario file with the steps played
// so far; during a challenge it is the learner's own race, set aside.
func (m Model) Draft() ([]byte, error) {
	sc, taken := m.sc, m.play.taken()
	if m.chal.active != nil && m.chal.free != nil {
		sc, taken = m.chal.free, nil
	}
	c := draft.Clone(sc)
	c.Schedule = append([]scenario.Move(nil), taken...)
	return scenario.Marshal(c)
}

// Restore makes a kept draft the race being built, telling the learner
// so; it stays "not saved to a file" until they save it.
func (m *Model) Restore(sc *scenario.Scenario) error {
	if err := m.Open(sc, ""); err != nil {
		return err
	}
	m.clean = encode(draft.New())
	m.setNotice(false, "restored the race you were building last time (s saves it to a file)")
	return nil
}

// Unsaved reports whether the race has changes that no file holds: it
// differs from the race it started as, was loaded from or saved to.
func (m Model) Unsaved() bool {
	sc, clean := m.sc, m.clean
	if m.chal.active != nil {
		sc, clean = m.chal.free, m.chal.freeClean
	}
	return sc != nil && !bytes.Equal(encode(sc), clean)
}

// markClean records the race as held by a file (or as the starting race).
func (m *Model) markClean() { m.clean = encode(m.sc) }

// encode is a race's editable part as text, to compare two races.
func encode(sc *scenario.Scenario) []byte {
	c := draft.Clone(sc)
	c.Schedule, c.Seed = nil, nil
	data, err := scenario.Marshal(c)
	if err != nil {
		// Never equal to a clean race: an unencodable race counts as changed.
		return nil
	}
	return data
}

// question is a yes/no asked in the status line before something that
// would lose work; yes is what happens on y.
type question struct {
	text string
	yes  func(Model) (Model, tea.Cmd)
}

// ask puts a question in the status line.
func (m *Model) ask(text string, yes func(Model) (Model, tea.Cmd)) {
	m.stopAuto()
	m.question = &question{text: text, yes: yes}
}

func (m Model) questionKey(msg tea.KeyPressMsg) (Model, tea.Cmd) {
	q := m.question
	switch {
	case key.Matches(msg, m.Keys.Yes):
		m.question = nil
		return q.yes(m)
	case key.Matches(msg, m.Keys.No):
		m.question = nil
		m.setNotice(false, "kept the race you are building")
	}
	return m, nil
}

// openLoad opens the load prompt, asking first when the race being built
// has changes no file holds (loading replaces it).
func (m Model) openLoad() (Model, tea.Cmd) {
	open := func(m Model) (Model, tea.Cmd) {
		m.openPrompt(loadPrompt)
		return m, nil
	}
	if !m.Unsaved() {
		return open(m)
	}
	m.ask("This race is not saved to a file and loading replaces it: load anyway? y loads · n keeps it", open)
	return m, nil
}
