package lessons

import "testing"

// TestCourseClaimsHold is the author's solver over the built-in course:
// every claim of every step holds in the simulator, every correct answer is
// confirmed and every wrong one refuted.
func TestCourseClaimsHold(t *testing.T) {
	p, err := Course()
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Check(); err != nil {
		t.Fatal(err)
	}
}

// TestCourseHasNoAnswerBias: the built-in course's right answers are
// neither systematically the longest nor in one position.
func TestCourseHasNoAnswerBias(t *testing.T) {
	p, err := Course()
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range p.Warnings() {
		t.Error(w)
	}
}
