package player

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/conflictlab/conflictlab/lessons"
	"github.com/conflictlab/conflictlab/ui/keyhelp"
	"github.com/conflictlab/conflictlab/ui/layout"
	"github.com/conflictlab/conflictlab/ui/markdown"
	"github.com/conflictlab/conflictlab/ui/nav"
	"github.com/conflictlab/conflictlab/ui/styles"
)

// summary is the end of the lesson: the two-line take-away, the score,
// and what comes next.
type summary struct {
	f    frame
	next *lessons.Lesson
}

func newSummary(f frame, next *lessons.Lesson) step {
	f.code.Show("")
	return summary{f: f, next: next}
}

func (s summary) Update(msg tea.Msg) (step, tea.Cmd) {
	kp, ok := msg.(tea.KeyPressMsg)
	if !ok || !s.Owns(kp) {
		return s, nil
	}
	if s.next != nil {
		id := s.next.ID
		step := 0
		if r, ok := s.f.env.prog.Lessons[id]; ok && !r.Done {
			step = r.Step
		}
		return s, nav.Send(nav.Open{LessonID: id, Step: step})
	}
	return s, nav.Send(nav.Home{})
}

// Owns: enter and n open the next lesson (or go back to the lessons).
func (s summary) Owns(msg tea.KeyPressMsg) bool {
	k := s.f.keys()
	return key.Matches(msg, k.Answer) || key.Matches(msg, k.Next)
}

func (s summary) View() string {
	f := s.f
	st := f.st
	w := min(f.w, 100)
	env := f.env
	var lines []string
	if tallyOf(env).Complete() {
		lines = append(lines, st.OK.Render(styles.OK+" Lesson complete: ")+st.Title.Render(env.lesson.Title), "")
	} else {
		lines = append(lines, st.Warn.Render(styles.Warn+" Not complete yet: ")+st.Title.Render(env.lesson.Title), "")
	}
	lines = append(lines, st.Heading.Render("Take-away"))
	for _, t := range env.lesson.Summary {
		// The lead takes four columns and the renderer keeps a margin of its own.
		wrapped := layout.Lines(markdown.Render(t, st.Markdown, w-8))
		for i, l := range wrapped {
			lead := "  " + styles.Bullet + " "
			if i > 0 {
				lead = "    "
			}
			lines = append(lines, lead+l)
		}
	}
	lines = append(lines, "")
	lines = append(lines, scoreLines(env, st, w)...)
	lines = append(lines, playLines(env, st, w)...)
	lines = append(lines, "")
	if s.next != nil {
		lines = append(lines, st.Accent.Render("enter")+": next lesson — "+s.next.Title)
	} else {
		lines = append(lines, st.Accent.Render("enter")+": back to the lessons — that was the last one so far")
	}
	lines = append(lines, st.Faint.Render("p: back to the last step · esc: lessons"))
	for i, l := range lines {
		lines[i] = " " + l
	}
	block := strings.Join(lines, "\n")
	return layout.Fit(layout.Width(block, f.w), f.w, f.h)
}

func (s summary) ShortHelp() []key.Binding {
	k := s.f.keys()
	desc := "back to lessons"
	if s.next != nil {
		desc = "next lesson"
	}
	return []key.Binding{withHelp(k.Answer, "enter", desc), k.Prev}
}

// HelpGroups: the summary's key bar is every key it has.
func (s summary) HelpGroups() []keyhelp.Group {
	return []keyhelp.Group{{Title: "Lesson", Keys: s.ShortHelp()}}
}

func (s summary) SetSize(w, h int) step {
	s.f.setSize(w, h)
	return s
}

func (s summary) SetStyles(st *styles.Styles) step {
	s.f.setStyles(st)
	return s
}

func (s summary) TakesKey(tea.KeyPressMsg) bool { return false }
func (s summary) Frame() frame                  { return s.f }
func (s summary) Refresh(Live) step             { return s }
func (s summary) Stop()                         {}

// Answered: only a question before its answer takes one.
func (s summary) Answered() (answer, bool) { return answer{}, false }
