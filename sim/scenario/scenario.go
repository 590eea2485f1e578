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
	// Schedule, when set, is the default order of steps: controller names,
	// or NAME.cache to deliver the next watch event to NAME's informer.
	Schedule []string
	// Seed, when set and there is no schedule, picks steps at random.
	Seed *uint64
	// MaxSteps bounds a run (unbounded retry loops must end). Default 500.
	MaxSteps int
}

// Controller is a program plus its informer's lag.
type Controller struct {
	controller.Program
	// Lag overrides the scenario's lag for this controller's informer.
	Lag *Lag
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
