package nav

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/conflictlab/conflictlab/ui/keyhelp"
	"github.com/conflictlab/conflictlab/ui/styles"
)

// counter is a screen that counts the messages it hears and says when it
// leaves, by its name.
type counter struct {
	name  string
	heard int
	w, h  int
	left  *[]string
}

func (c counter) Update(msg tea.Msg) (counter, tea.Cmd) {
	if _, ok := msg.(ping); ok {
		c.heard++
	}
	return c, nil
}
func (c counter) View() string                  { return fmt.Sprintf("%s %d %dx%d", c.name, c.heard, c.w, c.h) }
func (c counter) Title() string                 { return c.name }
func (c counter) ShortHelp() []key.Binding      { return nil }
func (c counter) HelpGroups() []keyhelp.Group   { return nil }
func (c counter) TakesKey(tea.KeyPressMsg) bool { return false }
func (c counter) Where() Place                  { return Place{} }
func (c counter) Leave() tea.Cmd {
	name, left := c.name, c.left
	return func() tea.Msg { *left = append(*left, name); return nil }
}
func (c *counter) SetSize(w, h int)         { c.w, c.h = w, h }
func (c *counter) SetStyles(*styles.Styles) {}

type ping struct{}

func run(cmd tea.Cmd) {
	if cmd == nil {
		return
	}
	if b, ok := cmd().(tea.BatchMsg); ok {
		for _, c := range b {
			run(c)
		}
	}
}

func TestStack(t *testing.T) {
	var left []string
	made := map[string]int{}
	push := func(name string, keep bool) Push {
		return Push{Name: name, Keep: keep, New: func(*styles.Styles) (Screen, tea.Cmd) {
			made[name]++
			return Margin(Of(counter{name: name, left: &left}), 1), nil
		}}
	}
	st := styles.New(true, true)
	s := NewStack("home", Of(counter{name: "home", left: &left}), st).SetSize(80, 22)
	step := func(next Stack, cmd tea.Cmd) { s = next; run(cmd) }
	names := func() string { return strings.Join(s.Names(), " ") }

	step(s.Push(push("quiz", true)))
	if names() != "home quiz" || s.Top().View() != " quiz 0 79x22" {
		t.Fatalf("after a push: %s, top %q (the margin takes a column)", names(), s.Top().View())
	}
	step(s.Update(ping{}))
	step(s.Push(push("player", false)))
	step(s.Update(ping{}))
	// The quiz hears what is not a key while the player is on top.
	if q, _ := s.Find("quiz"); q.View() != " quiz 2 79x22" {
		t.Fatalf("the quiz below heard: %q", q.View())
	}
	// Every name is on the stack once: a second lesson replaces the first.
	step(s.Push(push("player", false)))
	if names() != "home quiz player" || made["player"] != 2 || s.Top().View() != " player 0 79x22" {
		t.Fatalf("a second player: %s, made %d, top %q", names(), made["player"], s.Top().View())
	}
	// Popping the quiz keeps it; pushing it again brings it back as it was.
	step(s.Pop())
	step(s.Pop())
	if names() != "home" || !slices.Equal(left, []string{"home", "quiz", "player", "player", "quiz"}) {
		t.Fatalf("after two pops: %s, left %v", names(), left)
	}
	step(s.Pop()) // the bottom stays
	if names() != "home" {
		t.Fatalf("the bottom was popped: %s", names())
	}
	step(s.Push(push("quiz", true)))
	if made["quiz"] != 1 || s.Top().View() != " quiz 2 79x22" {
		t.Fatalf("the quiz came back made %d times, as %q", made["quiz"], s.Top().View())
	}
	// A kept screen on the stack is raised, the screens above it leaving.
	step(s.Push(push("player", false)))
	step(s.Push(push("quiz", true)))
	if names() != "home quiz" || made["quiz"] != 1 {
		t.Fatalf("raising the quiz: %s, made %d", names(), made["quiz"])
	}
	step(s.Replace(push("sandbox", false)))
	if names() != "home sandbox" {
		t.Fatalf("after a replace: %s", names())
	}
	step(s.Home())
	if names() != "home" {
		t.Fatalf("home: %s", names())
	}
	if _, ok := As[counter](s.Top()); !ok {
		t.Fatal("As does not find the model inside the screen")
	}
}

// An older stack still holds the screens it held: the root model is a
// value, and a test may draw an earlier one.
func TestStackIsAValue(t *testing.T) {
	var left []string
	st := styles.New(true, true)
	a := NewStack("home", Of(counter{name: "home", left: &left}), st)
	b, _ := a.UpdateTop(ping{})
	c, _ := b.Push(Push{Name: "quiz", New: func(*styles.Styles) (Screen, tea.Cmd) { return Of(counter{name: "quiz", left: &left}), nil }})
	if a.Top().View() != "home 0 0x0" || b.Top().View() != "home 1 0x0" || c.Depth() != 2 || b.Depth() != 1 {
		t.Fatalf("a %q, b %q (%d), c %d", a.Top().View(), b.Top().View(), b.Depth(), c.Depth())
	}
}
