package nav

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/conflictlab/conflictlab/ui/keyhelp"
	"github.com/conflictlab/conflictlab/ui/styles"
)

// Screen is what the root asks of a screen, as soft-serve's
// pkg/ui/common.Component: the root keeps the screens on a Stack and
// talks to the one on top through this, so routing a message, drawing,
// sizing, restyling and the key lists are one call, not a switch over
// screens. A screen is a value: Update and the setters give the next one.
type Screen interface {
	Update(tea.Msg) (Screen, tea.Cmd)
	// View draws the screen into exactly its size.
	View() string
	SetSize(w, h int) Screen
	SetStyles(*styles.Styles) Screen
	// Title is the header's text beside the program's name.
	Title() string
	// ShortHelp is the screen's part of the key bar; the root adds the
	// keys that work everywhere after it, unless the screen takes them.
	ShortHelp() []key.Binding
	// HelpGroups is every key of the screen, in named groups; the root
	// adds its own and flows them into the columns the window has.
	HelpGroups() []keyhelp.Group
	// TakesKey reports whether the screen takes a key before the root's
	// own bindings (q, ?, esc): a text field is being typed in, or esc
	// closes something the screen has open.
	TakesKey(tea.KeyPressMsg) bool
	// Where is the lesson and step on show, for whoever watches the
	// session (a workshop's room); the zero Place elsewhere.
	Where() Place
	// Leave is called when the screen stops being on top (popped, or
	// covered by another) and when the program ends: what it keeps
	// between runs (the sandbox's race) is written by the command it
	// returns. The root runs that command itself at the end, and shows
	// the Note it may answer.
	Leave() tea.Cmd
}

// Place is where in the course a screen is.
type Place struct {
	Lesson string
	Step   int
}

// Model is a screen's model as Bubble Tea writes them: Update returns the
// next value of its own type. The compiler checks every method, so a
// misspelt one is an error, not a silent default.
type Model[T any] interface {
	Update(tea.Msg) (T, tea.Cmd)
	View() string
	Title() string
	ShortHelp() []key.Binding
	HelpGroups() []keyhelp.Group
	TakesKey(tea.KeyPressMsg) bool
	Where() Place
	Leave() tea.Cmd
}

// Settable is a model's pointer, which sets its size and styles.
type Settable[T any] interface {
	*T
	SetSize(w, h int)
	SetStyles(*styles.Styles)
}

// Of is the screen of a model: Of(home.New(…)).
func Of[T Model[T], P Settable[T]](m T) Screen { return of[T, P]{m: m} }

type of[T Model[T], P Settable[T]] struct{ m T }

func (s of[T, P]) Update(msg tea.Msg) (Screen, tea.Cmd) {
	m, cmd := s.m.Update(msg)
	return of[T, P]{m: m}, cmd
}

func (s of[T, P]) View() string                    { return s.m.View() }
func (s of[T, P]) Title() string                   { return s.m.Title() }
func (s of[T, P]) ShortHelp() []key.Binding        { return s.m.ShortHelp() }
func (s of[T, P]) HelpGroups() []keyhelp.Group     { return s.m.HelpGroups() }
func (s of[T, P]) TakesKey(k tea.KeyPressMsg) bool { return s.m.TakesKey(k) }
func (s of[T, P]) Where() Place                    { return s.m.Where() }
func (s of[T, P]) Leave() tea.Cmd                  { return s.m.Leave() }

func (s of[T, P]) SetSize(w, h int) Screen {
	P(&s.m).SetSize(w, h)
	return s
}

func (s of[T, P]) SetStyles(st *styles.Styles) Screen {
	P(&s.m).SetStyles(st)
	return s
}

// Margin is s with cols blank columns kept on its left, like the header's.
func Margin(s Screen, cols int) Screen { return margin{Screen: s, cols: cols} }

type margin struct {
	Screen
	cols int
}

func (s margin) Update(msg tea.Msg) (Screen, tea.Cmd) {
	next, cmd := s.Screen.Update(msg)
	s.Screen = next
	return s, cmd
}

func (s margin) View() string {
	v := s.Screen.View()
	if v == "" {
		return ""
	}
	pad := strings.Repeat(" ", s.cols)
	return pad + strings.ReplaceAll(strings.ReplaceAll(v, "\r\n", "\n"), "\n", "\n"+pad)
}

func (s margin) SetSize(w, h int) Screen {
	s.Screen = s.Screen.SetSize(max(0, w-s.cols), h)
	return s
}

func (s margin) SetStyles(st *styles.Styles) Screen {
	s.Screen = s.Screen.SetStyles(st)
	return s
}

// As is the model of type T inside s, when s was made by Of from one
// (with a Margin or not): for tests, which look into a screen the root
// holds.
func As[T Model[T], P Settable[T]](s Screen) (T, bool) {
	if mg, ok := s.(margin); ok {
		s = mg.Screen
	}
	o, ok := s.(of[T, P])
	return o.m, ok
}
