// Package textpane is a scrolling column of text lines: the prose, the
// question and the feedback of a lesson step or a quiz question. It keeps
// an optional block of lines (the options of a question) pinned at its
// bottom while the block would be below the window, so a learner reads
// from the top and still sees every option; it marks what is cut above and
// below with how much, and scrolls with PgUp/PgDn, ctrl+u/d, Home/End and
// the mouse wheel.
package textpane

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/conflictlab/conflictlab/ui/layout"
	"github.com/conflictlab/conflictlab/ui/styles"
)

// WheelLines is how far one notch of the mouse wheel scrolls.
const WheelLines = 3

// KeyMap is the pane's keys. None of them is a key of the race view
// (space, ←/→, r, +/-, o, J/K) or of the options (↑/↓, 1-9, enter).
type KeyMap struct {
	PageUp, PageDown, HalfUp, HalfDown, Top, Bottom key.Binding
}

// DefaultKeys are the pane's bindings.
func DefaultKeys() KeyMap {
	return KeyMap{
		PageUp:   key.NewBinding(key.WithKeys("pgup"), key.WithHelp("pgup/pgdn", "scroll text")),
		PageDown: key.NewBinding(key.WithKeys("pgdown"), key.WithHelp("pgdn", "scroll text down")),
		HalfUp:   key.NewBinding(key.WithKeys("ctrl+u"), key.WithHelp("ctrl+u/d", "half a page")),
		HalfDown: key.NewBinding(key.WithKeys("ctrl+d"), key.WithHelp("ctrl+d", "half a page down")),
		Top:      key.NewBinding(key.WithKeys("home"), key.WithHelp("home/end", "top/end of text")),
		Bottom:   key.NewBinding(key.WithKeys("end"), key.WithHelp("end", "end of text")),
	}
}

// Matches reports whether a key press is one of the pane's.
func (k KeyMap) Matches(msg tea.KeyPressMsg) bool {
	return key.Matches(msg, k.PageUp, k.PageDown, k.HalfUp, k.HalfDown, k.Top, k.Bottom)
}

// Bindings are the keys for the full help, one entry per pair.
func (k KeyMap) Bindings() []key.Binding {
	// The wheel is no key; a binding with a name no key press has makes
	// the help list it.
	wheel := key.NewBinding(key.WithKeys("wheel"), key.WithHelp("wheel", "scroll text"))
	return []key.Binding{k.PageUp, k.HalfUp, k.Top, wheel}
}

// Model is the pane. The zero value is empty; set its size and content.
type Model struct {
	lines    []string
	pin, end int // the pinned block is lines[pin:end]; pin == end is none
	off      int // the first content line in the window
	w, h     int
	st       *styles.Styles
	Keys     KeyMap
}

// New is an empty pane.
func New(st *styles.Styles) Model { return Model{st: st, Keys: DefaultKeys()} }

// SetStyles replaces the styles.
func (m *Model) SetStyles(st *styles.Styles) { m.st = st }

// SetSize sets the pane's rectangle; the position is kept as far as it
// can be.
func (m *Model) SetSize(w, h int) {
	m.w, m.h = w, h
	m.clamp()
}

// Size is the pane's rectangle.
func (m Model) Size() (w, h int) { return m.w, m.h }

// SetContent replaces the lines, keeping the position (new feedback under
// the options does not move what the learner reads). Lines pin to end are
// pinned at the bottom while they would be below the window; pass
// pin == end for none.
func (m *Model) SetContent(lines []string, pin, end int) {
	m.lines = lines
	m.pin, m.end = max(0, min(pin, len(lines))), max(0, min(end, len(lines)))
	if m.end < m.pin {
		m.pin = m.end
	}
	m.clamp()
}

// Lines is the content.
func (m Model) Lines() []string { return m.lines }

// Offset is the first content line in the window.
func (m Model) Offset() int { return m.off }

// Fits reports whether the whole content is in the window.
func (m Model) Fits() bool { return len(m.lines) <= m.h }

// GotoTop scrolls to the first line.
func (m *Model) GotoTop() { m.off = 0 }

// GotoBottom scrolls to the last line.
func (m *Model) GotoBottom() { m.off = m.maxOff() }

// AtTop and AtBottom report the ends.
func (m Model) AtTop() bool    { return m.off == 0 }
func (m Model) AtBottom() bool { return m.off >= m.maxOff() }

// pinned reports whether the pinned block is drawn at the bottom at
// offset off: it is while it would be below the window, when it ends the
// content (text after it would be hidden under it) and leaves room for a
// line of the rest with the marks around it.
func (m Model) pinned(off int) bool {
	n := m.end - m.pin
	return n > 0 && m.end == len(m.lines) && n <= m.h-3 && m.end > off+m.h
}

