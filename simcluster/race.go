package simcluster

import (
	"fmt"
	"strings"
	"sync"
	"time"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/kubernetes/scheme"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/conflictlab/conflictlab/sim/controller"
	"github.com/conflictlab/conflictlab/sim/scenario"
)

// Controller is Go code playing one of a scenario's code controllers.
type Controller struct {
	// Name is the scenario controller it plays (one with write: code).
	Name string
	// New builds the reconciler on the clients it is given. It is called
	// for every run, so each run starts from a fresh reconciler, as a
	// freshly started controller does.
	New func(Clients) reconcile.Reconciler
}

// Options bound a run and an exploration. The zero value is the defaults.
type Options struct {
	// Scheme holds the Go types the code uses (default: client-go's
	// scheme, with the Widget read and written as unstructured).
	Scheme *runtime.Scheme
	// MaxCallsPerReconcile ends a run whose reconcile makes this many
	// calls (requests and cache reads) without returning: a loop that
	// never ends (default 100). The run's verdict is then unfinished.
	MaxCallsPerReconcile int
	// MaxRequests ends a run in which a controller sends more requests
	// than this (default 200), verdict unfinished.
	MaxRequests int
	// CallTimeout is how long, on the wall clock, a reconcile may run
	// between two calls — or before it returns — before the run is
	// stopped with an error and the goroutine's stack (default 10s). A
	// retry helper's backoff sleeps within it.
	CallTimeout time.Duration
	// MaxSchedules stops an exploration after this much work: complete
	// runs played plus states kept (default 100,000). The result says
	// when it stopped early.
	MaxSchedules int
	// Workers is the most runs an exploration keeps going at once
	// (default 8). Runs of one race are independent; as many as there
	// are CPUs (GOMAXPROCS) use them, and more start only while a run's
	// code sleeps in a retry helper's backoff (on the wall clock), to
	// hide the sleeps.
	Workers int
}

func (o Options) withDefaults() Options {
	if o.Scheme == nil {
		o.Scheme = scheme.Scheme
	}
	if o.MaxCallsPerReconcile == 0 {
		o.MaxCallsPerReconcile = 100
	}
	if o.MaxRequests == 0 {
		o.MaxRequests = 200
	}
	if o.CallTimeout == 0 {
		o.CallTimeout = 10 * time.Second
	}
	if o.MaxSchedules == 0 {
		o.MaxSchedules = 100_000
	}
	if o.Workers == 0 {
		o.Workers = 8
	}
	return o
}

// Race is a scenario with Go code playing its code controllers, ready to
// be run on a schedule (Run) or over every interleaving (Explore).
type Race struct {
	sc    *scenario.Scenario
	ctrls map[string]Controller
	opts  Options
	// code lists the code controllers in the scenario's order.
	code []string

	mu   sync.Mutex
	free []map[string]Clients
}

// New pairs a scenario with the code that plays its code controllers:
// every controller with write: code needs one Controller, and every
// Controller must name one.
func New(sc *scenario.Scenario, opts Options, ctrls ...Controller) (*Race, error) {
	r := &Race{sc: sc, ctrls: map[string]Controller{}, opts: opts.withDefaults()}
	for _, c := range ctrls {
		if c.New == nil {
			return nil, fmt.Errorf("simcluster: controller %q: New is nil", c.Name)
		}
		if _, dup := r.ctrls[c.Name]; dup {
			return nil, fmt.Errorf("simcluster: controller %q given twice", c.Name)
		}
		r.ctrls[c.Name] = c
	}
	var missing []string
	for _, c := range sc.Controllers {
		if c.Write != controller.Code {
			continue
		}
		r.code = append(r.code, c.Name)
		if _, ok := r.ctrls[c.Name]; !ok {
			missing = append(missing, c.Name)
		}
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("simcluster: scenario %q: no Go code for its code controller(s) %s", sc.Name, strings.Join(missing, ", "))
	}
	for name := range r.ctrls {
		if !r.isCode(name) {
			return nil, fmt.Errorf("simcluster: scenario %q has no code controller %q (a controller played by Go code says write: code)", sc.Name, name)
		}
	}
	return r, nil
}

func (r *Race) isCode(name string) bool {
	for _, c := range r.code {
		if c == name {
			return true
		}
	}
	return false
}

// Scenario is the race's scenario.
func (r *Race) Scenario() *scenario.Scenario { return r.sc }
