package quiz

import (
	"fmt"

	"charm.land/bubbles/v2/key"

	qz "github.com/conflictlab/conflictlab/quiz"
	"github.com/conflictlab/conflictlab/ui/keyhelp"
	"github.com/conflictlab/conflictlab/ui/raceview"
	"github.com/conflictlab/conflictlab/ui/textpane"
)

// KeyMap is the quiz screen's keys; the race view's keys are part of it.
type KeyMap struct {
	Up, Down, Left, Right, Pick, Enter, Erase, Digit, NextMissed, PrevMissed, New, Lesson key.Binding
	// Decide selects the row of the race that decides it (the verdict
	// names it).
	Decide key.Binding
	// Back is esc: from a reviewed question to the score, else out of
	// the quiz (the root's).
	Back key.Binding
	// Zoom gives a question's race or code the whole screen (tab; the
	// form's tab moves between its fields).
	Zoom key.Binding
	Race raceview.KeyMap
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
		Decide:     key.NewBinding(key.WithKeys("g"), key.WithHelp("g", "deciding row")),
		Back:       key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "back")),
		Zoom:       key.NewBinding(key.WithKeys("tab"), key.WithHelp("tab", "zoom race/code")),
		Race:       raceview.DefaultKeys(),
		Text:       textpane.DefaultKeys(),
	}
}

// --- keys for the bar ---

func withHelp(b key.Binding, keys, desc string) key.Binding {
	b.SetHelp(keys, desc)
	return b
}

// ShortHelp is the key bar: the phase's keys, then esc.
func (m Model) ShortHelp() []key.Binding { return append(m.shortHelp(), m.Keys.Back) }

func (m Model) shortHelp() []key.Binding {
	k := m.Keys
	switch m.phase {
	case setup:
		out := []key.Binding{withHelp(k.Enter, "enter", "start"), withHelp(k.Down, "↑↓", "field")}
		switch m.field {
		case fieldTopic, fieldCount:
			out = append(out, withHelp(k.Right, "←→", "change"))
		case fieldSeed:
			out = append(out, withHelp(k.Digit, "0-9", "type seed"), withHelp(k.Erase, "⌫", "erase"))
		}
		return out
	case questioning, reviewing:
		// The keys the question needs first, then the stage's: the root
		// drops keys from the end when the bar is short of room.
		var out []key.Binding
		f := m.frame()
		switch {
		case m.ask != nil && !m.ask.stemRead():
			// The answer keys read on until the question has been seen
			// whole.
			out = append(out, withHelp(k.Text.PageDown, "pgdn", "read on"),
				withHelp(k.Pick, fmt.Sprintf("1-%d", len(f.item.Options)), "answer"), withHelp(k.Down, "↑↓", "choose"))
		case m.ask != nil:
			out = append(out, withHelp(k.Pick, fmt.Sprintf("1-%d", len(f.item.Options)), "answer"),
				withHelp(k.Down, "↑↓", "choose"), withHelp(k.Enter, "enter", "answer"))
		case m.phase == reviewing:
			out = append(out, withHelp(k.Enter, "enter", "back to score"), k.NextMissed, k.PrevMissed)
		case m.sess.Done():
			out = append(out, withHelp(k.Enter, "enter", "see the score"))
		default:
			out = append(out, withHelp(k.Enter, "enter", "next question"))
		}
		if m.ask == nil && f.item.Question.Kind == qz.Method {
			out = append(out, withHelp(k.Down, "↑↓", "race another"))
		}
		if m.ask == nil && m.canOpen(f.item.Question.Lesson) {
			out = append(out, withHelp(k.Lesson, "l", "lesson"))
		}
		if f.hasStage() {
			out = append(out, withHelp(k.Zoom, "tab", zoomHelp(f)))
		}
		if f.race.Run() != nil && !f.race.Hidden() {
			out = append(out, k.Race.Play)
			if _, ok := f.deciding(); ok {
				out = append(out, k.Decide)
			}
			out = append(out, k.Race.Step, k.Race.Back)
		}
		return out
	case results:
		out := []key.Binding{}
		if len(m.sess.Score().Missed) > 0 {
			out = append(out, withHelp(k.Enter, "enter", "see again"), withHelp(k.Down, "↑↓", "select"))
		}
		return append(out, k.New)
	}
	return nil
}

// HelpGroups is every key, in named groups: the root's key list flows
// them into as many columns as the window has room for.
func (m Model) HelpGroups() []keyhelp.Group {
	k := m.Keys
	// The arrows' binding without tab, which zooms on a question (the
	// form's fields take it too, unlisted).
	arrows := key.NewBinding(key.WithKeys("up", "down", "k", "j"), key.WithHelp("↑↓/jk", "option/field"))
	return []keyhelp.Group{
		{Title: "Answer", Keys: []key.Binding{arrows, withHelp(k.Pick, "1-4", "answer"),
			withHelp(k.Enter, "enter", "start/answer/next"), withHelp(k.Lesson, "l", "open its lesson"),
			withHelp(k.NextMissed, "n/p", "next/prev missed"), k.New}},
		{Title: "Set up", Keys: []key.Binding{withHelp(k.Right, "←/→", "topic/count"), withHelp(k.Digit, "0-9", "type seed"), withHelp(k.Erase, "⌫", "erase digit")}},
		{Title: "Text", Keys: k.Text.Bindings()},
		{Title: "Race", Keys: append([]key.Binding{k.Zoom, k.Decide}, k.Race.Bindings()...)},
	}
}

// FullHelp is every key, one column per group.
func (m Model) FullHelp() [][]key.Binding {
	var out [][]key.Binding
	for _, g := range m.HelpGroups() {
		out = append(out, g.Keys)
	}
	return out
}

// zoomHelp is what tab does on the question's stage.
func zoomHelp(f frame) string {
	switch {
	case f.zoom:
		return "unzoom"
	case f.item.Question.Snippet != "":
		return "zoom code"
	}
	return "zoom race"
}
