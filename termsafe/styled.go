package termsafe

import (
	"strings"
	"unicode/utf8"
)

// Styled is Escape for a frame the program drew itself: the SGR sequences
// its styles emit (ESC [ parameters m: colour, bold, underline) are kept,
// and every other control character is escaped. It is the last line of
// defence for a full-screen view, whose untrusted text is escaped where it
// enters the view; whatever was missed there can still only change colours,
// never clear the screen, move the cursor, retitle the window or send the
// terminal a command.
func Styled(s string) string {
	if cleanStyled(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	for len(s) > 0 {
		if n := sgrLen(s); n > 0 {
			b.WriteString(s[:n])
			s = s[n:]
			continue
		}
		i := strings.IndexByte(s[1:], 0x1b) + 1
		if i == 0 {
			i = len(s)
		}
		b.WriteString(Escape(s[:i]))
		s = s[i:]
	}
	return b.String()
}

// sgrLen returns the length of the SGR sequence s starts with, or 0.
func sgrLen(s string) int {
	if len(s) < 3 || s[0] != 0x1b || s[1] != '[' {
		return 0
	}
	for i := 2; i < len(s); i++ {
		switch c := s[i]; {
		case c == 'm':
			return i + 1
		case c >= '0' && c <= '9', c == ';', c == ':':
		default:
			return 0
		}
	}
	return 0
}

// cleanStyled reports whether s, apart from its SGR sequences, needs no
// escaping (the common case, checked on every frame without allocating).
func cleanStyled(s string) bool {
	if !utf8.ValidString(s) {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] == 0x1b {
			n := sgrLen(s[i:])
			if n == 0 {
				return false
			}
			i += n - 1
			continue
		}
		if controlAt(s, i) {
			return false
		}
	}
	return true
}
