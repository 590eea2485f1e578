package verdict

import (
	"github.com/conflictlab/conflictlab/sim/race"
	"github.com/conflictlab/conflictlab/sim/scenario"
)

// Verdict is what a check found. The workspace's test writes it as JSON
// (Encode) and conflictlab reads it back (Decode).
type Verdict struct {
	// Pass: every race ended as the check requires.
	Pass bool `json:"pass"`
	// Races are the check's races, in check.yaml's order; a race after
	// the first that failed is not run.
	Races []RaceVerdict `json:"races"`
	// Failed is the index in Races of the race that failed, -1 if none.
	Failed int `json:"failed"`
	// Outcome is the failing race's losing run, as the race view draws
	// it: the first bad interleaving in depth-first order, or the run in
	// the race's own order. Nil when passing, or when no run could be
	// played to its end (Error says why).
	Outcome *race.Outcome `json:"outcome,omitempty"`
	// Causes are Outcome's loss causes, which its own JSON leaves out.
	Causes *Causes `json:"causes,omitempty"`
	// Error is a failure of the code that simcluster reported instead of
	// a verdict: a panic (with its stack), nondeterminism, a call from a
	// goroutine the reconcile started, a reconcile that neither called
	// nor returned in time.
	Error *CodeError `json:"error,omitempty"`
	// Invalid is set when the exercise itself is broken (its check.yaml
	// or a race file does not load, or the code does not match it).
	Invalid string `json:"invalid,omitempty"`
	// Report is the verdict in words, as `go test` prints it: each race's
	// result and, for the one that failed, the losing run's timeline and
	// the line of the code that made each call.
	Report string `json:"report"`
}

// RaceVerdict is one race's result.
type RaceVerdict struct {
	// Scenario is the race's file; Name the scenario's name.
	Scenario string `json:"scenario"`
	Name     string `json:"name"`
	// Explored: every interleaving was played (Schedules of them, Tally
	// by verdict); otherwise the race was one run, in its own order.
	Explored  bool                 `json:"explored"`
	Schedules int                  `json:"schedules,omitempty"`
	Tally     map[race.Verdict]int `json:"tally,omitempty"`
	// Verdict is how the one run (or the failing interleaving) ended;
	// Want what the check requires of it ("" means well: no-loss or
	// requeued, every invariant kept).
	Verdict race.Verdict `json:"verdict,omitempty"`
	Want    race.Verdict `json:"want,omitempty"`
	Pass    bool         `json:"pass"`
	// Problems say in words what failed.
	Problems []string `json:"problems,omitempty"`
	// Schedule is the failing run's order (or the one run's).
	Schedule []scenario.Move `json:"schedule,omitempty"`
	// Bound says why a run was cut short (a reconcile that did not
	// return, too many requests).
	Bound string `json:"bound,omitempty"`
	// Millis is the wall time the race took.
	Millis int64 `json:"millis"`
}

// CodeError is a failure of the code that simcluster reported instead
// of a verdict (a simcluster.Error): its kind, the controller, where the
// code made the call concerned ("reconcile.go:42"), what happened, and
// the whole report (the schedule so far, a panic's stack).
type CodeError struct {
	Kind       string `json:"kind"`
	Controller string `json:"controller"`
	Call       string `json:"call,omitempty"`
	Msg        string `json:"message"`
	Text       string `json:"text"`
}

func (e *CodeError) Error() string { return e.Text }
