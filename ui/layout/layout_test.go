package layout

import (
	"strings"
	"testing"

	"charm.land/lipgloss/v2"
)

func TestFitIsExact(t *testing.T) {
	styled := lipgloss.NewStyle().Bold(true).Render("✗ LOST data.owner")
	for _, tc := range []struct {
		in   string
		w, h int
	}{
		{"short", 10, 3},
		{"a line much longer than the box is wide", 12, 1},
		{styled + " and more text after it", 9, 2},
		{"wide 漢字 chars", 7, 1},
		{"", 5, 2},
		{"x\ny\nz\nw", 3, 2},
	} {
		got := Fit(tc.in, tc.w, tc.h)
		lines := strings.Split(got, "\n")
		if len(lines) != tc.h {
			t.Errorf("Fit(%q, %d, %d): %d lines", tc.in, tc.w, tc.h, len(lines))
		}
		for _, l := range lines {
			if n := lipgloss.Width(l); n != tc.w {
				t.Errorf("Fit(%q, %d, %d): line %q is %d wide", tc.in, tc.w, tc.h, l, n)
			}
		}
	}
	if Fit("x", 0, 3) != "" || Fit("x", 3, 0) != "" {
		t.Error("an empty box must draw nothing")
	}
}

func TestTruncateMarksTheCut(t *testing.T) {
	if got := Truncate("abcdef", 4); got != "abc…" {
		t.Errorf("got %q", got)
	}
	if got := Truncate("abc", 4); got != "abc" {
		t.Errorf("got %q", got)
	}
}
