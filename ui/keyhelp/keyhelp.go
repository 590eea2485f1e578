// Package keyhelp draws a screen's full key list from named groups of
// bindings, flowed into as many columns as the width allows and scrolled
// when the rows still outnumber the height, so every key can be read at
// any window size (a list spliced by column index loses the columns that
// do not fit).
package keyhelp

import (
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/lipgloss/v2"

	"github.com/conflictlab/conflictlab/ui/layout"
)

// Group is a named set of bindings shown together.
type Group struct {
	Title string
	Keys  []key.Binding
}

// Styles are the list's styles.
type Styles struct {
	Title, Key, Desc lipgloss.Style
}

// gap is the space between two columns.
const gap = 3

// item is one line of the flowed list: a group's title, a binding, or the
// blank line between two groups.
type item struct {
	text  string
	title bool
	blank bool
	// group is the title of the group a binding belongs to, repeated at
	// the top of a column the group continues in.
	group string
}

// Layout is the groups laid out for a width: Rows lines, each at most
// the width wide.
type Layout struct {
	rows []string
}

// Rows is how many lines the whole list takes.
func (l Layout) Rows() int { return len(l.rows) }

// View is h lines of the list from line offset (clamped to the end).
func (l Layout) View(offset, h int) string {
	offset = max(0, min(offset, len(l.rows)-h))
	end := min(len(l.rows), offset+h)
	return strings.Join(l.rows[offset:end], "\n")
}

// New lays the groups out w cells wide in as many columns as fit: each
// group whole in a column when that takes at most h rows, else flowing
// from column to column in the fewest rows. Disabled bindings and empty
// groups are left out.
func New(groups []Group, st Styles, w, h int) Layout {
	items := flatten(groups, st)
	if len(items) == 0 || w <= 0 {
		return Layout{}
	}
	colW := 0
	for _, it := range items {
		colW = max(colW, lipgloss.Width(it.text))
	}
	colW = min(colW, w)
	cols := max(1, (w+gap)/(colW+gap))
	columns := whole(items, cols, h)
	for rows := (len(items) + cols - 1) / cols; columns == nil; rows++ {
		if c := flow(items, rows); len(c) <= cols {
			columns = c
		}
	}
	n := 0
	for _, c := range columns {
		n = max(n, len(c))
	}
	out := make([]string, n)
	for r := range out {
		var b strings.Builder
		for ci, c := range columns {
			text := ""
			if r < len(c) {
				text = c[r].text
			}
			if ci < len(columns)-1 {
				b.WriteString(layout.Pad(layout.Truncate(text, colW), colW+gap))
			} else {
				b.WriteString(layout.Truncate(text, colW))
			}
		}
		out[r] = strings.TrimRight(b.String(), " ")
	}
	return Layout{rows: out}
}

// flatten turns the groups into lines: a title, the bindings with their
// keys aligned within the group, a blank line before the next group.
func flatten(groups []Group, st Styles) []item {
	var items []item
	for _, g := range groups {
		var keys []key.Binding
		keyW := 0
		for _, b := range g.Keys {
			if !b.Enabled() || b.Help().Key == "" {
				continue
			}
			keys = append(keys, b)
			keyW = max(keyW, lipgloss.Width(b.Help().Key))
		}
		if len(keys) == 0 {
			continue
		}
		if len(items) > 0 {
			items = append(items, item{blank: true})
		}
		if g.Title != "" {
			items = append(items, item{text: st.Title.Render(g.Title), title: true})
		}
		cont := ""
		if g.Title != "" {
			cont = st.Title.Render(g.Title + " (cont.)")
		}
		for _, b := range keys {
			h := b.Help()
			items = append(items, item{text: st.Key.Render(layout.Pad(h.Key, keyW)) + " " + st.Desc.Render(h.Desc), group: cont})
		}
	}
	return items
}

// flow fills columns of at most rows lines, top to bottom then left to
// right: a column never starts with the blank between groups, a group's
// title never ends one (it moves to the next, with its keys), and a group
// that goes on in the next column has its title repeated there.
func flow(items []item, rows int) [][]item {
	var cols [][]item
	var cur []item
	for _, it := range items {
		if it.blank && len(cur) == 0 {
			continue
		}
		full := len(cur) >= rows || (it.title && len(cur) >= rows-1 && rows > 1)
		if full {
			cols = append(cols, trimBlank(cur))
			cur = nil
			if it.blank {
				continue
			}
			if it.group != "" && rows > 1 {
				cur = append(cur, item{text: it.group, title: true})
			}
		}
		cur = append(cur, it)
	}
	if len(cur) > 0 {
		cols = append(cols, trimBlank(cur))
	}
	return cols
}

func trimBlank(c []item) []item {
	for len(c) > 0 && c[len(c)-1].blank {
		c = c[:len(c)-1]
	}
	return c
}

// whole packs the groups into at most cols columns of at most h rows
// without splitting one, in the fewest rows; nil when they do not fit.
func whole(items []item, cols, h int) [][]item {
	var groups [][]item
	for _, it := range items {
		switch {
		case it.blank:
		case it.title || len(groups) == 0:
			groups = append(groups, []item{it})
		default:
			groups[len(groups)-1] = append(groups[len(groups)-1], it)
		}
	}
	tallest := 0
	for _, g := range groups {
		tallest = max(tallest, len(g))
	}
	for rows := tallest; rows <= h; rows++ {
		var out [][]item
		var cur []item
		for _, g := range groups {
			if len(cur) > 0 && len(cur)+1+len(g) > rows {
				out, cur = append(out, cur), nil
			}
			if len(cur) > 0 {
				cur = append(cur, item{blank: true})
			}
			cur = append(cur, g...)
		}
		if out = append(out, cur); len(out) <= cols {
			return out
		}
	}
	return nil
}
