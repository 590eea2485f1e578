package markdown

import (
	"bytes"
	"html"
	"io"
	"strconv"
	"strings"
	"sync"

	"charm.land/lipgloss/v2"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// prose renders Markdown the way glamour (charm.land/glamour/v2 v2.0.1)
// renders it, for the elements lesson prose is written with: paragraphs,
// emphasis, inline code — and, drawn the same way, headings, block quotes,
// lists and rules. The document is parsed by goldmark (glamour's parser;
// unlike glamour, without the GFM extensions, whose tables, task lists and
// strikethrough the course does not use) and drawn by a port of glamour's
// ANSI renderer for those elements. glamour itself is not linked: it
// brings chroma's lexers and styles and bluemonday, whose package
// initialisation alone cost the first frame ~45 ms.
//
// Code fences never get here (renderDoc draws them), nor do simple
// lists. TestProseMatchesGlamour holds every text of the built-in course
// and quiz, in every style, at several widths, to glamour's bytes.
func prose(src, style string, width int) (string, error) {
	cfg, ok := proseStyles[style]
	if !ok {
		cfg = proseStyles[NoColor]
	}
	source := []byte(src)
	doc := mdParser().Parse(text.NewReader(source))
	r := &proseRenderer{cfg: cfg, width: width, source: source}
	var out bytes.Buffer
	r.walk(&out, doc)
	return trimRight(trimBlankEdges(out.String())), nil
}

// mdParser is goldmark's CommonMark parser, made at the first Render.
// goldmark's parser is safe for concurrent use (it sets itself up once,
// and each Parse has its own context).
var mdParser = sync.OnceValue(func() parser.Parser {
	return parser.NewParser(parser.WithBlockParsers(parser.DefaultBlockParsers()...),
		parser.WithInlineParsers(append(parser.DefaultInlineParsers(), util.Prioritized(textBreaks{}, 999))...),
		parser.WithParagraphTransformers(parser.DefaultParagraphTransformers()...))
})

// textBreaks stands in for GFM's linkify, which glamour's parser has: at
// each of its trigger characters goldmark ends the run of text, so a line
// is drawn as several runs, each styled on its own. This parser finds no
// links; it only ends the runs where linkify would, so the bytes are
// glamour's (a bare URL is drawn as text, not as a link).
type textBreaks struct{}

func (textBreaks) Trigger() []byte { return []byte{' ', '*', '_', '~', '('} }

func (textBreaks) Parse(ast.Node, text.Reader, parser.Context) ast.Node { return nil }

// stacked is glamour's BlockElement on its block stack.
type stacked struct {
	buf   *bytes.Buffer
	style block
}

type proseRenderer struct {
	cfg    *proseStyle
	width  int
	source []byte
	stack  []stacked
}

func (r *proseRenderer) current() stacked {
	if len(r.stack) == 0 {
		return stacked{buf: &bytes.Buffer{}}
	}
	return r.stack[len(r.stack)-1]
}

func (r *proseRenderer) parent() stacked {
	if len(r.stack) < 2 {
		return stacked{buf: &bytes.Buffer{}}
	}
	return r.stack[len(r.stack)-2]
}

func (r *proseRenderer) push(s stacked) { r.stack = append(r.stack, s) }
func (r *proseRenderer) pop()           { r.stack = r.stack[:len(r.stack)-1] }

// blockWidth is the width left inside the stacked blocks' indents and
// margins (glamour's BlockStack.Width).
func (r *proseRenderer) blockWidth() int {
	var indent, margin uint
	for _, s := range r.stack {
		if s.style.Indent != nil {
			indent += *s.style.Indent
		}
		if s.style.Margin != nil {
			margin += *s.style.Margin
		}
	}
	if indent+margin*2 > uint(r.width) {
		return 0
	}
	return r.width - int(indent) - int(margin)*2
}

// with is glamour's BlockStack.With.
func (r *proseRenderer) with(child primitive) primitive {
	return cascadeBlock(r.current().style, block{primitive: child}, false).primitive
}

// walk renders a node and its children, writing where glamour's
// renderNode writes: into the enclosing block's buffer, or w for the
// document itself.
func (r *proseRenderer) walk(w io.Writer, n ast.Node) {
	into := func() io.Writer {
		if len(r.stack) > 0 {
			return r.current().buf
		}
		return w
	}
	switch n.Kind() {
	case ast.KindDocument:
		r.openBlock(into(), r.cfg.Document, "")
		r.children(w, n)
		r.closeBlock(w, false)
	case ast.KindParagraph, ast.KindHeading:
		if n.Kind() == ast.KindParagraph && n.Parent() != nil && n.Parent().Kind() == ast.KindListItem {
			r.children(w, n)
			return
		}
		r.openFlow(into(), n)
		r.children(w, n)
		r.closeFlow(r.parent().buf, n.Kind() == ast.KindParagraph)
	case ast.KindBlockquote:
		r.openBlock(into(), cascadeBlock(r.current().style, r.cfg.BlockQuote, false), "\n")
		r.children(w, n)
		r.closeBlock(r.parent().buf, false)
	case ast.KindList:
		s := block{}
		var zero uint
		s.Indent = &zero
		for p := n.Parent(); p != nil; p = p.Parent() {
			if p.Kind() == ast.KindList {
				s.Indent = &r.cfg.ListLevelIndent
				break
			}
		}
		r.openBlock(into(), cascadeBlock(r.current().style, s, false), "\n")
		r.children(w, n)
		r.closeBlock(r.parent().buf, true)
	case ast.KindListItem:
		list := n.Parent().(*ast.List)
		num := 1
		for p := n.PreviousSibling(); p != nil && p.Kind() == ast.KindListItem; p = p.PreviousSibling() {
			num++
		}
		if list.IsOrdered() {
			if list.Start != 1 {
				num += list.Start - 1
			}
			r.base(into(), r.cfg.Enumeration, strconv.Itoa(num), "")
		} else {
			r.base(into(), r.cfg.Item, "", "")
		}
		r.children(w, n)
		if !(n.LastChild() != nil && n.LastChild().Kind() == ast.KindList) && n.NextSibling() != nil {
			_, _ = io.WriteString(r.current().buf, "\n")
		}
	case ast.KindTextBlock:
		r.children(w, n)
	case ast.KindThematicBreak:
		r.base(into(), r.cfg.HorizontalRule, "", "")
	case ast.KindCodeBlock, ast.KindFencedCodeBlock, ast.KindHTMLBlock:
		// Code fences are drawn by renderDoc; an indented block or HTML
		// is shown as it is written.
		var b strings.Builder
		for i := 0; i < n.Lines().Len(); i++ {
			seg := n.Lines().At(i)
			b.Write(seg.Value(r.source))
		}
		out := into()
		_, _ = io.WriteString(out, "\n")
		r.base(out, r.cfg.HTMLBlock, "", b.String())
	default:
		r.inline(into(), n, nil)
	}
}

func (r *proseRenderer) children(w io.Writer, n ast.Node) {
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		r.walk(w, c)
	}
}

