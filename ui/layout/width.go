package layout

import (
	"unicode/utf8"

	"charm.land/lipgloss/v2"
)

// width is lipgloss.Width of one line, with a fast path: grapheme
// segmentation is most of the cost of drawing a frame, and a line made
// only of printable ASCII, SGR/CSI sequences and the narrow symbols the
// screens use (─ │ ✓ ✗ → ↓ ▶ … — ·) needs none: each such rune is a
// cluster of its own, one column wide. Anything else (wide or combining
// characters, emoji, other escapes, control bytes) takes lipgloss's way.
func width(s string) int {
	n := 0
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c >= 0x20 && c < 0x7f:
			n++
			i++
		case c == 0x1b:
			// A CSI sequence: ESC [ parameters intermediates final.
			j := i + 2
			if j > len(s) || s[i+1] != '[' {
				return slowWidth(s)
			}
			for j < len(s) && s[j] >= 0x30 && s[j] <= 0x3f {
				j++
			}
			for j < len(s) && s[j] >= 0x20 && s[j] <= 0x2f {
				j++
			}
			if j == len(s) || s[j] < 0x40 || s[j] > 0x7e {
				return slowWidth(s)
			}
			i = j + 1
		case c >= 0x80:
			r, size := utf8.DecodeRuneInString(s[i:])
			if !narrow(r) {
				return slowWidth(s)
			}
			n++
			i += size
		default:
			return slowWidth(s)
		}
	}
	return n
}

// slowWidth is the exact measure (a variable so that tests can count
// the lines that need it).
var slowWidth = lipgloss.Width

// narrowRunes are ranges of runes that x/ansi measures as one column and
// segments as a grapheme cluster of their own, whatever ASCII or other
// rune of these ranges stands beside them (TestNarrowRunes checks every
// one): Latin-1 and Latin Extended, Greek, general punctuation, arrows,
// technical symbols, box drawing, shapes, symbols and dingbats, without
// the wide (emoji-presentation) ones.
var narrowRunes = [][2]rune{
	{0x00A0, 0x00AC}, {0x00AE, 0x024F}, {0x0370, 0x03FF}, {0x2010, 0x2027}, {0x202F, 0x205F},
	{0x2070, 0x209F}, {0x20A0, 0x20BF}, {0x2100, 0x2319}, {0x231C, 0x2328}, {0x232B, 0x23E8},
	{0x23ED, 0x23EF}, {0x23F1, 0x23F2}, {0x23F4, 0x23FF}, {0x2500, 0x25FC}, {0x25FF, 0x2613},
	{0x2616, 0x262F}, {0x2638, 0x2647}, {0x2654, 0x267E}, {0x2680, 0x2689}, {0x2690, 0x2692},
	{0x2694, 0x26A0}, {0x26A2, 0x26A9}, {0x26AC, 0x26BC}, {0x26BF, 0x26C3}, {0x26C6, 0x26CD},
	{0x26CF, 0x26D3}, {0x26D5, 0x26E9}, {0x26EB, 0x26F1}, {0x26F4, 0x26F4}, {0x26F6, 0x26F9},
	{0x26FB, 0x26FC}, {0x26FE, 0x2704}, {0x2706, 0x2709}, {0x270C, 0x2727}, {0x2729, 0x274B},
	{0x274D, 0x274D}, {0x274F, 0x2752}, {0x2756, 0x2756}, {0x2758, 0x2794}, {0x2798, 0x27AF},
	{0x27B1, 0x27BE},
}

func narrow(r rune) bool {
	lo, hi := 0, len(narrowRunes)
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		if narrowRunes[mid][1] < r {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	return lo < len(narrowRunes) && narrowRunes[lo][0] <= r
}
