// Package scenario is the public file format for races: the objects that
// exist before the race, the controllers that race on them, the informer
// lag, and optionally a schedule. Instructors write these files, the
// sandbox saves them, the CLI and lesson packs read them.
package scenario

import (
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/conflictlab/conflictlab/sim/controller"
)

// Scenario is a parsed, validated race.
type Scenario struct {
	Name        string
	Description string
	// File is where the scenario came from, for messages.
	File string
	// StartRV is the cluster revision before the initial objects are
	// created (a real cluster is never at zero). Default 100.
	StartRV int64
	// Objects exist before the race starts, created in order.
	Objects     []*unstructured.Unstructured
	Controllers []Controller
	// Lag is the default informer lag.
	Lag Lag
	// Schedule, when set, is the default order of steps (written as
	// controller names, or NAME.cache to deliver the next watch event to
	// NAME's informer).
	Schedule []Move
	// Seed, when set and there is no schedule, picks steps at random.
	Seed *uint64
	// MaxSteps bounds a run (unbounded retry loops must end). Default 500.
	MaxSteps int
	// Invariants must hold when the race ends (invariant.go); the race's
	// outcome says which do not.
	Invariants []Invariant
}

// Controller is a program plus its informer's lag.
type Controller struct {
	controller.Program
	// Lag overrides the scenario's lag for this controller's informer.
	Lag *Lag
	// Worker names the worker this controller shares with others: the
	// controllers of one worker are one controller's keys, reconciled one
	// at a time (queue.go). Empty: a worker of its own.
	Worker string
	// CacheSelector, when set, is the label selector its informer lists
	// and watches with, as kubectl -l writes it: the cache holds only the
	// objects that match, and one that stops matching leaves it as a
	// DELETED event (cacheselector.go).
	CacheSelector string
}

// Lag is how late watch events reach an informer.
type Lag struct {
	// Manual: events arrive only when a schedule says NAME.cache.
	Manual bool
	// Delay: events arrive this much virtual time after the write.
	Delay time.Duration
}

// LagOf returns the effective lag of controller i.
func (s *Scenario) LagOf(i int) Lag {
	if l := s.Controllers[i].Lag; l != nil {
		return *l
	}
	return s.Lag
}

// Defaults for fields a file may leave out.
const (
	DefaultStartRV  = 100
	DefaultMaxSteps = 500
)

// StepBudget is how many steps a run of the scenario may take: MaxSteps,
// or the default for a scenario built in code that left it zero.
func (s *Scenario) StepBudget() int {
	if s.MaxSteps > 0 {
		return s.MaxSteps
	}
	return DefaultMaxSteps
}

// Caps on what a scenario may ask for (docs/scenario-format.md, "Limits").
// A file comes from anyone, and a run costs time and memory in proportion
// to its steps: the explorer keeps one world per step of the path it is
// on, each with its history, so its memory grows with the square of the
// steps (≈0.7 GB at 1,000), and the printed timeline grows with steps ×
// controllers. Parse refuses more, with the line and the field.
const (
	// MaxFileSize bounds a scenario file (the course's largest is 3 KiB).
	MaxFileSize = 1 << 20
	// LimitSteps bounds maxSteps. Reconciles, retry attempts, requeues
	// and the schedule's length are bounded by it too: each takes at
	// least one step, so more could never happen. An unbounded retry is
	// bounded by maxSteps like everything else.
	LimitSteps = 1000
	// LimitControllers and LimitObjects bound the lists (the sandbox
	// races at most 4 controllers on 1 object).
	LimitControllers = 16
	LimitObjects     = 64
	// LimitStartRV keeps every resourceVersion a run can reach (startRV +
	// the objects + one per step) exact as a JSON number in JavaScript and
	// jq, which read numbers as doubles (2^53 ≈ 9.007e15), and far from
	// int64's end. A real etcd's revision is in the millions, rarely more.
	LimitStartRV = 1_000_000_000_000_000
	// LimitDuration bounds lags, backoffs and requeue delays, so that the
	// virtual clock (LimitSteps of them at most) cannot overflow.
	LimitDuration = time.Hour
)
