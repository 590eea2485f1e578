package ui

import tea "charm.land/bubbletea/v2"

// replayPending delivers the keys pressed while the course was loading,
// in the order they were pressed, now that there is a screen to take
// them (their effects on the model in order); first is the command the load itself started.
func (m Model) replayPending(first tea.Cmd) (tea.Model, tea.Cmd) {
	keys := m.pending
	m.pending = nil
	if len(keys) == 0 {
		return m, first
	}
	cmds := []tea.Cmd{first}
	var next tea.Model = m
	for _, k := range keys {
		var cmd tea.Cmd
		next, cmd = next.Update(k)
		cmds = append(cmds, cmd)
	}
	// The keys' effects on the model are applied in order above; their
	// commands run as a live key's would.
	return next, tea.Batch(cmds...)
}
