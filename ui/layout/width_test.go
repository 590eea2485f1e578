package layout

import (
	"math/rand/v2"
	"strings"
	"testing"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

// TestNarrowRunes checks the fast path's table against x/ansi: every rune
// in it is one column and a grapheme cluster of its own next to ASCII and
// next to itself.
func TestNarrowRunes(t *testing.T) {
	for _, rg := range narrowRunes {
		for r := rg[0]; r <= rg[1]; r++ {
			s := string(r)
			if w := ansi.StringWidth(s); w != 1 {
				t.Fatalf("%U is %d wide", r, w)
			}
			for _, pair := range [][2]string{{s + "x", s}, {"x" + s, "x"}, {s + s, s}, {s + "\u2500", s}} {
				if c, _ := ansi.FirstGraphemeCluster(pair[0], ansi.GraphemeWidth); c != pair[1] {
					t.Fatalf("%U joins its neighbour in %q: first cluster %q", r, pair[0], c)
				}
			}
		}
	}
}

// TestWidthAgreesWithLipgloss measures random lines mixing what the fast
// path takes with what it must not (wide, combining, emoji, escapes that
// are not CSI, control bytes).
func TestWidthAgreesWithLipgloss(t *testing.T) {
	for _, s := range []string{"plain ascii", "tab\there", "\x1b[1mbold\x1b[0m", "→ arrow", "漢字", "",
		"✓\ufe0f", "e\u0301", "\x1b]8;;http://x\x07link\x1b]8;;\x07", "\x1b[", "a\x1b[1", "⚠ ok", "▶ 12 ─── ✗ 409"} {
		if width(s) != lipgloss.Width(s) {
			t.Errorf("width(%q) = %d, lipgloss says %d", s, width(s), lipgloss.Width(s))
		}
	}
	parts := []string{"a", "Z", " ", "~", "─", "│", "✓", "✗", "→", "↓", "▶", "…", "—", "·", "‖", "⚠", "›", "•", "└", "é",
		"\x1b[1m", "\x1b[0m", "\x1b[38;2;107;216;138m", "\x1b[4:3m", "漢", "\u0301", "\ufe0f", "\u200d", "🙂", "\t", "\x1b]0;t\x07", "\x7f", "ⓐ", "\u00ad"}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		var b strings.Builder
		for range rng.IntN(12) {
			b.WriteString(parts[rng.IntN(len(parts))])
		}
		s := b.String()
		if width(s) != lipgloss.Width(s) {
			t.Fatalf("width(%q) = %d, lipgloss says %d", s, width(s), lipgloss.Width(s))
		}
	}
}

// TestStyledSymbolsTakeTheFastPath: the race view's lines (colour
// sequences, box drawing, ✓ ✗ → ▶ …) are measured without grapheme
// segmentation, which was half of a frame's cost.
func TestStyledSymbolsTakeTheFastPath(t *testing.T) {
	slow := 0
	defer func(f func(string) int) { slowWidth = f }(slowWidth)
	slowWidth = func(s string) int { slow++; return lipgloss.Width(s) }
	bold := lipgloss.NewStyle().Bold(true).Foreground(lipgloss.Color("#FF7A6E"))
	for _, l := range []string{
		bold.Render("▶") + "  6 " + bold.Render("UPDATE cm1 rv 101") + "  " + bold.Render("✗ 409 Conflict") + "  102  102/102*",
		bold.Render("─ cm1 @ RV 103 · written by b at step 6 ───"),
		"  └ " + bold.Render("✗ LOST data.owner: a's change — erased…") + " │ ‖ paused · ↓ more (J)",
	} {
		if got, want := width(l), lipgloss.Width(l); got != want {
			t.Errorf("width(%q) = %d, want %d", l, got, want)
		}
	}
	if slow > 0 {
		t.Errorf("%d styled lines took the slow path", slow)
	}
}

// TestBesideIsJoinHorizontal: Beside is lipgloss.JoinHorizontal(Top)
// byte for byte.
func TestBesideIsJoinHorizontal(t *testing.T) {
	lines := []string{"", "x", "a longer line", "\x1b[1m✓ bold\x1b[0m", "漢字 wide", "tab\there", "e\u0301 accent", "─────"}
	rng := rand.New(rand.NewPCG(3, 4))
	for range 3000 {
		blocks := make([]string, rng.IntN(5))
		for i := range blocks {
			ls := make([]string, rng.IntN(5))
			for j := range ls {
				ls[j] = lines[rng.IntN(len(lines))]
			}
			sep := "\n"
			if rng.IntN(4) == 0 {
				sep = "\r\n"
			}
			blocks[i] = strings.Join(ls, sep)
		}
		if got, want := Beside(blocks...), lipgloss.JoinHorizontal(lipgloss.Top, blocks...); got != want {
			t.Fatalf("Beside(%q)\n got %q\nwant %q", blocks, got, want)
		}
	}
}

// TestFitIsTheSimpleFit: Fit and FitLines (built for speed) cut and pad
// exactly as splitting the block and padding each line with lipgloss's
// measure and ansi.Truncate does.
func TestFitIsTheSimpleFit(t *testing.T) {
	simple := func(block string, w, h int) string {
		if w <= 0 || h <= 0 {
			return ""
		}
		var lines []string
		if block != "" {
			lines = strings.Split(strings.ReplaceAll(block, "\r\n", "\n"), "\n")
		}
		out := make([]string, h)
		for i := range out {
			l := ""
			if i < len(lines) {
				l = lines[i]
			}
			if lipgloss.Width(l) > w {
				l = ansi.Truncate(l, w, "…")
			}
			out[i] = l + strings.Repeat(" ", max(0, w-lipgloss.Width(l)))
		}
		return strings.Join(out, "\n")
	}
	parts := []string{"a", "word ", "─", "✓", "漢", "\x1b[1m", "\x1b[0m", "\n", "\r\n", "\t", "e\u0301", "🙂"}
	rng := rand.New(rand.NewPCG(5, 6))
	for range 5000 {
		var lines []string
		for range rng.IntN(6) {
			var b strings.Builder
			for range rng.IntN(30) {
				b.WriteString(parts[rng.IntN(len(parts))])
			}
			lines = append(lines, b.String())
		}
		block := strings.Join(lines, "\n")
		w, h := rng.IntN(100)-2, rng.IntN(8)-1
		want := simple(block, w, h)
		if got := Fit(block, w, h); got != want {
			t.Fatalf("Fit(%q, %d, %d)\n got %q\nwant %q", block, w, h, got, want)
		}
		if got := FitLines(lines, w, h); got != want {
			t.Fatalf("FitLines(%q, %d, %d)\n got %q\nwant %q", lines, w, h, got, want)
		}
		if got, want := Pad(block, w), simple(block, w, 1); !strings.Contains(block, "\n") && got != want {
			t.Fatalf("Pad(%q, %d) = %q, want %q", block, w, got, want)
		}
	}
}
