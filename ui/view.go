package ui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	"github.com/charmbracelet/x/ansi"

	"github.com/conflictlab/conflictlab/termsafe"
	"github.com/conflictlab/conflictlab/ui/chrome"
	"github.com/conflictlab/conflictlab/ui/layout"
)

// The frame: the header, the screen on top (or the key list), the key
// bar; or, in a window too small, how large it needs to be.

// render is the window's content: exactly w×h cells, never wider.
func (m Model) render() string {
	if m.w <= 0 || m.h <= 0 {
		return ""
	}
	if m.w < MinWidth || m.h < MinHeight {
		msg := fmt.Sprintf("Conflict Lab needs a terminal of at least %d×%d; this one is %d×%d. Make the window larger (or the font smaller).",
			MinWidth, MinHeight, m.w, m.h)
		return layout.Fit(layout.Wrap(msg, m.w), m.w, m.h)
	}
	bodyH := m.h - 2
	top := m.stack.Top()
	title, body := top.Title(), top.View()
	if m.showHelp {
		body = m.overlay.View(m.helpGroups(), m.st, m.w, bodyH)
	}
	// Untrusted text is escaped where it enters the screens (displayPack,
	// the race runs); this guard catches whatever was missed (an error
	// message, a file name), keeping only the styles' own SGR sequences.
	return termsafe.Styled(m.header(title) + "\n" + layout.Fit(body, m.w, bodyH) + "\n" + m.keyBar(barKeys{m.fitKeys(m.shortHelp()), m.fullHelp()}))
}

func (m Model) header(title string) string {
	if m.status == "" {
		return chrome.Header(m.st, title, m.w)
	}
	left := chrome.Brand(m.st)
	if title != "" {
		left += m.st.Faint.Render(" › ") + title
	}
	return m.warningHeader(left)
}

// warningHeader puts the status warning beside the title. A warning is
// never hidden by a narrow window: the title gives way first (down to the
// program's name), then the warning's own detail is cut; its headline
// ("⚠ progress not saved") fits from 40 columns.
func (m Model) warningHeader(left string) string {
	brand := chrome.Brand(m.st)
	need := layout.MaxWidth(m.status) + 2 // a space before, one after
	if room := m.w - need; layout.MaxWidth(left) > room {
		if room > layout.MaxWidth(brand)+1 {
			left = layout.Truncate(left, room)
		} else {
			left = brand
		}
	}
	warn := layout.Truncate(m.status, m.w-layout.MaxWidth(left)-2)
	gap := m.w - layout.MaxWidth(left) - layout.MaxWidth(warn) - 1
	return layout.Pad(left+strings.Repeat(" ", max(1, gap))+m.st.Warn.Render(warn)+" ", m.w)
}

// fitKeys is as many of keys as the key bar has room for, whole: the
// screens list their keys most needed first, so what does not fit goes
// from the end — quit first (q works everywhere), then the screen's last
// keys — and the key list (?) stays: every key left out is on it. A bar
// cut mid-way ("…") could hide the one key the step needs.
func (m Model) fitKeys(keys []key.Binding) []key.Binding {
	sep := ansi.StringWidth(m.help.ShortSeparator)
	// width is the bar's width for ks, as help draws it (its styles add
	// no cells), counted without drawing it.
	width := func(ks []key.Binding) int {
		w, n := 0, 0
		for _, b := range ks {
			if !b.Enabled() {
				continue
			}
			if n > 0 {
				w += sep
			}
			w += ansi.StringWidth(b.Help().Key) + 1 + ansi.StringWidth(b.Help().Desc)
			n++
		}
		return w
	}
	room := m.w - 1
	if width(keys) <= room {
		return keys
	}
	var own, global []key.Binding
	for _, b := range keys {
		switch {
		case key.Matches(m.keys.quitPress, b):
		case key.Matches(m.keys.helpPress, b):
			global = append(global, b)
		default:
			own = append(own, b)
		}
	}
	for len(own) > 0 && width(own)+sep+width(global) > room {
		own = own[:len(own)-1]
	}
	return append(own, global...)
}

func (m Model) keyBar(k help.KeyMap) string {
	if m.note != "" {
		return layout.Pad(" "+m.st.Warn.Render(layout.Truncate(m.note, m.w-2)), m.w)
	}
	h := m.help
	h.ShowAll = false
	h.SetWidth(m.w - 1)
	return layout.Pad(" "+h.View(k), m.w)
}

func indent(block, by string) string {
	lines := layout.Lines(block)
	for i, l := range lines {
		lines[i] = by + l
	}
	return strings.Join(lines, "\n")
}

// barKeys adapts binding lists to help.KeyMap.
type barKeys struct {
	short []key.Binding
	full  [][]key.Binding
}

func (b barKeys) ShortHelp() []key.Binding  { return b.short }
func (b barKeys) FullHelp() [][]key.Binding { return b.full }
