package e2e

import (
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestSandboxInATerminal builds a two-controller race by keys at 100×30:
// the home screen's Sandbox entry, both controllers' write switched to
// update-clear-rv with →, then, in the race tab, the schedule a b a b —
// and the lost field must be marked on the timeline and in the object.
// An undo takes the losing write back.
func TestSandboxInATerminal(t *testing.T) {
	needTmux(t)
	bin := build(t)
	tm := start(t, bin, t.TempDir(), filepath.Join(t.TempDir(), "trace"), 100, 30)
	tm.waitFor(10*time.Second, "Start the course", "Sandbox — build a race of your own")
	for i := 0; i < 20; i++ { // the Sandbox entry is the last: the cursor stops there
		tm.send("Down")
	}
	tm.send("Enter")
	tm.waitFor(5*time.Second, "Sandbox · build", "write         update")
	for i := 0; i < 7; i++ { // a's write
		tm.send("Down")
	}
	tm.send("Right")
	tm.waitFor(5*time.Second, "‹ update-clear-rv ›", "PUT of the whole object with the RV removed")
	for i := 0; i < 9; i++ { // b's write
		tm.send("Down")
	}
	tm.send("Right")
	s := tm.waitFor(5*time.Second, "b: read lister · set data.count=(value read)+1 · update-clear-rv")
	if strings.Count(s, "update-clear-rv") < 3 {
		t.Fatalf("both writes should be update-clear-rv:\n%s", s)
	}
	tm.send("Tab")
	tm.waitFor(5*time.Second, "1/a", "next: read its Lister")
	tm.send("a", "b", "a")
	s = tm.waitFor(5*time.Second, "3 turns taken", "next: UPDATE cm1 no rv")
	if strings.Contains(s, "LOST") {
		t.Fatalf("nothing is lost before b's write:\n%s", s)
	}
	tm.send("b")
	tm.waitFor(5*time.Second, "└ ✗ LOST data.owner: a's change erased by this write",
		"✗ LOST data.owner — a's change, erased by b at step 6", "LOST (a's change)", "race over after 4 turns")
	tm.send("u")
	s = tm.waitFor(5*time.Second, "3 turns taken")
	if strings.Contains(s, "LOST") {
		t.Fatalf("undo left the loss on screen:\n%s", s)
	}
	tm.send("q")
}
