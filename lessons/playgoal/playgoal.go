// Package playgoal decides a play step's goal with the simulator, never
// by the author's say-so: a break goal is met when its claims hold on the
// race so far, and a fix is proven over every interleaving by the
// explorer. Prove (at validate time) proves that par is the true minimum
// and that the author's answer reaches it; numbers.go measures how much
// room a step leaves to search.
package playgoal

import (
	"context"
	"fmt"
	"strings"

	"github.com/conflictlab/conflictlab/lessons"
	"github.com/conflictlab/conflictlab/lessons/claims"
	"github.com/conflictlab/conflictlab/sim/explore"
	"github.com/conflictlab/conflictlab/sim/race"
	"github.com/conflictlab/conflictlab/sim/scenario"
)

// BreakMet reports whether every claim of a break goal holds on the
// outcome so far. sc is the race's scenario (explore claims are not
// allowed in a goal, so it is only passed through).
func BreakMet(g *lessons.PlayGoal, sc *scenario.Scenario, o *race.Outcome) bool {
	for _, c := range g.Break {
		if claims.Check(c, o, func() (*scenario.Scenario, error) { return sc, nil }) != nil {
			return false
		}
	}
	return true
}

// ShortestBreak finds a shortest order of scheduler moves after which the
// break goal holds, breadth first over the race's states (a state reached
// again by another order of the same length is not expanded twice). It
// gives up after limit states; nil, nil when no order within the race's
// step budget breaks it.
func ShortestBreak(ctx context.Context, g *lessons.PlayGoal, sc *scenario.Scenario, limit int) ([]string, error) {
	w, err := race.New(sc)
	if err != nil {
		return nil, err
	}
	if BreakMet(g, sc, w.Outcome()) {
		return []string{}, nil
	}
	keys := race.NewStateKeys()
	seen := map[[32]byte]bool{keys.Key(w): true}
	level := []*race.World{w}
	states := 0
	for len(level) > 0 {
		var next []*race.World
		for _, cur := range level {
			for _, tok := range cur.Enabled() {
				if err := ctx.Err(); err != nil {
					return nil, err
				}
				c := cur.Clone()
				if err := c.Step(tok); err != nil {
					return nil, err
				}
				if BreakMet(g, sc, c.Outcome()) {
					return scenario.Tokens(c.Taken()), nil
				}
				if c.Done() {
					continue
				}
				k := keys.Key(c)
				if seen[k] {
					continue
				}
				seen[k] = true
				if states++; states > limit {
					return nil, fmt.Errorf("more than %d states: the race is too big to search for its shortest break", limit)
				}
				next = append(next, c)
			}
		}
		level = next
	}
	return nil, nil
}

// FixResult is what the explorer says about a fix attempt.
type FixResult struct {
	// Schedules is the number of interleavings, Bad how many of them end
	// with a verdict the goal forbids; Example is one of those.
	Schedules int
	Bad       int
	Example   []string
	Verdict   race.Verdict
	Truncated bool
	Cancelled bool
}

// Proven reports whether the fix holds over every interleaving.
func (r FixResult) Proven() bool { return r.Bad == 0 && !r.Truncated && !r.Cancelled }

// ProveFix explores every interleaving of sc and counts those that end
// with a forbidden verdict.
func ProveFix(ctx context.Context, g *lessons.PlayGoal, sc *scenario.Scenario, opts explore.Options) (FixResult, error) {
	r, err := explore.Explore(ctx, sc, opts)
	if err != nil {
		return FixResult{}, err
	}
	fr := FixResult{Schedules: r.Schedules, Truncated: r.Truncated, Cancelled: r.Cancelled}
	for _, v := range g.Fix {
		if n := r.Tally[v]; n > 0 {
			if fr.Bad == 0 {
				fr.Example, fr.Verdict = scenario.Tokens(r.Examples[v]), v
			}
			fr.Bad += n
		}
	}
	return fr, nil
}

// breakSearchLimit bounds the search for a shortest break at validate time.
const breakSearchLimit = 200_000

