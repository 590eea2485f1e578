package quiz

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/conflictlab/conflictlab/lessons"
	"github.com/conflictlab/conflictlab/lessons/snippets"
	qz "github.com/conflictlab/conflictlab/quiz"
	"github.com/conflictlab/conflictlab/ui/codepane"
	"github.com/conflictlab/conflictlab/ui/layout"
	"github.com/conflictlab/conflictlab/ui/markdown"
	"github.com/conflictlab/conflictlab/ui/raceview"
	"github.com/conflictlab/conflictlab/ui/stage"
	"github.com/conflictlab/conflictlab/ui/styles"
	"github.com/conflictlab/conflictlab/ui/textpane"
)

// frame is what a question shows, before its answer (ask.go) and after
// it (question.go): its text with the options pinned under it, beside
// (or above) the stage — its race, or its code — and zoom giving the
// stage the whole screen. The panes go on from question to question (the
// race view keeps the speed the learner chose).
type frame struct {
	item qz.Presented
	// cursor is the option under the cursor.
	cursor int
	// text is the question column; reveal is what each layout scrolls
	// into view, until the learner scrolls.
	text   textpane.Model
	reveal reveal
	race   raceview.Model
	code   codepane.Model
	// zoom: the race or the code has the whole screen.
	zoom bool
	// stageErr says why the stage has no race.
	stageErr error
	w, h     int
	st       *styles.Styles
	keys     KeyMap
}

// verdict is what an answered question adds to its frame: the answer and
// how it was given, for the verdict and the keys after it.
type verdict struct {
	res *qz.Result
	// reviewing: the question is seen again from the score; last: it is
	// the quiz's last question.
	reviewing, last bool
	// lesson labels the lesson to review; canOpen says l opens it.
	lesson  string
	canOpen bool
}

// carry is the frame of question p that follows f: the panes go on, the
// question opens unzoomed, at its top, with nothing on the stage yet.
func (f frame) carry(p qz.Presented) frame {
	f.item, f.cursor, f.stageErr = p, 0, nil
	f.reveal, f.zoom = revealTop, false
	f.race.SetRun(nil, false)
	f.code.Show("")
	return f
}

// showCode puts the question's snippet on the stage: without its
// comments until the question is answered (a doc comment or a defect
// remark can name the answer), whole afterwards.
func (f *frame) showCode(src func(string) (string, error), answered bool) {
	f.code.Show("")
	q := f.item.Question
	if q == nil || q.Snippet == "" {
		return
	}
	if src == nil {
		src = snippets.Get
	}
	f.code.Source = src
	if !answered {
		f.code.Source = func(name string) (string, error) {
			s, err := src(name)
			return lessons.SnippetBeforeAnswer(s), err
		}
	}
	f.code.Show(q.Snippet)
}

func (f *frame) setStyles(st *styles.Styles) {
	f.st = st
	f.race.SetStyles(st)
	f.code.SetStyles(st)
	f.text.SetStyles(st)
}

// textBlock is the question column, the lines its options start and end
// at, and the line the verdict is on (len(lines) before the answer).
func (f frame) textBlock(w int, v *verdict) (lines []string, opts, optEnd, verdictAt int) {
	st := f.st
	p := f.item
	q := p.Question
	head := st.Heading.Render(kindLabel(q.Kind))
	if v != nil && v.reviewing {
		head = st.Bad.Render(styles.Bad+" Missed · ") + head
	}
	// The number is in the header too: it goes when the column is narrow.
	if num := st.Faint.Render(fmt.Sprintf(" · question %d of %d", p.Number, p.Total)); layout.MaxWidth(head+num) <= w {
		head += num
	}
	lines = append(lines, layout.Truncate(head, w))
	lines = append(lines, layout.Lines(markdown.Render(q.Text, st.Markdown, w))...)
	if v == nil {
		lines = faint(lines, st, askNotes[q.Kind], w)
	}
	lines = append(lines, "")
	opts = len(lines)
	for i, o := range p.Options {
		mark := ""
		if v != nil {
			switch {
			case i == v.res.Correct:
				mark = st.OK.Render(styles.OK) + " "
			case i == v.res.Chosen:
				mark = st.Bad.Render(styles.Bad) + " "
			default:
				mark = "  "
			}
		}
		cursor := "  "
		if i == f.cursor {
			cursor = st.Accent.Render(styles.Cursor) + " "
		}
		// Continuation lines line up under the text, after "N. ".
		lead := 2 + layout.MaxWidth(mark) + 3
		for j, l := range layout.Lines(layout.Wrap(o.Text, max(8, w-lead))) {
			if j == 0 {
				l = fmt.Sprintf("%d. %s", i+1, l)
			}
			if i == f.cursor {
				l = st.Selected.Render(l)
			}
			if j == 0 {
				lines = append(lines, cursor+mark+l)
			} else {
				lines = append(lines, strings.Repeat(" ", lead)+l)
			}
		}
	}
	optEnd = len(lines)
	verdictAt = len(lines)
	if v != nil {
		lines, verdictAt = f.verdictLines(lines, w, v)
	}
	return lines, opts, optEnd, verdictAt
}

// askNotes say, under a question before its answer, what its stage
// holds back until then.
var askNotes = map[qz.Kind]string{
	qz.Race:   "The race waits at its start until you answer.",
	qz.Method: "Once you answer, the race runs with that write.",
	qz.Bug:    "The code's own comments show once you answer.",
}

