package player

import (
	"charm.land/bubbles/v2/key"

	"github.com/conflictlab/conflictlab/ui/raceview"
	"github.com/conflictlab/conflictlab/ui/textpane"
)

// KeyMap is the lesson player's keys; the race view's keys are part of it.
type KeyMap struct {
	Up, Down, Pick, Answer, Next, Prev, Hint, Solution, Code, Zoom key.Binding
	// Decide selects the row of the race that decides it.
	Decide key.Binding
	// Live replays the race on the learner's cluster; Confirm says yes to it.
	Live, Confirm key.Binding
	// Back is esc as the root has it: back to where the lesson was opened.
	Back key.Binding
	Race raceview.KeyMap
	// Text scrolls the text pane.
	Text textpane.KeyMap
}

// DefaultKeys are the player's bindings.
func DefaultKeys() KeyMap {
	return KeyMap{
		Up:       key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑/k", "previous option")),
		Down:     key.NewBinding(key.WithKeys("down", "j"), key.WithHelp("↓/j", "next option")),
		Pick:     key.NewBinding(key.WithKeys("1", "2", "3", "4", "5", "6", "7", "8", "9"), key.WithHelp("1-9", "answer")),
		Answer:   key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "answer/continue")),
		Next:     key.NewBinding(key.WithKeys("n"), key.WithHelp("n", "next step")),
		Prev:     key.NewBinding(key.WithKeys("p"), key.WithHelp("p", "previous step")),
		Hint:     key.NewBinding(key.WithKeys("h"), key.WithHelp("h", "hint")),
		Solution: key.NewBinding(key.WithKeys("s"), key.WithHelp("s", "solution")),
		Code:     key.NewBinding(key.WithKeys("c"), key.WithHelp("c", "code/race")),
		Zoom:     key.NewBinding(key.WithKeys("tab"), key.WithHelp("tab", "zoom race")),
		Decide:   key.NewBinding(key.WithKeys("g"), key.WithHelp("g", "deciding row")),
		Live:     key.NewBinding(key.WithKeys("L"), key.WithHelp("L", "replay on your cluster")),
		Confirm:  key.NewBinding(key.WithKeys("y"), key.WithHelp("y", "yes")),
		Back:     key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "back")),
		Race:     raceview.DefaultKeys(),
		Text:     textpane.DefaultKeys(),
	}
}
