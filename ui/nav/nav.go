// Package nav holds the messages screens send to the root model to move
// between screens, so that screens need not know each other.
package nav

// Open opens a lesson at a step.
type Open struct {
	LessonID string
	Step     int
}

// Home goes back to the home screen.
type Home struct{}

// ProgressChanged asks the root to save the progress.
type ProgressChanged struct{}

// OpenQuiz opens the quiz screen (where it was left, if a quiz is under way).
type OpenQuiz struct{}

// OpenSandbox opens the sandbox (as it was left, if it was open before).
type OpenSandbox struct{}
