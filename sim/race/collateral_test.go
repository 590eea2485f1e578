package race

import (
	"strings"
	"testing"

	"github.com/conflictlab/conflictlab/sim/controller"
	"github.com/conflictlab/conflictlab/sim/scenario"
)

func removeFinalizer(name string) controller.Mutation {
	return controller.Mutation{Op: controller.RemoveFromList, Path: controller.MustPath("metadata.finalizers"), Value: name}
}

// A JSON patch that removes "index 1" of a list that has shifted removes a
// finalizer nobody meant to remove; the outcome names it, and says why
// the writer's own finalizer is still there.
func TestShiftedIndexLosesAnotherElement(t *testing.T) {
	you := prog("you", controller.JSONPatch, removeFinalizer("example.com/you"))
	other := prog("other", controller.StrategicPatch, removeFinalizer("example.com/a"))
	other.Program.Read = controller.FromLive
	sc := twoWriters(configMap(nil, "example.com/a", "example.com/you", "example.com/z"), you, other)
	o, err := Run(sc, Schedule{Moves: scenario.MustMoves("you", "other", "other", "you")})
	if err != nil {
		t.Fatal(err)
	}
	var z, own *Loss
	for i, l := range o.Lost {
		switch {
		case l.Owner == "setup":
			z = &o.Lost[i]
		case l.Owner == "you":
			own = &o.Lost[i]
		}
	}
	if z == nil || z.Intended != "example.com/z" || z.ErasedBy != "you" || z.ErasedAtStep != 3 ||
		z.Cause.Kind != CauseCollateral || z.Cause.Actor != "you" || z.Cause.Value != "example.com/z" ||
		!strings.HasPrefix(z.Cause.Request, "PATCH json cm1") || z.Cause.HeldRV == "" {
		t.Fatalf("example.com/z: %+v (all: %v)", z, o.Lost)
	}
	if own == nil || own.Cause != (LossCause{Kind: CauseMissedPosition, Value: "example.com/z"}) {
		t.Fatalf("your own removal: %+v", own)
	}

	// Removing by name (strategic merge patch) takes only its own element.
	you.Program.Write = controller.StrategicPatch
	sc = twoWriters(configMap(nil, "example.com/a", "example.com/you", "example.com/z"), you, other)
	if o, err = Run(sc, Schedule{Moves: scenario.MustMoves("you", "other", "other", "you")}); err != nil {
		t.Fatal(err)
	}
	if len(o.Lost) != 0 {
		t.Fatalf("strategic: lost %v", o.Lost)
	}
}
