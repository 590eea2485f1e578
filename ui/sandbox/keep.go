package sandbox

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/conflictlab/conflictlab/sandbox/draft"
	"github.com/conflictlab/conflictlab/sim/scenario"
	"github.com/conflictlab/conflictlab/ui/nav"
)

// The race being built outlives the program: Leave writes Draft to the
// file Env.Draft names (in the state folder, beside the progress) when
// the learner leaves the sandbox and when the program ends, and
// ReadDraft gives it back to Restore when the sandbox is next opened.
// The reads and writes run in commands, never inside Update. Because
// the race is always kept, quitting never asks; what asks is replacing
// it (loading a file over it) while it has changes not saved to a file
// of its own.

// draftRead is the kept race, read when the sandbox opens.
type draftRead struct {
	sc  *scenario.Scenario
	err error
}

func (draftRead) sandboxMsg() {}

// ReadDraft is the command that reads the kept race (nil when none is
// kept); a missing file is no race.
func (m Model) ReadDraft() tea.Cmd {
	path := m.env.Draft
	if path == "" {
		return nil
	}
	return func() tea.Msg {
		sc, err := scenario.Load(path)
		if errors.Is(err, fs.ErrNotExist) {
			return draftRead{}
		}
		return draftRead{sc: sc, err: err}
	}
}

// onDraftRead restores the kept race, unless the learner has already
// changed the one on screen.
func (m Model) onDraftRead(msg draftRead) (Model, tea.Cmd) {
	switch {
	case msg.sc == nil && msg.err == nil:
	case msg.err != nil:
		return m, nav.Say("the race kept from last time could not be read: " + msg.err.Error())
	case m.Unsaved():
		// Typed-ahead work wins; the old draft is replaced when it is kept.
	default:
		if err := m.Restore(msg.sc); err != nil {
			return m, nav.Say("the race kept from last time cannot be shown: " + err.Error())
		}
	}
	return m, nil
}

// Leave keeps the race: it encodes it now, on the UI loop, and writes it
// in the command (a nav.Note says when it could not).
func (m Model) Leave() tea.Cmd {
	path := m.env.Draft
	if path == "" {
		return nil
	}
	data, err := m.Draft()
	return func() tea.Msg {
		if err == nil {
			err = writeFileAtomic(path, data)
		}
		if err != nil {
			return nav.Note{Text: "the sandbox's race was not kept: " + err.Error()}
		}
		return nil
	}
}

// writeFileAtomic replaces path with data through a temporary file in the
// same folder, so a crash leaves the old draft or the new, never half.
func writeFileAtomic(path string, data []byte) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	_, err = f.Write(data)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
	}
	return err
}

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
