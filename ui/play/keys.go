package play

import "charm.land/bubbles/v2/key"

// KeyMap is the play step's keys. The keys that schedule a controller or
// deliver a cache event are not bindings: they are the controllers'
// numbers and initials (tokenKeys), as in the sandbox's race tab.
type KeyMap struct {
	// Break: Undo takes back the last move, Restart starts the race again.
	Undo, Restart key.Binding
	// Fix: Up and Down move between settings, Left and Right change one,
	// Prove runs the explorer on them, Cancel stops it.
	Up, Down, Left, Right, Prove, Cancel key.Binding
	// Watch plays the example order of a failed proof on the race view.
	Watch key.Binding
}

// DefaultKeys are the play step's bindings.
func DefaultKeys() KeyMap {
	return KeyMap{
		Undo:    key.NewBinding(key.WithKeys("backspace"), key.WithHelp("⌫", "undo move")),
		Restart: key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "restart")),
		Up:      key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑↓", "setting")),
		Down:    key.NewBinding(key.WithKeys("down", "j"), key.WithHelp("↓", "next setting")),
		Left:    key.NewBinding(key.WithKeys("left"), key.WithHelp("←→", "change")),
		Right:   key.NewBinding(key.WithKeys("right"), key.WithHelp("→", "change")),
		Prove:   key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "prove")),
		Cancel:  key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "cancel proof")),
		Watch:   key.NewBinding(key.WithKeys("space"), key.WithHelp("space", "watch example")),
	}
}
