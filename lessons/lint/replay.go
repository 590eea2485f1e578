package lint

import (
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/conflictlab/conflictlab/lessons"
	"github.com/conflictlab/conflictlab/lessons/answerbias"
	"github.com/conflictlab/conflictlab/lessons/claims"
	"github.com/conflictlab/conflictlab/lessons/playgoal"
	"github.com/conflictlab/conflictlab/sim/race"
	"github.com/conflictlab/conflictlab/sim/scenario"
)

// A question that asks what the learner has already seen tests memory:
// a predict step about a race a read step just played, a choose step
// whose right strategy an earlier step ran, a break whose order an
// earlier race already took. Replays walks the pack in course order and
// remembers, per race, what was shown (a race that played is shown
// whole) and what was asked (each quantity its options' claims measure,
// claims.Quantity). A race is identified by what it plays — the
// scenario's objects and controllers with the strategy applied, and the
// schedule as played — not by its file, so a copy of a scenario under
// another name is the same race.

// RaceID identifies the race sc plays with schedule (the tokens as
// played); with schedule nil, every interleaving of sc.
func RaceID(sc *scenario.Scenario, schedule []string) string {
	what := struct {
		Objects     any
		Controllers any
		Lag         any
		StartRV     int64
		Invariants  any
	}{sc.Objects, sc.Controllers, sc.Lag, sc.StartRV, sc.Invariants}
	b, err := json.Marshal(what)
	if err != nil {
		b = []byte(sc.File) // plain data; if it ever fails, the file names the race
	}
	sum := sha256.Sum256(b)
	id := fmt.Sprintf("%x", sum[:8])
	if schedule == nil {
		return id + " every interleaving"
	}
	return id + " " + strings.Join(schedule, ",")
}

// seen is what earlier steps showed or asked of one race.
type seen struct {
	shown string            // where the race was played whole ("" when not)
	asked map[string]string // quantity → where it was asked
}

type memory map[string]*seen

func (m memory) of(id string) *seen {
	if m[id] == nil {
		m[id] = &seen{asked: map[string]string{}}
	}
	return m[id]
}

// Replays finds the questions and break goals that ask what an earlier
// step showed or asked.
func Replays(p *lessons.Pack) []answerbias.Finding {
	out, _ := replays(p)
	return out
}

// Seen is what a pack shows and asks of its races, over all its steps.
type Seen struct{ mem memory }

// Saw returns what p shows and asks.
func Saw(p *lessons.Pack) Seen {
	_, mem := replays(p)
	return Seen{mem}
}

// Where names the first step that played the race id whole or asked
// quantity of it ("" when none); interleavings: the quantity is about
// every interleaving of the race's scenario, and id is RaceID(sc, nil).
func (s Seen) Where(id, quantity string, interleavings bool) string {
	m := s.mem[id]
	if m == nil {
		return ""
	}
	if m.shown != "" && !interleavings {
		return m.shown
	}
	return m.asked[quantity]
}

// Ask is one quantity a question asks of one race: the race's id
// (RaceID; every interleaving's for an explore claim) and the quantity.
type Ask struct {
	Race, Quantity string
	Interleavings  bool
}

// Asks are what claims cs ask of the race sc played with schedule.
func Asks(sc *scenario.Scenario, schedule []string, cs []lessons.Claim) []Ask {
	return asks(sc, RaceID(sc, schedule), cs)
}

