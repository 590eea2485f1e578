// Package room is the instructor's view of a workshop room (conflictlab
// serve): who is connected, where each attendee is, their scores, and the
// steps the room most often got wrong with the wrong answers chosen,
// redrawn as the server reports changes. From it the instructor sends
// everyone to a lesson or opens a room-wide quiz.
//
// The package knows nothing of SSH: the server sends it Snapshots and
// carries out the Actions it returns.
package room

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/conflictlab/conflictlab/termsafe"
	"github.com/conflictlab/conflictlab/ui/layout"
	"github.com/conflictlab/conflictlab/ui/styles"
)

// Snapshot is the room at one moment, as the server sends it.
type Snapshot struct {
	// Seed is the room's quiz seed ("" when none was given).
	Seed string
	// Attendees are everyone who connected since the server started,
	// connected first: at most MaxAttendees of them (Online and Seen
	// count them all).
	Attendees []Attendee
	// Online and Seen count the attendees connected now and since the
	// server started (0 and 0: count Attendees).
	Online, Seen int
	// Missed are the question steps answered wrong most often, worst
	// first.
	Missed []Missed
	// Lessons are the course's lessons, for "send everyone to".
	Lessons []Lesson
	// Limits is what the server's bounds have refused so far ("" when
	// nothing was).
	Limits string
}

// Attendee is one attendee's line.
type Attendee struct {
	Name string
	// Sessions is how many sessions they have open (0: gone).
	Sessions int
	// Where is the screen they are on ("lesson 3 · step 4", "quiz").
	Where string
	// Right and Answered are their lessons' first answers: right, given.
	Right, Answered int
	// LessonsDone counts the lessons complete.
	LessonsDone int
	// Quiz is their best quiz ("7/10"), "" when none.
	Quiz string
}

// Missed is a question the room got wrong.
type Missed struct {
	// Where names the lesson and the step.
	Where          string
	Wrong, Answers int
	// Choices are the wrong answers chosen, most chosen first.
	Choices []Choice
}

// The bounds of a snapshot: a room of thousands, or attendee data made
// to be large, stays a view the instructor can read and a snapshot the
// server can build after every change.
const (
	// MaxAttendees is how many attendees a snapshot lists.
	MaxAttendees = 1000
	// MaxChoices is how many wrong answers a missed question lists.
	MaxChoices = 5
)

// Choice is a wrong answer and how many chose it.
type Choice struct {
	Label string
	Count int
}

// Lesson is a lesson the room can be sent to.
type Lesson struct{ ID, Title string }

// Updated carries a new Snapshot into the view.
type Updated struct{ Snapshot Snapshot }

// Action is what the instructor asked of the room: open Lesson for
// everyone, or (Quiz) open the room-wide quiz.
type Action struct {
	Lesson string
	Quiz   bool
}

// KeyMap is the view's keys.
type KeyMap struct {
	Up, Down, PrevLesson, NextLesson, Send, Quiz, Confirm, Cancel key.Binding
}

// DefaultKeys are the view's bindings.
func DefaultKeys() KeyMap {
	return KeyMap{
		Up:         key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑/k", "scroll up")),
		Down:       key.NewBinding(key.WithKeys("down", "j"), key.WithHelp("↓/j", "scroll down")),
		PrevLesson: key.NewBinding(key.WithKeys("left", "h"), key.WithHelp("←/h", "previous lesson")),
		NextLesson: key.NewBinding(key.WithKeys("right", "l"), key.WithHelp("→/l", "next lesson")),
		Send:       key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "send everyone there")),
		Quiz:       key.NewBinding(key.WithKeys("Q"), key.WithHelp("Q", "room-wide quiz")),
		Confirm:    key.NewBinding(key.WithKeys("y"), key.WithHelp("y", "yes")),
		Cancel:     key.NewBinding(key.WithKeys("n", "esc"), key.WithHelp("n", "no")),
	}
}

// Model is the room view.
type Model struct {
	st     *styles.Styles
	w, h   int
	Keys   KeyMap
	snap   Snapshot
	scroll int
	lesson int
	// ask is the action waiting for y (sending a whole room somewhere is
	// not undone).
	ask    *Action
	notice string
}

