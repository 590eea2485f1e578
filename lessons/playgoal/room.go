package playgoal

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/conflictlab/conflictlab/lessons"
	"github.com/conflictlab/conflictlab/sim/race"
	"github.com/conflictlab/conflictlab/sim/scenario"
)

// A play step is worth playing when there is something to search: a
// learner who presses keys at random rarely breaks the race, and the
// shortest break is not simply the only way the race can end; a fix has
// several settings to reason about and few of their combinations pass.
// The numbers here measure that room, for a lesson's play steps and for
// any other break-it or fix-it race (the sandbox's challenges), with the
// same rules. The sampling is seeded: the same race gives the same
// numbers on every run.

// The rules a play step's room is held to (issue 26).
const (
	// BreakSlack is how many moves past par a random order may take and
	// still count as breaking the race.
	BreakSlack = 2
	// MaxBreakShare is the percentage of random orders of at most par +
	// BreakSlack moves that may meet a break goal.
	MaxBreakShare = 15
	// MinKnobs is the fewest settings a fix may offer (a knob of each
	// controller that may change counts once).
	MinKnobs = 3
	// MinCombinations is the fewest combinations of their values.
	MinCombinations = 12
	// MaxFixShare is the percentage of combinations that may pass.
	MaxFixShare = 20
)

// How the room is measured.
const (
	// Walks is the number of random orders a break is measured with. At a
	// share of 15% the estimate's standard error is 0.8 points.
	Walks = 2000
	// FixSample is the most combinations a fix is measured with: all of
	// them when there are no more, else this many drawn without
	// repetition. Each is an exhaustive exploration.
	FixSample = 48
	// Seed seeds every draw.
	Seed = 26
)

// BreakRoom is how much a break-it race leaves to search.
type BreakRoom struct {
	Par int
	// Longest is the number of moves in the longest order that finishes
	// the race.
	Longest int
	// Walks is the number of random orders sampled, Met how many of them
	// met the goal within Par + BreakSlack moves. A random order takes,
	// at each move, one of the moves available with equal chance, and
	// stops when the goal is met or the race is finished.
	Walks, Met int
	// Controllers is the number of controllers in the race.
	Controllers int
	// Decoys are the moves (a controller, or NAME.cache) that the race
	// offers and the author's shortest order never takes.
	Decoys []string
}

// Share is the percentage of random orders that met the goal.
func (r BreakRoom) Share() float64 { return percent(r.Met, r.Walks) }

// ParShorter reports whether the goal can be met before the race must end.
func (r BreakRoom) ParShorter() bool { return r.Par < r.Longest }

// Rich reports whether the race has three controllers or decoy moves: a
// learner has to tell the moves that matter from the others.
func (r BreakRoom) Rich() bool { return r.Controllers >= 3 || len(r.Decoys) > 0 }

// Problems lists the rules the room breaks (nil when none).
func (r BreakRoom) Problems() []string {
	var out []string
	if r.Share() > MaxBreakShare {
		out = append(out, fmt.Sprintf("%.1f%% of random orders of at most %d moves break it (at most %d%%): a learner can stumble on it", r.Share(), r.Par+BreakSlack, MaxBreakShare))
	}
	if !r.ParShorter() {
		out = append(out, fmt.Sprintf("par %d is the longest the race can run (%d moves): every finished order is as short as the answer", r.Par, r.Longest))
	}
	return out
}

// String is the numbers in one line.
func (r BreakRoom) String() string {
	decoys := "no decoys"
	if len(r.Decoys) > 0 {
		decoys = "decoys " + strings.Join(r.Decoys, ",")
	}
	ctrls := fmt.Sprintf("%d controllers", r.Controllers)
	if r.Controllers == 1 {
		ctrls = "1 controller"
	}
	return fmt.Sprintf("break: par %d, longest race %d, random orders of ≤ %d moves breaking it %.1f%% (%d of %d), %s, %s",
		r.Par, r.Longest, r.Par+BreakSlack, r.Share(), r.Met, r.Walks, ctrls, decoys)
}