func replays(p *lessons.Pack) ([]answerbias.Finding, memory) {
	var out []answerbias.Finding
	mem := memory{}
	var played []playedRace // the races shown so far, for break goals
	for _, l := range p.Lessons {
		for i, s := range l.Steps {
			if s.Race == nil {
				continue
			}
			field := fmt.Sprintf("steps[%d]", i)
			here := fmt.Sprintf("%s %s", l.File, field)
			excuse := func(f answerbias.Finding, opt map[string]string) answerbias.Finding {
				if why, ok := s.Reviewed[string(answerbias.Replay)]; ok {
					f.Excused = why
				} else if why, ok := opt[string(answerbias.Replay)]; ok {
					f.Excused = why
				}
				return f
			}
			switch s.Kind {
			case lessons.Read, lessons.Predict:
				sc, o, err := run(p, s, nil)
				if err != nil {
					continue // the claim checks report a race that does not run
				}
				id := RaceID(sc, scenario.Tokens(o.Schedule))
				if s.Kind == lessons.Predict {
					if f, ok := asked(mem, sc, id, optionClaims(s), here); ok {
						f.File, f.Line, f.Field = l.File, s.Line, field
						out = append(out, excuse(f, nil))
					}
				}
				mem.of(id).shown = orFirst(mem.of(id).shown, here)
				remember(mem, sc, id, s.Claims, here)
				played = append(played, playedRace{sc: sc, o: o, where: here, lesson: l})
			case lessons.Choose:
				for k := range s.Options {
					opt := &s.Options[k]
					sc, o, err := run(p, s, opt)
					if err != nil {
						continue
					}
					id := RaceID(sc, scenario.Tokens(o.Schedule))
					if f, ok := asked(mem, sc, id, s.Claims, here); ok {
						f.File, f.Line, f.Field = l.File, opt.Line, fmt.Sprintf("%s.options[%d]", field, k)
						f.Msg = "option " + opt.ID + ": " + f.Msg
						out = append(out, excuse(f, opt.Reviewed))
					}
				}
				for k := range s.Options {
					if opt := &s.Options[k]; opt.Correct {
						if sc, o, err := run(p, s, opt); err == nil {
							id := RaceID(sc, scenario.Tokens(o.Schedule))
							mem.of(id).shown = orFirst(mem.of(id).shown, here)
							played = append(played, playedRace{sc: sc, o: o, where: here, lesson: l})
						}
					}
				}
			case lessons.Play:
				if s.Goal == nil || !s.Goal.IsBreak() {
					continue
				}
				sc, err := p.ScenarioFor(s, nil)
				if err != nil {
					continue
				}
				mine := RaceID(sc, nil)
				for _, pr := range played {
					// The same race played before, or an order this lesson
					// played on another race that breaks this one too.
					same := RaceID(pr.sc, nil) == mine && playgoal.BreakMet(s.Goal, pr.sc, pr.o)
					if !same && !(pr.lesson == l && breaksWith(s.Goal, sc, scenario.Tokens(pr.o.Schedule))) {
						continue
					}
					out = append(out, excuse(answerbias.Finding{File: l.File, Line: s.Goal.Line, Field: field + ".goal", Check: answerbias.Replay,
						Msg: fmt.Sprintf("the order %s played (%s) already meets this goal: the learner can take that order again", pr.where, strings.Join(scenario.Tokens(pr.o.Schedule), " "))}, nil))
					break
				}
			}
		}
	}
	return out, mem
}

type playedRace struct {
	sc     *scenario.Scenario
	o      *race.Outcome
	where  string
	lesson *lessons.Lesson
}

// breaksWith reports whether some beginning of schedule, played on sc,
// meets the break goal g (a token sc has no controller for ends it).
func breaksWith(g *lessons.PlayGoal, sc *scenario.Scenario, schedule []string) bool {
	w, err := race.New(sc)
	if err != nil {
		return false
	}
	for _, tok := range schedule {
		m, err := scenario.ParseMove(tok)
		if err != nil || w.Step(m) != nil {
			return false
		}
		if playgoal.BreakMet(g, sc, w.Outcome()) {
			return true
		}
	}
	return false
}

func orFirst(prev, here string) string {
	if prev != "" {
		return prev
	}
	return here
}

func run(p *lessons.Pack, s lessons.Step, opt *lessons.Option) (*scenario.Scenario, *race.Outcome, error) {
	sc, err := p.ScenarioFor(s, opt)
	if err != nil {
		return nil, nil, err
	}
	moves, err := scenario.ParseMoves(s.Race.Schedule)
	if err != nil {
		return nil, nil, err
	}
	o, err := race.Run(sc, race.Schedule{Moves: moves})
	return sc, o, err
}

func optionClaims(s lessons.Step) []lessons.Claim {
	var out []lessons.Claim
	for _, o := range s.Options {
		out = append(out, o.Claims...)
	}
	return out
}

// asked reports the first of cs whose quantity an earlier step showed
// or asked of the same race, and remembers them all as asked here.
func asked(mem memory, sc *scenario.Scenario, id string, cs []lessons.Claim, here string) (answerbias.Finding, bool) {
	var f answerbias.Finding
	found := false
	for _, a := range asks(sc, id, cs) {
		m := mem.of(a.Race)
		switch {
		case found:
		case m.shown != "" && !a.Interleavings:
			f, found = answerbias.Finding{Check: answerbias.Replay, Msg: fmt.Sprintf("it asks %s of a race %s already played whole", a.Quantity, m.shown)}, true
		case m.asked[a.Quantity] != "" && m.asked[a.Quantity] != here:
			f, found = answerbias.Finding{Check: answerbias.Replay, Msg: fmt.Sprintf("it asks %s of the race %s asked it of", a.Quantity, m.asked[a.Quantity])}, true
		}
		if m.asked[a.Quantity] == "" {
			m.asked[a.Quantity] = here
		}
	}
	return f, found
}

// remember notes what a step's own claims (true whatever the answer, and
// stated to the learner) say of its race.
func remember(mem memory, sc *scenario.Scenario, id string, cs []lessons.Claim, here string) {
	for _, a := range asks(sc, id, cs) {
		if m := mem.of(a.Race); m.asked[a.Quantity] == "" {
			m.asked[a.Quantity] = here
		}
	}
}

// asks is Asks for a race whose id is known.
func asks(sc *scenario.Scenario, id string, cs []lessons.Claim) []Ask {
	var out []Ask
	for _, c := range cs {
		a := Ask{Race: id, Quantity: claims.Quantity(c), Interleavings: claims.Interleavings(c)}
		if a.Interleavings {
			a.Race = RaceID(sc, nil)
		}
		if !slices.Contains(out, a) {
			out = append(out, a)
		}
	}
	return out
}