// verdictLines add the verdict, the explanation, the lesson to review and
// what enter does next under the options.
func (f frame) verdictLines(lines []string, w int, v *verdict) ([]string, int) {
	st := f.st
	p := f.item
	r := v.res
	lines = append(lines, "")
	verdictAt := len(lines)
	line := st.OK.Render(styles.OK + " Right.")
	if !r.Right {
		// The answer in words too: the options may be scrolled away.
		answer := fmt.Sprintf(" The answer is %d: %s", r.Correct+1, p.Options[r.Correct].Text)
		line = st.Bad.Render(styles.Bad+" Not quite.") + answer
		if v.reviewing {
			line = st.Bad.Render(styles.Bad+fmt.Sprintf(" You answered %d.", r.Chosen+1)) + answer
		}
	}
	lines = append(lines, layout.Lines(layout.Wrap(line, w))...)
	lines = append(lines, layout.Lines(markdown.Render(r.Explanation, st.Markdown, w))...)
	lines = append(lines, f.decidingLines(w)...)
	review := "Lesson to review: " + v.lesson
	if v.canOpen {
		review += st.Faint.Render(" (l opens it)")
	}
	lines = append(lines, layout.Lines(layout.Wrap(review, w))...)
	if p.Question.Kind == qz.Method {
		lines = faint(lines, st, "↑/↓ runs the race with another answer.", w)
	}
	next := "enter: next question"
	switch {
	case v.reviewing:
		next = "enter: back to the score · n/p: next/previous missed"
	case v.last:
		next = "enter: see your score"
	}
	return faint(lines, st, next, w), verdictAt
}

// faint adds text, wrapped at w, in the faint style.
func faint(lines []string, st *styles.Styles, text string, w int) []string {
	for _, l := range layout.Lines(layout.Wrap(text, w)) {
		lines = append(lines, st.Faint.Render(l))
	}
	return lines
}

// paneKey gives a key to the pane it scrolls — the text, the code, the
// race — and reports whether one took it.
func (f *frame) paneKey(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	panes := stage.Panes{Text: &f.text, Code: &f.code, Race: &f.race, TextOn: true, CodeOn: f.item.Question.Snippet != ""}
	cmd, scrolled, ok := panes.Key(msg, f.keys.Text, f.keys.Race)
	if scrolled {
		f.reveal = revealNone
	}
	return cmd, ok
}

// deciding is the row of the race on the stage that decides it, once the
// race is shown.
func (f frame) deciding() (raceview.Deciding, bool) {
	if f.race.Hidden() || f.race.Run() == nil {
		return raceview.Deciding{}, false
	}
	return f.race.Run().DecidingRow()
}

// decidingLines point the explanation at the row of the race that
// decides it (the race view keeps that row on screen), or say the race
// is coming.
func (f frame) decidingLines(w int) []string {
	q := f.item.Question
	if q.Kind != qz.Race && q.Kind != qz.Method {
		return nil
	}
	d, ok := f.deciding()
	if !ok {
		if f.race.Run() == nil && f.stageErr == nil {
			return layout.Lines(layout.Wrap(f.st.Faint.Render("The race plays on the stage: watch for it."), w))
		}
		return nil
	}
	text := f.st.Accent.Render(fmt.Sprintf("Row %d decides it", d.Row)) + f.st.Faint.Render(" (g selects it)") + ": " + d.What + "."
	return layout.Lines(layout.Wrap(text, w))
}

// view draws the question, its text beside or above its stage.
func (f frame) view(v *verdict) string {
	if f.zoom && f.hasStage() {
		return f.viewStage(f.w, f.h, v)
	}
	if !f.hasStage() {
		return layout.Fit(f.text.View(), f.w, f.h)
	}
	if f.wide() {
		lw := f.textWidth()
		rw := f.w - lw - 3
		sep := layout.Fit(strings.TrimSuffix(strings.Repeat(f.st.Border.Render("│")+"\n", f.h), "\n"), 1, f.h)
		return layout.Fit(layout.Beside(f.text.View(), " ", sep, " ", f.viewStage(rw, f.h, v)), f.w, f.h)
	}
	topH := f.textPaneHeight(v)
	stageH := f.h - topH - 1
	return layout.Fit(f.text.View()+"\n"+f.st.Border.Render(strings.Repeat("─", f.w))+"\n"+f.viewStage(f.w, stageH, v), f.w, f.h)
}

func (f frame) viewStage(w, h int, v *verdict) string {
	if h < 2 {
		return layout.Fit("", w, h)
	}
	q := f.item.Question
	var title, body string
	switch {
	case q.Snippet != "":
		title = "code"
		if v != nil { // snippets are named for their defect
			title = "code: " + q.Snippet
		}
		f.code.SetSize(w, h-1)
		body = f.code.View()
	case f.stageErr != nil:
		title = "race"
		body = layout.Fit(f.st.Bad.Render(styles.Bad+" the race could not run: "+f.stageErr.Error()), w, h-1)
	default:
		title = "race " + q.Scenario
		if v != nil && q.Kind == qz.Method {
			who := ", a wrong answer " + styles.Bad
			switch {
			case f.cursor == v.res.Chosen && v.res.Right:
				who = ", your answer " + styles.OK
			case f.cursor == v.res.Chosen:
				who = ", your answer " + styles.Bad
			case f.cursor == v.res.Correct:
				who = ", the answer " + styles.OK
			}
			title += fmt.Sprintf(" · with %d%s", f.cursor+1, who)
		}
		f.race.SetSize(w, h-1)
		body = f.race.View()
	}
	return layout.Fit(layout.Rule(title, w, f.st.Border)+"\n"+body, w, h)
}
