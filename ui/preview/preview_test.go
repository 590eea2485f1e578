package preview

import (
	"os"
	"slices"
	"testing"

	"charm.land/bubbles/v2/key"

	"github.com/conflictlab/conflictlab/sim/race"
	"github.com/conflictlab/conflictlab/sim/scenario"
)

// Next says what each controller would do, without doing it.
func TestNextPreviewsWithoutStepping(t *testing.T) {
	_, w := lostUpdate(t)
	got := Next(w)
	if got[scenario.Step("a")] != "read its Lister" || got[scenario.Step("b")] != "read its Lister" || len(got) != 2 {
		t.Fatalf("before the race: %v", got)
	}
	if len(w.Taken()) != 0 {
		t.Fatalf("Next stepped the world: %v", w.Taken())
	}
	if err := w.Step(scenario.Step("a")); err != nil {
		t.Fatal(err)
	}
	if got := Next(w); got[scenario.Step("a")] != "UPDATE cm1 no rv" {
		t.Fatalf("after a read: a's next is %q", got[scenario.Step("a")])
	}
}

// MoveKeys: digits and shifted digits always; a controller's initial
// only when it is its own and no screen binding takes it.
func TestMoveKeys(t *testing.T) {
	restart := key.NewBinding(key.WithKeys("r"))
	keys := MoveKeys([]string{"a", "b", "bob", "reader", "extra"}, []key.Binding{restart})
	for k, want := range map[string]string{"1": "a", "!": "a.cache", "shift+2": "b.cache", "a": "a", "A": "a.cache", "4": "reader"} {
		if keys[k].String() != want {
			t.Errorf("key %q schedules %q, want %q", k, keys[k], want)
		}
	}
	for _, k := range []string{"b", "B", "r", "5", "e", "q"} {
		if tok, ok := keys[k]; ok {
			t.Errorf("key %q schedules %q: want it free (a shared initial, a screen key, a fifth controller, q)", k, tok)
		}
	}
	if got := KeysOf(keys, scenario.Step("a")); got != "1/a" {
		t.Errorf("KeysOf(a) = %q, want 1/a", got)
	}
	if got := KeysOf(keys, scenario.Deliver("a")); got != "!/A" {
		t.Errorf("KeysOf(a.cache) = %q, want !/A", got)
	}
}

// Why tells a key that does nothing from one that steps: a cache fed on
// its own, a controller done.
func TestWhy(t *testing.T) {
	sc, w := lostUpdate(t)
	if name, why := Why(w, sc, scenario.Step("a")); why != Enabled || name != "a" {
		t.Fatalf("a at the start: %q %v", name, why)
	}
	if _, why := Why(w, sc, scenario.Deliver("a")); why != FedOnItsOwn {
		t.Fatalf("a's cache (lag 0): %v, want FedOnItsOwn", why)
	}
	for slices.Contains(w.Enabled(), scenario.Step("a")) {
		if err := w.Step(scenario.Step("a")); err != nil {
			t.Fatal(err)
		}
	}
	if _, why := Why(w, sc, scenario.Step("a")); why != Finished {
		t.Fatalf("a after its last step: %v, want Finished", why)
	}
}

// lostUpdate is the course's lost-update race and a world at its start.
func lostUpdate(t *testing.T) (*scenario.Scenario, *race.World) {
	t.Helper()
	data, err := os.ReadFile("../../lessons/course/scenarios/lost-update.yaml")
	if err != nil {
		t.Fatal(err)
	}
	sc, err := scenario.Parse("lost-update.yaml", data)
	if err != nil {
		t.Fatal(err)
	}
	w, err := race.New(sc)
	if err != nil {
		t.Fatal(err)
	}
	return sc, w
}
