// Package nav is how the tutorial's screens are stacked: the Screen every
// screen is to the root (screen.go), the Stack the root keeps them on
// (stack.go), and the messages a screen sends to move on it — push, pop,
// replace, home — or to say something in the key bar, so that screens
// need not know each other. What a screen changes in the learner's
// progress it sends as a progress.Change.
package nav

import (
	tea "charm.land/bubbletea/v2"

	"github.com/conflictlab/conflictlab/ui/styles"
)

// Push puts a screen on top of the stack. Every name is on the stack
// once at most: a screen that is kept (Keep) comes back as it was left —
// from the stack, the screens above it leaving, or from those kept when
// it was popped — and any other is made anew by New, in place of the one
// of its name if there is one.
type Push struct {
	Name string
	Keep bool
	New  func(*styles.Styles) (Screen, tea.Cmd)
}

// Replace puts a screen in place of the one on top, as Push makes it.
type Replace struct{ Push }

// Pop takes the screen on top off the stack (esc, unless the screen
// takes esc itself); the bottom screen stays.
type Pop struct{}

// Home goes back to the bottom of the stack, the home screen.
type Home struct{}

// Open opens a lesson at a step: the root pushes the lesson player.
type Open struct {
	LessonID string
	Step     int
}

// Note says something in the key bar until the next key (why a key did
// nothing, what went wrong with a file).
type Note struct{ Text string }

// Say is the command that sends Note{text}.
func Say(text string) tea.Cmd { return func() tea.Msg { return Note{Text: text} } }

// Send is the command that sends msg.
func Send(msg tea.Msg) tea.Cmd { return func() tea.Msg { return msg } }
