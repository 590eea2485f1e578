// Package layout fits rendered blocks into exact rectangles. Every screen
// draws through it so that no line is ever wider than the terminal, which
// is what keeps a resized window from wrapping into garbage.
package layout

import (
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

// Fit returns block cut or padded to exactly w columns and h lines. Long
// lines are truncated with an ellipsis; missing lines are blank.
func Fit(block string, w, h int) string {
	if w <= 0 || h <= 0 {
		return ""
	}
	lines := Lines(block)
	if len(lines) > h {
		lines = lines[:h]
	}
	out := make([]string, h)
	for i := range out {
		var l string
		if i < len(lines) {
			l = lines[i]
		}
		out[i] = Pad(l, w)
	}
	return strings.Join(out, "\n")
}

// Width fits each line of block to at most w columns without padding.
func Width(block string, w int) string {
	lines := Lines(block)
	for i, l := range lines {
		lines[i] = Truncate(l, w)
	}
	return strings.Join(lines, "\n")
}

// Lines splits a block into lines ("" is no lines).
func Lines(block string) []string {
	if block == "" {
		return nil
	}
	return strings.Split(strings.ReplaceAll(block, "\r\n", "\n"), "\n")
}

// Truncate cuts a line to at most w columns, ending it with "…" when cut.
func Truncate(line string, w int) string {
	if w <= 0 {
		return ""
	}
	if width(line) <= w {
		return line
	}
	return ansi.Truncate(line, w, "…")
}

// Pad truncates or space-pads a line to exactly w columns.
func Pad(line string, w int) string {
	if w <= 0 {
		return ""
	}
	n := width(line)
	if n > w {
		line = ansi.Truncate(line, w, "…")
		n = width(line)
	}
	if n < w {
		line += strings.Repeat(" ", w-n)
	}
	return line
}

// width is lipgloss.Width with a fast path: grapheme segmentation is
// most of the cost of drawing a frame, and plain ASCII needs none.
func width(s string) int {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= 0x80 || c == 0x1b || c < 0x20 {
			return lipgloss.Width(s)
		}
	}
	return len(s)
}

// Beside joins blocks left to right, each already fitted to its width.
func Beside(blocks ...string) string {
	return lipgloss.JoinHorizontal(lipgloss.Top, blocks...)
}

// Rule is a horizontal line of w columns with an optional title.
func Rule(title string, w int, style lipgloss.Style) string {
	if w <= 0 {
		return ""
	}
	if title == "" {
		return style.Render(strings.Repeat("─", w))
	}
	head := "─ " + title + " "
	n := w - lipgloss.Width(head)
	if n < 0 {
		return Truncate(style.Render(head), w)
	}
	return style.Render(head + strings.Repeat("─", n))
}

// Wrap word-wraps plain or styled text to w columns.
func Wrap(text string, w int) string {
	if w <= 0 {
		return ""
	}
	return ansi.Wrap(text, w, "")
}

// MaxWidth is the widest line of a block.
func MaxWidth(block string) int {
	m := 0
	for _, l := range Lines(block) {
		if n := width(l); n > m {
			m = n
		}
	}
	return m
}
