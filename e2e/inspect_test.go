package e2e

import (
	"strings"
	"testing"
	"time"
)

// TestInspectARowInATerminal opens lesson 1 as a new learner: the race
// view's tour comes first, space ends it and plays the race; i opens the
// selected row's details (request, answer, version, owners), ← moves to
// the row before with the panel open, and i closes it again.
func TestInspectARowInATerminal(t *testing.T) {
	bin := build(t)
	tm := start(t, bin, t.TempDir(), "", 80, 24)
	tm.waitFor(10*time.Second, "Start the course")
	tm.send("Down", "Enter")
	tm.waitFor(10*time.Second, "Versions, not locks · step 1/", "How to read a race")
	tm.send("Space")
	tm.waitFor(20*time.Second, "step 8/8")
	tm.send("i")
	s := tm.waitFor(5*time.Second, "step 8/8 · ", "watch event", "←/→ other row")
	if strings.Contains(s, "How to read a race") {
		t.Fatalf("the tour came back:\n%s", s)
	}
	// Back to a's update: the request with its precondition and the
	// version it produced.
	for i := 0; i < 8 && !strings.Contains(tm.screen(), "UPDATE cm1 rv 10"); i++ {
		tm.send("Left")
		time.Sleep(50 * time.Millisecond)
	}
	tm.waitFor(5*time.Second, "method         UPDATE", "precondition   rv 10")
	// ↓ scrolls the panel to the answer and the version it produced.
	tm.send("Down", "Down", "Down", "Down", "Down", "Down", "Down", "Down")
	tm.waitFor(5*time.Second, "code           200 OK", "version it produced", "managedFields:")
	tm.send("i")
	tm.waitFor(5*time.Second, "‖ paused · step", "who: request → answer")
}
