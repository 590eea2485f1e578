package report

import (
	"fmt"
	"strings"
	"testing"

	"github.com/conflictlab/conflictlab/sim/race"
	"github.com/conflictlab/conflictlab/sim/scenario"
)

// The timeline numbers its rows from 1, as the race view does, and every
// "step N" it prints names the row of that number: the version's write
// and the write that erased a lost field.
func TestTextRowsAreNumberedAsOnScreen(t *testing.T) {
	o := outcomeOf(t, "../../examples/lost-update-unconditional.yaml")
	if len(o.Lost) == 0 {
		t.Fatal("the example loses nothing: pick one that does")
	}
	var b strings.Builder
	if err := Text(&b, o); err != nil {
		t.Fatal(err)
	}
	rows := map[int]string{}
	for _, line := range strings.Split(b.String(), "\n") {
		var n, ms int
		if _, err := fmt.Sscanf(line, "%d %dms", &n, &ms); err == nil {
			rows[n] = line
		}
	}
	if len(rows) != len(o.Steps) || rows[0] != "" || rows[1] == "" || rows[len(o.Steps)] == "" {
		t.Fatalf("want rows 1..%d, got %d rows:\n%s", len(o.Steps), len(rows), b.String())
	}
	l := o.Lost[0]
	erasing := Call(o.Steps[l.ErasedAtStep])
	want := fmt.Sprintf("erased by %s at step %d ", l.ErasedBy, l.ErasedAtStep+1)
	if !strings.Contains(b.String(), want) || !strings.Contains(rows[l.ErasedAtStep+1], erasing) {
		t.Fatalf("the loss names %q, which must be the row holding %q:\n%s", want, erasing, b.String())
	}
	for _, v := range o.Versions {
		if v.Step < 0 {
			continue
		}
		if !strings.Contains(b.String(), fmt.Sprintf("%-8s step %d ", v.Actor, v.Step+1)) || !strings.Contains(rows[v.Step+1], "→ RV "+v.RV) {
			t.Errorf("version RV %s: its step is not its row:\n%s", v.RV, b.String())
		}
	}
}

// outcomeOf runs a scenario file in its default order.
func outcomeOf(t *testing.T, file string) *race.Outcome {
	t.Helper()
	sc, err := scenario.Load(file)
	if err != nil {
		t.Fatal(err)
	}
	o, err := race.Run(sc, race.Schedule{})
	if err != nil {
		t.Fatal(err)
	}
	return o
}