// Prove proves a play step's goal (field names the step in messages,
// "steps[3]"): for a break, that the author's order meets it in Par moves
// and that no shorter order does; for a fix, that the race as written
// fails, that the author's settings change Par knobs and hold over every
// interleaving, and that no fewer changes do.
func Prove(p *lessons.Pack, l *lessons.Lesson, s lessons.Step, field string) []error {
	return prove(p, l, s, field, nil)
}

// Check proves a play step's goal, as Prove does, and measures the room
// it leaves (Measure), exploring each setting of a fix once for both.
func Check(ctx context.Context, p *lessons.Pack, l *lessons.Lesson, s lessons.Step, field string) (Room, []error) {
	base, err := p.ScenarioFor(s, nil)
	if err != nil {
		return Room{}, []error{&lessons.Error{File: l.File, Line: s.Line, Field: field + ".race", Msg: err.Error()}}
	}
	var pr *proofs
	if !s.Goal.IsBreak() {
		pr = newProofs(s.Goal, base)
	}
	errs := prove(p, l, s, field, pr)
	room, err := measure(ctx, s.Goal, base, pr)
	if err != nil {
		errs = append(errs, &lessons.Error{File: l.File, Line: s.Goal.Line, Field: field + ".goal", Msg: "measuring the room to search: " + err.Error()})
	}
	return room, errs
}

func prove(p *lessons.Pack, l *lessons.Lesson, s lessons.Step, field string, pr *proofs) []error {
	base, err := p.ScenarioFor(s, nil)
	if err != nil {
		return []error{&lessons.Error{File: l.File, Line: s.Line, Field: field + ".race", Msg: err.Error()}}
	}
	var errs []error
	for _, e := range proveGoal(base, s.Goal, pr) {
		errs = append(errs, &lessons.Error{File: l.File, Line: s.Goal.Line, Field: field + ".goal" + e.Field, Msg: e.Msg})
	}
	return errs
}

// Problem is what ProveGoal finds wrong with a goal: the goal's field
// (".par", ".schedule[2]", "" for the goal as a whole) and what is wrong.
type Problem struct {
	Field, Msg string
}

// ProveGoal proves a play goal on its race as Prove proves a play step's:
// a lesson's play step and a level (package level) are proven alike.
func ProveGoal(base *scenario.Scenario, g *lessons.PlayGoal) []Problem {
	return proveGoal(base, g, nil)
}

func proveGoal(base *scenario.Scenario, g *lessons.PlayGoal, pr *proofs) []Problem {
	var errs []Problem
	fail := func(f, msg string) {
		errs = append(errs, Problem{Field: f, Msg: msg})
	}
	ctx := context.Background()
	if g.IsBreak() {
		w, err := race.New(base)
		if err != nil {
			fail(".schedule", err.Error())
			return errs
		}
		for i, tok := range g.Schedule {
			m, err := scenario.ParseMove(tok)
			if err == nil {
				err = w.Step(m)
			}
			if err != nil {
				fail(fmt.Sprintf(".schedule[%d]", i), err.Error())
				return errs
			}
		}
		if !BreakMet(g, base, w.Outcome()) {
			fail(".schedule", "the order given does not meet the goal: "+firstBreakMiss(g, base, w.Outcome()))
		}
		if len(g.Schedule) != g.Par {
			fail(".par", fmt.Sprintf("par is %d but the order given takes %d moves", g.Par, len(g.Schedule)))
		}
		best, err := ShortestBreak(ctx, g, base, breakSearchLimit)
		switch {
		case err != nil:
			fail("", err.Error())
		case best == nil:
			fail(".break", "no order of steps meets this goal")
		case len(best) < g.Par:
			fail(".par", fmt.Sprintf("par is %d, but %d moves do it: %s", g.Par, len(best), strings.Join(best, " ")))
		}
		return errs
	}
	if pr == nil {
		pr = newProofs(g, base)
	}
	start := g.StartSettings(base)
	r, err := pr.of(ctx, start)
	if err != nil {
		fail("", err.Error())
		return errs
	}
	if r.Bad == 0 {
		fail(".fix", fmt.Sprintf("nothing to fix: none of the %d interleavings ends %s", r.Schedules, verdictList(g.Fix)))
	}
	if n := g.Settings.Changes(start); n != g.Par {
		fail(".par", fmt.Sprintf("par is %d but the settings given change %d", g.Par, n))
	}
	for c, m := range g.Settings {
		if _, ok := start[c]; !ok {
			fail(".settings", fmt.Sprintf("%s is not a controller this fix may change", c))
			continue
		}
		for k, v := range m {
			if !g.Offers(k, v) {
				fail(".settings", fmt.Sprintf("%s.%s=%s is not one of the values the step offers", c, k, v))
			}
		}
	}
	if r, err := pr.of(ctx, g.Answer(base)); err != nil {
		fail(".settings", err.Error())
	} else if !r.Proven() {
		fail(".settings", fmt.Sprintf("the settings given do not fix it: %d of %d interleavings end %s, e.g. %s",
			r.Bad, r.Schedules, r.Verdict, strings.Join(r.Example, " ")))
	}
	// No fewer changes may do: try every setting with fewer than Par
	// changes (par is small, so this is a handful of explorations).
	var smaller lessons.Settings
	err = eachWithin(g, base, start, g.Par-1, func(s lessons.Settings) (bool, error) {
		r, err := pr.of(ctx, s)
		if err != nil {
			return true, nil // an invalid combination, or a race that cannot run, fixes nothing
		}
		if r.Proven() {
			smaller = s
			return false, nil
		}
		return true, nil
	})
	if err != nil {
		fail("", err.Error())
	}
	if smaller != nil {
		fail(".par", fmt.Sprintf("par is %d, but %d changes fix it: %s", g.Par, smaller.Changes(start), smaller.Diff(start).String()))
	}
	return errs
}

