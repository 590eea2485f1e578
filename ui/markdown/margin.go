package markdown

import (
	"errors"
	"io"
	"strings"
	"unicode/utf8"

	"charm.land/lipgloss/v2"
	xansi "github.com/charmbracelet/x/ansi"
)

// The writers below are glamour's (ansi/margin.go): every block is written
// through them, and the bytes they add (padding to the width, the pen reset
// and restored around an indent) are part of what the panes have always
// drawn, so they are kept as they are.

// marginWriter indents and pads what is written to it.
type marginWriter struct {
	w  io.Writer
	iw *indentWriter
}

func newMarginWriter(width int, parent primitive, w io.Writer, rules block) *marginWriter {
	var indentation, margin uint
	if rules.Indent != nil {
		indentation = *rules.Indent
	}
	if rules.Margin != nil {
		margin = *rules.Margin
	}
	pw := &paddingWriter{
		padding: width,
		pad:     func() { renderText(w, rules.primitive, " ") },
		w:       lipgloss.NewWrapWriter(w),
	}
	ic := " "
	if rules.IndentToken != nil {
		ic = *rules.IndentToken
	}
	iw := &indentWriter{
		indent:     int(indentation + margin),
		indentFunc: func(_ io.Writer) { renderText(w, parent, ic) },
		pw:         lipgloss.NewWrapWriter(pw),
		w:          pw,
	}
	return &marginWriter{w: lipgloss.NewWrapWriter(w), iw: iw}
}

func (w *marginWriter) Write(b []byte) (int, error) { return w.iw.Write(b) }

func (w *marginWriter) Close() error {
	var werr error
	if c, ok := w.w.(io.WriteCloser); ok {
		werr = c.Close()
	}
	return errors.Join(werr, w.iw.Close())
}

// paddingWriter pads every line to the width with styled spaces.
type paddingWriter struct {
	padding int
	pad     func()
	w       *lipgloss.WrapWriter
	cache   strings.Builder
}

func (w *paddingWriter) Write(p []byte) (int, error) {
	for i := 0; i < len(p); {
		r, size := utf8.DecodeRune(p[i:])
		if r == '\n' {
			linew := xansi.StringWidth(w.cache.String())
			if w.padding > 0 && linew < w.padding {
				for n := 0; n < w.padding-linew; n++ {
					w.pad()
				}
			}
			w.cache.Reset()
		} else {
			w.cache.Write(p[i : i+size])
		}
		_, _ = w.w.Write(p[i : i+size])
		i += size
	}
	return len(p), nil
}

func (w *paddingWriter) Close() error { return w.w.Close() }

// indentWriter starts every line with the indent, the pen reset around it.
type indentWriter struct {
	indent     int
	indentFunc func(w io.Writer)
	w          io.Writer
	pw         *lipgloss.WrapWriter
	skipIndent bool
}

func (w *indentWriter) resetPen() {
	if style := w.pw.Style(); !style.IsZero() {
		_, _ = io.WriteString(w.w, xansi.ResetStyle)
	}
	if link := w.pw.Link(); !link.IsZero() {
		_, _ = io.WriteString(w.w, xansi.ResetHyperlink())
	}
}

func (w *indentWriter) restorePen() {
	if style := w.pw.Style(); !style.IsZero() {
		_, _ = io.WriteString(w.w, style.String())
	}
	if link := w.pw.Link(); !link.IsZero() {
		_, _ = io.WriteString(w.w, xansi.SetHyperlink(link.URL, link.Params))
	}
}

func (w *indentWriter) Write(p []byte) (int, error) {
	for i := 0; i < len(p); {
		r, size := utf8.DecodeRune(p[i:])
		if !w.skipIndent {
			w.resetPen()
			for j := 0; j < w.indent; j++ {
				w.indentFunc(w.pw)
			}
			w.skipIndent = true
			w.restorePen()
		}
		if r == '\n' {
			w.skipIndent = false
		}
		_, _ = w.pw.Write(p[i : i+size])
		i += size
	}
	return len(p), nil
}

func (w *indentWriter) Close() error {
	werr := w.pw.Close()
	if c, ok := w.w.(io.WriteCloser); ok {
		werr = errors.Join(werr, c.Close())
	}
	return werr
}
