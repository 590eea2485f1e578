package ui

import (
	"reflect"

	tea "charm.land/bubbletea/v2"
)

var teaPkg = reflect.TypeOf(tea.QuitMsg{}).PkgPath()

// maxPendingKeys bounds the keys kept while the course loads: a person
// types a few ahead; a paste of a megabyte into a fresh SSH session would
// otherwise be held, a million keys, until the course is there.
const maxPendingKeys = 256

// replayPending delivers the keys pressed while the course was loading,
// in the order they were pressed, now that there is a screen to take
// them; first is the command the load itself started.
func (m Model) replayPending(first tea.Cmd) (tea.Model, tea.Cmd) {
	keys := m.pending
	m.pending = nil
	next, cmd := replay(m, keys)
	return next, tea.Batch(first, cmd)
}

// pendingAfter is the message of the command a replayed key started,
// with the keys pressed after it: they are replayed once that message
// has been taken. A key often acts through its command — enter on the
// home screen opens the lesson by sending nav.Open — so a key after it
// must wait for that message, or it reaches the screen being left.
type pendingAfter struct {
	msg  tea.Msg
	keys []tea.KeyPressMsg
}

// replay gives the keys to the model in order. When a key starts a
// command, the rest wait for the command's message (pendingAfter); a
// command that is a batch (its messages arrive in any order) is left
// to run, and the rest are replayed at once.
func replay(m tea.Model, keys []tea.KeyPressMsg) (tea.Model, tea.Cmd) {
	var cmds []tea.Cmd
	for i, k := range keys {
		var cmd tea.Cmd
		m, cmd = m.Update(k)
		if cmd == nil {
			continue
		}
		if rest := keys[i+1:]; len(rest) > 0 {
			cmds = append(cmds, func() tea.Msg { return pendingAfter{msg: cmd(), keys: rest} })
			return m, tea.Batch(cmds...)
		}
		cmds = append(cmds, cmd)
	}
	return m, tea.Batch(cmds...)
}

// takePendingAfter delivers the message a replayed key's command made,
// then the keys pressed after it.
func (m Model) takePendingAfter(p pendingAfter) (tea.Model, tea.Cmd) {
	var next tea.Model = m
	var first tea.Cmd
	switch msg := p.msg.(type) {
	case nil:
	case tea.BatchMsg:
		first = tea.Batch(msg...)
	default:
		if reflect.TypeOf(msg).PkgPath() == teaPkg {
			// The program's own (quit, a sequence, a window title…):
			// handed back to it.
			first = func() tea.Msg { return msg }
			break
		}
		next, first = m.Update(msg)
	}
	next, cmd := replay(next, p.keys)
	return next, tea.Batch(first, cmd)
}
