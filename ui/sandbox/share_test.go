package sandbox

import (
	"encoding/xml"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/conflictlab/conflictlab/level"
	"github.com/conflictlab/conflictlab/ui/styles"
	"github.com/conflictlab/conflictlab/ui/uitest"
)

// shownText is the level's text as the share panel draws it: the lines
// from the prefix on, joined (as a terminal copies them).
func shownText(screen string) string {
	var b strings.Builder
	for _, l := range strings.Split(screen, "\n") {
		l = strings.TrimSpace(l)
		switch {
		case strings.HasPrefix(l, level.Prefix):
			b.WriteString(l)
		case b.Len() > 0 && l != "" && !strings.Contains(l, " "):
			b.WriteString(l)
		case b.Len() > 0:
			return b.String()
		}
	}
	return b.String()
}

// t shares the race as a level's text; the text on screen is the race,
// and b makes it a break-it level with the par the sandbox finds. l
// opens such a text, pasted: the level's goal is then played.
func TestShareAndOpenALevelsText(t *testing.T) {
	d := newDriver(t, nil)
	open(t, d, testRace(t, "a.write=update-clear-rv", "b.write=update-clear-rv"))
	d.Press("t")
	must(t, d.View(), "Share sandbox as a level", "a race to play, no goal")
	l, err := level.Decode(shownText(d.View()))
	if err != nil {
		t.Fatalf("the text on screen: %v\n%s", err, d.View())
	}
	if l.Goal != nil || len(l.Race.Controllers) != 2 || l.Race.Controllers[0].Write != "update-clear-rv" {
		t.Fatalf("the shared race: %+v", l.Race.Controllers)
	}
	d.Press("b")
	// Two writers and nothing else: half of all random orders lose a
	// field, and the panel says so.
	must(t, d.View(), "break it, par 4: Find an order of steps that loses a field.", "too easy to stumble on")
	text := shownText(d.View())
	l, err = level.Decode(text)
	if err != nil || l.Goal == nil || l.Goal.Par != 4 || len(l.Prove()) > 0 {
		t.Fatalf("the break-it level: %v %+v %v", err, l.Goal, l.Prove())
	}
	d.Press("esc", "l")
	h := d.Model.(harness)
	h.m.prompt.input.SetValue(text)
	d.Model = h
	d.Press("enter")
	if sb(d).Tab() != "race" || !strings.Contains(d.View(), "Goal: Find an order of steps that loses a field.") {
		t.Fatalf("the pasted level is not played:\n%s", d.View())
	}
	d.Press("a", "b", "a", "b")
	must(t, d.View(), "Solved with 4 moves (par 4) · a new best")
}

// A garbage paste in the load prompt says why it is not a level, and
// keeps the prompt open; no control character reaches the screen.
func TestLoadRefusesAHostileText(t *testing.T) {
	d := newDriver(t, nil)
	d.Press("l")
	h := d.Model.(harness)
	h.m.prompt.input.SetValue("clab1:abc\x1b[2Jdef")
	d.Model = h
	d.Press("enter")
	v := d.Model.View().Content
	// The text field drops the escape itself; what is left is refused.
	must(t, d.View(), `not a level: character '[' at position 10 is not part of a level`)
	if strings.Contains(v, "\x1b[2J") {
		t.Fatal("the escape sequence reached the screen")
	}
}

// x with a name ending .svg writes the race view as a picture, its rows
// numbered as on screen.
func TestExportSVG(t *testing.T) {
	dir := t.TempDir()
	m := NewIn(Env{Files: dir, Clock: stopped.Clock}, styles.New(true, true), nil)
	m.SetTicker(uitest.Ticker)
	d := uitest.New(t, harness{m}, 100, 30)
	open(t, d, testRace(t, "a.write=update-clear-rv", "b.write=update-clear-rv"))
	d.Press("a", "b", "a", "b", "x", "ctrl+u")
	typeText(d, "race.svg")
	d.Press("enter")
	must(t, d.View(), "is in race.svg")
	data, err := os.ReadFile(filepath.Join(dir, "race.svg"))
	if err != nil {
		t.Fatal(err)
	}
	if err := xml.Unmarshal(data, new(struct{})); err != nil {
		t.Fatalf("not XML: %v", err)
	}
	if !strings.Contains(string(data), `class="num">1</text>`) || !strings.Contains(string(data), "✗ LOST data.owner") {
		t.Fatalf("the picture lacks the rows or the loss:\n%s", data)
	}
	// Beside the lanes, the object as the race left it, its lost field marked.
	if !strings.Contains(string(data), "cm1 @ RV ") || !strings.Contains(string(data), `class="lost">✗   owner: `) {
		t.Fatalf("the picture lacks the object pane:\n%s", data)
	}
}

