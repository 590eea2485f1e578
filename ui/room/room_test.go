package room

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/conflictlab/conflictlab/ui/styles"
	"github.com/conflictlab/conflictlab/ui/uitest"
)

var snap = Snapshot{
	Seed: "42",
	Attendees: []Attendee{
		{Name: "ada", Sessions: 2, Where: "lesson 2 · step 1/3", Right: 3, Answered: 4, LessonsDone: 1, Quiz: "7/10"},
		{Name: "bob\x1b[2J", Sessions: 0, Where: "gone"},
	},
	Missed: []Missed{{Where: "lesson 1 · step 2: What the number means", Wrong: 2, Answers: 3,
		Choices: []Choice{{Label: "RV 102", Count: 2}}}},
	Lessons: []Lesson{{ID: "versions", Title: "Versions, not locks"}, {ID: "lost-update", Title: "The lost update"}},
	Limits:  "refused: 1 over the connection rate, 0 with the room full · 0 ended idle",
}

func view(m Model) string { return ansi.Strip(m.View()) }

// TestRoomShowsTheRoom: attendees with where they are and their scores,
// the most missed step with the wrong answer chosen, the limits hit; a
// name is shown, never obeyed.
func TestRoomShowsTheRoom(t *testing.T) {
	m := New(styles.New(true, true))
	m.SetSize(100, 24)
	m, _ = m.Update(Updated{Snapshot: snap})
	v := view(m)
	for _, want := range []string{"1 connected · 2 seen · quiz seed 42", "ada", "lesson 2 · step 1/3", "3/4", "7/10",
		"2/3 wrong", "2× RV 102", "refused: 1 over the connection rate", "Send everyone to: ‹ 1 Versions, not locks ›"} {
		if !strings.Contains(v, want) {
			t.Fatalf("the room lacks %q:\n%s", want, v)
		}
	}
	if strings.Contains(m.View(), "\x1b[2J") {
		t.Fatal("an attendee's name reached the terminal as a control sequence")
	}
	if n := len(strings.Split(m.View(), "\n")); n != 24 {
		t.Fatalf("the view is %d lines, want 24", n)
	}
}

// TestRoomSendsAfterConfirming: → picks lesson 2, enter asks, n cancels,
// y sends the action; Q asks for the quiz.
func TestRoomSendsAfterConfirming(t *testing.T) {
	m := New(styles.New(true, true))
	m.SetSize(100, 24)
	m, _ = m.Update(Updated{Snapshot: snap})
	m, _ = m.Update(uitest.Key("right"))
	m, cmd := m.Update(uitest.Key("enter"))
	if cmd != nil || !strings.Contains(view(m), "Send everyone to lesson 2, The lost update? y sends") {
		t.Fatalf("enter did not ask:\n%s", view(m))
	}
	m, cmd = m.Update(uitest.Key("n"))
	if cmd != nil || !strings.Contains(view(m), "not sent") {
		t.Fatalf("n did not cancel:\n%s", view(m))
	}
	m, _ = m.Update(uitest.Key("enter"))
	m, cmd = m.Update(uitest.Key("y"))
	if cmd == nil {
		t.Fatal("y sent nothing")
	}
	if got := cmd(); got != (Action{Lesson: "lost-update"}) {
		t.Fatalf("y sent %#v", got)
	}
	m, _ = m.Update(uitest.Key("Q"))
	_, cmd = m.Update(uitest.Key("y"))
	if got := cmd(); got != (Action{Quiz: true}) {
		t.Fatalf("the quiz sent %#v", got)
	}
}

// TestScreenCarriesOutActions: the program hands a confirmed action to
// the server's callback; q quits, except while a question is open.
func TestScreenCarriesOutActions(t *testing.T) {
	var got []Action
	s := NewScreen(true, func(a Action) { got = append(got, a) })
	var tm tea.Model = s
	tm, _ = tm.Update(tea.WindowSizeMsg{Width: 100, Height: 24})
	tm, _ = tm.Update(Updated{Snapshot: snap})
	tm, _ = tm.Update(uitest.Key("enter"))
	if _, cmd := tm.Update(uitest.Key("q")); cmd != nil {
		t.Fatal("q quit while the question was open")
	}
	tm, cmd := tm.Update(uitest.Key("y"))
	tm, _ = tm.Update(cmd())
	if len(got) != 1 || got[0].Lesson != "versions" {
		t.Fatalf("actions carried out: %v", got)
	}
	if !strings.Contains(ansi.Strip(tm.View().Content), "Conflict Lab › room") {
		t.Fatalf("no header:\n%s", tm.View().Content)
	}
}