// openBlock and closeBlock are glamour's BlockElement (the document, a
// quote, a list: Margin set); entering is written before it.
func (r *proseRenderer) openBlock(w io.Writer, style block, entering string) {
	_, _ = io.WriteString(w, entering)
	r.push(stacked{buf: &bytes.Buffer{}, style: style})
	renderText(w, r.parent().style.primitive, style.BlockPrefix)
	renderText(r.current().buf, r.current().style.primitive, style.Prefix)
}

func (r *proseRenderer) closeBlock(w io.Writer, newline bool) {
	cur := r.current()
	s := lipgloss.Wrap(cur.buf.String(), r.blockWidth(), " ,.;-+|")
	mw := newMarginWriter(r.blockWidth(), r.parent().style.primitive, w, cur.style)
	_, _ = io.WriteString(mw, s)
	if newline {
		_, _ = io.WriteString(mw, "\n")
	}
	renderText(w, cur.style.primitive, cur.style.Suffix)
	renderText(w, r.parent().style.primitive, cur.style.BlockSuffix)
	r.pop()
	_ = mw.Close()
}

// openFlow and closeFlow are glamour's ParagraphElement and
// HeadingElement: text wrapped at spaces only.
func (r *proseRenderer) openFlow(w io.Writer, n ast.Node) {
	first := n.PreviousSibling() == nil
	rules := r.cfg.Paragraph
	if h, ok := n.(*ast.Heading); ok {
		rules = cascadeBlocks(r.cfg.Heading, [...]block{r.cfg.H1, r.cfg.H2, r.cfg.H3, r.cfg.H4, r.cfg.H5, r.cfg.H6}[min(max(h.Level, 1), 6)-1])
		if !first {
			renderText(w, r.current().style.primitive, "\n")
		}
	} else if !first {
		_, _ = io.WriteString(w, "\n")
	}
	r.push(stacked{buf: &bytes.Buffer{}, style: cascadeBlock(r.current().style, rules, false)})
	renderText(w, r.parent().style.primitive, rules.BlockPrefix)
	renderText(r.current().buf, r.current().style.primitive, rules.Prefix)
}

