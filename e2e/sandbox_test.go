package e2e

import (
	"os/exec"
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
	for i := 0; i < 25; i++ { // the last entry (Exercises): the cursor stops there
		tm.send("Down")
	}
	tm.send("Up") // Sandbox, the entry above it
	tm.waitFor(5*time.Second, "─ Sandbox ─")
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
	s := tm.waitFor(5*time.Second, "b: read lister · increment data.count · update-clear-rv")
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

// TestSharedLevelInATerminal opens a level from its text at 80×24, as an
// attendee pastes it from a slide: the goal is on the stage, the moves
// are counted against par, and the order that meets it solves it. The
// share panel then gives the race's text back, hard-wrapped, and the
// lines copied off the screen are the same level.
func TestSharedLevelInATerminal(t *testing.T) {
	needTmux(t)
	bin := build(t)
	text := levelText(t, bin, "../level/testdata/break-lost-update.yaml")
	tm := start(t, bin+" sandbox --level "+text, t.TempDir(), filepath.Join(t.TempDir(), "trace"), 80, 24)
	tm.waitFor(10*time.Second, "challenge: Two writers, one version", "Goal: Find an order of steps that loses a field.", "moves 0 · par 4")
	tm.send("a", "b", "a", "b")
	tm.waitFor(5*time.Second, "Solved with 4 moves (par 4)")
	tm.send("t")
	s := tm.waitFor(5*time.Second, "Share Two writers, one version as a level", "break it, par 4")
	var copied strings.Builder
	for _, l := range strings.Split(s, "\n") {
		l = strings.TrimSpace(l)
		if strings.HasPrefix(l, "clab1:") || copied.Len() > 0 && l != "" && !strings.Contains(l, " ") {
			copied.WriteString(l)
		} else if copied.Len() > 0 {
			break
		}
	}
	if copied.String() != text {
		t.Fatalf("the text copied off the screen is not the level's:\n%s\n%s", copied.String(), text)
	}
	tm.send("Escape")
	tm.send("q")
}

// levelText is `conflictlab level encode FILE`.
func levelText(t *testing.T, bin, file string) string {
	t.Helper()
	out, err := exec.Command(bin, "level", "encode", file).Output()
	if err != nil {
		t.Fatalf("level encode: %v", err)
	}
	return strings.TrimSpace(string(out))
}
