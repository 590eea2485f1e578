// Package termsafe holds the one rule for text that came from outside the
// program (scenario names and labels, lesson packs, server messages,
// imported progress) before it reaches a terminal: no control character
// gets through, and no invisible one. A terminal obeys ESC, CSI (U+009B)
// and friends wherever they appear, so a name like "\x1b]0;title\a" or
// "\x1b[2J" would retitle the window or clear the screen; escaped, it is
// shown as the text it is. Bidirectional controls (U+202E RIGHT-TO-LEFT
// OVERRIDE, U+200F RIGHT-TO-LEFT MARK, the isolates) and invisible format
// characters (zero-width spaces and joiners, the byte-order mark, soft
// hyphens, tags) are not obeyed but make text read as something it is not
// — "cm-a" drawn as "a-mc", two names that look alike and differ — so
// they are escaped too.
package termsafe

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Escape returns s with every control character a terminal could act on
// written as a visible \uXXXX escape: the C0 controls except newline and
// tab (which only move the cursor to where the text continues), DEL and the
// C1 controls U+0080–U+009F; and so are the format characters that change
// how text reads without being seen (Unicode's category Cf: bidirectional
// controls, zero-width characters, U+FEFF, U+00AD, tags; the line and
// paragraph separators; the Hangul fillers, blank letters). Invalid
// UTF-8 bytes become U+FFFD, so a lone
// 0x9b byte (CSI to an 8-bit terminal) cannot slip through either. The
// \uXXXX form is also a valid JSON string escape that decodes back to the
// original rune, so escaping encoded JSON keeps it valid and lossless.
func Escape(s string) string {
	if Clean(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		i += n
		writeRune(&b, r, n)
	}
	return b.String()
}

// Clean reports whether s needs no escaping. It runs on every frame the
// tutorial draws, so it works on bytes: in valid UTF-8 a C1 control is
// the two bytes C2 80–C2 9F, and no other byte sequence holds a control.
func Clean(s string) bool {
	if !utf8.ValidString(s) {
		return false
	}
	for i := 0; i < len(s); i++ {
		if controlAt(s, i) {
			return false
		}
	}
	return true
}

// controlAt reports whether a character Escape rewrites starts at byte i
// of the valid UTF-8 string s. ASCII and the box-drawing and block runes
// every frame is made of are told apart from the first two bytes; only a
// rune that could be a format character is decoded.
func controlAt(s string, i int) bool {
	switch c := s[i]; {
	case c < 0x20:
		return c != '\n' && c != '\t'
	case c == 0x7f:
		return true
	case c < 0xc2:
		return false // the rest of ASCII, or inside a rune
	case c == 0xc2:
		return i+1 < len(s) && (s[i+1] <= 0x9f || s[i+1] == 0xad)
	case c == 0xe2:
		// U+2000–U+207F holds the zero-width and bidirectional
		// characters; U+2080 onwards (arrows, box drawing, blocks) none.
		if i+1 < len(s) && s[i+1] > 0x81 {
			return false
		}
	case c < 0xd8 || (c >= 0xe4 && c <= 0xed):
		// U+00C0–U+05FF, and the CJK and Hangul syllables: no format
		// characters.
		return false
	}
	r, _ := utf8.DecodeRuneInString(s[i:])
	return invisible(r)
}

// isControl reports whether r is a character that Escape rewrites.
func isControl(r rune) bool {
	switch {
	case r == '\n' || r == '\t':
		return false
	case r < 0x20, r == 0x7f:
		return true
	case r >= 0x80 && r <= 0x9f:
		return true
	}
	return invisible(r)
}

// invisible reports whether r changes how text reads without being seen.
func invisible(r rune) bool {
	switch r {
	case 0x2028, 0x2029, // line and paragraph separators
		0x115f, 0x1160, 0x3164, 0xffa0: // Hangul fillers: blank letters
		return true
	}
	return unicode.Is(unicode.Cf, r)
}

// writeRune writes r (decoded from n bytes) in its safe form.
func writeRune(b *strings.Builder, r rune, n int) {
	switch {
	case r == utf8.RuneError && n == 1:
		b.WriteRune(utf8.RuneError)
	case isControl(r):
		fmt.Fprintf(b, `\u%04x`, r)
	default:
		b.WriteRune(r)
	}
}
