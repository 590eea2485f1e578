package player

import (
	"fmt"
	"strings"

	"github.com/conflictlab/conflictlab/lessons"
	"github.com/conflictlab/conflictlab/progress"
	"github.com/conflictlab/conflictlab/ui/layout"
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

func tallyOf(env *lessonEnv) progress.Tally { return env.rec().Tally(questionSteps(env.lesson)) }

// firstUnanswered is the first question step without a scored answer (0
// when there is none).
func firstUnanswered(env *lessonEnv) int {
	for i, q := range questionSteps(env.lesson) {
		if _, ok := env.rec().Answers[i]; q && !ok {
			return i
		}
	}
	return 0
}

// verdictLine judges the answer on show and, on a predict step, sets
// it against what happened: "✗ Not quite. You predicted: … · what
// happened: …". An answer tried after the scored one says so.
func (a answered) verdictLine(w int) []string {
	st, s := a.f.st, a.f.s
	o := s.Options[a.q.picked]
	verdict := st.OK.Render(styles.OK + " Correct.")
	if !o.Correct {
		verdict = st.Bad.Render(styles.Bad + " Not quite.")
	}
	switch {
	case a.q.first >= 0 && a.q.picked != a.q.first:
		verdict += st.Faint.Render(fmt.Sprintf(" (The score keeps your first answer, %d.)", a.q.first+1))
	case a.q.first < 0 && a.firstWrong():
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
func deciding(f frame) (raceview.Deciding, bool) {
	if f.race.Hidden() || f.race.Run() == nil {
		return raceview.Deciding{}, false
	}
	return f.race.Run().DecidingRow()
}

// decidingLines point the explanation at the deciding row, or say the
// race is coming.
func decidingLines(f frame, w int) []string {
	if f.s.Race == nil {
		return nil
	}
	d, ok := deciding(f)
	if !ok {
		if f.race.Run() == nil || f.race.Hidden() {
			return layout.Lines(layout.Wrap(f.st.Faint.Render("The race plays on the stage: watch for it."), w))
		}
		return nil
	}
	text := f.st.Accent.Render(fmt.Sprintf("Row %d decides it", d.Row)) + f.st.Faint.Render(" (g selects it)") + ": " + d.What + "."
	return layout.Lines(layout.Wrap(text, w))
}

// scoreLines are the summary's score: the first answers right, and, when
// questions were skipped, which ones are still open.
func scoreLines(env *lessonEnv, st *styles.Styles, w int) []string {
	t := tallyOf(env)
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
	// A play step unsolved is "to solve", not "to answer": the play
	// lines under the score name it too.
	var answer, solve []string
	for i, q := range questionSteps(env.lesson) {
		if _, ok := env.rec().Answers[i]; q && !ok {
			if env.lesson.Steps[i].Kind == lessons.Play {
				solve = append(solve, fmt.Sprintf("%d", i+1))
			} else {
				answer = append(answer, fmt.Sprintf("%d", i+1))
			}
		}
	}
	var parts []string
	if len(answer) > 0 {
		parts = append(parts, stepsWord(answer)+" "+joinAnd(answer)+" still to answer")
	}
	if len(solve) > 0 {
		parts = append(parts, stepsWord(solve)+" "+joinAnd(solve)+" still to solve")
	}
	msg := strings.Join(parts, "; ") + ": the lesson is done when every question is answered and every play step solved."
	return append(out, layout.Lines(layout.Wrap(st.Warn.Render(msg), w-2))...)
}

func stepsWord(s []string) string {
	if len(s) > 1 {
		return "Steps"
	}
	return "Step"
}

func joinAnd(s []string) string {
	if len(s) < 2 {
		return strings.Join(s, "")
	}
	return strings.Join(s[:len(s)-1], ", ") + " and " + s[len(s)-1]
}

// playLines are the summary's play steps: each one's best against par,
// or that it is not solved yet.
func playLines(env *lessonEnv, st *styles.Styles, w int) []string {
	var out []string
	for i, s := range env.lesson.Steps {
		if s.Kind != lessons.Play || s.Goal == nil {
			continue
		}
		unit := "move"
		if !s.Goal.IsBreak() {
			unit = "change"
		}
		text := fmt.Sprintf("Play, step %d (%s): not solved yet.", i+1, s.Title)
		if a, ok := env.rec().Answers[i]; ok && a.Correct {
			text = fmt.Sprintf("Play, step %d (%s): best %s, par %d.", i+1, s.Title, count(a.Best, unit), s.Goal.Par)
		}
		out = append(out, layout.Lines(layout.Wrap(text, w-2))...)
	}
	return out
}

// count is n and the noun, in number: "1 move", "4 moves".
func count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