// MeasureBreak measures a break-it race: met says whether an outcome so
// far meets the goal, shortest is the author's order of par moves.
func MeasureBreak(ctx context.Context, sc *scenario.Scenario, met func(*race.Outcome) bool, shortest []string, walks int, seed uint64) (BreakRoom, error) {
	w, err := race.New(sc)
	if err != nil {
		return BreakRoom{}, err
	}
	r := BreakRoom{Par: len(shortest), Walks: walks, Controllers: len(sc.Controllers)}
	moves := map[scenario.Move]bool{}
	if r.Longest, err = longest(ctx, w, race.NewStateKeys(), map[[32]byte]int{}, moves); err != nil {
		return r, err
	}
	for m := range moves {
		if !slices.Contains(shortest, m.String()) {
			r.Decoys = append(r.Decoys, m.String())
		}
	}
	slices.Sort(r.Decoys)
	// The walks share their beginnings: each prefix is played once.
	root := &walkNode{world: w}
	rng := rand.New(rand.NewPCG(seed, seed))
	for range walks {
		if err := ctx.Err(); err != nil {
			return r, err
		}
		n := root
		for range r.Par + BreakSlack {
			if n.done || len(n.enabled()) == 0 {
				break
			}
			next, err := n.child(n.enabled()[rng.IntN(len(n.enabled()))], met)
			if err != nil {
				return r, err
			}
			n = next
			if n.met {
				r.Met++
				break
			}
		}
	}
	return r, nil
}

// walkNode is one prefix of the random orders: the world after it, what
// it meets, and the prefixes one move longer that a walk has taken.
type walkNode struct {
	world    *race.World
	moves    []scenario.Move
	met      bool
	done     bool
	children map[scenario.Move]*walkNode
}

func (n *walkNode) enabled() []scenario.Move {
	if n.moves == nil {
		n.moves = n.world.Enabled()
		n.done = n.world.Done()
	}
	return n.moves
}

func (n *walkNode) child(tok scenario.Move, met func(*race.Outcome) bool) (*walkNode, error) {
	if c, ok := n.children[tok]; ok {
		return c, nil
	}
	w := n.world.Clone()
	if err := w.Step(tok); err != nil {
		return nil, err
	}
	c := &walkNode{world: w, met: met(w.Outcome())}
	if n.children == nil {
		n.children = map[scenario.Move]*walkNode{}
	}
	n.children[tok] = c
	return c, nil
}

// longest is the number of moves in the longest order that finishes the
// race from w; moves collects every move offered on the way. A state
// reached again is not searched again (its key counts the steps taken).
func longest(ctx context.Context, w *race.World, keys *race.StateKeys, memo map[[32]byte]int, moves map[scenario.Move]bool) (int, error) {
	if w.Done() {
		return 0, nil
	}
	k := keys.Key(w)
	if n, ok := memo[k]; ok {
		return n, nil
	}
	if len(memo) > maxLongestStates {
		return 0, fmt.Errorf("more than %d states: the race is too big to measure its longest order", maxLongestStates)
	}
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	best := 0
	for _, tok := range w.Enabled() {
		moves[tok] = true
		c := w.Clone()
		if err := c.Step(tok); err != nil {
			return 0, err
		}
		n, err := longest(ctx, c, keys, memo, moves)
		if err != nil {
			return 0, err
		}
		best = max(best, n+1)
	}
	memo[k] = best
	return best, nil
}

// maxLongestStates bounds the search for the longest order, as
// breakSearchLimit bounds the search for the shortest break.
const maxLongestStates = breakSearchLimit

// Slot is one setting a fix may change: a knob of one controller, the
// values offered, and the one the race starts with (an index into Values).
type Slot struct {
	Controller, Knob string
	Values           []string
	Start            int
}

// FixRoom is how much a fix-it race leaves to search.
type FixRoom struct {
	// Knobs is the number of settings the learner may change,
	// Combinations the number of ways to set them all.
	Knobs, Combinations int
	// Tried is the number of combinations proven (all of them, or a
	// seeded sample of FixSample), Passed how many of them fix the race.
	Tried, Passed int
}

// Share is the percentage of the combinations tried that pass.
func (r FixRoom) Share() float64 { return percent(r.Passed, r.Tried) }

// Problems lists the rules the room breaks (nil when none).
func (r FixRoom) Problems() []string {
	var out []string
	if r.Knobs < MinKnobs {
		out = append(out, fmt.Sprintf("%d settings to change (at least %d)", r.Knobs, MinKnobs))
	}
	if r.Combinations < MinCombinations {
		out = append(out, fmt.Sprintf("%d combinations of settings (at least %d)", r.Combinations, MinCombinations))
	}
	if r.Share() > MaxFixShare {
		out = append(out, fmt.Sprintf("%.1f%% of combinations fix it (at most %d%%): a learner can fix it by trying", r.Share(), MaxFixShare))
	}
	return out
}

// String is the numbers in one line.
func (r FixRoom) String() string {
	how := "all"
	if r.Tried < r.Combinations {
		how = "a sample"
	}
	return fmt.Sprintf("fix: %d settings, %d combinations, %.1f%% of them fix it (%d of %d, %s)",
		r.Knobs, r.Combinations, r.Share(), r.Passed, r.Tried, how)
}

