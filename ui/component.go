package ui

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/conflictlab/conflictlab/ui/home"
	"github.com/conflictlab/conflictlab/ui/keyhelp"
	"github.com/conflictlab/conflictlab/ui/player"
	quizui "github.com/conflictlab/conflictlab/ui/quiz"
	"github.com/conflictlab/conflictlab/ui/sandbox"
	"github.com/conflictlab/conflictlab/ui/styles"
)

// component is what the root asks of a screen, as soft-serve's
// pkg/ui/common.Component: the root keeps one model of each screen and
// talks to the one on show through this, so routing a message, drawing,
// sizing, restyling and the key lists are one loop or one call, not a
// switch over screens each.
type component interface {
	update(tea.Msg) tea.Cmd
	view() string
	title() string
	shortHelp() []key.Binding
	// helpGroups is every key of the screen, in named groups; the root
	// adds its own and flows them into the columns the window has.
	helpGroups() []keyhelp.Group
	setSize(w, h int)
	setStyles(*styles.Styles)
	// margin is the columns the root keeps on the screen's left.
	margin() int
}

// screenModel is a screen's model as Bubble Tea writes them: Update
// returns the next value; the setters take a pointer.
type screenModel[T any] interface {
	Update(tea.Msg) (T, tea.Cmd)
	View() string
	ShortHelp() []key.Binding
	FullHelp() [][]key.Binding
}

type settable[T any] interface {
	*T
	SetSize(w, h int)
	SetStyles(*styles.Styles)
}

// screenOf adapts a screen's model, held in the root, to component.
type screenOf[T screenModel[T], P settable[T]] struct {
	m P
	// name is the header's title for screens without a Title of their own.
	name string
	// left is the margin.
	left int
}

func (s screenOf[T, P]) update(msg tea.Msg) tea.Cmd {
	var cmd tea.Cmd
	*s.m, cmd = (*s.m).Update(msg)
	return cmd
}

func (s screenOf[T, P]) view() string { return (*s.m).View() }

func (s screenOf[T, P]) title() string {
	if t, ok := any(*s.m).(interface{ Title() string }); ok {
		return t.Title()
	}
	return s.name
}

func (s screenOf[T, P]) shortHelp() []key.Binding { return (*s.m).ShortHelp() }

// helpGroups are the screen's named groups, or its FullHelp columns as
// groups without a title when it has none.
func (s screenOf[T, P]) helpGroups() []keyhelp.Group {
	if g, ok := any(*s.m).(interface{ HelpGroups() []keyhelp.Group }); ok {
		return g.HelpGroups()
	}
	var out []keyhelp.Group
	for _, col := range (*s.m).FullHelp() {
		out = append(out, keyhelp.Group{Keys: col})
	}
	return out
}

func (s screenOf[T, P]) setSize(w, h int)            { s.m.SetSize(max(0, w-s.left), h) }
func (s screenOf[T, P]) setStyles(st *styles.Styles) { s.m.SetStyles(st) }
func (s screenOf[T, P]) margin() int                 { return s.left }

// The screens as components.
func (m *Model) homeC() component {
	return screenOf[home.Model, *home.Model]{m: &m.home, name: "lessons"}
}

func (m *Model) playerC() component {
	return screenOf[player.Model, *player.Model]{m: &m.player, left: 1}
}

func (m *Model) quizC() component {
	return screenOf[quizui.Model, *quizui.Model]{m: &m.quiz, left: 1}
}

func (m *Model) sandboxC() component {
	return screenOf[sandbox.Model, *sandbox.Model]{m: &m.sandbox, left: 1}
}

// components are every screen, for what all of them hear (size, styles).
func (m *Model) components() []component {
	return []component{m.homeC(), m.playerC(), m.quizC(), m.sandboxC()}
}

// active is the screen on show; nil while loading or failed.
func (m *Model) active() component {
	switch m.screen {
	case homeScreen:
		return m.homeC()
	case playerScreen:
		return m.playerC()
	case quizScreen:
		return m.quizC()
	case sandboxScreen:
		return m.sandboxC()
	}
	return nil
}
