package room

import (
	"fmt"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/conflictlab/conflictlab/ui/styles"
)

// hostileText is attendee data made to break a view: control sequences,
// a right-to-left override, zero-width characters, newlines, tabs, and
// length.
var hostileText = "\x1b[2J\x1b]0;owned\x07\u202eevil\u200b\n\tname" + strings.Repeat("W", 5000)

// TestRoomOfHostileAttendees: thousands of attendees, names, places and
// wrong answers made of control sequences, invisible characters and
// kilobytes of text: the room view stays exactly its size, every line
// within its width, nothing but colour reaches the terminal, and a frame
// takes a few milliseconds.
func TestRoomOfHostileAttendees(t *testing.T) {
	var s Snapshot
	s.Seed = hostileText
	for i := range 5000 {
		s.Attendees = append(s.Attendees, Attendee{Name: fmt.Sprintf("%d%s", i, hostileText), Sessions: i % 2, Where: hostileText,
			Right: 1 << 30, Answered: 1<<31 - 1, LessonsDone: 1 << 20, Quiz: hostileText})
	}
	s.Seen, s.Online = 5000, 2500
	var choices []Choice
	for i := range 400 {
		choices = append(choices, Choice{Label: fmt.Sprintf("%d%s", i, hostileText), Count: 1 << 30})
	}
	for i := range 50 {
		s.Missed = append(s.Missed, Missed{Where: fmt.Sprintf("%d%s", i, hostileText), Wrong: 1 << 30, Answers: 1 << 31, Choices: choices})
	}
	s.Lessons = []Lesson{{ID: "x", Title: hostileText}}
	s.Limits = hostileText
	for _, size := range [][2]int{{80, 24}, {120, 40}, {20, 5}} {
		sc := NewScreen(true, nil)
		next, _ := sc.Update(tea.WindowSizeMsg{Width: size[0], Height: size[1]})
		sc = next.(Screen)
		next, _ = sc.Update(Updated{Snapshot: s})
		sc = next.(Screen)
		start := time.Now()
		frame := sc.View().Content
		took := time.Since(start)
		lines := strings.Split(frame, "\n")
		if len(lines) != size[1] {
			t.Fatalf("%v: %d lines", size, len(lines))
		}
		for i, l := range lines {
			if w := ansi.StringWidth(l); w > size[0] {
				t.Fatalf("%v: line %d is %d cells: %q", size, i, w, ansi.Strip(l))
			}
		}
		plain := ansi.Strip(frame)
		for _, bad := range []string{"\x1b[2J", "\x1b]0", "\x07", "\u202e", "\u200b", "\t"} {
			if strings.Contains(frame, bad) {
				t.Fatalf("%v: %q reached the terminal:\n%s", size, bad, plain)
			}
		}
		if took > 200*time.Millisecond {
			t.Fatalf("%v: a frame of 5,000 attendees took %s", size, took)
		}
		if size[0] == 120 && !strings.Contains(plain, "2500 connected · 5000 seen") {
			t.Fatalf("the counts are not the room's:\n%s", plain)
		}
	}
	// Four hundred different wrong answers to one question: five shown.
	short := Snapshot{Missed: []Missed{{Where: "lesson 1 · step 2", Wrong: 400, Answers: 400}}}
	for i := range 400 {
		short.Missed[0].Choices = append(short.Missed[0].Choices, Choice{Label: fmt.Sprintf("c%d", i), Count: 1})
	}
	m := New(styles.New(true, true))
	m.SetSize(120, 40)
	m, _ = m.Update(Updated{Snapshot: short})
	if v := ansi.Strip(m.View()); !strings.Contains(v, "chose: 1× c0 · 1× c1 · 1× c2 · 1× c3 · 1× c4 · 395 more") {
		t.Fatalf("the wrong answers are not bounded:\n%s", v)
	}
}
