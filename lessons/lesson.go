// Package lessons holds the course format: a lesson is a YAML file of
// steps (read, predict, choose, play) whose prose is Markdown and whose races are
// scenario files run by the simulator. Every claim a step makes about a
// race is checked against the simulator (see Check), so the course cannot
// say something the engine does not do.
package lessons

import (
	"github.com/conflictlab/conflictlab/sim/controller"
	"github.com/conflictlab/conflictlab/sim/race"
)

// Lesson is one lesson file.
type Lesson struct {
	ID    string
	Title string
	// Concepts are the ideas the lesson teaches, by key (see Concepts).
	Concepts []string
	// Summary is the two-line take-away shown at the end.
	Summary []string
	// Next is the ID of the lesson that follows.
	Next  string
	Steps []Step
	// File is the path the lesson came from, for messages.
	File string
}

// StepKind is what the learner does at a step.
type StepKind string

const (
	// Read: prose, and optionally a race to watch.
	Read StepKind = "read"
	// Predict: the learner predicts the outcome of the race before seeing it.
	Predict StepKind = "predict"
	// Choose: the learner picks a strategy; the race runs with it.
	Choose StepKind = "choose"
	// Play: the learner is the scheduler (break it) or tunes the
	// controllers until no order loses (fix it); see play.go.
	Play StepKind = "play"
)

// Step is one screen of a lesson.
type Step struct {
	Kind  StepKind
	Title string
	// Text is Markdown.
	Text string
	// Race is the race the step shows (for choose: before the strategy is applied).
	Race *RaceRef
	// Question is asked by predict and choose steps.
	Question string
	Options  []Option
	Hint     string
	// Solution is shown after a wrong answer.
	Solution string
	// Claims are checked against Race (for read and predict steps).
	Claims []Claim
	// Code names a snippet shown in the code pane.
	Code string
	// Goal is what a play step asks for.
	Goal *PlayGoal
	// PlansAfterAnswer keeps the controllers' plans off the race's setup
	// until the question is answered (`plans: after-answer`), for a
	// question the plans would answer.
	PlansAfterAnswer bool
	// Reviewed are the earned-answer checks a reader excused at this step
	// (`reviewed: {title: why}`): check name → why the finding is fair.
	Reviewed map[string]string
	// Line is where the step starts in its file.
	Line int
}

// RaceRef names a scenario and, optionally, the schedule to play it with.
type RaceRef struct {
	Scenario string
	Schedule []string
	// Apply names the controllers a choose step's strategy changes (all when empty).
	Apply []string
}

// Option is one answer of a predict or choose step.
type Option struct {
	ID    string
	Label string
	// Correct options are accepted; a step has at least one.
	Correct bool
	// Feedback explains why, tied to what the race shows.
	Feedback string
	// Strategy is what a choose option does to the race.
	Strategy *Strategy
	// Claims are checked against the race this option produces.
	Claims []Claim
	// Code names the snippet for this strategy.
	Code string
	// Reviewed are the earned-answer checks a reader excused at this
	// option (`reviewed: {stem-excludes: why}`).
	Reviewed map[string]string
	Line     int
}

// Strategy overrides the write side of some controllers.
type Strategy struct {
	Write  controller.WriteMethod
	Read   controller.ReadSource
	WithRV *bool
	Test   *controller.TestMode
	Force  *bool
	Retry  *controller.RetryPolicy
	// Requeue is what happens to an error the reconcile returns.
	Requeue *controller.RequeuePolicy
}

// StrategyParts names the parts of a controller's plan that the
// options' strategies set, once each, in a plan's order: "read", "write" (the
// method, with or without its RV, its test, its force), "retry". A
// question whose options are these strategies keeps those parts off the
// race's setup: they are the learner's choice.
func StrategyParts[O any](options []O, strategy func(O) *Strategy) []string {
	var read, write, retry bool
	for _, o := range options {
		st := strategy(o)
		if st == nil {
			continue
		}
		read = read || st.Read != ""
		write = write || st.Write != "" || st.WithRV != nil || st.Test != nil || st.Force != nil
		retry = retry || st.Retry != nil
	}
	var out []string
	for _, p := range []struct {
		on   bool
		name string
	}{{read, "read"}, {write, "write"}, {retry, "retry"}} {
		if p.on {
			out = append(out, p.name)
		}
	}
	return out
}

