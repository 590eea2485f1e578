package sandbox

import (
	"strings"

	"github.com/conflictlab/conflictlab/ui/layout"
)

// hang wraps text to lines of at most w cells, the lines after the first
// indented by indent: nothing the sandbox says at 80 columns is cut.
func hang(text string, w, indent int) []string {
	if w <= 0 {
		return []string{text}
	}
	if layout.MaxWidth(text) <= w {
		return []string{text}
	}
	indent = min(indent, max(0, w-10))
	first := layout.Lines(layout.Wrap(text, w))
	out := []string{strings.TrimRight(first[0], " ")}
	rest := strings.TrimLeft(strings.Join(first[1:], " "), " ")
	if rest == "" {
		return out
	}
	pad := strings.Repeat(" ", indent)
	for _, l := range layout.Lines(layout.Wrap(rest, w-indent)) {
		out = append(out, pad+strings.TrimRight(l, " "))
	}
	return out
}
