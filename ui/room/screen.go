package room

import (
	"strings"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/conflictlab/conflictlab/termsafe"
	"github.com/conflictlab/conflictlab/ui/chrome"
	"github.com/conflictlab/conflictlab/ui/layout"
	"github.com/conflictlab/conflictlab/ui/styles"
)

// Screen is the room view as a whole program: the header, the view and
// the key bar, for the instructor's SSH session.
type Screen struct {
	view    Model
	help    help.Model
	st      *styles.Styles
	noColor bool
	w, h    int
	quit    key.Binding
	act     func(Action)
}

// NewScreen builds the instructor's program; act carries out what the
// instructor confirms (it must return at once).
func NewScreen(noColor bool, act func(Action)) Screen {
	st := styles.New(true, noColor)
	h := help.New()
	h.Styles = st.Help
	return Screen{view: New(st), help: h, st: st, noColor: noColor, act: act,
		quit: key.NewBinding(key.WithKeys("q", "ctrl+c"), key.WithHelp("q", "quit"))}
}

// View is the room view inside (for tests).
func (s Screen) Room() Model { return s.view }

// Init asks for the terminal's background.
func (s Screen) Init() tea.Cmd { return tea.RequestBackgroundColor }

// Update routes sizes, styles, actions and keys.
func (s Screen) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		s.w, s.h = msg.Width, msg.Height
		s.view.SetSize(max(0, s.w-1), max(0, s.h-2))
		s.help.SetWidth(s.w - 1)
		return s, nil
	case tea.BackgroundColorMsg:
		s.st = styles.New(msg.IsDark(), s.noColor)
		s.help.Styles = s.st.Help
		s.view.SetStyles(s.st)
		return s, nil
	case Action:
		if s.act != nil {
			s.act(msg)
		}
		return s, nil
	case tea.KeyPressMsg:
		if s.view.ask == nil && key.Matches(msg, s.quit) {
			return s, tea.Quit
		}
	}
	var cmd tea.Cmd
	s.view, cmd = s.view.Update(msg)
	return s, cmd
}

// View draws the window.
func (s Screen) View() tea.View {
	v := tea.NewView(s.render())
	v.AltScreen = true
	v.WindowTitle = "Conflict Lab · room"
	return v
}

func (s Screen) render() string {
	if s.w <= 0 || s.h <= 0 {
		return ""
	}
	head := layout.Pad(chrome.Brand(s.st)+s.st.Faint.Render(" › ")+s.view.Title(), s.w)
	body := strings.Join(prefix(layout.Lines(s.view.View()), " "), "\n")
	bar := layout.Pad(" "+s.help.ShortHelpView(append(s.view.ShortHelp(), s.quit)), s.w)
	return termsafe.Styled(head + "\n" + layout.Fit(body, s.w, max(0, s.h-2)) + "\n" + bar)
}

func prefix(lines []string, by string) []string {
	for i, l := range lines {
		lines[i] = by + l
	}
	return lines
}
