package keyhelp

import (
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/conflictlab/conflictlab/ui/layout"
	"github.com/conflictlab/conflictlab/ui/styles"
)

// Overlay is the list of every key drawn in place of a screen (the root
// opens it with ?): the groups laid out for the window, scrolled with the
// arrows when they are taller than it. It keeps only its scroll offset:
// the groups are the screen's as they stand when it is drawn.
type Overlay struct{ scroll int }

// rows is how many lines of the list fit in a body of h lines: the
// title and a blank above, a blank and the footer below.
func rows(h int) int { return max(1, h-4) }

func list(groups []Group, st *styles.Styles, w, h int) Layout {
	return New(groups, Styles{Title: st.Heading, Key: st.Help.FullKey, Desc: st.Help.FullDesc}, w-2, rows(h))
}

// View is the list in a body w×h, from its scroll offset.
func (o Overlay) View(groups []Group, st *styles.Styles, w, h int) string {
	kl, n := list(groups, st, w, h), rows(h)
	foot := "esc or ? closes this list"
	if kl.Rows() > n {
		foot = "↑↓ scroll · " + foot
	}
	lines := []string{" " + st.Title.Render("Keys"), ""}
	for _, l := range layout.Lines(kl.View(o.scroll, n)) {
		lines = append(lines, " "+l)
	}
	for len(lines) < n+2 {
		lines = append(lines, "")
	}
	lines = append(lines, "", " "+st.Faint.Render(foot))
	return layout.Fit(strings.Join(lines, "\n"), w, h)
}

// Key scrolls the list (it scrolls only when it is taller than the body).
func (o Overlay) Key(msg tea.KeyPressMsg, groups []Group, st *styles.Styles, w, h int) Overlay {
	d := 0
	switch msg.String() {
	case "up", "k":
		d = -1
	case "down", "j":
		d = 1
	case "pgup":
		d = -rows(h)
	case "pgdown", "space":
		d = rows(h)
	default:
		return o
	}
	o.scroll = max(0, min(o.scroll+d, list(groups, st, w, h).Rows()-rows(h)))
	return o
}
