package chrome

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// sized is a model that draws its window full of dots and remembers the
// sizes it was given.
type sized struct{ sizes *[]tea.WindowSizeMsg }

func (s sized) Init() tea.Cmd { return nil }

func (s sized) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if m, ok := msg.(tea.WindowSizeMsg); ok {
		*s.sizes = append(*s.sizes, m)
	}
	return s, nil
}

func (s sized) View() tea.View {
	last := (*s.sizes)[len(*s.sizes)-1]
	rows := make([]string, last.Height)
	for i := range rows {
		rows[i] = strings.Repeat(".", last.Width)
	}
	return tea.NewView(strings.Join(rows, "\n"))
}

// deliver sends a window size through the program's filter and the
// model, as Bubble Tea's event loop does, and returns what the renderer
// was given.
func deliver(t *testing.T, m tea.Model, opts []tea.ProgramOption, msg tea.WindowSizeMsg) (tea.Model, tea.WindowSizeMsg) {
	t.Helper()
	win := m.(bounded).win
	out, ok := win.filter(m, msg).(tea.WindowSizeMsg)
	if !ok {
		t.Fatalf("the filter dropped %v", msg)
	}
	next, _ := m.Update(out)
	return next, out
}

// TestBoundedSizes: every size a terminal can claim — none, one cell, the
// largest a pty request carries, 2³¹−1 — reaches the renderer and the
// screen at most MaxWidth×MaxHeight, and the frame says so when the
// terminal is larger; an ordinary size passes untouched.
func TestBoundedSizes(t *testing.T) {
	const huge = 1<<31 - 1
	for _, c := range []struct {
		w, h           int
		renderer, seen tea.WindowSizeMsg
		notice         bool
	}{
		{0, 0, tea.WindowSizeMsg{Width: 80, Height: 24}, tea.WindowSizeMsg{Width: 80, Height: 24}, false},
		{1, 1, tea.WindowSizeMsg{Width: 1, Height: 1}, tea.WindowSizeMsg{Width: 1, Height: 1}, false},
		{120, 40, tea.WindowSizeMsg{Width: 120, Height: 40}, tea.WindowSizeMsg{Width: 120, Height: 40}, false},
		{MaxWidth, MaxHeight, tea.WindowSizeMsg{Width: MaxWidth, Height: MaxHeight}, tea.WindowSizeMsg{Width: MaxWidth, Height: MaxHeight}, false},
		{65535, 65535, tea.WindowSizeMsg{Width: MaxWidth, Height: MaxHeight + 1}, tea.WindowSizeMsg{Width: MaxWidth, Height: MaxHeight}, true},
		{huge, huge, tea.WindowSizeMsg{Width: MaxWidth, Height: MaxHeight + 1}, tea.WindowSizeMsg{Width: MaxWidth, Height: MaxHeight}, true},
		{huge, 30, tea.WindowSizeMsg{Width: MaxWidth, Height: 30}, tea.WindowSizeMsg{Width: MaxWidth, Height: 29}, true},
		{100, huge, tea.WindowSizeMsg{Width: 100, Height: MaxHeight + 1}, tea.WindowSizeMsg{Width: 100, Height: MaxHeight}, true},
	} {
		// As the first size (tea.WithWindowSize, echoed back by Bubble
		// Tea) and as a resize.
		for _, first := range []bool{true, false} {
			var sizes []tea.WindowSizeMsg
			w, h := 100, 30
			if first {
				w, h = c.w, c.h
			}
			m, opts := Bound(sized{&sizes}, w, h)
			var start tea.WindowSizeMsg
			if first {
				start = m.(bounded).win.echo
			} else {
				start = tea.WindowSizeMsg{Width: 100, Height: 30}
			}
			m, got := deliver(t, m, opts, start)
			if !first {
				m, got = deliver(t, m, opts, tea.WindowSizeMsg{Width: c.w, Height: c.h})
			}
			if got != c.renderer {
				t.Errorf("%d×%d (first %v): the renderer was given %v, want %v", c.w, c.h, first, got, c.renderer)
			}
			if seen := sizes[len(sizes)-1]; seen != c.seen {
				t.Errorf("%d×%d (first %v): the screen was given %v, want %v", c.w, c.h, first, seen, c.seen)
			}
			frame := ansi.Strip(m.View().Content)
			lines := strings.Split(frame, "\n")
			if len(lines) > c.renderer.Height {
				t.Errorf("%d×%d: the frame has %d lines, the renderer %d", c.w, c.h, len(lines), c.renderer.Height)
			}
			for _, l := range lines {
				if ansi.StringWidth(l) > c.renderer.Width {
					t.Errorf("%d×%d: a line of %d cells", c.w, c.h, ansi.StringWidth(l))
				}
			}
			said := strings.Contains(frame, "Conflict Lab draws at most 320×100")
			if said != c.notice {
				t.Errorf("%d×%d (first %v): notice %v, want %v; last line %q", c.w, c.h, first, said, c.notice, lines[len(lines)-1])
			}
		}
	}
	// A Resize that overtakes the echo of the first size (both are sent
	// from goroutines): the echo is still not taken for an offer.
	for _, first := range [][2]int{{1<<31 - 1, 24}, {65535, 65535}} {
		var sizes []tea.WindowSizeMsg
		m, opts := Bound(sized{&sizes}, first[0], first[1])
		echo := m.(bounded).win.echo
		m, _ = m.Update(m.(bounded).win.filter(m, Resize{Width: first[0], Height: first[1]}))
		m, _ = deliver(t, m, opts, echo)
		if !strings.Contains(m.View().Content, "draws at most") {
			t.Fatalf("%v: the echo after a Resize lost the notice", first)
		}
	}
	// Back to an ordinary size: the notice goes.
	var sizes []tea.WindowSizeMsg
	m, opts := Bound(sized{&sizes}, 65535, 65535)
	m, _ = deliver(t, m, opts, m.(bounded).win.echo)
	m, _ = deliver(t, m, opts, tea.WindowSizeMsg{Width: 100, Height: 30})
	if strings.Contains(m.View().Content, "draws at most") {
		t.Fatal("the notice stayed after the terminal shrank")
	}
	// A Resize, which Bubble Tea lets through at any size (it drops a
	// WindowSizeMsg over 4096 a side before the filter).
	out := m.(bounded).win.filter(m, Resize{Width: 1<<31 - 1, Height: 50})
	if out != (tea.WindowSizeMsg{Width: MaxWidth, Height: 50}) {
		t.Fatalf("a Resize reached the renderer as %v", out)
	}
	m, _ = m.Update(out)
	if !strings.Contains(m.View().Content, "This terminal is 2147483647×50") || sizes[len(sizes)-1].Height != 49 {
		t.Fatalf("after a Resize: screen %v, frame ends %q", sizes[len(sizes)-1], m.View().Content[len(m.View().Content)-80:])
	}
	if Inner(m).(sized).sizes != &sizes {
		t.Fatal("Inner does not give the wrapped model back")
	}
}