// w in the share panel writes the text to a file named for the race.
func TestShareWritesTheText(t *testing.T) {
	dir := t.TempDir()
	m := NewIn(Env{Files: dir, Clock: stopped.Clock}, styles.New(true, true), nil)
	d := uitest.New(t, harness{m}, 100, 30)
	d.Press("t")
	text := shownText(d.View())
	d.Press("w")
	must(t, d.View(), "sandbox.level.txt")
	d.Press("enter")
	must(t, d.View(), "the level's text is in sandbox.level.txt")
	data, err := os.ReadFile(filepath.Join(dir, "sandbox.level.txt"))
	if err != nil || strings.TrimSpace(string(data)) != text {
		t.Fatalf("written: %q, %v", data, err)
	}
	if _, err := level.Decode(string(data)); err != nil {
		t.Fatal(err)
	}
}

// f in the share panel makes the race a fix-it level: the knobs marked
// (write and retry to start with; space marks another) on every
// controller, the settings and par the sandbox finds — the fewest changes
// after which no order loses a field or gives a change up. The text
// decodes to that goal, and the goal proves; l opens it as a fix-it.
func TestShareAFixItLevel(t *testing.T) {
	d := newDriver(t, nil)
	open(t, d, testRace(t, "a.write=update-clear-rv", "b.write=update-clear-rv"))
	d.Press("t", "f")
	must(t, d.View(), "Fix it: the knobs the learner may change", "[x] write", "[x] retry", "[ ] read", "enter finds the fewest changes")
	// Unmark everything: nothing to search with.
	d.Press("space", "down", "down", "down", "down", "down", "space", "enter")
	must(t, d.View(), "mark at least one knob with two values")
	d.Press("up", "up", "up", "up", "up", "space", "down", "down", "down", "down", "down", "space", "enter")
	v := d.View()
	// Two merge patches of different keys: nothing is lost, nothing
	// conflicts. (Update with its RV and a retry on both takes four.)
	must(t, v, "fix it, par 2: With the fewest changes, make every order land every change.", "the fewest changes: a.write=merge-patch b.write=merge-patch",
		"too easy to fix by trying: ", "% of combinations fix it (at most 20%)")
	text := shownText(v)
	l, err := level.Decode(text)
	if err != nil || l.Goal == nil || l.Goal.IsBreak() || l.Goal.Par != 2 || len(l.Goal.Knobs) != 2 {
		t.Fatalf("the fix-it level: %v %+v", err, l.Goal)
	}
	if probs := l.Prove(); len(probs) > 0 {
		t.Fatalf("the fix-it level does not prove: %v", probs)
	}
	again, err := level.Encode(l)
	if err != nil || again != text {
		t.Fatalf("encoded again: %v\n%s\n%s", err, again, text)
	}
	d.Press("esc", "l")
	h := d.Model.(harness)
	h.m.prompt.input.SetValue(text)
	d.Model = h
	d.Press("enter")
	must(t, d.View(), "Goal: With the fewest changes, make every order land every change.")
}

// A race with nothing to fix says so.
func TestShareAFixItLevelOfASafeRace(t *testing.T) {
	d := newDriver(t, nil)
	open(t, d, testRace(t, "a.write=update", "b.write=update", "a.retry=default", "b.retry=default"))
	d.Press("t", "f", "enter")
	must(t, d.View(), "nothing to fix")
}
