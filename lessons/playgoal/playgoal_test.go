package playgoal

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/conflictlab/conflictlab/lessons"
	"github.com/conflictlab/conflictlab/lessons/internal/packtest"
	"github.com/conflictlab/conflictlab/sim/race"
	"github.com/conflictlab/conflictlab/sim/scenario"
)

// playPack is a one-lesson pack around the course's lost-update race
// with one play step whose goal is goal (YAML, indented for the step).
func playPack(t *testing.T, goal string) (*lessons.Pack, error) {
	t.Helper()
	sc, err := os.ReadFile("../course/scenarios/lost-update.yaml")
	if err != nil {
		t.Fatal(err)
	}
	lesson := `id: play
title: Play
summary: [one, two]
steps:
  - kind: play
    title: Break it
    text: You are the scheduler.
    question: Find an order that loses a's key.
    hint: Let both read first.
    solution: Both read, then both write.
    race: {scenario: scenarios/lost-update.yaml}
    goal:
` + goal
	return lessons.Load(fstest.MapFS{
		"01-play.yaml":               {Data: []byte(lesson)},
		"scenarios/lost-update.yaml": {Data: sc},
	})
}

func mustPlayPack(t *testing.T, goal string) *lessons.Pack {
	t.Helper()
	p, err := playPack(t, goal)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

const breakGoal = `      break:
        - lost: data.owner
      par: 4
      schedule: [a, b, a, b]
`

func TestPlayBreakGoalValidates(t *testing.T) {
	p := mustPlayPack(t, breakGoal)
	if err := proveAll(p); err != nil {
		t.Fatal(err)
	}
	s := p.Lessons[0].Steps[0]
	if s.Kind != lessons.Play || s.Goal == nil || !s.Goal.IsBreak() {
		t.Fatalf("step parsed as %+v", s)
	}
}

func TestPlayBreakParMustBeTheMinimum(t *testing.T) {
	// A longer order that also breaks it: par 5 is not the fewest moves.
	p := mustPlayPack(t, strings.NewReplacer("par: 4", "par: 3").Replace(breakGoal))
	packtest.WantProblem(t, proveAll(p), "steps[0].goal.par", "par is 3 but the order given takes 4 moves")
}

func TestPlayBreakScheduleMustBreakIt(t *testing.T) {
	p := mustPlayPack(t, strings.Replace(breakGoal, "[a, b, a, b]", "[a, a, b, b]", 1))
	packtest.WantProblem(t, proveAll(p), "steps[0].goal.schedule", "does not meet the goal", "data.owner is not lost")
}

func TestPlayBreakUnreachable(t *testing.T) {
	p := mustPlayPack(t, strings.Replace(breakGoal, "lost: data.owner", "lost: data.mode", 1))
	packtest.WantProblem(t, proveAll(p), "no order of steps meets this goal")
}

func TestShortestBreakIsShortest(t *testing.T) {
	p := mustPlayPack(t, breakGoal)
	s := p.Lessons[0].Steps[0]
	sc, err := p.ScenarioFor(s, nil)
	if err != nil {
		t.Fatal(err)
	}
	best, err := ShortestBreak(context.Background(), s.Goal, sc, 1000)
	if err != nil {
		t.Fatal(err)
	}
	if len(best) != 4 {
		t.Fatalf("shortest break %v, want 4 moves", best)
	}
	// It really breaks it, and its first three moves do not.
	w, _ := race.New(sc)
	for i, tok := range scenario.MustMoves(best...) {
		if BreakMet(s.Goal, sc, w.Outcome()) {
			t.Fatalf("goal met after %d moves of %v", i, best)
		}
		if err := w.Step(tok); err != nil {
			t.Fatal(err)
		}
	}
	if !BreakMet(s.Goal, sc, w.Outcome()) {
		t.Fatalf("%v does not break it", best)
	}
}

const fixGoal = `      fix: [lost]
      knobs:
        write: [update-clear-rv, update, merge-patch]
        retry: [none, default]
      par: 2
      settings:
        a: {write: update}
        b: {write: update}
`

func TestPlayFixGoalValidates(t *testing.T) {
	p := mustPlayPack(t, fixGoal)
	if err := proveAll(p); err != nil {
		t.Fatal(err)
	}
	g := p.Lessons[0].Steps[0].Goal
	if g.IsBreak() || len(g.Knobs) != 2 || g.Knobs[0].Name != lessons.KnobWrite || g.Knobs[1].Name != lessons.KnobRetry {
		t.Fatalf("goal parsed as %+v (knobs keep their order)", g)
	}
}

func TestPlayFixParMustBeTheMinimum(t *testing.T) {
	// Three changes that fix it, but two do too: the check finds the
	// smaller fix and names it.
	goal := strings.Replace(fixGoal, "par: 2", "par: 3", 1)
	goal = strings.Replace(goal, "b: {write: update}", "b: {write: update, retry: default}", 1)
	p := mustPlayPack(t, goal)
	packtest.WantProblem(t, proveAll(p), "steps[0].goal.par", "par is 3, but")
}

func TestPlayFixSettingsMustFix(t *testing.T) {
	goal := strings.Replace(fixGoal, "b: {write: update}", "b: {retry: default}", 1)
	p := mustPlayPack(t, goal)
	packtest.WantProblem(t, proveAll(p), "steps[0].goal.settings", "do not fix it")
}

func TestPlayFixNeedsSomethingToFix(t *testing.T) {
	p := mustPlayPack(t, strings.Replace(fixGoal, "fix: [lost]", "fix: [unfinished]", 1))
	packtest.WantProblem(t, proveAll(p), "nothing to fix")
}

func TestPlayStepShape(t *testing.T) {
	sc, err := os.ReadFile("../course/scenarios/lost-update.yaml")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ step, want string }{
		{"  - kind: play\n    title: T\n    text: x\n    question: q\n    hint: h\n    race: {scenario: scenarios/lost-update.yaml}\n", "steps[0].goal: a play step needs a goal"},
		{"  - kind: read\n    title: T\n    text: x\n    goal: {par: 1}\n", "steps[0].goal: only a play step has a goal"},
		{"  - kind: play\n    title: T\n    text: x\n    question: q\n    hint: h\n    race: {scenario: scenarios/lost-update.yaml}\n    claims: [{lost: data.owner}]\n    goal: {break: [{lost: data.owner}], par: 4, schedule: [a, b, a, b]}\n", "steps[0].claims: a play step's claims go in its goal"},
		{"  - kind: play\n    title: T\n    text: x\n    hint: h\n    race: {scenario: scenarios/lost-update.yaml}\n    goal: {break: [{lost: data.owner}], par: 4, schedule: [a, b, a, b]}\n", "steps[0].question"},
	} {
		_, err := lessons.Load(fstest.MapFS{
			"01-play.yaml":               {Data: []byte("id: p\ntitle: P\nsummary: [one, two]\nsteps:\n" + c.step)},
			"scenarios/lost-update.yaml": {Data: sc},
		})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("step\n%s: got %v, want %q", c.step, err, c.want)
		}
	}
}

