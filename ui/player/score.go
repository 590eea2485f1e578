package player

import (
	"fmt"
	"strings"

	"github.com/conflictlab/conflictlab/lessons"
	"github.com/conflictlab/conflictlab/progress"
	"github.com/conflictlab/conflictlab/ui/layout"
	"github.com/conflictlab/conflictlab/ui/play"
	"github.com/conflictlab/conflictlab/ui/raceview"
	"github.com/conflictlab/conflictlab/ui/styles"
)

// Predict, observe, explain: the first answer to a question is scored,
// then the race plays, and the text says what was predicted beside what
// happened and which row of the race decides it.

// questionSteps marks a lesson's question steps (predict, choose and
// play), the steps that are scored, as progress.Lesson.Tally takes them.
func questionSteps(l *lessons.Lesson) []bool {
	out := make([]bool, len(l.Steps))
	for i, s := range l.Steps {
		out[i] = s.Kind == lessons.Predict || s.Kind == lessons.Choose || s.Kind == lessons.Play
	}
	return out
}

// firstWrong reports whether the step's scored answer was wrong.
func (m Model) firstWrong() bool {
	a, ok := m.rec().Answers[m.step]
	return ok && m.answered && !a.FirstTry
}

func (m Model) tally() progress.Tally { return m.rec().Tally(questionSteps(m.lesson)) }

// firstUnanswered is the first question step without a scored answer (0
// when there is none).
func (m Model) firstUnanswered() int {
	for i, q := range questionSteps(m.lesson) {
		if _, ok := m.rec().Answers[i]; q && !ok {
			return i
		}
	}
	return 0
}

// verdictLine judges the answer on show and, on a predict step, sets
// it against what happened: "✗ Not quite. You predicted: … · what
// happened: …". An answer tried after the scored one says so.
func (m Model) verdictLine(s *lessons.Step, w int) []string {
	st := m.st
	o := s.Options[m.picked]
	verdict := st.OK.Render(styles.OK + " Correct.")
	if !o.Correct {
		verdict = st.Bad.Render(styles.Bad + " Not quite.")
	}
	switch {
	case m.first >= 0 && m.picked != m.first:
		verdict += st.Faint.Render(fmt.Sprintf(" (The score keeps your first answer, %d.)", m.first+1))
	case m.first < 0 && m.firstWrong():
		// A record from before the option was kept: which answer came
		// first is not known, only that it was wrong.
		verdict += st.Faint.Render(" (Your first answer, the one scored, was wrong.)")
	}
	switch {
	case s.Kind == lessons.Choose:
		verdict += st.Faint.Render(" The race on the stage is this strategy's.")
	case !o.Correct:
		for _, r := range s.Options {
			if r.Correct {
				verdict += " You predicted: " + o.Label + " · what happened: " + r.Label
				break
			}
		}
	}
	return layout.Lines(layout.Wrap(verdict, w))
}

// deciding is the row of the race on the stage that decides it, once the
// race is shown.
func (m Model) deciding() (raceview.Deciding, bool) {
	if m.race.Hidden() {
		return raceview.Deciding{}, false
	}
	return m.race.Run().DecidingRow()
}

// decidingLines point the explanation at the deciding row, or say the
// race is coming.
func (m Model) decidingLines(w int) []string {
	s := m.cur()
	if s == nil || s.Race == nil || !m.answered {
		return nil
	}
	d, ok := m.deciding()
	if !ok {
		if m.race.Run() == nil || m.race.Hidden() {
			return layout.Lines(layout.Wrap(m.st.Faint.Render("The race plays on the stage: watch for it."), w))
		}
		return nil
	}
	text := m.st.Accent.Render(fmt.Sprintf("Row %d decides it", d.Row)) + m.st.Faint.Render(" (g selects it)") + ": " + d.What + "."
	return layout.Lines(layout.Wrap(text, w))
}

// scoreLines are the summary's score: the first answers right, and, when
// questions were skipped, which ones are still open.
func (m Model) scoreLines(w int) []string {
	t := m.tally()
	if t.Questions == 0 {
		return nil
	}
	// The first answer is the one scored: "on the first try" is the score.
	questions := "questions"
	if t.Questions == 1 {
		questions = "question"
	}
	score := fmt.Sprintf("Score: %d of %d %s right on the first try.", t.Right, t.Questions, questions)
	if !t.Complete() {
		score = fmt.Sprintf("Score so far: %d of %d %s answered, %d right on the first try.", t.Answered, t.Questions, questions, t.Right)
	}
	out := layout.Lines(layout.Wrap(score, w-2))
	if t.Complete() {
		return out
	}
	var open []string
	for i, q := range questionSteps(m.lesson) {
		if _, ok := m.rec().Answers[i]; q && !ok {
			open = append(open, fmt.Sprintf("%d", i+1))
		}
	}
	word := "Step"
	if len(open) > 1 {
		word = "Steps"
	}
	msg := fmt.Sprintf("%s %s still to answer: the lesson is done when every question has its answer.", word, joinAnd(open))
	return append(out, layout.Lines(layout.Wrap(m.st.Warn.Render(msg), w-2))...)
}

func joinAnd(s []string) string {
	if len(s) < 2 {
		return strings.Join(s, "")
	}
	return strings.Join(s[:len(s)-1], ", ") + " and " + s[len(s)-1]
}

// playBlock ends a play step's text: what to do on the stage, or how it
// was solved; the hint and the solution.
func (m Model) playBlock(tb textBlock, lines []string, w int) textBlock {
	st := m.st
	s := m.cur()
	tb.optEnd = len(lines)
	lines = append(lines, "")
	tb.feedback = len(lines)
	word := "move"
	if s.Goal != nil && !s.Goal.IsBreak() {
		word = "change"
	}
	if a, ok := m.rec().Answers[m.step]; ok && a.Correct {
		par := 0
		if s.Goal != nil {
			par = s.Goal.Par
		}
		text := st.OK.Render(styles.OK+" Solved.") + fmt.Sprintf(" Best: %s; par %d.", play.Count(a.Best, word), par)
		if a.FirstTry {
			text += st.Faint.Render(" The score counts your first solution: at par.")
		} else {
			text += st.Faint.Render(" The score counts your first solution: over par.")
		}
		lines = append(lines, layout.Lines(layout.Wrap(text, w))...)
	} else if s.Goal != nil && s.Goal.IsBreak() {
		lines = append(lines, layout.Lines(layout.Wrap(st.Faint.Render(
			"On the stage: step the controllers by their keys until the goal is met, in as few moves as you can. ⌫ takes a move back."), w))...)
	} else {
		lines = append(lines, layout.Lines(layout.Wrap(st.Faint.Render(
			"On the stage: ↑↓ pick a setting, ←→ change it, enter proves the settings over every order. Change as few as you can."), w))...)
	}
	tb.lines = m.hintAndSolution(&tb, lines, s, w)
	return tb
}
