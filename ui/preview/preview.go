// Package preview is what the screens that let the learner be the
// scheduler (the sandbox's race tab, a lesson's play step) share: what
// each schedulable move would do next, said without its answer.
package preview

import (
	"fmt"
	"sort"
	"strings"
	"unicode"

	"charm.land/bubbles/v2/key"

	"github.com/conflictlab/conflictlab/sim/controller"
	"github.com/conflictlab/conflictlab/sim/race"
	"github.com/conflictlab/conflictlab/sim/report"
	"github.com/conflictlab/conflictlab/sim/scenario"
	"github.com/conflictlab/conflictlab/ui/layout"
	"github.com/conflictlab/conflictlab/ui/styles"
)

// Next previews what each enabled move of w would do now: a controller's
// next request, or the watch event a manual-lag cache would take. The
// simulator is deterministic, so a clone stepped once shows exactly what
// the step will do, without doing it. w is not changed.
func Next(w *race.World) map[scenario.Move]string {
	out := map[scenario.Move]string{}
	n := len(w.Outcome().Steps)
	for _, tok := range w.Enabled() {
		c := w.Clone()
		if c.Step(tok) != nil {
			continue
		}
		if steps := c.Outcome().Steps; len(steps) > n {
			out[tok] = Describe(steps[n])
		}
	}
	return out
}

// Describe says what a step does, without its answer.
func Describe(s race.Step) string {
	switch s.Kind {
	case "watch":
		return "cache ← " + s.Event
	case "lister":
		return "read its Lister"
	}
	return report.Call(s)
}

// MoveKeys maps key names to the scheduler's moves for the controllers
// (in the scenario's order): 1–4 step them and shift+1–4 (!@#$) deliver
// their caches' events; a controller's initial (its capital for its
// cache) does too when no other controller shares it and none of the
// screen's own bindings (taken) uses the key. q and ? are never taken:
// they quit and list the keys everywhere.
func MoveKeys(controllers []string, taken []key.Binding) map[string]scenario.Move {
	out := map[string]scenario.Move{}
	shifted := []string{"!", "@", "#", "$"}
	reserved := map[string]bool{"q": true, "?": true}
	for _, b := range taken {
		for _, s := range b.Keys() {
			reserved[s] = true
		}
	}
	initials := map[rune]int{}
	for _, name := range controllers {
		initials[unicode.ToLower([]rune(name)[0])]++
	}
	for i, name := range controllers {
		if i >= 4 {
			break
		}
		out[fmt.Sprint(i+1)] = scenario.Step(name)
		out[shifted[i]] = scenario.Deliver(name)
		out[fmt.Sprintf("shift+%d", i+1)] = scenario.Deliver(name)
		r := unicode.ToLower([]rune(name)[0])
		if initials[r] != 1 || !unicode.IsLetter(r) {
			continue
		}
		if lo := string(r); !reserved[lo] {
			out[lo] = scenario.Step(name)
		}
		if up := string(unicode.ToUpper(r)); !reserved[up] {
			out[up] = scenario.Deliver(name)
		}
	}
	return out
}

// KeysOf lists the keys of keys (MoveKeys) that schedule move, digits
// and symbols first, then the letter: "1/a".
func KeysOf(keys map[string]scenario.Move, move scenario.Move) string {
	var ks []string
	for k, t := range keys {
		if t == move && !strings.HasPrefix(k, "shift+") {
			ks = append(ks, k)
		}
	}
	sort.Slice(ks, func(i, j int) bool {
		li, lj := unicode.IsLetter(rune(ks[i][0])), unicode.IsLetter(rune(ks[j][0]))
		return !li && lj || li == lj && ks[i] < ks[j]
	})
	return strings.Join(ks, "/")
}

// Refusal is why a schedule key does nothing now.
type Refusal int

const (
	// Enabled: the move can be scheduled.
	Enabled Refusal = iota
	// FedOnItsOwn: a delivery to an informer whose lag is not manual.
	FedOnItsOwn
	// NothingPending: a manual cache that has seen every write.
	NothingPending
	// Finished: a controller that takes no more steps.
	Finished
)

// Why says whether move can be scheduled in w (sc is w's scenario), and
// if not, why; the screens word it for their own context.
func Why(w *race.World, sc *scenario.Scenario, move scenario.Move) (name string, r Refusal) {
	name, cache := move.Controller, move.Deliver
	for _, t := range w.Enabled() {
		if t == move {
			return name, Enabled
		}
	}
	switch {
	case cache && !lagOf(sc, name).Manual:
		return name, FedOnItsOwn
	case cache:
		return name, NothingPending
	}
	return name, Finished
}

func lagOf(sc *scenario.Scenario, name string) scenario.Lag {
	for i, c := range sc.Controllers {
		if c.Name == name {
			return sc.LagOf(i)
		}
	}
	return scenario.Lag{}
}

// Panel is the scheduler's list of controllers, one line each: its keys,
// its name, what it does next (or that it is done or gave up) and, for a
// hand-fed cache, the event waiting for it. The sandbox's race tab and a
// lesson's break-it step draw it alike.
type Panel struct {
	St *styles.Styles
	// Keys names the keys that schedule a move ("1/a").
	Keys func(move scenario.Move) string
	// Next is what each enabled move would do (Next).
	Next map[scenario.Move]string
	// NameW is the least width of the name column; CacheCol where the
	// cache column starts (at least; w-CacheGap when wider).
	NameW, CacheCol, CacheGap int
}

// Lines draws the panel for the race so far (out) w cells wide; names
// are the controllers' names as shown (escaped by the caller when they
// come from a file).
func (p Panel) Lines(sc *scenario.Scenario, out *race.Outcome, names []string, w int) []string {
	st := p.St
	nameW := p.NameW
	manual := false
	for i, c := range sc.Controllers {
		nameW = max(nameW, len(c.Name)+2)
		manual = manual || sc.LagOf(i).Manual
	}
	var lines []string
	for i, c := range sc.Controllers {
		keys := layout.Pad(st.Accent.Render(p.Keys(scenario.Step(c.Name))), 5)
		name := layout.Pad(st.Lane(i).Render(names[i]), nameW)
		what := ""
		switch res := out.Controllers[i]; {
		case res.Status == controller.Done:
			what = st.OK.Render(styles.OK + " done")
		case res.Status == controller.GaveUp:
			what = st.Bad.Render(styles.Bad + " gave up")
		default:
			if next, ok := p.Next[scenario.Step(c.Name)]; ok {
				what = "next: " + next
			}
		}
		line := keys + name + what
		if manual && sc.LagOf(i).Manual {
			cache := st.Faint.Render("cache up to date")
			if ev, ok := p.Next[scenario.Deliver(c.Name)]; ok {
				cache = st.Warn.Render(strings.TrimPrefix(ev, "cache ← ") + " waiting")
			}
			line = layout.Pad(line, max(p.CacheCol, w-p.CacheGap)) + st.Accent.Render(layout.Pad(p.Keys(scenario.Deliver(c.Name)), 4)) + cache
		}
		lines = append(lines, line)
	}
	return lines
}
