// Package chrome holds what frames every screen of the tutorial, apart
// from the screens themselves: the smallest window they are drawn for and
// the bar at the top. It is small and needs only the styles, so that the
// first frame drawn before the program starts (package boot) and the
// program's own frames share one header, cell for cell.
package chrome

import (
	"strings"

	"github.com/conflictlab/conflictlab/ui/layout"
	"github.com/conflictlab/conflictlab/ui/styles"
)

// MinWidth and MinHeight are the smallest window the screens are drawn
// for; below it the app says how large it needs to be.
const (
	MinWidth  = 80
	MinHeight = 24
)

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
