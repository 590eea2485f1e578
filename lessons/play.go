package lessons

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	yaml "go.yaml.in/yaml/v3"

	"github.com/conflictlab/conflictlab/sim/controller"
	"github.com/conflictlab/conflictlab/sim/race"
	"github.com/conflictlab/conflictlab/sim/scenario"
)

// A play step makes the learner do what the other steps show: be the
// scheduler and find the order that breaks the race (Break), or change
// the fewest of the controllers' settings so that no order breaks it
// (Fix). This file holds a goal as written and the settings a fix turns;
// the simulator decides when a goal is met and proves par
// (lessons/playgoal).

// PlayGoal is what a play step asks for. Exactly one of Break and Fix is
// set.
type PlayGoal struct {
	// Break: reach, by scheduling steps, a state where every claim holds
	// (as on the outcome so far: "data.owner is lost"). Par is the fewest
	// scheduler moves that do it.
	Break []Claim
	// Fix: change settings (Knobs) until no interleaving ends with one of
	// these verdicts. Par is the fewest settings changed that do it.
	Fix []race.Verdict
	// Knobs are the settings a fix may change, each with the values the
	// learner may pick from, in order; every controller that Controllers
	// names (all when empty) has each knob.
	Knobs []Knob
	// Controllers whose settings a fix may change (all when empty).
	Controllers []string
	// Par is the fewest moves (break) or changes (fix) that reach the goal.
	Par int
	// Schedule is the author's shortest order (break); Check replays it.
	Schedule []string
	// Settings is the author's fix: controller → knob → value; Check
	// proves it with the explorer.
	Settings Settings
	// Line is where the goal is written.
	Line int
}

// Knob is one setting of a controller that a fix may change.
type Knob struct {
	Name   KnobName
	Values []string
}

// KnobName is a setting a fix can change: the fields of a choose step's
// strategy.
type KnobName string

// The knobs, named as strategies name them in lesson files.
const (
	KnobWrite   KnobName = "write"
	KnobRead    KnobName = "read"
	KnobRetry   KnobName = "retry"
	KnobRequeue KnobName = "requeue"
	KnobWithRV  KnobName = "withRV"
	KnobForce   KnobName = "force"
	KnobTest    KnobName = "test"
)

// KnobNames lists them in the order a settings table shows them.
var KnobNames = []KnobName{KnobWrite, KnobRead, KnobWithRV, KnobTest, KnobForce, KnobRetry, KnobRequeue}

// Settings are knob values per controller: controller → knob → value.
type Settings map[string]map[KnobName]string

// Clone is a deep copy.
func (s Settings) Clone() Settings {
	out := make(Settings, len(s))
	for c, m := range s {
		out[c] = make(map[KnobName]string, len(m))
		for k, v := range m {
			out[c][k] = v
		}
	}
	return out
}

// Changes counts the (controller, knob) pairs whose value differs from
// from's.
func (s Settings) Changes(from Settings) int {
	n := 0
	for c, m := range s {
		for k, v := range m {
			if from[c][k] != v {
				n++
			}
		}
	}
	return n
}

// String lists the settings in a stable order ("a.write=update b.retry=default").
func (s Settings) String() string {
	var parts []string
	for _, c := range slices.Sorted(maps.Keys(s)) {
		for _, k := range KnobNames {
			if v, ok := s[c][k]; ok {
				parts = append(parts, fmt.Sprintf("%s.%s=%s", c, k, v))
			}
		}
	}
	return strings.Join(parts, " ")
}

// IsBreak reports whether the goal is to break the race.
func (g *PlayGoal) IsBreak() bool { return len(g.Break) > 0 }

// Tunable lists the controllers a fix may change, in the scenario's order.
func (g *PlayGoal) Tunable(sc *scenario.Scenario) []string {
	var out []string
	for _, c := range sc.Controllers {
		if len(g.Controllers) == 0 || slices.Contains(g.Controllers, c.Name) {
			out = append(out, c.Name)
		}
	}
	return out
}

