package keyhelp

import (
	"strings"
	"testing"

	"charm.land/bubbles/v2/key"
	"charm.land/lipgloss/v2"
)

func groups() []Group {
	b := func(k, d string) key.Binding { return key.NewBinding(key.WithKeys(k), key.WithHelp(k, d)) }
	off := b("z", "disabled")
	off.SetEnabled(false)
	return []Group{
		{Title: "Move", Keys: []key.Binding{b("up", "go up"), b("down", "go down"), off}},
		{Title: "Files", Keys: []key.Binding{b("s", "save"), b("l", "load"), b("x", "export")}},
		{Title: "Empty", Keys: []key.Binding{off}},
	}
}

// TestColumnsFollowTheWidth: a wide window puts the groups side by side,
// a narrow one stacks them; no line is wider than the width, every
// enabled key is there, disabled keys and empty groups are not.
func TestColumnsFollowTheWidth(t *testing.T) {
	wide := New(groups(), Styles{}, 80, 20)
	if wide.Rows() != 4 || !strings.HasPrefix(wide.View(0, 1), "Move") || !strings.Contains(wide.View(0, 1), "Files") {
		t.Fatalf("two groups of 3 and 4 lines, whole, side by side: %d rows:\n%s", wide.Rows(), wide.View(0, 99))
	}
	// Too few rows for whole groups: they flow from column to column.
	if short := New(groups(), Styles{}, 80, 3); short.Rows() != 2 {
		t.Fatalf("flowed into the fewest rows: %d:\n%s", short.Rows(), short.View(0, 99))
	}
	narrow := New(groups(), Styles{}, 14, 20)
	if narrow.Rows() != 8 {
		t.Fatalf("stacked in one column: %d rows:\n%s", narrow.Rows(), narrow.View(0, 99))
	}
	for _, l := range []Layout{wide, narrow} {
		v := l.View(0, 99)
		for _, line := range strings.Split(v, "\n") {
			if lipgloss.Width(line) > 80 {
				t.Fatalf("line wider than the window: %q", line)
			}
		}
		for _, want := range []string{"Move", "up   go up", "down go down", "Files", "s save", "x export"} {
			if !strings.Contains(v, want) {
				t.Fatalf("lacks %q:\n%s", want, v)
			}
		}
		if strings.Contains(v, "disabled") || strings.Contains(v, "Empty") {
			t.Fatalf("shows a disabled key or an empty group:\n%s", v)
		}
	}
}

// TestTitleNeverEndsAColumn: a group's title moves to the next column
// with its keys rather than sit alone at the bottom of one.
func TestTitleNeverEndsAColumn(t *testing.T) {
	cols := flow(flatten(groups(), Styles{}), 4)
	for _, c := range cols {
		if last := c[len(c)-1]; last.title || last.blank {
			t.Fatalf("a column ends with %q", last.text)
		}
		if c[0].blank {
			t.Fatal("a column starts with a blank line")
		}
	}
	// Three rows: "Move" fits with its two keys; "Files" must not end a
	// column of three after a blank.
	if got := len(flow(flatten(groups(), Styles{}), 3)); got != 3 {
		t.Fatalf("%d columns of 3 rows, want 3 (Move, Files' title and keys, the rest)", got)
	}
}

// TestViewScrolls: View shows h rows from the offset, never past the end.
func TestViewScrolls(t *testing.T) {
	l := New(groups(), Styles{}, 14, 20)
	if got := l.View(0, 3); !strings.HasPrefix(got, "Move") || strings.Count(got, "\n") != 2 {
		t.Fatalf("first three rows: %q", got)
	}
	if got := l.View(100, 3); !strings.HasSuffix(got, "x export") {
		t.Fatalf("an offset past the end shows the last rows: %q", got)
	}
}
