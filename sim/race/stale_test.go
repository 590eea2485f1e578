package race

import (
	"strings"
	"testing"

	"github.com/conflictlab/conflictlab/sim/controller"
	"github.com/conflictlab/conflictlab/sim/scenario"
)

// The scaler sets data.replicas to 5 when data.load reads "high"; load
// sets data.load to "low" from a live read.
func TestStaleDecisionIsItsOwnVerdict(t *testing.T) {
	scaler := prog("scaler", controller.MergePatch, set("data.replicas", "5"))
	scaler.Program.Mutations[0].When = &controller.Condition{Path: controller.MustPath("data.load"), Equals: "high"}
	load := prog("load", controller.MergePatch, set("data.load", "low"))
	load.Program.Read = controller.FromLive
	sc := twoWriters(configMap(map[string]any{"load": "high", "replicas": "2"}), scaler, load)

	// The scaler reads "high", the load drops, then the scaler writes.
	o, err := Run(sc, Schedule{Moves: scenario.MustMoves("scaler", "load", "load", "scaler")})
	if err != nil {
		t.Fatal(err)
	}
	if o.Verdict != VerdictStale || len(o.Lost) != 0 || len(o.Stale) != 1 {
		t.Fatalf("verdict %s, lost %v, stale %v", o.Verdict, o.Lost, o.Stale)
	}
	d := o.Stale[0]
	if d.Actor != "scaler" || d.Field != "data.replicas" || d.Basis != "data.load" || d.Read != "high" || d.Now != "low" ||
		d.ReadRV != "101" || d.ChangedBy != "load" || d.ChangedAtStep != 2 || d.ChangedRV != "102" || d.WriteStep != 3 {
		t.Fatalf("stale decision: %+v", d)
	}
	if s := d.String(); !strings.Contains(s, "decided from data.load = high in its copy at RV 101") {
		t.Fatalf("String: %s", s)
	}
	w, err := New(sc)
	if err != nil {
		t.Fatal(err)
	}
	for _, tok := range scenario.MustMoves("scaler", "load", "load", "scaler") {
		if err := w.Step(tok); err != nil {
			t.Fatal(err)
		}
	}
	if v := w.Verdict(); v != VerdictStale {
		t.Fatalf("World.Verdict (the explorer's) = %s", v)
	}

	// Decided and written before the load changed: nothing stale.
	o, err = Run(sc, Schedule{Moves: scenario.MustMoves("scaler", "scaler", "load", "load")})
	if err != nil {
		t.Fatal(err)
	}
	if o.Verdict != VerdictNoLoss || len(o.Stale) != 0 {
		t.Fatalf("in order: verdict %s, stale %v", o.Verdict, o.Stale)
	}

	// The same decision with the precondition: the stale patch is refused,
	// the retry reads "low" and decides not to scale.
	scaler.Program.WithRV = true
	scaler.Program.Retry = controller.DefaultRetry()
	sc = twoWriters(configMap(map[string]any{"load": "high", "replicas": "2"}), scaler, load)
	o, err = Run(sc, Schedule{Moves: scenario.MustMoves("scaler", "load", "load", "scaler")})
	if err != nil {
		t.Fatal(err)
	}
	if o.Verdict != VerdictNoLoss || len(o.Stale) != 0 {
		t.Fatalf("conditional: verdict %s, stale %v", o.Verdict, o.Stale)
	}
}
