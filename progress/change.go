package progress

// A Change is one thing the learner did that progress keeps. The screens
// of the tutorial read the Progress and never write it: they send what
// changed, and the program's root applies it (Apply) and saves a copy
// (Clone), so that the progress is written in one place, one change at a
// time, in the order the changes arrive.
//
// Each change is written so that applying it is right whatever the
// screen saw before it: a screen may send two before the first is
// applied (two answers typed ahead), and the first answer to arrive is
// the one scored.
type Change interface{ apply(*Progress) }

// Apply applies c to p.
func (p *Progress) Apply(c Change) { c.apply(p) }

// Visit: the learner is at Step of Lesson (len(Steps) is its summary);
// Done marks the lesson done (it stays done). The lesson becomes the one
// "continue" goes back to.
type Visit struct {
	Lesson string
	Step   int
	Done   bool
}

func (v Visit) apply(p *Progress) {
	p.Last = v.Lesson
	l := p.Lesson(v.Lesson)
	l.Step = v.Step
	l.Done = l.Done || v.Done
}

// Answered: Option (by ID) was given as the answer to the question at
// Step of Lesson. The first answer to a question is the one scored; the
// answers after it count as tries until one is right, and none after a
// right one changes anything.
type Answered struct {
	Lesson  string
	Step    int
	Option  string
	Correct bool
}

func (a Answered) apply(p *Progress) {
	l := p.Lesson(a.Lesson)
	switch prev, seen := l.Answers[a.Step]; {
	case !seen:
		l.RecordFirst(a.Step, a.Option, a.Correct)
	case !prev.Correct:
		l.Record(a.Step, a.Correct)
	}
}

// Played: the play step at Step of Lesson was solved in Moves moves
// (break) or changes (fix), against Par (RecordPlay).
type Played struct {
	Lesson     string
	Step       int
	Moves, Par int
}

func (pl Played) apply(p *Progress) { p.Lesson(pl.Lesson).RecordPlay(pl.Step, pl.Moves, pl.Par) }

// QuizTaken: a quiz on Topic ("" is every question) ended with Right of
// Total right (RecordQuiz).
type QuizTaken struct {
	Topic        string
	Right, Total int
}

func (q QuizTaken) apply(p *Progress) { p.RecordQuiz(q.Topic, q.Right, q.Total) }

// ChallengeSolved: the sandbox's challenge ID was solved with Score
// (RecordChallenge).
type ChallengeSolved struct {
	ID    string
	Score int
}

func (c ChallengeSolved) apply(p *Progress) { p.RecordChallenge(c.ID, c.Score) }

// ExercisePassed: the code exercise ID's check passed (RecordExercise).
type ExercisePassed struct{ ID string }

func (e ExercisePassed) apply(p *Progress) { p.RecordExercise(e.ID) }

// Clone is a deep copy of p, for a save or an observer to keep while p
// goes on changing.
func (p *Progress) Clone() *Progress { return p.clone() }

// Peek is the record of lesson id, or an empty one when the learner has
// not been there (it is not added: Peek only reads).
func (p *Progress) Peek(id string) *Lesson {
	if l := p.Lessons[id]; l != nil {
		return l
	}
	return &Lesson{}
}

// BeatenBy reports whether a quiz with right of total right would be the
// topic's new best, as RecordQuiz decides it.
func (b QuizBest) BeatenBy(right, total int) bool { return total > 0 && b.beats(right, total) }

// Beats reports whether score would be challenge id's new best, as
// RecordChallenge decides it (a first solve counts).
func (p *Progress) Beats(id string, score int) bool {
	c, ok := p.Challenges[id]
	return !ok || c == nil || score < c.Best
}
