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
