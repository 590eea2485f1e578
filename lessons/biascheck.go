package lessons

import (
	"fmt"
	"unicode/utf8"
)

// An answer must be earned, not spotted. A learner soon notices when the
// right option is the longest one (the only one that bothered to give a
// reason) or always sits in the same place, and then answers without
// reading the race. Warnings reports a pack whose questions lean that way.
//
// The rule, over the questions with exactly one right option and at least
// two options (a question with several right answers gives nothing away
// by position or length):
//
//   - longest: the right label is strictly the longest of its question in
//     more than half of the pack's questions (chance is one in the number
//     of options: a third for the usual three), once the pack has at least
//     BiasMinQuestions of them;
//   - position: more than half of the pack's right answers sit at one
//     position, with the same minimum; and within one lesson of at least
//     three such questions, every right answer sits at the same position.

// BiasMinQuestions is how many questions the pack-wide rules need before
// they judge: with fewer, a pattern is as likely chance as habit.
const BiasMinQuestions = 6

// Warnings returns the pack's answer-bias warnings (nil when none). They
// do not make a pack invalid; the built-in course is tested to have none.
func (p *Pack) Warnings() []error {
	var out []error
	type q struct {
		l       *Lesson
		step    int
		right   int
		longest bool
	}
	var all []q
	for _, l := range p.Lessons {
		var mine []q
		for i, s := range l.Steps {
			if s.Kind != Predict && s.Kind != Choose || len(s.Options) < 2 {
				continue
			}
			right, n := -1, 0
			for k, o := range s.Options {
				if o.Correct {
					right, n = k, n+1
				}
			}
			if n != 1 {
				continue
			}
			longest := true
			rl := utf8.RuneCountInString(s.Options[right].Label)
			for k, o := range s.Options {
				if k != right && utf8.RuneCountInString(o.Label) >= rl {
					longest = false
				}
			}
			mine = append(mine, q{l, i, right, longest})
		}
		if len(mine) >= 3 {
			same := true
			for _, x := range mine {
				same = same && x.right == mine[0].right
			}
			if same {
				out = append(out, &Error{File: l.File, Field: "steps", Msg: fmt.Sprintf(
					"warning: the right answer is option %d in all %d questions of this lesson: vary its position", mine[0].right+1, len(mine))})
			}
		}
		all = append(all, mine...)
	}
	if len(all) < BiasMinQuestions {
		return out
	}
	longest := 0
	at := map[int]int{}
	for _, x := range all {
		if x.longest {
			longest++
		}
		at[x.right]++
	}
	if 2*longest > len(all) {
		out = append(out, &Error{File: ".", Msg: fmt.Sprintf(
			"warning: the right answer has the longest label in %d of %d questions: give the wrong options their reasons too", longest, len(all))})
	}
	for pos, n := range at {
		if 2*n > len(all) {
			out = append(out, &Error{File: ".", Msg: fmt.Sprintf(
				"warning: the right answer is option %d in %d of %d questions: vary its position", pos+1, n, len(all))})
		}
	}
	return out
}