func (r *proseRenderer) closeFlow(w io.Writer, paragraph bool) {
	cur := r.current()
	mw := newMarginWriter(r.blockWidth(), r.parent().style.primitive, w, cur.style)
	blk := cur.buf.String()
	switch {
	case !paragraph:
		_, _ = io.WriteString(mw, lipgloss.Wrap(blk, r.blockWidth(), ""))
	case len(strings.TrimSpace(blk)) > 0:
		blk = strings.ReplaceAll(blk, "\n", " ")
		_, _ = io.WriteString(mw, lipgloss.Wrap(blk, r.blockWidth(), ""))
		_, _ = io.WriteString(mw, "\n")
	}
	renderText(w, cur.style.primitive, cur.style.Suffix)
	renderText(w, r.parent().style.primitive, cur.style.BlockSuffix)
	r.pop()
	_ = mw.Close()
}

// inline renders a span element (glamour's Text, Emphasis, CodeSpan and
// link elements). override is the style an enclosing emphasis imposes
// (glamour's StyleOverrideRender), nil outside one.
func (r *proseRenderer) inline(w io.Writer, n ast.Node, override *primitive) {
	switch n := n.(type) {
	case *ast.Text:
		s := string(n.Segment.Value(r.source))
		if n.HardLineBreak() || n.SoftLineBreak() {
			s += "\n"
		}
		r.text(w, r.cfg.Text, html.UnescapeString(s), override)
	case *ast.String:
		r.text(w, r.cfg.Text, html.UnescapeString(string(n.Value)), override)
	case *ast.Emphasis:
		style := r.cfg.Emph
		if n.Level > 1 {
			style = r.cfg.Strong
		}
		if override != nil {
			style = cascadePrimitives(style, *override)
		}
		for c := n.FirstChild(); c != nil; c = c.NextSibling() {
			r.inline(w, c, &style)
		}
	case *ast.CodeSpan:
		// Never restyled by an enclosing emphasis, as in glamour.
		style := cascadeBlock(r.current().style, r.cfg.Code, false).primitive
		//lint:ignore SA1019 glamour reads a code span this way, and the output must stay byte-identical to it
		renderText(w, style, style.Prefix+html.UnescapeString(string(n.Text(r.source)))+style.Suffix)
	case *ast.Link:
		r.link(w, n, string(n.Destination), override)
	case *ast.AutoLink:
		r.text(w, r.cfg.Link, string(n.URL(r.source)), override)
	case *ast.Image:
		r.text(w, r.cfg.Link, string(n.Destination), override)
	case *ast.RawHTML:
		var b strings.Builder
		for i := 0; i < n.Segments.Len(); i++ {
			seg := n.Segments.At(i)
			b.Write(seg.Value(r.source))
		}
		r.text(w, r.cfg.HTMLSpan, b.String(), override)
	default:
		for c := n.FirstChild(); c != nil; c = c.NextSibling() {
			r.inline(w, c, override)
		}
	}
}

// link draws a link's text, then its address (without glamour's OSC 8
// hyperlink: a lesson pack's links are shown, never made live).
func (r *proseRenderer) link(w io.Writer, n ast.Node, dest string, override *primitive) {
	st := r.cfg.LinkText
	if override != nil {
		st = cascadePrimitives(st, *override)
	}
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		r.inline(w, c, &st)
	}
	if dest != "" && !strings.HasPrefix(dest, "#") {
		r.baseWith(w, r.cfg.Link, " ", dest, override)
	}
}

// text is glamour's BaseElement for a run of text.
func (r *proseRenderer) text(w io.Writer, style primitive, s string, override *primitive) {
	r.baseWith(w, style, "", s, override)
}

// base is glamour's BaseElement.Render.
func (r *proseRenderer) base(w io.Writer, style primitive, prefix, token string) {
	r.baseWith(w, style, prefix, token, nil)
}

// baseWith is glamour's BaseElement: Render, or StyleOverrideRender when
// override is set.
func (r *proseRenderer) baseWith(w io.Writer, style primitive, prefix, token string, override *primitive) {
	st1, st2 := r.current().style.primitive, r.with(style)
	if override != nil {
		st1 = cascadePrimitives(st1, *override)
		st2 = cascadePrimitives(st2, *override)
	}
	renderText(w, st1, prefix)
	renderText(w, st1, st2.BlockPrefix)
	renderText(w, st2, st2.Prefix)
	s := token
	if st2.Format != "" {
		s = strings.ReplaceAll(st2.Format, "{{.text}}", token)
	}
	renderText(w, st2, escapeReplacer.Replace(s))
	renderText(w, st2, st2.Suffix)
	renderText(w, st1, st2.BlockSuffix)
}

// escapeReplacer undoes Markdown's backslash escapes (glamour's).
var escapeReplacer = strings.NewReplacer(
	"\\\\", "\\", "\\`", "`", "\\*", "*", "\\_", "_", "\\{", "{", "\\}", "}",
	"\\[", "[", "\\]", "]", "\\<", "<", "\\>", ">", "\\(", "(", "\\)", ")",
	"\\#", "#", "\\+", "+", "\\-", "-", "\\.", ".", "\\!", "!", "\\|", "|",
)