func TestPlayGoalParseErrors(t *testing.T) {
	for _, c := range []struct{ goal, want string }{
		{"      par: 1\n", "want exactly one of break"},
		{"      break: [{lost: data.owner}]\n      fix: [lost]\n      par: 1\n", "want exactly one of break"},
		{"      break: [{lost: data.owner}]\n      schedule: [a]\n", "steps[0].goal.par"},
		{"      break: [{lost: data.owner}]\n      par: 4\n", "give a shortest order"},
		{"      fix: [lost]\n      par: 1\n      settings: {a: {write: update}}\n", "needs knobs"},
		{"      fix: [lost]\n      knobs: {write: [update, sideways]}\n      par: 1\n      settings: {a: {write: update}}\n", `write "sideways"`},
		{"      fix: [loose]\n      knobs: {write: [update, merge-patch]}\n      par: 1\n      settings: {a: {write: update}}\n", `unknown verdict "loose"`},
		{"      fix: [lost]\n      knobs: {write: [update]}\n      par: 1\n      settings: {a: {write: update}}\n", "at least two values"},
		{"      break: [{explore: {verdict: lost, count: some}}]\n      par: 1\n      schedule: [a]\n", "explore claim belongs to a fix"},
		{"      break: [{lost: data.owner}]\n      par: 4\n      schedule: [a, b, a, b]\n      speed: 3\n", "speed"},
	} {
		_, err := playPack(t, c.goal)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("goal\n%s: got %v, want %q", c.goal, err, c.want)
		}
		if err != nil && !strings.Contains(err.Error(), "01-play.yaml:") {
			t.Errorf("error does not name the file and line: %v", err)
		}
	}
}

