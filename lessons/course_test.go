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
