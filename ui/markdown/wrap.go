package markdown

import (
	"regexp"
	"strings"

	xansi "github.com/charmbracelet/x/ansi"
)

// Glamour (and prose, which draws what it drew) wraps a paragraph at
// spaces, so inline code with a space in it (`Apply failed with 1
// conflict`) could be split across lines; and it wraps a list item at
// its source line breaks and at every ".,;-+|", so an item reads as
// ragged lines and `metadata.resourceVersion` breaks at its dot. Before
// rendering, the item's lines are joined like a paragraph's, and the
// characters glamour would break at inside inline code are swapped for
// private-use runes of the same width, swapped back after. Code too long
// for a line is split at its own punctuation, the one place where a
// reader expects it to break.

// protect maps the characters glamour breaks at to stand-ins, one column
// wide like them, that no course text contains.
var protect = map[rune]rune{
	' ': '\uE000', ',': '\uE001', '.': '\uE002', ';': '\uE003',
	'-': '\uE004', '+': '\uE005', '|': '\uE006', '\n': '\uE000',
}

var unprotect = func() *strings.Replacer {
	var pairs []string
	for from, to := range protect {
		if from == '\n' {
			continue
		}
		pairs = append(pairs, string(to), string(from))
	}
	return strings.NewReplacer(pairs...)
}()

// listItem is the start of a list item: its indent and its marker.
var listItem = regexp.MustCompile(`^(\s*)([-*+]|\d+[.)])\s+\S`)

// fence opens or closes a fenced code block.
var fence = regexp.MustCompile("^\\s*(```|~~~)")

// segment is a piece of a document rendered on its own: a fenced code
// block or prose as prose renders them, or a list drawn here.
type segment struct {
	text  string
	fence bool
	items []item // a list
}

// goFence reports whether a fenced block is Go (or says no language,
// which in this course is Go).
func goFence(block string) bool {
	first, _, _ := strings.Cut(block, "\n")
	lang := strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(first), "`~"))
	return lang == "go" || lang == ""
}

// fenceBody is a fenced block without its fences.
func fenceBody(block string) string {
	lines := strings.Split(block, "\n")[1:]
	if n := len(lines); n > 0 && fence.MatchString(lines[n-1]) {
		lines = lines[:n-1]
	}
	return strings.Join(lines, "\n")
}

// item is a list item: its marker as drawn, its text, and its source
// line.
type item struct{ marker, text, src string }

// segments cuts a document into fenced code, prose and simple lists (one
// level, which is what lesson prose uses; a nested list is prose's).
func segments(text string) []segment {
	var out []segment
	var prose []string
	flush := func() {
		if len(prose) > 0 {
			out = append(out, splitLists(joinItems(prose))...)
			prose = nil
		}
	}
	var code []string
	inFence := false
	for _, l := range strings.Split(text, "\n") {
		switch {
		case fence.MatchString(l) && !inFence:
			flush()
			inFence = true
			code = []string{l}
		case fence.MatchString(l):
			inFence = false
			out = append(out, segment{text: strings.Join(append(code, l), "\n"), fence: true})
			code = nil
		case inFence:
			code = append(code, l)
		default:
			prose = append(prose, l)
		}
	}
	if inFence {
		out = append(out, segment{text: strings.Join(code, "\n"), fence: true})
	}
	flush()
	return out
}

// splitLists separates runs of list items from the prose around them.
func splitLists(lines []string) []segment {
	var out []segment
	var text []string
	var items []item
	nested := false
	flushText := func() {
		if strings.TrimSpace(strings.Join(text, "")) != "" {
			out = append(out, segment{text: strings.Join(text, "\n")})
		}
		text = nil
	}
	flushList := func() {
		if len(items) == 0 {
			return
		}
		if nested {
			// A nested list is left to prose, whole.
			var src []string
			for _, it := range items {
				src = append(src, it.src)
			}
			out = append(out, segment{text: strings.Join(src, "\n")})
		} else {
			out = append(out, segment{items: items})
		}
		items, nested = nil, false
	}
	for _, l := range lines {
		m := listItem.FindStringSubmatchIndex(l)
		if m == nil || m[3] > m[2] && len(items) == 0 {
			// Prose (an indented item with no list before it is code).
			flushList()
			text = append(text, l)
			continue
		}
		flushText()
		if m[3] > m[2] {
			nested = true
		}
		marker := "•"
		if mk := l[m[4]:m[5]]; !strings.ContainsAny(mk, "-*+") {
			marker = strings.TrimRight(mk, ".)") + "."
		}
		items = append(items, item{marker: marker + " ", text: strings.TrimSpace(l[m[5]:]), src: l})
	}
	flushList()
	flushText()
	return out
}

// joinItems joins the continuation lines of each list item to the item's
// first line, so the item is wrapped as a whole.
func joinItems(lines []string) []string {
	var out []string
	inItem := false
	for _, l := range lines {
		switch {
		case strings.TrimSpace(l) == "":
			inItem = false
			out = append(out, l)
		case listItem.MatchString(l):
			inItem = true
			out = append(out, l)
		case inItem && !strings.HasPrefix(strings.TrimSpace(l), "#") && !strings.HasPrefix(strings.TrimSpace(l), ">"):
			out[len(out)-1] += " " + strings.TrimSpace(l)
		default:
			out = append(out, l)
		}
	}
	return out
}

// codeSpan is inline code: a run of backticks, the code, the same run.
var codeSpan = regexp.MustCompile("(`+)([^`]|[^`][\\s\\S]*?[^`])(`+)")

// protectCode swaps the break characters inside each code span; a span
// wider than the line is cut into spans at its punctuation first.
func protectCode(s string, width int) string {
	return codeSpan.ReplaceAllStringFunc(s, func(span string) string {
		m := codeSpan.FindStringSubmatch(span)
		if len(m[1]) != len(m[3]) {
			return span
		}
		code := strings.ReplaceAll(m[2], "\n", " ")
		pieces := []string{code}
		if limit := width - 2; xansi.StringWidth(code) > limit {
			pieces = splitCode(code, limit)
		}
		for i, p := range pieces {
			pieces[i] = m[1] + strings.Map(func(r rune) rune {
				if to, ok := protect[r]; ok {
					return to
				}
				return r
			}, p) + m[3]
		}
		return strings.Join(pieces, " ")
	})
}

// splitCode cuts code into pieces of at most limit columns, after a
// ".,/(:" or a space where it can.
func splitCode(code string, limit int) []string {
	var pieces []string
	rs := []rune(code)
	for len(rs) > limit {
		at := limit
		for i := limit; i > 0; i-- {
			if strings.ContainsRune(".,/(: ", rs[i-1]) {
				at = i
				break
			}
		}
		pieces = append(pieces, strings.TrimRight(string(rs[:at]), " "))
		rs = []rune(strings.TrimLeft(string(rs[at:]), " "))
	}
	if len(rs) > 0 {
		pieces = append(pieces, string(rs))
	}
	return pieces
}

// restore undoes protectCode in rendered text.
func restore(s string) string { return unprotect.Replace(s) }
