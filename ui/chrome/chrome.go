// Package chrome holds what frames every screen of the tutorial, apart
// from the screens themselves: the smallest window they are drawn for,
// the bar at the top, and the signals that end the window. It is small
// and needs only the styles, so that the first frame drawn before the
// program starts (package boot) and the program's own frames share one
// header, cell for cell, and give the terminal back on the same signals.
package chrome

import (
	"os"
	"strings"
	"syscall"

	"github.com/conflictlab/conflictlab/ui/layout"
	"github.com/conflictlab/conflictlab/ui/styles"
)

// MinWidth and MinHeight are the smallest window the screens are drawn
// for; below it the app says how large it needs to be.
const (
	MinWidth  = 80
	MinHeight = 24
)

// EndSignals end a terminal session: the window closed or the SSH link
// dropped (SIGHUP), kill or a service manager (SIGTERM, SIGINT), Ctrl+\
// outside raw mode (SIGQUIT). Bubble Tea's own handler knows only SIGINT
// and SIGTERM, and the default action of the others kills the process
// with the terminal still in the alternate screen, the cursor hidden and
// the tty raw, and the last answers unsaved. The program catches them
// (ui), and so does the first frame drawn before it (boot).
var EndSignals = []os.Signal{syscall.SIGHUP, syscall.SIGINT, syscall.SIGQUIT, syscall.SIGTERM}

// Brand is the program's name as the header shows it.
func Brand(st *styles.Styles) string { return st.Header.Render(" Conflict Lab") }

// Header is the bar at the top of a window w cells wide: the program's
// name, the screen's title after it when there is one, and the key that
// lists every key at the right.
func Header(st *styles.Styles, title string, w int) string {
	left := Brand(st)
	if title != "" {
		left += st.Faint.Render(" › ") + title
	}
	right := st.Faint.Render("? keys ")
	gap := w - layout.MaxWidth(left) - layout.MaxWidth(right)
	if gap < 1 {
		return layout.Pad(left, w)
	}
	return left + strings.Repeat(" ", gap) + right
}
