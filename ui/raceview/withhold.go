package raceview

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
