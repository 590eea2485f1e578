package race

import (
	"testing"

	"github.com/conflictlab/conflictlab/sim/controller"
	"github.com/conflictlab/conflictlab/sim/scenario"
)

func inc() controller.Mutation {
	return controller.Mutation{Op: controller.Increment, Path: controller.MustPath("data.count"), By: 1}
}

// stepped plays tokens from a fresh world of sc.
func stepped(t *testing.T, w *World, tokens ...string) *World {
	t.Helper()
	c := w.Clone()
	for _, tok := range scenario.MustMoves(tokens...) {
		if err := c.Step(tok); err != nil {
			t.Fatal(err)
		}
	}
	return c
}

// TestSymmetricKeysMergeRenamings: two controllers running one program
// reach renamings of one world when they swap roles (a reads and writes,
// then b reads; or b reads and writes, then a reads). The symmetric key
// is the same for both, with orders that map one's controllers to the
// other's; the plain key tells them apart; and a world that is not a
// renaming (a has written, b has not read) gets another key.
func TestSymmetricKeysMergeRenamings(t *testing.T) {
	sc := twoWriters(configMap(map[string]any{"count": "0"}), prog("a", controller.MergePatch, inc()), prog("b", controller.MergePatch, inc()))
	w, err := New(sc)
	if err != nil {
		t.Fatal(err)
	}
	sym, plain := NewSymmetricStateKeys(w), NewStateKeys()
	if !sym.Symmetric() {
		t.Fatal("two controllers with one program are not twins")
	}
	x, y := stepped(t, w, "a", "a", "b"), stepped(t, w, "b", "b", "a")
	kx, ox := sym.Canonical(x)
	ky, oy := sym.Canonical(y)
	if kx != ky {
		t.Fatal("renamings have different symmetric keys")
	}
	if ox[0] == oy[0] {
		t.Errorf("orders %v and %v do not swap the controllers", ox, oy)
	}
	if plain.Key(x) == plain.Key(y) {
		t.Error("the plain key merges two different worlds")
	}
	if z := stepped(t, w, "a", "a"); sym.Key(z) == kx {
		t.Error("different worlds share a symmetric key")
	}
}

// TestSymmetryRefusesNamesInData: when the twins' program writes a value
// that is one of their names, renaming the managers alone would merge
// worlds that are not renamings of each other: such worlds are keyed
// without the renaming (their own names, scenario order).
func TestSymmetryRefusesNamesInData(t *testing.T) {
	sc := twoWriters(configMap(map[string]any{"mode": "x"}), prog("a", controller.MergePatch, set("data.mode", "a")), prog("b", controller.MergePatch, set("data.mode", "a")))
	w, err := New(sc)
	if err != nil {
		t.Fatal(err)
	}
	sym := NewSymmetricStateKeys(w)
	if !sym.Symmetric() {
		t.Fatal("two controllers with one program are not twins")
	}
	x, y := stepped(t, w, "a", "a", "b"), stepped(t, w, "b", "b", "a")
	kx, ox := sym.Canonical(x)
	ky, oy := sym.Canonical(y)
	if kx == ky {
		t.Error("worlds naming a controller in their data were merged by renaming")
	}
	if ox[0] != 0 || oy[0] != 0 {
		t.Errorf("orders %v, %v: want the scenario's", ox, oy)
	}
	// Different programs: no twins at all.
	other := twoWriters(configMap(nil), prog("a", controller.MergePatch, set("data.a", "1")), prog("b", controller.MergePatch, set("data.b", "1")))
	w2, err := New(other)
	if err != nil {
		t.Fatal(err)
	}
	if NewSymmetricStateKeys(w2).Symmetric() {
		t.Error("controllers with different programs are twins")
	}
}
