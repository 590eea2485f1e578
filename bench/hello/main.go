// Command hello is the anchor of the startup benchmark (BENCHMARKS.md,
// "Startup and frame"): the smallest Bubble Tea v2 program that draws a
// frame the way conflictlab does (alternate screen, mouse, window title),
// built with the same Bubble Tea. conflictlab's first frame is measured
// against this one's, in the same run.
package main

import (
	"fmt"
	"os"

	tea "charm.land/bubbletea/v2"
)

type model struct{ w, h int }

func (m model) Init() tea.Cmd { return nil }

func (m model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.w, m.h = msg.Width, msg.Height
	case tea.KeyPressMsg:
		if msg.String() == "q" || msg.String() == "ctrl+c" {
			return m, tea.Quit
		}
	}
	return m, nil
}

func (m model) View() tea.View {
	v := tea.NewView("")
	if m.w > 0 {
		v = tea.NewView(fmt.Sprintf("\n hello from Bubble Tea (%d×%d)\n\n press q to quit", m.w, m.h))
	}
	v.AltScreen = true
	v.MouseMode = tea.MouseModeCellMotion
	v.WindowTitle = "hello"
	return v
}

func main() {
	if _, err := tea.NewProgram(model{}).Run(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