// New is the view of an empty room.
func New(st *styles.Styles) Model { return Model{st: st, Keys: DefaultKeys()} }

// SetSize sets the view's rectangle.
func (m *Model) SetSize(w, h int) { m.w, m.h = w, h }

// SetStyles replaces the styles.
func (m *Model) SetStyles(st *styles.Styles) { m.st = st }

// Title is the header's title.
func (m Model) Title() string { return "room" }

// Snapshot is the room as last shown (for tests).
func (m Model) Snapshot() Snapshot { return m.snap }

// Update takes snapshots and keys; an action confirmed comes back as a
// command whose message is the Action.
func (m Model) Update(msg tea.Msg) (Model, tea.Cmd) {
	switch msg := msg.(type) {
	case Updated:
		m.snap = msg.Snapshot
		m.lesson = min(m.lesson, max(0, len(m.snap.Lessons)-1))
		m.scroll = min(m.scroll, max(0, len(m.snap.Attendees)-1))
	case tea.KeyPressMsg:
		k := m.Keys
		if m.ask != nil {
			switch {
			case key.Matches(msg, k.Confirm):
				a := *m.ask
				m.ask = nil
				m.notice = "sent: " + m.describe(a)
				return m, func() tea.Msg { return a }
			case key.Matches(msg, k.Cancel):
				m.ask, m.notice = nil, "not sent"
			}
			return m, nil
		}
		m.notice = ""
		switch {
		case key.Matches(msg, k.Up):
			m.scroll = max(0, m.scroll-1)
		case key.Matches(msg, k.Down):
			m.scroll = min(max(0, len(m.snap.Attendees)-1), m.scroll+1)
		case key.Matches(msg, k.PrevLesson):
			m.lesson = max(0, m.lesson-1)
		case key.Matches(msg, k.NextLesson):
			m.lesson = min(max(0, len(m.snap.Lessons)-1), m.lesson+1)
		case key.Matches(msg, k.Send) && len(m.snap.Lessons) > 0:
			m.ask = &Action{Lesson: m.snap.Lessons[m.lesson].ID}
		case key.Matches(msg, k.Quiz):
			m.ask = &Action{Quiz: true}
		}
	}
	return m, nil
}

func (m Model) describe(a Action) string {
	if a.Quiz {
		return "everyone to the quiz" + m.seedNote()
	}
	for i, l := range m.snap.Lessons {
		if l.ID == a.Lesson {
			return fmt.Sprintf("everyone to lesson %d, %s", i+1, l.Title)
		}
	}
	return "everyone to " + a.Lesson
}

func (m Model) seedNote() string {
	if m.snap.Seed == "" {
		return " (today's questions)"
	}
	return " (seed " + m.snap.Seed + ": the same questions for all)"
}

// ShortHelp is the key bar.
func (m Model) ShortHelp() []key.Binding {
	if m.ask != nil {
		return []key.Binding{m.Keys.Confirm, m.Keys.Cancel}
	}
	return []key.Binding{m.Keys.PrevLesson, m.Keys.NextLesson, m.Keys.Send, m.Keys.Quiz, m.Keys.Down}
}

// FullHelp is the full key list.
func (m Model) FullHelp() [][]key.Binding {
	k := m.Keys
	return [][]key.Binding{{k.Up, k.Down}, {k.PrevLesson, k.NextLesson, k.Send, k.Quiz}, {k.Confirm, k.Cancel}}
}

