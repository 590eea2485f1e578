package gen

import (
	"fmt"
	"maps"
	"slices"
	"strconv"

	"github.com/conflictlab/conflictlab/sim/controller"
	"github.com/conflictlab/conflictlab/sim/race"
	"github.com/conflictlab/conflictlab/sim/scenario"
)

// Shrink reduces a race for which still holds to a smaller one for which
// it still holds, by delta debugging: it tries, biggest cuts first,
// without a controller, without an object no controller targets, without
// part of the schedule (halves, quarters, … single steps) or its seed,
// without a mutation or its condition, with a controller's options back
// at their defaults, and without parts of the initial objects (labels,
// annotations, finalizers, data and spec keys); it keeps the first
// candidate still accepts and starts over, until no cut is accepted.
//
// still is only asked about candidates that load and run in the
// simulator (a schedule is first cut to the steps that are still enabled
// when they come). It may be costly (a run on a real server): Shrink calls
// it at most maxTries times. The result loads (Marshal, Parse).
func Shrink(sc *scenario.Scenario, still func(*scenario.Scenario) bool, maxTries int) *scenario.Scenario {
	cur := sc
	tries := 0
	for progress := true; progress && tries < maxTries; {
		progress = false
		for _, cut := range cuts(cur) {
			cand := clone(cur)
			if cand == nil || !cut(cand) {
				continue
			}
			cand = runnable(cand)
			if cand == nil {
				continue
			}
			if tries++; still(cand) {
				cur, progress = cand, true
				break
			}
			if tries >= maxTries {
				break
			}
		}
	}
	return cur
}

// clone copies a scenario through its file form.
func clone(sc *scenario.Scenario) *scenario.Scenario {
	g, err := Finish(sc)
	if err != nil {
		return nil
	}
	return g.Scenario
}

// runnable cuts the schedule to the tokens the simulator can take when
// they come and checks the race loads and runs; nil if it does not.
func runnable(sc *scenario.Scenario) *scenario.Scenario {
	if len(sc.Schedule) > 0 {
		w, err := race.New(sc)
		if err != nil {
			return nil
		}
		var keep []scenario.Move
		for _, tok := range sc.Schedule {
			if len(w.Taken()) >= sc.StepBudget() {
				break
			}
			if w.Step(tok) == nil {
				keep = append(keep, tok)
			}
		}
		sc.Schedule = keep
	}
	g, err := Finish(sc)
	if err != nil {
		return nil
	}
	if _, err := race.Run(g.Scenario, race.Schedule{}); err != nil {
		return nil
	}
	return g.Scenario
}

// A cut changes a copy of the scenario; false when it does not apply.
type cut func(*scenario.Scenario) bool

// cuts lists every cut of sc, biggest first.
func cuts(sc *scenario.Scenario) []cut {
	var out []cut
	for i := range sc.Controllers {
		if len(sc.Controllers) > 1 {
			out = append(out, dropController(i))
		}
	}
	for i := range sc.Objects {
		out = append(out, dropObject(i))
	}
	if len(sc.Schedule) > 0 {
		out = append(out, func(s *scenario.Scenario) bool { s.Schedule = nil; return true })
		for n := len(sc.Schedule) / 2; n >= 1; n /= 2 {
			for start := 0; start < len(sc.Schedule); start += n {
				out = append(out, dropSteps(start, n))
			}
		}
	}
	if sc.Seed != nil {
		out = append(out, func(s *scenario.Scenario) bool { s.Seed = nil; return true })
	}
	for i, c := range sc.Controllers {
		for j, m := range c.Mutations {
			if len(c.Mutations) > 1 {
				out = append(out, dropMutation(i, j))
			}
			if m.When != nil {
				out = append(out, func(s *scenario.Scenario) bool { s.Controllers[i].Mutations[j].When = nil; return true })
			}
		}
	}
	if sc.Lag != (scenario.Lag{}) {
		out = append(out, func(s *scenario.Scenario) bool { s.Lag = scenario.Lag{}; return true })
	}
	for i := range sc.Controllers {
		for _, reset := range optionResets {
			out = append(out, func(s *scenario.Scenario) bool { return reset(&s.Controllers[i]) })
		}
	}
	for i, o := range sc.Objects {
		for _, p := range trimmable(o.Object) {
			out = append(out, dropObjectField(i, p))
		}
	}
	return out
}

func dropController(i int) cut {
	return func(s *scenario.Scenario) bool {
		name := s.Controllers[i].Name
		s.Controllers = append(s.Controllers[:i:i], s.Controllers[i+1:]...)
		var keep []scenario.Move
		for _, tok := range s.Schedule {
			if tok.Controller != name {
				keep = append(keep, tok)
			}
		}
		s.Schedule = keep
		return true
	}
}

