//go:build !unix

package ui

import (
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/term"
)

// readsOwnSize: here Bubble Tea reads the terminal's size itself; the
// sizes it sends are still bounded (chrome.Bound), its first buffer is
// the console's.
const readsOwnSize = false

func watchResize(*tea.Program, term.File, int, int) func() { return func() {} }
