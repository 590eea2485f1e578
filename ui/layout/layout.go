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
	block = strings.ReplaceAll(block, "\r\n", "\n")
	var sb strings.Builder
	sb.Grow(len(block) + h*(w+1))
	rest, more := block, block != ""
	for i := 0; i < h; i++ {
		if i > 0 {
			sb.WriteByte('\n')
		}
		var line string
		if more {
			line, rest, more = strings.Cut(rest, "\n")
		}
		writePadded(&sb, line, w)
	}
	return sb.String()
}

// FitLines is Fit of the lines joined, without joining them first.
func FitLines(lines []string, w, h int) string {
	if w <= 0 || h <= 0 {
		return ""
	}
	size := h * (w + 1)
	for _, l := range lines[:min(h, len(lines))] {
		size += len(l)
	}
	var sb strings.Builder
	sb.Grow(size)
	for i := 0; i < h; i++ {
		if i > 0 {
			sb.WriteByte('\n')
		}
		var line string
		if i < len(lines) {
			line = lines[i]
		}
		// A line given may hold several: Fit splits them.
		if strings.IndexByte(line, '\n') >= 0 {
			return Fit(strings.Join(lines, "\n"), w, h)
		}
		writePadded(&sb, line, w)
	}
	return sb.String()
}

// writePadded writes a line truncated or space-padded to exactly w columns,
// measuring it once (twice when it is cut).
func writePadded(sb *strings.Builder, line string, w int) {
	n := width(line)
	if n > w {
		line = ansi.Truncate(line, w, "…")
		n = width(line)
	}
	sb.WriteString(line)
	writeSpaces(sb, w-n)
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
		var sb strings.Builder
		sb.Grow(len(line) + w - n)
		sb.WriteString(line)
		writeSpaces(&sb, w-n)
		return sb.String()
	}
	return line
}

// Beside joins blocks left to right, top-aligned, each padded to its
// widest line: lipgloss.JoinHorizontal(lipgloss.Top, …) byte for byte,
// but measuring each line once, with the fast width.
func Beside(blocks ...string) string {
	switch len(blocks) {
	case 0:
		return ""
	case 1:
		return blocks[0]
	}
	type col struct {
		lines  []string
		widths []int
		widest int
	}
	cols := make([]col, len(blocks))
	height, size := 0, 0
	for i, b := range blocks {
		b = strings.ReplaceAll(b, "\t", "    ")
		b = strings.ReplaceAll(b, "\r\n", "\n")
		c := col{lines: strings.Split(b, "\n")}
		c.widths = make([]int, len(c.lines))
		for j, l := range c.lines {
			c.widths[j] = width(l)
			c.widest = max(c.widest, c.widths[j])
		}
		cols[i] = c
		height = max(height, len(c.lines))
		size += len(b)
	}
	var sb strings.Builder
	sb.Grow(size + height*len(blocks)*8)
	for i := 0; i < height; i++ {
		for _, c := range cols {
			pad := c.widest
			if i < len(c.lines) {
				sb.WriteString(c.lines[i])
				pad -= c.widths[i]
			}
			writeSpaces(&sb, pad)
		}
		if i < height-1 {
			sb.WriteByte('\n')
		}
	}
	return sb.String()
}

const spaces = "                                                                                "

// writeSpaces writes n spaces without building a string for them.
func writeSpaces(sb *strings.Builder, n int) {
	for n > len(spaces) {
		sb.WriteString(spaces)
		n -= len(spaces)
	}
	if n > 0 {
		sb.WriteString(spaces[:n])
	}
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
