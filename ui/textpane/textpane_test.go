package textpane

import (
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/conflictlab/conflictlab/ui/styles"
	"github.com/conflictlab/conflictlab/ui/uitest"
)

func numbered(n int) []string {
	var out []string
	for i := range n {
		out = append(out, fmt.Sprintf("line %02d", i))
	}
	return out
}

func pane(lines []string, pin, end, w, h int) Model {
	m := New(styles.New(true, true))
	m.SetSize(w, h)
	m.SetContent(lines, pin, end)
	return m
}

func rows(m Model) []string {
	v := m.View()
	if got := len(strings.Split(v, "\n")); got != m.h {
		panic(fmt.Sprintf("view has %d rows, pane has %d", got, m.h))
	}
	return strings.Split(v, "\n")
}

// reach sends msg until the view stops changing, and reports which lines
// were on screen on the way.
func reach(t *testing.T, m Model, msg tea.Msg) (Model, map[string]bool) {
	t.Helper()
	seen := map[string]bool{}
	prev := ""
	for range 100 {
		v := m.View()
		for _, r := range strings.Split(v, "\n") {
			seen[strings.TrimSpace(r)] = true
		}
		if v == prev {
			return m, seen
		}
		prev = v
		var took bool
		if m, took = m.Update(msg); !took {
			t.Fatalf("the pane did not take %v", msg)
		}
	}
	t.Fatalf("%v never reached the end", msg)
	return m, nil
}

func TestEveryLineIsReachableByEveryScrollKey(t *testing.T) {
	lines := numbered(40)
	// From the top down and from the bottom up, by each key or the wheel.
	walks := []struct {
		name   string
		msg    tea.Msg
		fromUp bool
	}{
		{"pgdown", uitest.Key("pgdown"), true},
		{"ctrl+d", uitest.Key("ctrl+d"), true},
		{"wheel down", tea.MouseWheelMsg{Button: tea.MouseWheelDown}, true},
		{"pgup", uitest.Key("pgup"), false},
		{"ctrl+u", uitest.Key("ctrl+u"), false},
		{"wheel up", tea.MouseWheelMsg{Button: tea.MouseWheelUp}, false},
	}
	for _, h := range []int{4, 7, 12} {
		for _, wk := range walks {
			m := pane(lines, 0, 0, 30, h)
			if !wk.fromUp {
				m.GotoBottom()
			}
			m, seen := reach(t, m, wk.msg)
			if wk.fromUp && !m.AtBottom() || !wk.fromUp && !m.AtTop() {
				t.Fatalf("%s at height %d stopped at offset %d", wk.name, h, m.Offset())
			}
			for _, l := range lines {
				if !seen[l] {
					t.Fatalf("%s at height %d never showed %q", wk.name, h, l)
				}
			}
		}
	}
	m := pane(lines, 0, 0, 30, 10)
	m, _ = m.Update(uitest.Key("end"))
	if r := rows(m); !m.AtBottom() || strings.TrimSpace(r[9]) != "line 39" {
		t.Fatalf("end does not show the last line:\n%s", m.View())
	}
	m, _ = m.Update(uitest.Key("home"))
	if r := rows(m); !m.AtTop() || strings.TrimSpace(r[0]) != "line 00" {
		t.Fatalf("home does not show the first line:\n%s", m.View())
	}
}

func TestMarksSayHowMuchIsCut(t *testing.T) {
	m := pane(numbered(20), 0, 0, 30, 5)
	r := rows(m)
	if strings.TrimSpace(r[0]) != "line 00" || !strings.Contains(r[4], "↓ 16 more below") {
		t.Fatalf("at the top:\n%s", m.View())
	}
	m.ScrollBy(5)
	r = rows(m)
	if !strings.Contains(r[0], "↑ 6 more above") || strings.TrimSpace(r[1]) != "line 06" || !strings.Contains(r[4], "↓ 11 more below") {
		t.Fatalf("in the middle:\n%s", m.View())
	}
}

func TestPinnedBlockStaysInViewUnderTheTop(t *testing.T) {
	lines := append(numbered(20), "Which?", "1. this", "2. that")
	m := pane(lines, 20, 23, 30, 8)
	r := rows(m)
	if strings.TrimSpace(r[0]) != "line 00" {
		t.Fatalf("the pane does not start at its top:\n%s", m.View())
	}
	if strings.TrimSpace(r[5]) != "Which?" || strings.TrimSpace(r[7]) != "2. that" || !strings.Contains(r[4], "↓ 16 more lines") {
		t.Fatalf("the question is not pinned under the text:\n%s", m.View())
	}
	// Scrolling down reaches every line, the block staying put until the
	// text meets it.
	m, seen := reach(t, m, uitest.Key("pgdown"))
	for _, l := range lines {
		if !seen[l] {
			t.Fatalf("never showed %q", l)
		}
	}
	if r := rows(m); strings.TrimSpace(r[4]) != "line 19" {
		t.Fatalf("at the end the text does not meet the block:\n%s", m.View())
	}
	// Text after the block (feedback) unpins it: nothing hides under it.
	m.SetContent(append(lines, "", "Right."), 20, 23)
	m.GotoTop()
	if r := rows(m); strings.Contains(m.View(), "Which?") || !strings.Contains(r[7], "more below") {
		t.Fatalf("a block with text after it stayed pinned:\n%s", m.View())
	}
}

func TestEnsureVisibleMovesAsLittleAsItCan(t *testing.T) {
	m := pane(numbered(30), 0, 0, 30, 6)
	m.EnsureVisible(10, 12)
	if !m.Visible(10) || !m.Visible(11) {
		t.Fatalf("lines 10-11 not in view at offset %d:\n%s", m.Offset(), m.View())
	}
	if off := m.Offset(); off != 7 {
		// Lines 10 and 11 just above the "↓ more" mark.
		t.Fatalf("offset %d, want 7", off)
	}
	m.EnsureVisible(9, 11)
	if m.Offset() != 7 {
		t.Fatalf("lines already in view moved the pane to %d", m.Offset())
	}
	// Too long for the window: its start under the "↑ more" mark.
	m.EnsureVisible(20, 30)
	if r := rows(m); strings.TrimSpace(r[1]) != "line 20" {
		t.Fatalf("a long range does not start at the top:\n%s", m.View())
	}
}

func TestKeysOutsideThePaneAreLeft(t *testing.T) {
	m := pane(numbered(30), 0, 0, 30, 6)
	for _, k := range []string{"space", "left", "right", "r", "+", "-", "up", "down", "enter", "1"} {
		if _, took := m.Update(uitest.Key(k)); took {
			t.Errorf("the pane took %q, a key of the race view or the options", k)
		}
	}
}

func TestViewFitsItsRectangle(t *testing.T) {
	long := strings.Repeat("word ", 30)
	m := pane([]string{long, long, long, long, long, long}, 0, 0, 20, 3)
	uitest.CheckFrame(t, m.View(), 20, 3)
	m.ScrollBy(1)
	uitest.CheckFrame(t, m.View(), 20, 3)
}
