// Package markdown renders the course's prose and code with glamour, to a
// given width, and remembers what it rendered: glamour is far too slow to
// run on every frame, and the same text is drawn many times.
package markdown

import (
	"fmt"
	"reflect"
	"strings"
	"sync"

	"charm.land/glamour/v2"
	"charm.land/glamour/v2/ansi"
	glamourstyles "charm.land/glamour/v2/styles"
	xansi "github.com/charmbracelet/x/ansi"

	"github.com/conflictlab/conflictlab/ui/layout"
)

type key struct {
	style string
	width int
	text  string
}

var (
	mu        sync.Mutex
	cache     = map[key]string{}
	renderers = map[[2]interface{}]*glamour.TermRenderer{}
)

// cacheLimit bounds the cache: every width a window is resized through
// renders every text again, so an unbounded cache grows for as long as the
// learner drags the window's edge. A course's texts at a couple of widths
// fit well under it; past it the cache starts over (the caller holds mu).
const cacheLimit = 2048

func remember(k key, out string) {
	if len(cache) >= cacheLimit {
		clear(cache)
	}
	cache[k] = out
}

// Render renders Markdown to width columns in the named glamour style
// ("dark", "light" or "notty"). Document margins are removed (the panes
// draw their own), and so are the blank lines glamour puts around the
// document. If glamour fails the text is shown wrapped but unrendered,
// which is still readable.
func Render(text, style string, width int) string {
	if width < 4 {
		width = 4
	}
	k := key{style, width, text}
	mu.Lock()
	defer mu.Unlock()
	if out, ok := cache[k]; ok {
		return out
	}
	out, err := renderDoc(text, style, width)
	if err != nil {
		out = layout.Wrap(strings.TrimSpace(text), width)
	}
	out = layout.Width(out, width)
	remember(k, out)
	return out
}

// renderDoc renders a document segment by segment: code fences and
// prose by glamour, inline code kept whole (see protectCode), and lists
// here, each item wrapped like a paragraph at the width left by its
// marker with its lines hanging under the text.
func renderDoc(text, style string, width int) (string, error) {
	var parts []string
	for _, seg := range segments(text) {
		if seg.fence && goFence(seg.text) {
			// Go in the prose is drawn like the code pane draws it: a
			// line too long continues after a mark, its indent intact.
			parts = append(parts, code(fenceBody(seg.text), style, width))
			continue
		}
		if seg.items == nil {
			src := seg.text
			if !seg.fence {
				src = protectCode(src, width)
			}
			out, err := render(src, style, width)
			if err != nil {
				return "", err
			}
			if out != "" {
				parts = append(parts, restore(out))
			}
			continue
		}
		var lines []string
		for _, it := range seg.items {
			lead := xansi.StringWidth(it.marker)
			out, err := render(protectCode(it.text, width-lead), style, max(4, width-lead))
			if err != nil {
				return "", err
			}
			for j, l := range strings.Split(restore(out), "\n") {
				switch {
				case j == 0:
					l = it.marker + l
				case l != "":
					l = strings.Repeat(" ", lead) + l
				}
				lines = append(lines, l)
			}
		}
		parts = append(parts, strings.Join(lines, "\n"))
	}
	return strings.Join(parts, "\n\n"), nil
}

func render(text, style string, width int) (string, error) {
	rk := [2]interface{}{style, width}
	r, ok := renderers[rk]
	if !ok {
		cfg, err := config(style)
		if err != nil {
			return "", err
		}
		r, err = glamour.NewTermRenderer(glamour.WithStyles(cfg), glamour.WithWordWrap(width))
		if err != nil {
			return "", err
		}
		renderers[rk] = r
	}
	out, err := r.Render(text)
	if err != nil {
		return "", err
	}
	return trimRight(trimBlankEdges(out)), nil
}

// NoColor is the style name for terminals without colour: glamour's own
// "notty" style prints Markdown markers (**a**) literally, so instead the
// dark style is used with every colour removed, keeping bold and italic,
// and inline code is set off with backticks since it has no background.
const NoColor = "notty"

func config(style string) (ansi.StyleConfig, error) {
	name := style
	if style == NoColor {
		name = glamourstyles.DarkStyle
	}
	base, ok := glamourstyles.DefaultStyles[name]
	if !ok {
		return ansi.StyleConfig{}, fmt.Errorf("no glamour style %q", style)
	}
	cfg := *base
	if style == NoColor {
		dropColours(reflect.ValueOf(&cfg).Elem())
		cfg.Code.Prefix, cfg.Code.Suffix = "`", "`"
		cfg.CodeBlock.Chroma = nil
	}
	zero := uint(0)
	cfg.Document.Margin = &zero
	cfg.Document.BlockPrefix = ""
	cfg.Document.BlockSuffix = ""
	cfg.CodeBlock.Margin = &zero
	return cfg, nil
}

// dropColours clears every Color and BackgroundColor of a style config,
// however deep.
func dropColours(v reflect.Value) {
	switch v.Kind() {
	case reflect.Ptr:
		if !v.IsNil() {
			dropColours(v.Elem())
		}
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			f := v.Field(i)
			name := v.Type().Field(i).Name
			if (name == "Color" || name == "BackgroundColor") && f.Kind() == reflect.Ptr && f.CanSet() {
				f.Set(reflect.Zero(f.Type()))
				continue
			}
			if f.Kind() == reflect.Ptr && !f.IsNil() && f.CanSet() && f.Elem().Kind() == reflect.Struct {
				// Copy before changing: the pointee is shared with glamour's
				// own style table.
				cp := reflect.New(f.Elem().Type())
				cp.Elem().Set(f.Elem())
				f.Set(cp)
			}
			dropColours(f)
		}
	}
}

// trimBlankEdges drops the blank lines glamour puts before and after the
// document (its lines are padded with spaces, so "blank" is judged on the
// visible text).
func trimBlankEdges(s string) string {
	lines := strings.Split(s, "\n")
	for len(lines) > 0 && isBlank(lines[0]) {
		lines = lines[1:]
	}
	for len(lines) > 0 && isBlank(lines[len(lines)-1]) {
		lines = lines[:len(lines)-1]
	}
	return strings.Join(lines, "\n")
}

// trimRight cuts the spaces glamour pads every line with to the wrap
// width, so text can be indented or framed without overflowing.
func trimRight(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		plain := xansi.Strip(l)
		if t := strings.TrimRight(plain, " "); len(t) != len(plain) {
			lines[i] = xansi.Truncate(l, xansi.StringWidth(t), "")
		}
	}
	return strings.Join(lines, "\n")
}

func isBlank(l string) bool { return strings.TrimSpace(xansi.Strip(l)) == "" }

// cut returns the columns [from, to) of a styled line.
func cut(line string, from, to int) string { return xansi.Cut(line, from, to) }
