package raceview

import (
	"slices"
	"strings"

	"github.com/conflictlab/conflictlab/sim/race"
)

// withheldPlan stands in for every controller's plan while the plans are
// withheld. The plans are only ever on the setup, which the race leaves
// once it is revealed, so it promises nothing about later.
const withheldPlan = "plan: not shown before you answer"

// WithholdPlans keeps every controller's plan off the setup while the
// race is hidden: a question about what the code does wrong is answered
// by a plan that says how it writes and retries.
func (r *Run) WithholdPlans() { r.plansWithheld = true }

// PlansWithheld reports whether WithholdPlans was called on r.
func (r *Run) PlansWithheld() bool { return r != nil && r.plansWithheld }

// choice is what a choose step asks of the setup: for the controllers
// its options change (all when none is named), the parts of their plans
// the options set ("read", "write", "retry") are the learner's choice,
// and the setup says so instead of showing the race's own.
type choice struct {
	controllers, parts []string
}

// WithholdChoice keeps the parts of the named controllers' plans that a
// choose step's options set off the setup (see choice).
func (r *Run) WithholdChoice(controllers, parts []string) {
	r.choice = &choice{controllers: controllers, parts: parts}
}

// chosenPlan is a plan whose parts are the learner's choice: those parts
// first, named as the choice, then the rest as the race has it.
func chosenPlan(p race.Plan, parts []string) string {
	out := []string{strings.Join(parts, ", ") + ": your choice"}
	if !slices.Contains(parts, "read") {
		read := "read " + string(p.Read)
		if p.Expectations {
			read += " once it has seen its own write"
		}
		out = append(out, read)
	}
	out = append(out, p.Changes...)
	if !slices.Contains(parts, "write") {
		out = append(out, p.WriteWords())
	}
	if p.Retry != "" && !slices.Contains(parts, "retry") {
		out = append(out, p.Retry)
	}
	return strings.Join(out, " · ")
}
