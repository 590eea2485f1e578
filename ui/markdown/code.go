package markdown

import (
	"strings"

	"charm.land/lipgloss/v2"
	xansi "github.com/charmbracelet/x/ansi"
)

// TabWidth is how many columns a tab in a snippet takes. Tabs are expanded
// before drawing: a terminal's tab stops do not match the width the
// layout counts, so a raw tab would push lines past the pane.
const TabWidth = 4

// Continuation starts a code line that did not fit the width.
const Continuation = "↪ "

// Code highlights a Go snippet as chroma (the highlighter glamour uses)
// did and fits it to width. Code is never word-wrapped like prose: a line too
// long for the pane continues on the next line after a ↪, so no character
// is hidden and the indentation stays readable.
func Code(src, style string, width int) string {
	if width < 8 {
		width = 8
	}
	k := key{"code:" + style, width, src}
	if out, ok := rendered.get(k); ok {
		return out
	}
	res := code(src, style, width)
	rendered.put(k, res)
	return res
}

// code is Code without the cache.
func code(src, style string, width int) string {
	lines := highlight(strings.ReplaceAll(strings.TrimRight(src, "\n"), "\t", strings.Repeat(" ", TabWidth)), style)
	var out []string
	for _, l := range lines {
		out = append(out, softWrap(l, width)...)
	}
	return strings.Join(out, "\n")
}

// plainCode is a fenced block that is not Go: its lines unstyled, fitted
// to width like code (a line too long continues after a ↪).
func plainCode(src string, width int) string {
	var out []string
	for _, l := range strings.Split(strings.ReplaceAll(strings.TrimRight(src, "\n"), "\t", strings.Repeat(" ", TabWidth)), "\n") {
		out = append(out, softWrap(l, width)...)
	}
	return strings.Join(out, "\n")
}

// highlight returns the source's lines, styled token by token as chroma
// styled them (glamour's highlighter: the monokai style on a dark
// background, github on a light one; lexGo says why not chroma itself).
func highlight(src, style string) []string {
	styles, ok := codeStyles[style]
	if !ok {
		return strings.Split(src, "\n")
	}
	var styleOf [numTokenKinds]*lipgloss.Style
	lines := []string{""}
	for _, tok := range lexGo(src) {
		st := styleOf[tok.kind]
		if st == nil {
			e := styles[tok.kind]
			s := lipgloss.NewStyle()
			if e.colour != "" {
				s = s.Foreground(lipgloss.Color(e.colour))
			}
			if e.bold {
				s = s.Bold(true)
			}
			if e.italic {
				s = s.Italic(true)
			}
			st = &s
			styleOf[tok.kind] = st
		}
		for i, part := range strings.Split(tok.value, "\n") {
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

// codeStyle is how a kind of token is drawn.
type codeStyle struct {
	colour       string
	bold, italic bool
}

// codeStyles are chroma's monokai ("dark") and github ("light") styles
// for the kinds of Go token (TestCodeStylesMatchChroma checks them).
var codeStyles = map[string]*[numTokenKinds]codeStyle{
	"dark": {
		tokText:               {"#f8f8f2", false, false},
		tokError:              {"#960050", false, false},
		tokComment:            {"#75715e", false, false},
		tokCommentMultiline:   {"#75715e", false, false},
		tokKeyword:            {"#66d9ef", false, false},
		tokKeywordConstant:    {"#66d9ef", false, false},
		tokKeywordDeclaration: {"#66d9ef", false, false},
		tokKeywordNamespace:   {"#f92672", false, false},
		tokKeywordType:        {"#66d9ef", false, false},
		tokNameBuiltin:        {"#f8f8f2", false, false},
		tokNameFunction:       {"#a6e22e", false, false},
		tokNameOther:          {"#a6e22e", false, false},
		tokNumber:             {"#ae81ff", false, false},
		tokNumberBin:          {"#ae81ff", false, false},
		tokNumberFloat:        {"#ae81ff", false, false},
		tokNumberHex:          {"#ae81ff", false, false},
		tokNumberInteger:      {"#ae81ff", false, false},
		tokNumberOct:          {"#ae81ff", false, false},
		tokString:             {"#e6db74", false, false},
		tokStringChar:         {"#e6db74", false, false},
		tokOperator:           {"#f92672", false, false},
		tokPunctuation:        {"#f8f8f2", false, false},
	},
	"light": {
		tokText:               {"", false, false},
		tokError:              {"#a61717", false, false},
		tokComment:            {"#999988", false, true},
		tokCommentMultiline:   {"#999988", false, true},
		tokKeyword:            {"#000000", true, false},
		tokKeywordConstant:    {"#000000", true, false},
		tokKeywordDeclaration: {"#000000", true, false},
		tokKeywordNamespace:   {"#000000", true, false},
		tokKeywordType:        {"#445588", true, false},
		tokNameBuiltin:        {"#0086b3", false, false},
		tokNameFunction:       {"#990000", true, false},
		tokNameOther:          {"", false, false},
		tokNumber:             {"#009999", false, false},
		tokNumberBin:          {"#009999", false, false},
		tokNumberFloat:        {"#009999", false, false},
		tokNumberHex:          {"#009999", false, false},
		tokNumberInteger:      {"#009999", false, false},
		tokNumberOct:          {"#009999", false, false},
		tokString:             {"#dd1144", false, false},
		tokStringChar:         {"#dd1144", false, false},
		tokOperator:           {"#000000", true, false},
		tokPunctuation:        {"", false, false},
	},
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
