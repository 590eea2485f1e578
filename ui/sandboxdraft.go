package ui

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"

	tea "charm.land/bubbletea/v2"

	"github.com/conflictlab/conflictlab/sim/scenario"
)

// The sandbox's race is kept between runs in the state folder, beside the
// progress: written when the learner leaves the sandbox and when the
// program ends, read when the sandbox is first opened. The reads and
// writes run in commands or after the program, never inside Update.

// draftName is the kept race's file, in the progress file's folder.
const draftName = "sandbox-draft.yaml"

// draftRead is the kept race, read at the sandbox's first opening.
type draftRead struct {
	sc  *scenario.Scenario
	err error
}

// draftWritten reports a write of the kept race.
type draftWritten struct{ err error }

// draftPath is where the race is kept ("" when progress is not saved
// anywhere: then neither is the race).
func (m Model) draftPath() string {
	if m.cfg.Store == nil {
		return ""
	}
	return filepath.Join(filepath.Dir(m.cfg.Store.Path()), draftName)
}

// readDraft reads the kept race; a missing file is no race.
func readDraft(path string) tea.Cmd {
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
func (m *Model) onDraftRead(msg draftRead) {
	switch {
	case !m.sandboxOn || (msg.sc == nil && msg.err == nil):
	case msg.err != nil:
		m.note = "the race kept from last time could not be read: " + msg.err.Error()
	case m.sandbox.Unsaved():
		// Typed-ahead work wins; the old draft is replaced when it is kept.
	default:
		if err := m.sandbox.Restore(msg.sc); err != nil {
			m.note = "the race kept from last time cannot be shown: " + err.Error()
		}
	}
}

// keepDraft encodes the race now, on the UI loop, and writes it in a
// command; nil when the sandbox was never opened (an older draft stays).
func (m Model) keepDraft() tea.Cmd {
	path, data, err := m.draft()
	if path == "" {
		return nil
	}
	return func() tea.Msg {
		if err != nil {
			return draftWritten{err: err}
		}
		return draftWritten{err: writeFileAtomic(path, data)}
	}
}

func (m Model) draft() (path string, data []byte, err error) {
	path = m.draftPath()
	if path == "" || !m.sandboxOn {
		return "", nil, nil
	}
	data, err = m.sandbox.Draft()
	return path, data, err
}

// keepDraftOnExit writes the race after the program has ended, whatever
// ended it.
func keepDraftOnExit(final tea.Model) error {
	m, ok := final.(Model)
	if !ok {
		return nil
	}
	path, data, err := m.draft()
	if path == "" || err != nil {
		return err
	}
	return writeFileAtomic(path, data)
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
