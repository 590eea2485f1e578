package markdown

import (
	"io"

	"charm.land/lipgloss/v2"
	xansi "github.com/charmbracelet/x/ansi"
)

// The prose styles are glamour's "dark" and "light" styles (charm.land/
// glamour/v2 v2.0.1, styles/styles.go), cut down to the elements drawn
// here, with the changes this package always made to them: no document
// margin and no blank lines around the document. NoColor is the dark
// style with every colour removed and inline code between backticks.
// The cascade rules and renderText below are glamour's own (ansi/style.go,
// ansi/baseelement.go), so that the output is byte for byte what glamour
// drew (TestProseMatchesGlamour).

// primitive is glamour's StylePrimitive, without the fields no style here
// sets (upper, lower, title, faint, conceal, inverse, blink).
type primitive struct {
	BlockPrefix, BlockSuffix string
	Prefix, Suffix           string
	Color, BackgroundColor   *string
	Underline, Bold, Italic  *bool
	CrossedOut               *bool
	Format                   string
}

// block is glamour's StyleBlock.
type block struct {
	primitive
	Indent      *uint
	IndentToken *string
	Margin      *uint
}

// proseStyle is the part of glamour's StyleConfig this package draws.
type proseStyle struct {
	Document, BlockQuote, Paragraph     block
	Heading, H1, H2, H3, H4, H5, H6     block
	Code                                block
	ListLevelIndent                     uint
	Text, Emph, Strong, Strikethrough   primitive
	HorizontalRule, Item, Enumeration   primitive
	Link, LinkText, HTMLBlock, HTMLSpan primitive
}

func ptr[T any](v T) *T { return &v }

// proseStyles are the styles by name.
var proseStyles = map[string]*proseStyle{
	"dark":  darkStyle(),
	"light": lightStyle(),
	NoColor: noColorStyle(),
}

func darkStyle() *proseStyle {
	return &proseStyle{
		Document:        block{primitive: primitive{Color: ptr("252")}, Margin: ptr(uint(0))},
		BlockQuote:      block{Indent: ptr(uint(1)), IndentToken: ptr("│ ")},
		ListLevelIndent: 2,
		Heading:         block{primitive: primitive{BlockSuffix: "\n", Color: ptr("39"), Bold: ptr(true)}},
		H1:              block{primitive: primitive{Prefix: " ", Suffix: " ", Color: ptr("228"), BackgroundColor: ptr("63"), Bold: ptr(true)}},
		H2:              block{primitive: primitive{Prefix: "## "}},
		H3:              block{primitive: primitive{Prefix: "### "}},
		H4:              block{primitive: primitive{Prefix: "#### "}},
		H5:              block{primitive: primitive{Prefix: "##### "}},
		H6:              block{primitive: primitive{Prefix: "###### ", Color: ptr("35"), Bold: ptr(false)}},
		Strikethrough:   primitive{CrossedOut: ptr(true)},
		Emph:            primitive{Italic: ptr(true)},
		Strong:          primitive{Bold: ptr(true)},
		HorizontalRule:  primitive{Color: ptr("240"), Format: "\n--------\n"},
		Item:            primitive{BlockPrefix: "• "},
		Enumeration:     primitive{BlockPrefix: ". "},
		Link:            primitive{Color: ptr("30"), Underline: ptr(true)},
		LinkText:        primitive{Color: ptr("35"), Bold: ptr(true)},
		// A non-breaking space on each side, so that a line is never
		// broken between the code and its padding.
		Code: block{primitive: primitive{Prefix: "\u00a0", Suffix: "\u00a0", Color: ptr("203"), BackgroundColor: ptr("236")}},
	}
}

func lightStyle() *proseStyle {
	s := darkStyle()
	s.Document.Color = ptr("234")
	s.Heading.Color = ptr("27")
	s.H6 = block{primitive: primitive{Prefix: "###### ", Bold: ptr(false)}}
	s.HorizontalRule.Color = ptr("249")
	s.Link.Color = ptr("36")
	s.LinkText.Color = ptr("29")
	s.Code.BackgroundColor = ptr("254")
	return s
}

