package ui

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// idleKey says why a key that means something elsewhere does nothing on
// the screen on show ("" when it does something): a key that is silently
// ignored looks like a broken one.
func (m Model) idleKey(msg tea.KeyPressMsg) string {
	if m.screen == playerScreen && m.live == nil && key.Matches(msg, m.player.Keys.Live) {
		return "L is off: no kubeconfig found (set KUBECONFIG or create ~/.kube/config)"
	}
	return ""
}
