package racecache

import (
	"strings"
	"sync"
	"testing"

	"github.com/conflictlab/conflictlab/lessons"
	"github.com/conflictlab/conflictlab/sim/controller"
)

// chooseStep is the course's first choose step.
func chooseStep(t *testing.T, p *lessons.Pack) lessons.Step {
	t.Helper()
	for _, l := range p.Lessons {
		for _, s := range l.Steps {
			if s.Kind == lessons.Choose && s.Race != nil && len(s.Options) > 1 {
				return s
			}
		}
	}
	t.Fatal("the course has no choose step")
	return lessons.Step{}
}

// TestRacesPlaysEachRaceOnce: a race is one outcome however often and
// from however many goroutines it is asked for; a strategy counts by
// value (a copy of it is the same race), and another strategy is
// another race.
func TestRacesPlaysEachRaceOnce(t *testing.T) {
	p, err := lessons.Course()
	if err != nil {
		t.Fatal(err)
	}
	s := chooseStep(t, p)
	races := New(p)
	spec := s.Spec(&s.Options[0])
	if _, ok := races.Cached(spec); ok {
		t.Fatal("a race is cached before it was played")
	}
	const n = 8
	outs := make(chan any, n)
	var wg sync.WaitGroup
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			o, err := races.Race(spec)
			if err != nil {
				outs <- err
				return
			}
			outs <- o
		}()
	}
	wg.Wait()
	close(outs)
	first, ok := races.Cached(spec)
	if !ok {
		t.Fatal("the race was not kept")
	}
	for o := range outs {
		if o != first {
			t.Fatalf("a caller got %v, not the kept outcome", o)
		}
	}
	copied := *s.Options[0].Strategy
	same := spec
	same.Strategy = &copied
	if o, _ := races.Race(same); o != first {
		t.Error("a copy of the strategy played the race again")
	}
	other, err := races.Race(s.Spec(&s.Options[1]))
	if err != nil {
		t.Fatal(err)
	}
	if other == first {
		t.Error("another strategy got the same outcome")
	}
	want, err := p.Run(s, &s.Options[1])
	if err != nil {
		t.Fatal(err)
	}
	if other.Verdict != want.Verdict || len(other.Steps) != len(want.Steps) {
		t.Errorf("the runtime's race ends %s in %d steps, Pack.Run's %s in %d", other.Verdict, len(other.Steps), want.Verdict, len(want.Steps))
	}
}

// TestRacesReadsAScenarioNoLessonUses: a quiz question may race any
// scenario of the pack's folder; the runtime reads it when loaded and
// keeps it itself, and the pack is left as it was. A race never reads a
// file: one not loaded is an error, even if the file exists.
func TestRacesReadsAScenarioNoLessonUses(t *testing.T) {
	p, err := lessons.Course()
	if err != nil {
		t.Fatal(err)
	}
	const name = "scenarios/gen-deploy-annotate.yaml" // only the quiz races it
	if _, ok := p.Scenarios[name]; ok {
		t.Fatalf("a lesson races %s: pick another for this test", name)
	}
	n := len(p.Scenarios)
	races := New(p)
	spec := lessons.RaceSpec{Scenario: name, Strategy: &lessons.Strategy{Write: controller.Update}}
	if _, err := races.Race(spec); err == nil || !strings.Contains(err.Error(), "not loaded") {
		t.Fatalf("a scenario not loaded raced (or failed otherwise): %v", err)
	}
	if err := races.Load(name); err != nil {
		t.Fatal(err)
	}
	o, err := races.Race(spec)
	if err != nil {
		t.Fatal(err)
	}
	if len(o.Controllers) == 0 || o.Controllers[0].Plan.Write != controller.Update {
		t.Errorf("the strategy was not applied: %+v", o.Controllers)
	}
	if _, ok := p.Scenarios[name]; ok || len(p.Scenarios) != n {
		t.Error("the runtime added a scenario to the pack")
	}
	if err := races.Load("scenarios/none.yaml"); err == nil {
		t.Error("a missing scenario loaded")
	}
	if _, err := races.Race(lessons.RaceSpec{Scenario: "scenarios/none.yaml"}); err == nil {
		t.Error("a missing scenario raced")
	}
	if _, err := races.Race(lessons.Step{}.Spec(nil)); err == nil {
		t.Error("a step without a race raced")
	}
}
