// Package codepane shows the client-go code of the strategy on screen:
// a snippet from lessons/snippets, highlighted, scrollable.
package codepane

import (
	"strings"

	"github.com/conflictlab/conflictlab/lessons/snippets"
	"github.com/conflictlab/conflictlab/ui/layout"
	"github.com/conflictlab/conflictlab/ui/markdown"
	"github.com/conflictlab/conflictlab/ui/styles"
)

// Model is the code pane.
type Model struct {
	name   string
	src    string
	err    error
	scroll int
	w, h   int
	st     *styles.Styles
	// Source finds a snippet by name (lessons/snippets by default; tests
	// pin it so their renders do not change when the course does).
	Source func(name string) (string, error)
}

// New returns an empty code pane.
func New(st *styles.Styles) Model { return Model{st: st, Source: snippets.Get} }

// SetStyles replaces the styles.
func (m *Model) SetStyles(st *styles.Styles) { m.st = st }

// SetSize sets the rectangle the pane fills.
func (m *Model) SetSize(w, h int) { m.w, m.h = w, h }

// Show loads the named snippet ("" clears the pane). Showing the same
// snippet again keeps the scroll position.
func (m *Model) Show(name string) {
	if name == m.name {
		return
	}
	m.name, m.scroll, m.src, m.err = name, 0, "", nil
	if name != "" {
		m.src, m.err = m.Source(name)
	}
}

// Name is the snippet on show.
func (m Model) Name() string { return m.name }

// Scroll moves the view by n lines (negative: up).
func (m *Model) Scroll(n int) { m.scroll = max(0, m.scroll+n) }

// View draws the pane into exactly its size.
func (m Model) View() string {
	if m.w <= 0 || m.h <= 0 {
		return ""
	}
	var body string
	switch {
	case m.name == "":
		body = m.st.Faint.Render("This step shows no code.")
	case m.err != nil:
		body = m.st.Warn.Render(styles.Warn + " " + m.err.Error())
	default:
		body = markdown.Code(m.src, m.st.Markdown, m.w)
	}
	lines := layout.Lines(body)
	off := min(m.scroll, max(0, len(lines)-m.h))
	lines = lines[off:min(len(lines), off+m.h)]
	if len(lines) == m.h && off+m.h < len(layout.Lines(body)) {
		lines[m.h-1] = m.st.Faint.Render("↓ more (J)")
	}
	return layout.Fit(strings.Join(lines, "\n"), m.w, m.h)
}