// MeasureFix measures a fix-it race: passes says whether a combination
// (one value per slot, in the slots' order) fixes it.
func MeasureFix(ctx context.Context, slots []Slot, passes func(values []string) (bool, error), sample int, seed uint64) (FixRoom, error) {
	r := FixRoom{Knobs: len(slots), Combinations: 1}
	for _, s := range slots {
		r.Combinations *= len(s.Values)
	}
	for _, idx := range combinations(slots, r.Combinations, sample, seed) {
		if err := ctx.Err(); err != nil {
			return r, err
		}
		values := make([]string, len(slots))
		for i, s := range slots {
			values[i] = s.Values[idx[i]]
		}
		ok, err := passes(values)
		if err != nil {
			return r, err
		}
		r.Tried++
		if ok {
			r.Passed++
		}
	}
	return r, nil
}

// combinations lists every combination (as value indexes per slot) when
// there are at most sample, else sample distinct ones drawn with seed.
func combinations(slots []Slot, total, sample int, seed uint64) [][]int {
	decode := func(n int) []int {
		idx := make([]int, len(slots))
		for i := len(slots) - 1; i >= 0; i-- {
			idx[i] = n % len(slots[i].Values)
			n /= len(slots[i].Values)
		}
		return idx
	}
	var out [][]int
	if total <= sample {
		for n := range total {
			out = append(out, decode(n))
		}
		return out
	}
	rng := rand.New(rand.NewPCG(seed, seed))
	for _, n := range rng.Perm(total)[:sample] {
		out = append(out, decode(n))
	}
	return out
}

// Room is the room a lesson's play step leaves: one of Break and Fix.
type Room struct {
	Break *BreakRoom
	Fix   *FixRoom
}

// String is the numbers in one line.
func (r Room) String() string {
	if r.Break != nil {
		return r.Break.String()
	}
	if r.Fix != nil {
		return r.Fix.String()
	}
	return "no room measured"
}

// Problems lists the rules the room breaks (nil when none).
func (r Room) Problems() []string {
	if r.Break != nil {
		return r.Break.Problems()
	}
	if r.Fix != nil {
		return r.Fix.Problems()
	}
	return nil
}

// Measure measures a lesson's play step: a break's random orders and
// longest race, or a fix's settings and the share of their combinations
// that the explorer proves.
func Measure(ctx context.Context, p *lessons.Pack, s lessons.Step) (Room, error) {
	base, err := p.ScenarioFor(s, nil)
	if err != nil {
		return Room{}, err
	}
	return measure(ctx, s.Goal, base, nil)
}

// MeasureGoal measures the room a play goal leaves on its race, as
// Measure does a play step's: a level's (the sandbox's challenges are
// levels) by the same rules.
func MeasureGoal(ctx context.Context, g *lessons.PlayGoal, base *scenario.Scenario) (Room, error) {
	return measure(ctx, g, base, nil)
}

func measure(ctx context.Context, g *lessons.PlayGoal, base *scenario.Scenario, pr *proofs) (Room, error) {
	if g.IsBreak() {
		r, err := MeasureBreak(ctx, base, func(o *race.Outcome) bool { return BreakMet(g, base, o) }, g.Schedule, Walks, Seed)
		return Room{Break: &r}, err
	}
	if pr == nil {
		pr = newProofs(g, base)
	}
	r, err := MeasureFix(ctx, FixSlots(g, base), func(values []string) (bool, error) {
		res, err := pr.of(ctx, SettingsOf(g, base, values))
		// A combination that is no strategy, or whose race cannot run,
		// fixes nothing.
		return err == nil && res.Proven(), ctx.Err()
	}, FixSample, Seed)
	return Room{Fix: &r}, err
}

// FixSlots are a fix goal's settings: each knob of each controller it may
// change, with the race's own value offered too when the goal leaves it
// out.
func FixSlots(g *lessons.PlayGoal, base *scenario.Scenario) []Slot {
	start := g.StartSettings(base)
	var slots []Slot
	for _, c := range g.Tunable(base) {
		for _, k := range g.Knobs {
			values := k.Values
			at := slices.Index(values, start[c][k.Name])
			if at < 0 {
				values = append([]string{start[c][k.Name]}, values...)
				at = 0
			}
			slots = append(slots, Slot{Controller: c, Knob: string(k.Name), Values: values, Start: at})
		}
	}
	return slots
}

// SettingsOf turns one value per FixSlots slot into settings.
func SettingsOf(g *lessons.PlayGoal, base *scenario.Scenario, values []string) lessons.Settings {
	s := g.StartSettings(base)
	for i, sl := range FixSlots(g, base) {
		s[sl.Controller][lessons.KnobName(sl.Knob)] = values[i]
	}
	return s
}

func percent(n, of int) float64 {
	if of == 0 {
		return 0
	}
	return 100 * float64(n) / float64(of)
}