// KnobValue is a controller's current value of a knob, as a strategy
// would write it ("" when the program's value has no name, such as a
// retry policy that is none of the presets).
func KnobValue(p controller.Program, k KnobName) string {
	switch k {
	case KnobWrite:
		return string(p.Write)
	case KnobRead:
		return string(p.Read)
	case KnobRetry:
		name, _ := controller.RetryPresetOf(p.Retry)
		return name
	case KnobRequeue:
		return strconv.Itoa(p.Requeue.Max)
	case KnobWithRV:
		return strconv.FormatBool(p.WithRV)
	case KnobForce:
		return strconv.FormatBool(p.Force)
	case KnobTest:
		if p.Test == controller.TestNone {
			return "none"
		}
		return string(p.Test)
	}
	return ""
}

// StartSettings are the scenario's own values of the goal's knobs.
func (g *PlayGoal) StartSettings(sc *scenario.Scenario) Settings {
	s := Settings{}
	for _, c := range sc.Controllers {
		if len(g.Controllers) > 0 && !slices.Contains(g.Controllers, c.Name) {
			continue
		}
		s[c.Name] = map[KnobName]string{}
		for _, k := range g.Knobs {
			s[c.Name][k.Name] = KnobValue(c.Program, k.Name)
		}
	}
	return s
}

// Answer is the author's fix: the scenario's settings with the goal's
// Settings applied.
func (g *PlayGoal) Answer(sc *scenario.Scenario) Settings {
	s := g.StartSettings(sc)
	for c, m := range g.Settings {
		for k, v := range m {
			if s[c] != nil {
				s[c][k] = v
			}
		}
	}
	return s
}

// strategyOf turns one controller's knob values into a strategy.
func strategyOf(m map[KnobName]string) (Strategy, error) {
	var sp StrategySpec
	for k, v := range m {
		switch k {
		case KnobWrite:
			sp.Write = v
		case KnobRead:
			sp.Read = v
		case KnobRetry:
			sp.Retry = v
		case KnobTest:
			sp.Test = v
		case KnobRequeue:
			n, err := strconv.Atoi(v)
			if err != nil {
				return Strategy{}, fmt.Errorf("requeue %q: want a number", v)
			}
			sp.Requeue = &n
		case KnobWithRV, KnobForce:
			b, err := strconv.ParseBool(v)
			if err != nil {
				return Strategy{}, fmt.Errorf("%s %q: want true or false", k, v)
			}
			if k == KnobWithRV {
				sp.WithRV = &b
			} else {
				sp.Force = &b
			}
		default:
			return Strategy{}, fmt.Errorf("unknown knob %q", k)
		}
	}
	return sp.Parse()
}

// Tuned is base with the settings applied. base is shared; the result is
// a copy.
func Tuned(base *scenario.Scenario, s Settings) (*scenario.Scenario, error) {
	sc := *base
	sc.Controllers = append([]scenario.Controller(nil), base.Controllers...)
	for i, c := range sc.Controllers {
		m, ok := s[c.Name]
		if !ok {
			continue
		}
		st, err := strategyOf(m)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", c.Name, err)
		}
		sc.Controllers[i].Program = st.Apply(c.Program)
	}
	return &sc, nil
}

// Offers reports whether the goal offers value v for knob name.
func (g *PlayGoal) Offers(name KnobName, v string) bool {
	for _, k := range g.Knobs {
		if k.Name == name {
			return slices.Contains(k.Values, v)
		}
	}
	return false
}

// Diff is what s changes from from, per controller.
func (s Settings) Diff(from Settings) Settings {
	d := Settings{}
	for c, m := range s {
		for k, v := range m {
			if from[c][k] != v {
				if d[c] == nil {
					d[c] = map[KnobName]string{}
				}
				d[c][k] = v
			}
		}
	}
	return d
}

// errNoGoal is returned for a play step without a goal.
var errNoGoal = errors.New("a play step needs a goal: break (claims to reach) or fix (verdicts no order may end with)")

// goalFile mirrors a goal in YAML. knobs is a mapping kept as a node, so
// its order (the order the settings table shows) survives.
type goalFile struct {
	Break       []yaml.Node                  `yaml:"break"`
	Fix         []string                     `yaml:"fix"`
	Knobs       yaml.Node                    `yaml:"knobs"`
	Controllers []string                     `yaml:"controllers"`
	Par         int                          `yaml:"par"`
	Schedule    []string                     `yaml:"schedule"`
	Settings    map[string]map[string]string `yaml:"settings"`
}

