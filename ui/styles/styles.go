// Package styles is the tutorial's one set of styles, built from what the
// terminal told us: whether its background is dark, and whether colour is
// wanted at all (NO_COLOR). Every meaning a colour carries is also carried
// by a symbol or a word, so the screens read the same without colour.
package styles

import (
	"image/color"

	"charm.land/bubbles/v2/help"
	"charm.land/lipgloss/v2"
)

// Symbols carry meaning without colour.
const (
	OK      = "✓"
	Bad     = "✗"
	Warn    = "⚠"
	Cursor  = "›"
	Current = "▶"
	// Stale marks an informer cache that is behind the server.
	Stale  = "*"
	Bullet = "•"
	Rule   = "─"
)

// Styles is every style the screens use.
type Styles struct {
	Dark    bool
	NoColor bool

	Title    lipgloss.Style // screen titles
	Heading  lipgloss.Style // section headings inside a screen
	Text     lipgloss.Style
	Faint    lipgloss.Style // secondary text
	Bold     lipgloss.Style
	Selected lipgloss.Style // the row under the cursor
	Accent   lipgloss.Style // the brand colour: key names, the header
	Header   lipgloss.Style // the one-line bar at the top
	Border   lipgloss.Style // pane borders
	Focus    lipgloss.Style // the focused pane's border

	OK       lipgloss.Style // success: 2xx, correct answers, no-loss
	Bad      lipgloss.Style // failure: 4xx, wrong answers, lost data
	Warn     lipgloss.Style // caution: stale caches, hints
	Conflict lipgloss.Style // 409 specifically: the star of the course

	Added   lipgloss.Style
	Removed lipgloss.Style
	Changed lipgloss.Style

	// Lanes colour each controller's swimlane, cycling.
	Lanes  []lipgloss.Style
	Server lipgloss.Style

	Help help.Styles
	// Markdown names the glamour style for prose and code.
	Markdown string
}

// New builds the styles for a background; noColor drops every colour and
// keeps only weight, underline and reverse video.
func New(dark, noColor bool) *Styles {
	ld := lipgloss.LightDark(dark)
	c := func(light, darkHex string) color.Color {
		return ld(lipgloss.Color(light), lipgloss.Color(darkHex))
	}
	fg := func(col color.Color) lipgloss.Style {
		if noColor {
			return lipgloss.NewStyle()
		}
		return lipgloss.NewStyle().Foreground(col)
	}
	s := &Styles{Dark: dark, NoColor: noColor}
	accent := c("#5A3FC0", "#B39DFF")
	s.Accent = fg(accent).Bold(true)
	s.Title = fg(accent).Bold(true)
	s.Heading = fg(c("#1F5F8B", "#8FC8F0")).Bold(true)
	s.Text = fg(c("#1A1A1A", "#E4E4E4"))
	s.Faint = fg(c("#6B6B6B", "#8A8A8A"))
	s.Bold = lipgloss.NewStyle().Bold(true)
	s.Selected = lipgloss.NewStyle().Bold(true)
	if noColor {
		s.Selected = s.Selected.Reverse(true)
	} else {
		s.Selected = s.Selected.Foreground(c("#000000", "#FFFFFF")).Background(c("#DCD3FF", "#3D2F7A"))
	}
	s.Header = s.Title
	s.Border = fg(c("#B8B8B8", "#4E4E4E"))
	s.Focus = fg(accent)
	s.OK = fg(c("#1B7F35", "#6BD88A")).Bold(true)
	s.Bad = fg(c("#B3261E", "#FF7A6E")).Bold(true)
	s.Warn = fg(c("#8A5A00", "#F2C14E"))
	s.Conflict = fg(c("#B3261E", "#FF9E57")).Bold(true)
	s.Added = fg(c("#1B7F35", "#6BD88A"))
	s.Removed = fg(c("#B3261E", "#FF7A6E"))
	s.Changed = fg(c("#8A5A00", "#F2C14E"))
	for _, l := range [][2]string{{"#005F87", "#5FD7FF"}, {"#875F00", "#FFD75F"}, {"#870087", "#FF87FF"}, {"#005F00", "#87FF87"}} {
		s.Lanes = append(s.Lanes, fg(c(l[0], l[1])).Bold(true))
	}
	s.Server = fg(c("#444444", "#C0C0C0")).Bold(true)
	s.Help = help.DefaultStyles(dark)
	if noColor {
		plain := lipgloss.NewStyle()
		s.Help = help.Styles{Ellipsis: plain, ShortKey: plain.Bold(true), ShortDesc: plain, ShortSeparator: plain,
			FullKey: plain.Bold(true), FullDesc: plain, FullSeparator: plain}
	} else {
		s.Help.ShortKey = s.Help.ShortKey.Foreground(accent)
		s.Help.FullKey = s.Help.FullKey.Foreground(accent)
	}
	switch {
	case noColor:
		s.Markdown = "notty"
	case dark:
		s.Markdown = "dark"
	default:
		s.Markdown = "light"
	}
	return s
}

// Lane returns the style of the i-th controller's lane.
func (s *Styles) Lane(i int) lipgloss.Style { return s.Lanes[i%len(s.Lanes)] }

// Code styles an HTTP status by class: 2xx OK, 409 conflict, other errors bad.
func (s *Styles) Code(code int) lipgloss.Style {
	switch {
	case code >= 200 && code < 300:
		return s.OK
	case code == 409:
		return s.Conflict
	}
	return s.Bad
}
