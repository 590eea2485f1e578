package progress

// The score of a lesson is its first answers: the answer a learner gives
// first to a question is the one scored, whatever they try after it, and
// a lesson is complete when every question has one.

// RecordFirst notes an answer to the question at step, as Record does,
// and keeps the option picked when it is the step's first answer.
func (l *Lesson) RecordFirst(step int, option string, correct bool) Answer {
	_, seen := l.Answers[step]
	a := l.Record(step, correct)
	if !seen {
		a.Picked = option
		l.Answers[step] = a
	}
	return a
}

// Tally is a lesson's score against its steps.
type Tally struct {
	// Questions are the lesson's question steps, Answered those with a
	// scored answer, Right those whose first answer was right.
	Questions, Answered, Right int
}

// Complete reports whether every question has a scored answer.
func (t Tally) Complete() bool { return t.Answered >= t.Questions }

// Tally scores the lesson; questions[i] is true when step i asks a
// question (as Course.Lessons has it). Answers to steps that ask no
// question (a file from an older course) do not count.
func (l *Lesson) Tally(questions []bool) Tally {
	var t Tally
	for i, q := range questions {
		if !q {
			continue
		}
		t.Questions++
		if a, ok := l.Answers[i]; ok {
			t.Answered++
			if a.FirstTry {
				t.Right++
			}
		}
	}
	return t
}