// Apply returns p with the strategy's overrides.
func (s Strategy) Apply(p controller.Program) controller.Program {
	if s.Write != "" {
		p.Write = s.Write
	}
	if s.Read != "" {
		p.Read = s.Read
	}
	if s.WithRV != nil {
		p.WithRV = *s.WithRV
	}
	if s.Test != nil {
		p.Test = *s.Test
	}
	if s.Force != nil {
		p.Force = *s.Force
	}
	if s.Retry != nil {
		p.Retry = *s.Retry
	}
	if s.Requeue != nil {
		p.Requeue = *s.Requeue
	}
	return p
}

// Claim is a statement about a race's outcome. Exactly one field is set.
type Claim struct {
	// Verdict: the run's verdict (no-loss, lost, gave-up, requeued, unfinished).
	Verdict race.Verdict `yaml:"verdict,omitempty"`
	// Lost: this field is reported lost.
	Lost string `yaml:"lost,omitempty"`
	// Kept: this field is not reported lost.
	Kept string `yaml:"kept,omitempty"`
	// Code: the given step of the run answered with this status code.
	Code *CodeClaim `yaml:"code,omitempty"`
	// Final: a field's final value.
	Final *FinalClaim `yaml:"final,omitempty"`
	// Message: some answer's message contains this text.
	Message string `yaml:"message,omitempty"`
	// Requests: a controller's API request count (exactly, or at least).
	Requests *CountClaim `yaml:"requests,omitempty"`
	// Conflicts: a controller's 409 count.
	Conflicts *CountClaim `yaml:"conflicts,omitempty"`
	// ReconcileMS: the longest one reconcile of a controller held its
	// worker (virtual ms).
	ReconcileMS *CountClaim `yaml:"reconcileMs,omitempty"`
	// Status: a controller's end state (done, gave-up, running).
	Status *StatusClaim `yaml:"status,omitempty"`
	// Explore: over every interleaving, how many end with a verdict.
	Explore *ExploreClaim `yaml:"explore,omitempty"`
	// Invariant: whether the race ends meeting every invariant its
	// scenario declares (scenario.Invariant).
	Invariant *InvariantClaim `yaml:"invariant,omitempty"`
	// Line is where the claim is written.
	Line int `yaml:"-"`
}

// CodeClaim: the answer of one step (by index, or the first answer of a
// controller's writes with a given code).
type CodeClaim struct {
	Step *int   `yaml:"step,omitempty"`
	Is   int    `yaml:"is"`
	By   string `yaml:"by,omitempty"`
	// CacheCurrent, when set, also requires that the controller's
	// informer had (true) or had not (false) seen every revision of the
	// server when the answer came: the cache column without or with its
	// `*`.
	CacheCurrent *bool `yaml:"cacheCurrent,omitempty"`
}

// FinalClaim: the value at Path in the final object (Absent: not there).
type FinalClaim struct {
	Path   string `yaml:"path"`
	Equals any    `yaml:"equals,omitempty"`
	Absent bool   `yaml:"absent,omitempty"`
}

// CountClaim compares a counter.
type CountClaim struct {
	Controller string `yaml:"controller"`
	Is         *int   `yaml:"is,omitempty"`
	AtLeast    *int   `yaml:"atLeast,omitempty"`
	AtMost     *int   `yaml:"atMost,omitempty"`
}

// StatusClaim names a controller's end state.
type StatusClaim struct {
	Controller string `yaml:"controller"`
	Is         string `yaml:"is"`
}

// InvariantClaim: Met true holds when the race ends meeting every
// invariant of its scenario; Met false when it breaks at least one. The
// scenario must declare some.
type InvariantClaim struct {
	Met *bool `yaml:"met"`
}

// ExploreClaim: over all interleavings, the number with Verdict is None
// (zero), Some (at least one) or All.
type ExploreClaim struct {
	Verdict race.Verdict `yaml:"verdict"`
	Count   string       `yaml:"count"` // none, some, all
}
