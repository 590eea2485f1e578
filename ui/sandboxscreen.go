package ui

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/conflictlab/conflictlab/ui/keyhelp"
	"github.com/conflictlab/conflictlab/ui/layout"
	"github.com/conflictlab/conflictlab/ui/play"
	"github.com/conflictlab/conflictlab/ui/sandbox"
)

// openSandbox shows the sandbox, building it the first time; afterwards
// it comes back as it was left (the race, the tab, a running explorer).
func (m *Model) openSandbox() tea.Cmd {
	m.screen = sandboxScreen
	m.showHelp = false
	m.home.SetNotice("")
	if m.sandboxOn {
		m.resize()
		return nil
	}
	m.sandbox = sandbox.NewIn(m.cfg.SandboxEnv, m.st, m.prog)
	if m.cfg.Ticker != nil {
		m.sandbox.SetTicker(m.cfg.Ticker)
	}
	m.sandboxOn = true
	m.resize()
	if m.cfg.Sandbox != nil {
		// A race from a file (-f) is what was asked for, not the draft.
		return nil
	}
	return readDraft(m.draftPath())
}

// openSandboxWith starts on the sandbox (`conflictlab sandbox`), with
// the race from a file if there is one (`-f race.yaml`).
func (m *Model) openSandboxWith() tea.Cmd {
	cmd := m.openSandbox()
	if m.cfg.Sandbox == nil {
		return cmd
	}
	open := func() error { return m.sandbox.Open(m.cfg.Sandbox, m.cfg.SandboxFile) }
	if l := m.cfg.SandboxLevel; l != nil {
		open = func() error { return m.sandbox.OpenLevel(l, m.cfg.SandboxFile) }
	}
	if err := open(); err != nil {
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

// helpGroups are the screen's key groups and the keys that work
// everywhere. A key is listed once, with the meaning it has: the screen
// takes a key it lists (a play step's esc cancels its proof, the inspect
// panel's closes it) before the root, so the screen's meaning wins.
func (m Model) helpGroups() []keyhelp.Group {
	var groups []keyhelp.Group
	if c := m.active(); c != nil {
		groups = c.helpGroups()
	}
	return play.OneMeaning(append(groups, keyhelp.Group{Title: "Everywhere", Keys: []key.Binding{m.keys.Help, m.keys.Back, m.keys.Quit}}))
}

// keyList is the key list for the window: the screen's groups and the
// keys that work everywhere, in as many columns as fit.
func (m Model) keyList() keyhelp.Layout {
	return keyhelp.New(m.helpGroups(), keyhelp.Styles{Title: m.st.Heading, Key: m.st.Help.FullKey, Desc: m.st.Help.FullDesc}, m.w-2, helpRows(m.h-2))
}

// helpRows is how many lines of a key list fit in a body of h lines:
// the title and a blank above, a blank and the footer below.
func helpRows(h int) int { return max(1, h-4) }

// helpScreen is the screen's key list in h lines, from line
// m.helpScroll when it needs more rows than the window has.
func (m Model) helpScreen(h int) string {
	kl, rows := m.keyList(), helpRows(h)
	foot := "esc or ? closes this list"
	if kl.Rows() > rows {
		foot = "↑↓ scroll · " + foot
	}
	lines := []string{" " + m.st.Title.Render("Keys"), ""}
	for _, l := range layout.Lines(kl.View(m.helpScroll, rows)) {
		lines = append(lines, " "+l)
	}
	for len(lines) < rows+2 {
		lines = append(lines, "")
	}
	lines = append(lines, "", " "+m.st.Faint.Render(foot))
	return layout.Fit(strings.Join(lines, "\n"), m.w, h)
}

// scrollHelp moves the sandbox's key list by d lines (it scrolls only
// when it is taller than the window).
func (m *Model) scrollHelp(d int) {
	rows := helpRows(m.h - 2)
	m.helpScroll = max(0, min(m.helpScroll+d, m.keyList().Rows()-rows))
}

// helpKey scrolls the key list while it is open.
func (m *Model) helpKey(msg tea.KeyPressMsg) {
	switch msg.String() {
	case "up", "k":
		m.scrollHelp(-1)
	case "down", "j":
		m.scrollHelp(1)
	case "pgup":
		m.scrollHelp(-helpRows(m.h - 2))
	case "pgdown", "space":
		m.scrollHelp(helpRows(m.h - 2))
	}
}