// proveAll proves every play step of p, as lessons validate does.
func proveAll(p *lessons.Pack) error {
	var errs []error
	for _, l := range p.Lessons {
		for i, s := range l.Steps {
			if s.Kind == lessons.Play {
				errs = append(errs, Prove(p, l, s, fmt.Sprintf("steps[%d]", i))...)
			}
		}
	}
	return errors.Join(errs...)
}

// The sandbox's fix-it levels: the fewest changes are found, and the goal
// made of them proves as a written one does.
func TestShortestFixIsWhatProveGoalHolds(t *testing.T) {
	_, _, sc := lostUpdate(t)
	knobs := []lessons.Knob{{Name: lessons.KnobWrite, Values: RunnableChoices(sc, lessons.KnobWrite)}, {Name: lessons.KnobRetry, Values: []string{"none", "default"}}}
	g, err := FixGoal(context.Background(), sc, knobs, []race.Verdict{race.VerdictLost})
	if err != nil || g == nil {
		t.Fatalf("no fix found: %v", err)
	}
	if g.Par < 1 || g.Par > MaxFixChanges {
		t.Fatalf("par %d", g.Par)
	}
	if probs := ProveGoal(sc, g); len(probs) > 0 {
		t.Fatalf("the goal found does not prove: %v (settings %s)", probs, g.Settings)
	}
	// One change fewer is no fix: par is the minimum, as ProveGoal says.
	smaller := *g
	smaller.Par--
	if probs := ProveGoal(sc, &smaller); len(probs) == 0 {
		t.Fatal("ProveGoal takes a par one below the fewest changes")
	}
	// Nothing offered fixes it: no goal.
	none := []lessons.Knob{{Name: lessons.KnobRetry, Values: []string{"none", "default"}}}
	if g, err := FixGoal(context.Background(), sc, none, []race.Verdict{race.VerdictLost}); err != nil || g != nil {
		t.Fatalf("a retry alone fixed an update without its RV: %+v, %v", g, err)
	}
}

func TestKnobChoicesParse(t *testing.T) {
	for _, k := range lessons.KnobNames {
		vs := KnobChoices(k)
		if len(vs) < 2 {
			t.Errorf("%s offers %v", k, vs)
		}
	}
	_, _, sc := lostUpdate(t)
	if w := RunnableChoices(sc, lessons.KnobWrite); !slices.Contains(w, "update") || !slices.Contains(w, "merge-patch") {
		t.Fatalf("a ConfigMap's writes: %v", w)
	}
}

// Every knob marked on a race is more than the search tries: it says so
// rather than run for hours.
func TestShortestFixIsBounded(t *testing.T) {
	_, _, sc := lostUpdate(t)
	var knobs []lessons.Knob
	for _, k := range lessons.KnobNames {
		knobs = append(knobs, lessons.Knob{Name: k, Values: KnobChoices(k)})
	}
	// Every ending forbidden: no setting fixes it, so the search goes on
	// to its bound.
	g, err := FixGoal(context.Background(), sc, knobs, []race.Verdict{race.VerdictLost, race.VerdictGaveUp, race.VerdictRequeued, race.VerdictNoLoss})
	if err == nil || !strings.Contains(err.Error(), "mark fewer knobs") {
		t.Fatalf("a search past its bound: %+v, %v", g, err)
	}
}
