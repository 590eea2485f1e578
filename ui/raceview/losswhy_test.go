package raceview

import (
	"strings"
	"testing"
)

// A loss nobody fought over is told by its reason: lesson 14 step 1's
// field dropped by its own manager's next apply (first and next are two
// reconciles of ctl), and step 4's zero value a typed struct sent — not
// as one controller's change erased by another.
func TestLossToldByItsReason(t *testing.T) {
	for _, c := range []struct {
		step      int
		want, bad string
	}{
		{1, "applied as ctl, the field manager that had set it, and left it out", "change erased by this write"},
		{4, "named it in its body, as 0", "change erased by this write"},
	} {
		r := courseRace(t, 14, c.step)
		m := newView(r, false)
		m.SetIndex(len(r.Outcome.Steps) - 1)
		flat := strings.Join(strings.Fields(view(m, 79, 40)), " ")
		if !strings.Contains(flat, c.want) || strings.Contains(flat, c.bad) {
			t.Errorf("lesson 14 step %d: want %q, not %q:\n%s", c.step, c.want, c.bad, view(m, 79, 40))
		}
	}
}
