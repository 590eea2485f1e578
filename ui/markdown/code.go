package markdown

import (
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/alecthomas/chroma/v2"
	"github.com/alecthomas/chroma/v2/lexers"
	chromastyles "github.com/alecthomas/chroma/v2/styles"
	xansi "github.com/charmbracelet/x/ansi"
)

// TabWidth is how many columns a tab in a snippet takes. Tabs are expanded
// before drawing: a terminal's tab stops do not match the width the
// layout counts, so a raw tab would push lines past the pane.
const TabWidth = 4

// Continuation starts a code line that did not fit the width.
const Continuation = "↪ "

// Code highlights a Go snippet with chroma (the highlighter glamour uses)
// and fits it to width. Code is never word-wrapped like prose: a line too
// long for the pane continues on the next line after a ↪, so no character
// is hidden and the indentation stays readable.
func Code(src, style string, width int) string {
	if width < 8 {
		width = 8
	}
	k := key{"code:" + style, width, src}
	mu.Lock()
	defer mu.Unlock()
	if out, ok := cache[k]; ok {
		return out
	}
	res := code(src, style, width)
	remember(k, res)
	return res
}

// code is Code without the cache (the caller holds mu).
func code(src, style string, width int) string {
	lines := highlight(strings.ReplaceAll(strings.TrimRight(src, "\n"), "\t", strings.Repeat(" ", TabWidth)), style)
	var out []string
	for _, l := range lines {
		out = append(out, softWrap(l, width)...)
	}
	return strings.Join(out, "\n")
}

// highlight returns the source's lines, styled token by token.
func highlight(src, style string) []string {
	plain := func() []string { return strings.Split(src, "\n") }
	var cs *chroma.Style
	switch style {
	case "dark":
		cs = chromastyles.Get("monokai")
	case "light":
		cs = chromastyles.Get("github")
	default:
		return plain()
	}
	lexer := lexers.Get("go")
	if lexer == nil {
		return plain()
	}
	it, err := chroma.Coalesce(lexer).Tokenise(nil, src)
	if err != nil {
		return plain()
	}
	styleOf := map[chroma.TokenType]lipgloss.Style{}
	lines := []string{""}
	for _, tok := range it.Tokens() {
		st, ok := styleOf[tok.Type]
		if !ok {
			e := cs.Get(tok.Type)
			st = lipgloss.NewStyle()
			if e.Colour.IsSet() {
				st = st.Foreground(lipgloss.Color(e.Colour.String()))
			}
			if e.Bold == chroma.Yes {
				st = st.Bold(true)
			}
			if e.Italic == chroma.Yes {
				st = st.Italic(true)
			}
			styleOf[tok.Type] = st
		}
		for i, part := range strings.Split(tok.Value, "\n") {
			if i > 0 {
				lines = append(lines, "")
			}
			if part != "" {
				lines[len(lines)-1] += st.Render(part)
			}
		}
	}
	if len(lines) > 1 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

// softWrap cuts a styled line into pieces of at most width columns; the
// pieces after the first start with the continuation mark.
func softWrap(line string, width int) []string {
	if lipgloss.Width(line) <= width {
		return []string{line}
	}
	var out []string
	first := true
	for lipgloss.Width(line) > 0 {
		w := width
		prefix := ""
		if !first {
			prefix = Continuation
			w -= lipgloss.Width(Continuation)
		}
		n := lipgloss.Width(line)
		if n <= w {
			out = append(out, prefix+line)
			break
		}
		at := breakAt(line, w)
		out = append(out, prefix+cut(line, 0, at))
		line = cut(line, at, n)
		first = false
	}
	return out
}

// breakAt picks where to cut a line that is too long: after the last
// space or punctuation in its second half, so identifiers stay whole;
// at w when there is none.
func breakAt(line string, w int) int {
	plain := []rune(xansi.Strip(line))
	for i := min(w, len(plain)) - 1; i >= w/2; i-- {
		switch plain[i] {
		case ' ', ',', '(', '.':
			return i + 1
		}
	}
	return w
}
