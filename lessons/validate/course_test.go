package validate

import (
	"testing"

	"github.com/conflictlab/conflictlab/lessons"
	"github.com/conflictlab/conflictlab/lessons/lint"
)

// TestCourseClaimsHold is the author's solver over the built-in course:
// every claim of every step holds in the simulator, every correct answer is
// confirmed and every wrong one refuted.
func TestCourseClaimsHold(t *testing.T) {
	p, err := lessons.Course()
	if err != nil {
		t.Fatal(err)
	}
	if err := Check(p); err != nil {
		t.Fatal(err)
	}
}

// TestCourseHasNoAnswerBias: the built-in course's right answers are
// neither systematically the longest nor in one position.
func TestCourseHasNoAnswerBias(t *testing.T) {
	p, err := lessons.Course()
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range lint.Bias(p) {
		t.Error(w)
	}
}
