package ui

import (
	tea "charm.land/bubbletea/v2"

	"github.com/conflictlab/conflictlab/ui/sandbox"
)

// openSandbox shows the sandbox, building it the first time; afterwards
// it comes back as it was left (the race, the tab, a running explorer).
func (m *Model) openSandbox() tea.Cmd {
	m.screen = sandboxScreen
	m.showHelp = false
	m.home.SetNotice("")
	if !m.sandboxOn {
		m.sandbox = sandbox.New(m.st, m.prog)
		if m.cfg.Ticker != nil {
			m.sandbox.SetTicker(m.cfg.Ticker)
		}
		m.sandboxOn = true
	}
	m.resize()
	return nil
}

// openSandboxWith starts on the sandbox (`conflictlab sandbox`), with
// the race from a file if there is one (`-f race.yaml`).
func (m *Model) openSandboxWith() tea.Cmd {
	cmd := m.openSandbox()
	if m.cfg.Sandbox == nil {
		return cmd
	}
	if err := m.sandbox.Open(m.cfg.Sandbox, m.cfg.SandboxFile); err != nil {
		// The CLI checked the file; this is a race the editor cannot show.
		m.status = err.Error()
	}
	return cmd
}

// sandboxTakesKey reports whether a key goes to the sandbox before the
// root's own bindings: all of them while it has a text field or a
// question open (q and ? are letters then), and esc, which the sandbox
// uses to close what is open before it goes home. ctrl+c always quits.
func (m Model) sandboxTakesKey(msg tea.KeyPressMsg) bool {
	if m.screen != sandboxScreen || m.showHelp || msg.String() == "ctrl+c" {
		return false
	}
	return m.sandbox.CapturesKeys() || msg.String() == "esc"
}