// eachWithin calls f on every setting reachable from start by changing
// 1..n knobs, until f returns false.
func eachWithin(g *lessons.PlayGoal, base *scenario.Scenario, start lessons.Settings, n int, f func(lessons.Settings) (bool, error)) error {
	type slot struct {
		c string
		k lessons.Knob
	}
	var slots []slot
	for _, c := range g.Tunable(base) {
		for _, k := range g.Knobs {
			slots = append(slots, slot{c, k})
		}
	}
	var rec func(from int, s lessons.Settings, left int) (bool, error)
	rec = func(from int, s lessons.Settings, left int) (bool, error) {
		if left == 0 {
			return true, nil
		}
		for i := from; i < len(slots); i++ {
			sl := slots[i]
			for _, v := range sl.k.Values {
				if v == start[sl.c][sl.k.Name] {
					continue
				}
				t := s.Clone()
				t[sl.c][sl.k.Name] = v
				more, err := f(t)
				if err != nil || !more {
					return false, err
				}
				if more, err = rec(i+1, t, left-1); err != nil || !more {
					return false, err
				}
			}
		}
		return true, nil
	}
	_, err := rec(0, start.Clone(), n)
	return err
}

func verdictList(vs []race.Verdict) string {
	s := make([]string, len(vs))
	for i, v := range vs {
		s[i] = string(v)
	}
	return strings.Join(s, " or ")
}

func firstBreakMiss(g *lessons.PlayGoal, sc *scenario.Scenario, o *race.Outcome) string {
	for _, c := range g.Break {
		if err := claims.Check(c, o, func() (*scenario.Scenario, error) { return sc, nil }); err != nil {
			return err.Error()
		}
	}
	return ""
}

// proofs remembers the explorer's verdict on each setting of one fix race,
// so that proving par and measuring the room explore each combination
// once.
type proofs struct {
	g    *lessons.PlayGoal
	base *scenario.Scenario
	done map[string]proof
}

type proof struct {
	r   FixResult
	err error
}

func newProofs(g *lessons.PlayGoal, base *scenario.Scenario) *proofs {
	return &proofs{g: g, base: base, done: map[string]proof{}}
}

// of is the explorer's verdict on the race with settings s; an error when
// s is no strategy or the race cannot run.
func (pr *proofs) of(ctx context.Context, s lessons.Settings) (FixResult, error) {
	key := s.String()
	if p, ok := pr.done[key]; ok {
		return p.r, p.err
	}
	var p proof
	sc, err := lessons.Tuned(pr.base, s)
	if err != nil {
		p.err = err
	} else {
		p.r, p.err = ProveFix(ctx, pr.g, sc, explore.Options{})
	}
	if ctx.Err() == nil {
		pr.done[key] = p
	}
	return p.r, p.err
}
