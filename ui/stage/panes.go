package stage

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/conflictlab/conflictlab/ui/codepane"
	"github.com/conflictlab/conflictlab/ui/raceview"
	"github.com/conflictlab/conflictlab/ui/textpane"
)

// Panes are a question screen's scrolling panes — its text, its code, its
// race — which the lesson player and the quiz scroll alike.
type Panes struct {
	Text *textpane.Model
	Code *codepane.Model
	Race *raceview.Model
	// TextOn: the text is on screen (not while the stage is zoomed);
	// CodeOn: the code is.
	TextOn, CodeOn bool
}

// Key gives a key to the pane it scrolls. ok reports whether one took
// it; scrolled, that it was the text (the screen stops bringing what it
// revealed into view).
func (p Panes) Key(msg tea.KeyPressMsg, text textpane.KeyMap, race raceview.KeyMap) (cmd tea.Cmd, scrolled, ok bool) {
	switch {
	case p.TextOn && text.Matches(msg):
		*p.Text, _ = p.Text.Update(msg)
		return nil, true, true
	case p.CodeOn && key.Matches(msg, race.ScrollDown):
		p.Code.Scroll(1)
	case p.CodeOn && key.Matches(msg, race.ScrollUp):
		p.Code.Scroll(-1)
	case p.Race.HandlesKey(msg):
		*p.Race, cmd = p.Race.Update(msg)
	default:
		return nil, false, false
	}
	return cmd, false, true
}