// maxOff is the last useful offset. With a block pinned, the window at
// end-h shows the block right under the lines before it, exactly as the
// pinned view does, so scrolling past it is not needed to reach them.
func (m Model) maxOff() int { return max(0, len(m.lines)-m.h) }

func (m *Model) clamp() { m.off = max(0, min(m.off, m.maxOff())) }

// ScrollBy moves the window n lines (negative is up).
func (m *Model) ScrollBy(n int) {
	m.off += n
	m.clamp()
}

// page is how far PgDn moves: the window less the two lines the marks
// may cover, so the line under "↓ more below" is the first one read
// after it.
func (m Model) page() int {
	h := m.h
	if m.pinned(m.off) {
		h -= m.end - m.pin
	}
	return max(1, h-2)
}

// visible reports whether line i can be read at offset off: the first
// row is "↑ more" when scrolled, the last row of the scrolled part
// "↓ more" unless at the end.
func (m Model) visible(off, i int) bool {
	if len(m.lines) <= m.h {
		return true
	}
	k := 0
	if m.pinned(off) {
		if i >= m.pin {
			return true
		}
		k = m.end - m.pin
	}
	from, to := off, off+m.h-k
	if off > 0 {
		from++
	}
	if k > 0 || to < len(m.lines) {
		to--
	}
	return i >= from && i < to
}

// EnsureVisible scrolls as little as possible to show lines [from, to),
// or, when they do not fit, to show from at the top of the window.
func (m *Model) EnsureVisible(from, to int) {
	from, to = max(0, min(from, len(m.lines))), max(0, min(to, len(m.lines)))
	if to <= from || len(m.lines) <= m.h {
		return
	}
	all := func(off int) bool {
		for i := from; i < to; i++ {
			if !m.visible(off, i) {
				return false
			}
		}
		return true
	}
	best := -1
	for off := 0; off <= m.maxOff(); off++ {
		if all(off) && (best < 0 || abs(off-m.off) < abs(best-m.off)) {
			best = off
		}
	}
	if best < 0 {
		// Too long for the window: its start under the "↑ more" mark.
		best = max(0, from-1)
	}
	m.off = best
	m.clamp()
}

// Visible reports whether line i can be read now.
func (m Model) Visible(i int) bool { return m.visible(m.off, i) }

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// Update scrolls for the pane's keys and the wheel; it reports whether it
// took the message.
func (m Model) Update(msg tea.Msg) (Model, bool) {
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		k := m.Keys
		switch {
		case key.Matches(msg, k.PageUp):
			m.ScrollBy(-m.page())
		case key.Matches(msg, k.PageDown):
			m.ScrollBy(m.page())
		case key.Matches(msg, k.HalfUp):
			m.ScrollBy(-max(1, m.page()/2))
		case key.Matches(msg, k.HalfDown):
			m.ScrollBy(max(1, m.page()/2))
		case key.Matches(msg, k.Top):
			m.GotoTop()
		case key.Matches(msg, k.Bottom):
			m.GotoBottom()
		default:
			return m, false
		}
		return m, true
	case tea.MouseWheelMsg:
		switch msg.Button {
		case tea.MouseWheelUp:
			m.ScrollBy(-min(WheelLines, m.page()))
		case tea.MouseWheelDown:
			m.ScrollBy(min(WheelLines, m.page()))
		default:
			return m, false
		}
		return m, true
	}
	return m, false
}

// View draws the pane into exactly its size.
func (m Model) View() string {
	if m.w <= 0 || m.h <= 0 {
		return ""
	}
	if len(m.lines) <= m.h {
		return layout.Fit(strings.Join(m.lines, "\n"), m.w, m.h)
	}
	h := m.h
	var foot []string
	if m.pinned(m.off) {
		foot = m.lines[m.pin:m.end]
		h -= len(foot)
	}
	view := make([]string, 0, m.h)
	view = append(view, m.lines[m.off:min(len(m.lines), m.off+h)]...)
	if m.off > 0 {
		view[0] = m.mark(fmt.Sprintf("↑ %d more above · pgup", m.off+1))
	}
	shownTo := m.off + len(view)
	below := len(m.lines) - shownTo
	if foot != nil {
		below = m.pin - shownTo
	}
	switch {
	case below > 0 && foot != nil:
		// The hidden lines are between this mark and the pinned block.
		view[len(view)-1] = m.mark(fmt.Sprintf("↓ %d more lines · pgdn", below+1))
	case below > 0:
		view[len(view)-1] = m.mark(fmt.Sprintf("↓ %d more below · pgdn", below+1))
	}
	view = append(view, foot...)
	return layout.Fit(strings.Join(view, "\n"), m.w, m.h)
}

func (m Model) mark(s string) string {
	s = layout.Truncate(s, m.w)
	if m.st == nil {
		return s
	}
	return m.st.Faint.Render(s)
}