func dropObject(i int) cut {
	return func(s *scenario.Scenario) bool {
		for _, c := range s.Controllers {
			if c.Target.Name == s.Objects[i].GetName() && string(c.Target.Kind) == s.Objects[i].GetKind() {
				return false
			}
		}
		s.Objects = append(s.Objects[:i:i], s.Objects[i+1:]...)
		return true
	}
}

func dropSteps(start, n int) cut {
	return func(s *scenario.Scenario) bool {
		end := min(start+n, len(s.Schedule))
		s.Schedule = append(s.Schedule[:start:start], s.Schedule[end:]...)
		return true
	}
}

func dropMutation(i, j int) cut {
	return func(s *scenario.Scenario) bool {
		ms := s.Controllers[i].Mutations
		s.Controllers[i].Mutations = append(ms[:j:j], ms[j+1:]...)
		return true
	}
}

// optionResets put one of a controller's options back at its default;
// each says whether it changed anything.
var optionResets = []func(c *scenario.Controller) bool{
	func(c *scenario.Controller) bool { return swap(&c.Read, controller.FromLister) },
	func(c *scenario.Controller) bool { return swap(&c.WithRV, false) },
	func(c *scenario.Controller) bool { return swap(&c.Test, controller.TestNone) },
	func(c *scenario.Controller) bool { return swap(&c.Force, false) },
	func(c *scenario.Controller) bool { return swap(&c.FieldManager, "") },
	func(c *scenario.Controller) bool { return swap(&c.Retry, controller.NoRetry()) },
	func(c *scenario.Controller) bool { return swap(&c.Requeue, controller.RequeuePolicy{}) },
	func(c *scenario.Controller) bool { return swap(&c.Reconciles, 1) },
	func(c *scenario.Controller) bool {
		changed := c.Lag != nil
		c.Lag = nil
		return changed
	},
}

func swap[T comparable](p *T, v T) bool {
	changed := *p != v
	*p = v
	return changed
}

// trimmable lists the parts of an initial object a race may do without:
// each label, annotation and finalizer, each data key, each optional
// spec and status key. (Identity and a Deployment's required fields stay.)
func trimmable(obj map[string]any) [][]string {
	var out [][]string
	meta, _ := obj["metadata"].(map[string]any)
	for _, k := range []string{"labels", "annotations"} {
		m, _ := meta[k].(map[string]any)
		for _, key := range slices.Sorted(maps.Keys(m)) {
			out = append(out, []string{"metadata", k, key})
		}
	}
	if _, ok := meta["finalizers"]; ok {
		out = append(out, []string{"metadata", "finalizers"})
	}
	if _, ok := obj["immutable"]; ok {
		out = append(out, []string{"immutable"})
	}
	if _, ok := obj["status"]; ok {
		out = append(out, []string{"status"})
	}
	if containers, ok := nestedList(obj, "spec", "template", "spec", "containers"); ok {
		for i, c := range containers {
			cm, _ := c.(map[string]any)
			for _, key := range slices.Sorted(maps.Keys(cm)) {
				if key != "name" && key != "image" {
					out = append(out, []string{"spec", "template", "spec", "containers", fmt.Sprint(i), key})
				}
			}
		}
	}
	for _, top := range []string{"data", "spec"} {
		m, _ := obj[top].(map[string]any)
		for _, key := range slices.Sorted(maps.Keys(m)) {
			if obj["kind"] == "Deployment" && (key == "selector" || key == "template") {
				continue
			}
			out = append(out, []string{top, key})
		}
	}
	return out
}

func nestedList(obj map[string]any, path ...string) ([]any, bool) {
	var cur any = obj
	for _, k := range path {
		m, ok := cur.(map[string]any)
		if !ok {
			return nil, false
		}
		cur = m[k]
	}
	l, ok := cur.([]any)
	return l, ok
}

// dropObjectField deletes the field at path (a number steps into a list),
// and a labels or annotations map that leaves empty.
func dropObjectField(i int, path []string) cut {
	return func(s *scenario.Scenario) bool {
		var cur any = s.Objects[i].Object
		var parents []map[string]any
		for _, k := range path[:len(path)-1] {
			switch x := cur.(type) {
			case map[string]any:
				parents = append(parents, x)
				cur = x[k]
			case []any:
				n, err := strconv.Atoi(k)
				if err != nil || n >= len(x) {
					return false
				}
				cur = x[n]
			default:
				return false
			}
		}
		m, ok := cur.(map[string]any)
		last := path[len(path)-1]
		if !ok {
			return false
		}
		if _, ok := m[last]; !ok {
			return false
		}
		delete(m, last)
		if len(m) == 0 && len(path) == 3 && path[0] == "metadata" && len(parents) > 0 {
			delete(parents[len(parents)-1], path[1])
		}
		return true
	}
}
