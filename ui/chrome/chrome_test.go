package chrome

import (
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/conflictlab/conflictlab/ui/styles"
)

func TestHeader(t *testing.T) {
	st := styles.New(true, true)
	for _, c := range []struct {
		title string
		w     int
		want  string
	}{
		{"", 30, " Conflict Lab          ? keys "},
		{"lessons", 40, " Conflict Lab › lessons          ? keys "},
		// No room for the keys: the title keeps the bar, cut to the width.
		{"a title too long for the bar", 40, " Conflict Lab › a title too long for th…"},
		{"lessons", 30, " Conflict Lab › lessons       "},
	} {
		got := ansi.Strip(Header(st, c.title, c.w))
		if got != c.want {
			t.Errorf("Header(%q, %d) = %q, want %q", c.title, c.w, got, c.want)
		}
		if w := ansi.StringWidth(got); w != c.w {
			t.Errorf("Header(%q, %d) is %d cells wide", c.title, c.w, w)
		}
	}
}