// noColorStyle is the dark style with every colour removed, keeping bold
// and italic; inline code, which has no background here, is set off with
// backticks.
func noColorStyle() *proseStyle {
	s := darkStyle()
	for _, b := range []*block{&s.Document, &s.BlockQuote, &s.Paragraph, &s.Heading, &s.H1, &s.H2, &s.H3, &s.H4, &s.H5, &s.H6, &s.Code} {
		b.Color, b.BackgroundColor = nil, nil
	}
	for _, p := range []*primitive{&s.Text, &s.Emph, &s.Strong, &s.Strikethrough, &s.HorizontalRule, &s.Item, &s.Enumeration, &s.Link, &s.LinkText, &s.HTMLBlock, &s.HTMLSpan} {
		p.Color, p.BackgroundColor = nil, nil
	}
	s.Code.Prefix, s.Code.Suffix = "`", "`"
	return s
}

// cascadePrimitive is glamour's cascadeStylePrimitive.
func cascadePrimitive(parent, child primitive, toBlock bool) primitive {
	s := child
	s.Color = parent.Color
	s.BackgroundColor = parent.BackgroundColor
	s.Underline = parent.Underline
	s.Bold = parent.Bold
	s.Italic = parent.Italic
	s.CrossedOut = parent.CrossedOut
	if toBlock {
		s.BlockPrefix = parent.BlockPrefix
		s.BlockSuffix = parent.BlockSuffix
		s.Prefix = parent.Prefix
		s.Suffix = parent.Suffix
	}
	if child.Color != nil {
		s.Color = child.Color
	}
	if child.BackgroundColor != nil {
		s.BackgroundColor = child.BackgroundColor
	}
	if child.Underline != nil {
		s.Underline = child.Underline
	}
	if child.Bold != nil {
		s.Bold = child.Bold
	}
	if child.Italic != nil {
		s.Italic = child.Italic
	}
	if child.CrossedOut != nil {
		s.CrossedOut = child.CrossedOut
	}
	if child.BlockPrefix != "" {
		s.BlockPrefix = child.BlockPrefix
	}
	if child.BlockSuffix != "" {
		s.BlockSuffix = child.BlockSuffix
	}
	if child.Prefix != "" {
		s.Prefix = child.Prefix
	}
	if child.Suffix != "" {
		s.Suffix = child.Suffix
	}
	if child.Format != "" {
		s.Format = child.Format
	}
	return s
}

// cascadePrimitives is glamour's cascadeStylePrimitives.
func cascadePrimitives(ps ...primitive) primitive {
	var r primitive
	for _, p := range ps {
		r = cascadePrimitive(r, p, true)
	}
	return r
}

// cascadeBlock is glamour's cascadeStyle.
func cascadeBlock(parent, child block, toBlock bool) block {
	s := child
	s.primitive = cascadePrimitive(parent.primitive, child.primitive, toBlock)
	if toBlock {
		s.Indent = parent.Indent
		s.Margin = parent.Margin
	}
	if child.Indent != nil {
		s.Indent = child.Indent
	}
	return s
}

// cascadeBlocks is glamour's cascadeStyles.
func cascadeBlocks(bs ...block) block {
	var r block
	for _, b := range bs {
		r = cascadeBlock(r, b, true)
	}
	return r
}

// renderText writes s in the style (glamour's renderText: an ansi.Style,
// not a lipgloss one, whose joins differ).
func renderText(w io.Writer, rules primitive, s string) {
	if len(s) == 0 {
		return
	}
	style := xansi.Style{}
	if rules.Color != nil {
		style = style.ForegroundColor(lipgloss.Color(*rules.Color))
	}
	if rules.BackgroundColor != nil {
		style = style.BackgroundColor(lipgloss.Color(*rules.BackgroundColor))
	}
	if rules.Underline != nil && *rules.Underline {
		style = style.Underline(true)
	}
	if rules.Bold != nil && *rules.Bold {
		style = style.Bold()
	}
	if rules.Italic != nil && *rules.Italic {
		style = style.Italic(true)
	}
	if rules.CrossedOut != nil && *rules.CrossedOut {
		style = style.Strikethrough(true)
	}
	_, _ = io.WriteString(w, style.Styled(s))
}
