package ui

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/conflictlab/conflictlab/ui/keyhelp"
)

// GlobalKeys work on every screen.
type GlobalKeys struct {
	Quit, Help, Back key.Binding
	// quitPress and helpPress are presses of q and ?, to ask a screen
	// whether it takes them (a text field does).
	quitPress, helpPress tea.KeyPressMsg
}

// DefaultGlobalKeys are the bindings that work everywhere.
func DefaultGlobalKeys() GlobalKeys {
	return GlobalKeys{
		Quit:      key.NewBinding(key.WithKeys("q", "ctrl+c"), key.WithHelp("q", "quit")),
		Help:      key.NewBinding(key.WithKeys("?"), key.WithHelp("?", "all keys")),
		Back:      key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "back")),
		quitPress: tea.KeyPressMsg{Code: 'q', Text: "q"},
		helpPress: tea.KeyPressMsg{Code: '?', Text: "?"},
	}
}

// key is a key press: held while the course loads; the screen's first
// when it takes it (a text field, esc closing a panel); else the keys
// that work everywhere (quit, the key list, esc pops the screen); else
// the screen's.
func (m Model) key(msg tea.KeyPressMsg) (tea.Model, tea.Cmd) {
	m.note = ""
	if m.pack == nil && !m.failed && msg.String() != "ctrl+c" {
		if len(m.pending) < maxPendingKeys {
			m.pending = append(m.pending, msg)
		}
		return m, nil
	}
	var cmd tea.Cmd
	if !m.showHelp && msg.String() != "ctrl+c" && m.stack.Top().TakesKey(msg) {
		m.stack, cmd = m.stack.UpdateTop(msg)
		return m, cmd
	}
	switch {
	case key.Matches(msg, m.keys.Quit):
		return m, tea.Quit
	case key.Matches(msg, m.keys.Help):
		m.showHelp = !m.showHelp
		m.overlay = keyhelp.Overlay{}
		return m, nil
	case key.Matches(msg, m.keys.Back) && m.showHelp:
		m.showHelp = false
		return m, nil
	case key.Matches(msg, m.keys.Back):
		m.stack, cmd = m.stack.Pop()
		return m, cmd
	case m.showHelp:
		m.overlay = m.overlay.Key(msg, m.helpGroups(), m.st, m.w, max(0, m.h-2))
		return m, nil
	}
	m.stack, cmd = m.stack.UpdateTop(msg)
	return m, cmd
}

// helpGroups are the screen's key groups and the keys that work
// everywhere. A key is listed once, with the meaning it has: the screen
// takes a key it lists (a play step's esc cancels its proof, the inspect
// panel's closes it) before the root, so the screen's meaning wins.
func (m Model) helpGroups() []keyhelp.Group {
	groups := m.stack.Top().HelpGroups()
	return keyhelp.OneMeaning(append(groups, keyhelp.Group{Title: "Everywhere", Keys: []key.Binding{m.keys.Help, m.keys.Back, m.keys.Quit}}))
}

// shortHelp is the key bar: the screen's keys, then those that work
// everywhere, unless the screen takes them (a text field takes q and ?).
func (m Model) shortHelp() []key.Binding {
	if m.showHelp {
		return []key.Binding{m.keys.Back, m.keys.Quit}
	}
	top := m.stack.Top()
	out := top.ShortHelp()
	if !top.TakesKey(m.keys.helpPress) {
		out = append(out, m.keys.Help)
	}
	if !top.TakesKey(m.keys.quitPress) {
		out = append(out, m.keys.Quit)
	}
	return out
}

func (m Model) fullHelp() [][]key.Binding {
	var out [][]key.Binding
	for _, g := range m.helpGroups() {
		out = append(out, g.Keys)
	}
	return out
}