// View draws the room in w×h.
func (m Model) View() string {
	st, w := m.st, max(20, m.w)
	online, seen := m.snap.Online, m.snap.Seen
	if online == 0 && seen == 0 {
		for _, a := range m.snap.Attendees {
			if a.Sessions > 0 {
				online++
			}
		}
		seen = len(m.snap.Attendees)
	}
	var top []string
	head := fmt.Sprintf("%d connected · %d seen", online, seen)
	if n := len(m.snap.Attendees); n < seen {
		head += fmt.Sprintf(" · %d listed", n)
	}
	if m.snap.Seed != "" {
		head += " · quiz seed " + trunc(m.snap.Seed, 24)
	}
	top = append(top, st.Heading.Render("Attendees")+"  "+st.Faint.Render(head))
	top = append(top, st.Faint.Render(layout.Pad(fmt.Sprintf("  %-22s %-26s %9s %5s %6s", "who", "where", "first try", "done", "quiz"), w)))

	// The bottom: the lesson chooser, the limits, the question asked.
	var bottom []string
	bottom = append(bottom, m.missedLines(w)...)
	if m.snap.Limits != "" {
		bottom = append(bottom, st.Warn.Render(trunc(styles.Warn+" "+m.snap.Limits, w)))
	}
	bottom = append(bottom, m.chooser(w))

	room := max(1, m.h-len(top)-len(bottom)-1)
	var rows []string
	for i, a := range m.snap.Attendees {
		if i < m.scroll {
			continue
		}
		if len(rows) == room {
			break
		}
		mark := st.OK.Render("●")
		if a.Sessions == 0 {
			mark = st.Faint.Render("○")
		}
		score := "–"
		if a.Answered > 0 {
			score = fmt.Sprintf("%d/%d", a.Right, a.Answered)
		}
		line := fmt.Sprintf(" %-22s %-26s %9s %5d %6s", trunc(a.Name, 22), trunc(a.Where, 26), trunc(score, 9), a.LessonsDone, trunc(dash(a.Quiz), 6))
		rows = append(rows, mark+layout.Truncate(line, w-1))
	}
	if len(m.snap.Attendees) == 0 {
		rows = append(rows, st.Faint.Render("  nobody yet: attendees connect with ssh -p PORT HOST"))
	}
	for len(rows) < room {
		rows = append(rows, "")
	}
	return layout.Fit(strings.Join(append(append(append(top, rows...), ""), bottom...), "\n"), m.w, m.h)
}

func (m Model) missedLines(w int) []string {
	st := m.st
	if len(m.snap.Missed) == 0 {
		return []string{st.Heading.Render("Most missed") + "  " + st.Faint.Render("no wrong first answers yet"), ""}
	}
	lines := []string{st.Heading.Render("Most missed")}
	for i, ms := range m.snap.Missed {
		if i == 3 {
			break
		}
		lines = append(lines, layout.Truncate(fmt.Sprintf(" %s %s %s", st.Bad.Render(fmt.Sprintf("%d/%d wrong", ms.Wrong, ms.Answers)), styles.Bullet, trunc(ms.Where, w)), w))
		var picks []string
		for i, c := range ms.Choices {
			if i == MaxChoices {
				picks = append(picks, fmt.Sprintf("%d more", len(ms.Choices)-i))
				break
			}
			picks = append(picks, fmt.Sprintf("%d× %s", c.Count, trunc(c.Label, 60)))
		}
		if len(picks) > 0 {
			lines = append(lines, st.Faint.Render(layout.Truncate("   chose: "+strings.Join(picks, " · "), w)))
		}
	}
	return append(lines, "")
}

func (m Model) chooser(w int) string {
	st := m.st
	if m.ask != nil {
		return st.Warn.Render(layout.Truncate("Send "+trunc(m.describe(*m.ask), w)+"? y sends · n cancels", w))
	}
	if m.notice != "" {
		return st.OK.Render(layout.Truncate(styles.OK+" "+m.notice, w))
	}
	if len(m.snap.Lessons) == 0 {
		return ""
	}
	l := m.snap.Lessons[m.lesson]
	return layout.Truncate(st.Bold.Render("Send everyone to: ")+st.Accent.Render("‹ ")+
		fmt.Sprintf("%d %s", m.lesson+1, trunc(l.Title, w))+st.Accent.Render(" ›")+st.Faint.Render("  enter sends · Q opens the quiz for all"), w)
}

// trunc is attendee or pack text as the view shows it: escaped (no
// control or invisible character reaches the terminal), on one line, at
// most n cells.
func trunc(s string, n int) string {
	if len(s) > 4*n+16 {
		s = s[:4*n+16] // a cell takes at most 4 bytes: the rest is cut anyway
	}
	return layout.Truncate(strings.NewReplacer("\n", " ", "\t", " ").Replace(termsafe.Escape(s)), n)
}

func dash(s string) string {
	if s == "" {
		return "–"
	}
	return s
}
