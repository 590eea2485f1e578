package progress

import (
	"errors"
	"fmt"
	"maps"
	"slices"
)

// Limits on an imported file: generous for any learner (the whole course
// is a few kilobytes of progress), small enough that a hostile or broken
// file cannot make the tutorial read, hold or draw something huge.
const (
	MaxImportBytes = 1 << 20
	MaxAttempts    = 1000
	MaxQuizzes     = 100000
	MaxChallenge   = 10000
)

// Course is what imported progress is checked against: the course in use
// (the built-in one, or the pack given with --lessons), its quiz and the
// sandbox's challenges.
type Course struct {
	// Lessons lists each lesson's steps by ID: true for a question step
	// (predict or choose), the only steps that have answers.
	Lessons map[string][]bool
	// QuizTopics are the keys a quiz best may have (QuizAll included);
	// QuizQuestions is the bank's size, the most a quiz can ask.
	QuizTopics    map[string]bool
	QuizQuestions int
	// Challenges are the sandbox challenges' IDs.
	Challenges map[string]bool
	// Exercises are the code exercises' IDs (nil: not checked).
	Exercises map[string]bool
}

// Check reports every way p does not fit the course: unknown lessons,
// steps, quiz topics and challenges, and numbers out of range. Each
// problem names its field as a path into the file (lessons.ID.answers.N).
func (p *Progress) Check(c *Course) error {
	var errs []error
	bad := func(field, format string, args ...any) {
		errs = append(errs, fmt.Errorf("%s: %s", field, fmt.Sprintf(format, args...)))
	}
	if p.Last != "" {
		if _, ok := c.Lessons[p.Last]; !ok {
			bad("last", "%q is not a lesson of this course", p.Last)
		}
	}
	for _, id := range slices.Sorted(maps.Keys(p.Lessons)) {
		l, field := p.Lessons[id], "lessons."+id
		steps, ok := c.Lessons[id]
		if !ok {
			bad(field, "%q is not a lesson of this course", id)
			continue
		}
		if l.Step >= len(steps) {
			bad(field+".step", "%d, but the lesson has steps 0 to %d", l.Step, len(steps)-1)
		}
		for _, step := range slices.Sorted(maps.Keys(l.Answers)) {
			a, af := l.Answers[step], fmt.Sprintf("%s.answers.%d", field, step)
			switch {
			case step < 0 || step >= len(steps):
				bad(af, "the lesson has steps 0 to %d", len(steps)-1)
			case !steps[step]:
				bad(af, "step %d asks no question", step)
			case a.Attempts < 1 || a.Attempts > MaxAttempts:
				bad(af+".attempts", "%d is not between 1 and %d", a.Attempts, MaxAttempts)
			case a.FirstTry && !a.Correct:
				bad(af, "firstTry without correct")
			}
		}
	}
	for _, k := range slices.Sorted(maps.Keys(p.Quiz)) {
		b, field := p.Quiz[k], "quiz."+k
		switch {
		case !c.QuizTopics[k]:
			bad(field, "%q is not a quiz topic", k)
		case b.Total < 1 || b.Total > c.QuizQuestions:
			bad(field+".total", "%d is not between 1 and %d (the questions in the bank)", b.Total, c.QuizQuestions)
		case b.Taken < 1 || b.Taken > MaxQuizzes:
			bad(field+".taken", "%d is not between 1 and %d", b.Taken, MaxQuizzes)
		}
	}
	for _, id := range slices.Sorted(maps.Keys(p.Exercises)) {
		if c.Exercises != nil && !c.Exercises[id] {
			bad("exercises."+id, "%q is not a code exercise", id)
		}
	}
	for _, id := range slices.Sorted(maps.Keys(p.Challenges)) {
		field := "challenges." + id
		switch best := p.Challenges[id].Best; {
		case !c.Challenges[id]:
			bad(field, "%q is not a sandbox challenge", id)
		case best < 1 || best > MaxChallenge:
			bad(field+".best", "%d is not between 1 and %d", best, MaxChallenge)
		}
	}
	return errors.Join(errs...)
}
