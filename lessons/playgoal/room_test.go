package playgoal

import (
	"context"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/conflictlab/conflictlab/lessons"
	"github.com/conflictlab/conflictlab/sim/race"
	"github.com/conflictlab/conflictlab/sim/scenario"
)

// exactShare is the probability that a random order of at most depth
// moves meets the goal, computed over every order (the sampler estimates
// it).
func exactShare(t *testing.T, w *race.World, met func(*race.Outcome) bool, depth int) float64 {
	if depth == 0 || w.Done() || len(w.Enabled()) == 0 {
		return 0
	}
	moves := w.Enabled()
	p := 0.0
	for _, tok := range moves {
		c := w.Clone()
		if err := c.Step(tok); err != nil {
			t.Fatal(err)
		}
		if met(c.Outcome()) {
			p += 1 / float64(len(moves))
			continue
		}
		p += exactShare(t, c, met, depth-1) / float64(len(moves))
	}
	return p
}

func lostUpdate(t *testing.T) (*lessons.Pack, lessons.Step, *scenario.Scenario) {
	t.Helper()
	p := mustPlayPack(t, breakGoal)
	s := p.Lessons[0].Steps[0]
	sc, err := p.ScenarioFor(s, nil)
	if err != nil {
		t.Fatal(err)
	}
	return p, s, sc
}

// The lost-update race: two controllers of two steps each. Every finished
// order takes four moves, as the shortest break does, and the sampled
// share of breaking orders is the exact one within the sampling error.
func TestMeasureBreak(t *testing.T) {
	p, s, sc := lostUpdate(t)
	met := func(o *race.Outcome) bool { return BreakMet(s.Goal, sc, o) }
	r, err := MeasureBreak(context.Background(), sc, met, s.Goal.Schedule, Walks, Seed)
	if err != nil {
		t.Fatal(err)
	}
	w, _ := race.New(sc)
	exact := 100 * exactShare(t, w, met, s.Goal.Par+BreakSlack)
	if r.Par != 4 || r.Longest != 4 || r.ParShorter() || r.Controllers != 2 || len(r.Decoys) != 0 || r.Walks != Walks {
		t.Fatalf("room %+v", r)
	}
	if math.Abs(r.Share()-exact) > 3 {
		t.Errorf("sampled share %.1f%%, exact %.1f%%", r.Share(), exact)
	}
	probs := strings.Join(r.Problems(), "\n")
	if !strings.Contains(probs, "par 4 is the longest the race can run (4 moves)") {
		t.Errorf("problems:\n%s", probs)
	}
	if (exact > MaxBreakShare) != strings.Contains(probs, "random orders") {
		t.Errorf("exact share %.1f%%, problems:\n%s", exact, probs)
	}
	again, _ := MeasureBreak(context.Background(), sc, met, s.Goal.Schedule, Walks, Seed)
	if again.Met != r.Met {
		t.Errorf("the same seed gave %d, then %d", r.Met, again.Met)
	}
	room, err := Measure(context.Background(), p, s)
	if err != nil || room.Break == nil || room.Break.Met != r.Met || room.Fix != nil {
		t.Errorf("Measure: %+v, %v", room, err)
	}
}

// A move the author's order does not need is a decoy.
func TestMeasureBreakDecoys(t *testing.T) {
	_, s, sc := lostUpdate(t)
	met := func(o *race.Outcome) bool { return BreakMet(s.Goal, sc, o) }
	r, err := MeasureBreak(context.Background(), sc, met, []string{"a", "a"}, 100, Seed)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(r.Decoys, []string{"b"}) || !r.Rich() {
		t.Errorf("decoys %v", r.Decoys)
	}
}

func TestMeasureFix(t *testing.T) {
	slots := []Slot{
		{Controller: "a", Knob: "write", Values: []string{"update", "merge-patch"}},
		{Controller: "a", Knob: "retry", Values: []string{"none", "default"}},
		{Controller: "b", Knob: "write", Values: []string{"update", "merge-patch", "apply"}},
	}
	tried := map[string]bool{}
	passes := func(v []string) (bool, error) {
		tried[strings.Join(v, " ")] = true
		return v[0] == "update" && v[1] == "default", nil
	}
	r, err := MeasureFix(context.Background(), slots, passes, FixSample, Seed)
	if err != nil {
		t.Fatal(err)
	}
	if r.Knobs != 3 || r.Combinations != 12 || r.Tried != 12 || r.Passed != 3 || len(tried) != 12 {
		t.Fatalf("room %+v, tried %d", r, len(tried))
	}
	if probs := strings.Join(r.Problems(), "\n"); !strings.Contains(probs, "25.0% of combinations fix it (at most 20%)") || strings.Contains(probs, "settings to change") {
		t.Errorf("problems:\n%s", probs)
	}
	// More combinations than the sample: that many, each once, the same
	// ones for the same seed.
	clear(tried)
	r, _ = MeasureFix(context.Background(), slots, passes, 5, Seed)
	first := len(tried)
	r2, _ := MeasureFix(context.Background(), slots, passes, 5, Seed)
	if r.Tried != 5 || first != 5 || len(tried) != 5 || r2.Passed != r.Passed {
		t.Errorf("sampled %+v (%d distinct), again %+v (%d in all)", r, first, r2, len(tried))
	}
}

// A fix's slots offer the race's own value when the goal leaves it out,
// and SettingsOf puts one value per slot back into settings.
func TestFixSlots(t *testing.T) {
	p := mustPlayPack(t, strings.Replace(fixGoal, "write: [update-clear-rv, update, merge-patch]", "write: [update, merge-patch]", 1))
	s := p.Lessons[0].Steps[0]
	base, err := p.ScenarioFor(s, nil)
	if err != nil {
		t.Fatal(err)
	}
	slots := FixSlots(s.Goal, base)
	if len(slots) != 4 || slots[0].Controller != "a" || slots[0].Knob != "write" || !slices.Equal(slots[0].Values, []string{"update-clear-rv", "update", "merge-patch"}) || slots[0].Start != 0 {
		t.Fatalf("slots %+v", slots)
	}
	set := SettingsOf(s.Goal, base, []string{"update", "default", "merge-patch", "none"})
	if got := set.String(); got != "a.write=update a.retry=default b.write=merge-patch b.retry=none" {
		t.Errorf("settings %s", got)
	}
	room, errs := Check(context.Background(), p, p.Lessons[0], s, "steps[0]")
	if len(errs) != 0 || room.Fix == nil || room.Fix.Combinations != 36 || room.Fix.Knobs != 4 {
		t.Errorf("room %+v, errors %v", room, errs)
	}
}
