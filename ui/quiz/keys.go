package quiz

import (
	"charm.land/bubbles/v2/key"

	"github.com/conflictlab/conflictlab/ui/raceview"
	"github.com/conflictlab/conflictlab/ui/textpane"
)

// KeyMap is the quiz screen's keys; the race view's keys are part of it.
type KeyMap struct {
	Up, Down, Left, Right, Pick, Enter, Erase, Digit, NextMissed, PrevMissed, New, Lesson key.Binding
	Race                                                                                  raceview.KeyMap
	// Text scrolls the question column.
	Text textpane.KeyMap
}

// DefaultKeys are the quiz screen's bindings.
func DefaultKeys() KeyMap {
	return KeyMap{
		Up:         key.NewBinding(key.WithKeys("up", "k", "shift+tab"), key.WithHelp("↑/k", "up")),
		Down:       key.NewBinding(key.WithKeys("down", "j", "tab"), key.WithHelp("↓/j", "down")),
		Left:       key.NewBinding(key.WithKeys("left"), key.WithHelp("←", "previous value")),
		Right:      key.NewBinding(key.WithKeys("right"), key.WithHelp("→", "next value")),
		Pick:       key.NewBinding(key.WithKeys("1", "2", "3", "4"), key.WithHelp("1-4", "answer")),
		Enter:      key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "answer/next")),
		Erase:      key.NewBinding(key.WithKeys("backspace"), key.WithHelp("backspace", "erase a digit")),
		Digit:      key.NewBinding(key.WithKeys("0", "1", "2", "3", "4", "5", "6", "7", "8", "9"), key.WithHelp("0-9", "type the seed")),
		NextMissed: key.NewBinding(key.WithKeys("n"), key.WithHelp("n", "next missed")),
		PrevMissed: key.NewBinding(key.WithKeys("p"), key.WithHelp("p", "previous missed")),
		New:        key.NewBinding(key.WithKeys("n"), key.WithHelp("n", "new quiz")),
		Lesson:     key.NewBinding(key.WithKeys("l"), key.WithHelp("l", "open the lesson")),
		Race:       raceview.DefaultKeys(),
		Text:       textpane.DefaultKeys(),
	}
}