// ParseGoal reads a play goal written as a play step's goal is
// (docs/lessons-format.md, "Play steps"): a level file holds one too.
// Messages name file, the node's lines and field.
func ParseGoal(file, field string, n *yaml.Node) (*PlayGoal, error) { return parseGoal(file, field, n) }

func parseGoal(file, field string, n *yaml.Node) (*PlayGoal, error) {
	var gf goalFile
	if err := DecodeStrict(n, &gf); err != nil {
		return nil, fieldErr(file, n, field, err)
	}
	g := &PlayGoal{Controllers: gf.Controllers, Par: gf.Par, Schedule: gf.Schedule, Line: n.Line}
	var errs []error
	bad := func(key, f, msg string) {
		errs = append(errs, &Error{File: file, Line: lineOf(n, key), Field: field + f, Msg: msg})
	}
	if (len(gf.Break) > 0) == (len(gf.Fix) > 0) {
		bad("", "", "want exactly one of break (claims to reach) and fix (verdicts no order may end with)")
	}
	if gf.Par < 1 {
		bad("par", ".par", "want the fewest moves (break) or changes (fix) that reach the goal, at least 1")
	}
	for i := range gf.Break {
		c, err := ParseClaim(file, fmt.Sprintf("%s.break[%d]", field, i), &gf.Break[i])
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if c.Explore != nil {
			bad("break", fmt.Sprintf(".break[%d]", i), "a break goal is checked on one order: an explore claim belongs to a fix")
			continue
		}
		g.Break = append(g.Break, c)
	}
	for i, v := range gf.Fix {
		if !validVerdict(race.Verdict(v)) {
			bad("fix", fmt.Sprintf(".fix[%d]", i), fmt.Sprintf("unknown verdict %q", v))
		}
		g.Fix = append(g.Fix, race.Verdict(v))
	}
	if len(gf.Break) > 0 {
		if gf.Knobs.Kind != 0 || len(gf.Settings) > 0 {
			bad("knobs", ".knobs", "knobs and settings belong to a fix goal")
		}
		if len(gf.Schedule) == 0 {
			bad("schedule", ".schedule", "give a shortest order that breaks it (the check replays it)")
		}
	}
	if len(gf.Fix) > 0 {
		if len(gf.Schedule) > 0 {
			bad("schedule", ".schedule", "a fix goal is proven over every order: give settings, not a schedule")
		}
		if gf.Knobs.Kind != yaml.MappingNode || len(gf.Knobs.Content) == 0 {
			bad("knobs", ".knobs", "a fix goal needs knobs: a mapping of setting → the values offered")
		} else {
			for i := 0; i+1 < len(gf.Knobs.Content); i += 2 {
				k, vn := gf.Knobs.Content[i], gf.Knobs.Content[i+1]
				name := KnobName(k.Value)
				f := ".knobs." + k.Value
				var vals []string
				if err := vn.Decode(&vals); err != nil || len(vals) < 2 {
					errs = append(errs, &Error{File: file, Line: k.Line, Field: field + f, Msg: "want a list of at least two values"})
					continue
				}
				for _, v := range vals {
					if _, err := strategyOf(map[KnobName]string{name: v}); err != nil {
						errs = append(errs, &Error{File: file, Line: vn.Line, Field: field + f, Msg: err.Error()})
					}
				}
				g.Knobs = append(g.Knobs, Knob{Name: name, Values: vals})
			}
		}
		if len(gf.Settings) == 0 {
			bad("settings", ".settings", "give the fewest changes that fix it (the check proves them)")
		}
		g.Settings = Settings{}
		for c, m := range gf.Settings {
			g.Settings[c] = map[KnobName]string{}
			for k, v := range m {
				g.Settings[c][KnobName(k)] = v
			}
		}
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return g, nil
}

func validVerdict(v race.Verdict) bool {
	for _, w := range race.Verdicts {
		if v == w {
			return true
		}
	}
	return false
}
