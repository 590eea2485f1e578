// Package gen draws random, valid races: scenarios nobody chose by hand,
// for the differential conformance test (simulator vs a real API server)
// and for property tests.
//
// A scenario is assembled from tables of independent features (tables.go):
// one table per slot of the format — the object, the scenario's lag, each
// controller's read source, write method, mutations, conditions, retry,
// requeue, reconciles, informer lag and field manager, the server-side
// oddities, the schedule — and each entry of a table is one Feature with
// a name ("write/apply", "mutation/increment", "lag/manual"). A draw picks
// one fitting entry per slot, weighted, with a rand.Rand seeded from the
// seed alone: the same seed and options give the same scenario, byte for
// byte. Options.Exclude leaves features out by name (the differential
// test's list of known, unfixed differences).
//
// Generate returns the scenario as Marshal writes it and Parse reads it
// back, so what runs is exactly what a saved file says.
//
// A new verb of the format (create, delete, a patch of /status, a
// hand-written body, a no-op write) is one Feature in Writes whose Apply
// sets the controller's fields (with Fits when it needs, say, a kind with
// a status); its options are Features in WriteOptions whose Fits names the
// write; a new mutation is one Feature in Mutations; a new slot is a Table
// in ControllerSlots or ScenarioSlots. TestDrawsAreValidAndCoverEveryFeature
// then checks the entry is drawn and that every draw loads and runs.
package gen

import (
	"fmt"
	"math/rand/v2"
	"sort"

	"github.com/conflictlab/conflictlab/sim/controller"
	"github.com/conflictlab/conflictlab/sim/scenario"
)

// Options bound what a draw may contain.
type Options struct {
	// MinControllers and MaxControllers bound the number of controllers
	// (default 2 and 3: a race needs two, and three keep it small).
	MinControllers, MaxControllers int
	// MaxSteps bounds every scenario's step budget (default 40), so a race
	// runs in milliseconds in the simulator and well under a second on a
	// real server.
	MaxSteps int
	// Exclude names features (Features lists them) never to draw.
	Exclude []string
}

func (o Options) withDefaults() Options {
	if o.MinControllers == 0 {
		o.MinControllers = 2
	}
	if o.MaxControllers == 0 {
		o.MaxControllers = 3
	}
	if o.MaxControllers < o.MinControllers {
		o.MaxControllers = o.MinControllers
	}
	if o.MaxSteps == 0 {
		o.MaxSteps = 40
	}
	return o
}

// Generated is one drawn race.
type Generated struct {
	Seed     uint64
	Scenario *scenario.Scenario
	// YAML is the scenario file (scenario.Marshal).
	YAML []byte
	// Features are the names of the features the draw used, sorted.
	Features []string
}

// seedStream separates this package's random stream from the scheduler's
// (race.Play seeds its own PCG with the scenario's seed).
const seedStream = 0x67656e6572617465

// Generate draws the race of a seed.
func Generate(seed uint64, opts Options) (*Generated, error) {
	opts = opts.withDefaults()
	ex := map[string]bool{}
	known := map[string]bool{}
	for _, f := range Features() {
		known[f] = true
	}
	for _, name := range opts.Exclude {
		if !known[name] {
			return nil, fmt.Errorf("gen: exclude %q: no such feature (see gen.Features)", name)
		}
		ex[name] = true
	}
	d := &Draw{R: rand.New(rand.NewPCG(seed, seedStream)), opts: opts, exclude: ex, used: map[string]bool{}}
	d.Scenario = &scenario.Scenario{
		Name:     fmt.Sprintf("gen-%d", seed),
		StartRV:  scenario.DefaultStartRV,
		MaxSteps: opts.MaxSteps/2 + d.R.IntN(opts.MaxSteps/2+1),
	}
	err := d.draw()
	if err == nil {
		err = d.err
	}
	if err != nil {
		return nil, fmt.Errorf("gen: seed %d: %w", seed, err)
	}
	g, err := Finish(d.Scenario)
	if err != nil {
		return nil, fmt.Errorf("gen: seed %d drew a scenario that does not load: %w", seed, err)
	}
	g.Seed = seed
	for name := range d.used {
		g.Features = append(g.Features, name)
	}
	sort.Strings(g.Features)
	return g, nil
}

// Finish marshals a scenario and reads it back: the result is what the
// file says, or the reason the file would not load.
func Finish(sc *scenario.Scenario) (*Generated, error) {
	data, err := scenario.Marshal(sc)
	if err != nil {
		return nil, err
	}
	back, err := scenario.Parse(sc.Name+".yaml", data)
	if err != nil {
		return nil, err
	}
	return &Generated{Scenario: back, YAML: data}, nil
}

// Draw is a race being drawn: the tables' entries read and extend it.
type Draw struct {
	// R is the draw's only source of randomness.
	R        *rand.Rand
	Scenario *scenario.Scenario
	// Objects are the models of the scenario's objects; Target is the one
	// the controller being drawn reconciles.
	Objects []*Object
	Target  *Object
	// Ctl is the controller being drawn (nil while drawing the scenario's
	// own slots); Mut the mutation a condition is drawn for.
	Ctl *scenario.Controller
	Mut *controller.Mutation

	opts    Options
	exclude map[string]bool
	used    map[string]bool
	// err is the first table an entry drew from (sub) and found empty.
	err error
}

// sub draws from another table inside an entry's Apply.
func (d *Draw) sub(t *Table) {
	if err := d.pick(t); err != nil && d.err == nil {
		d.err = err
	}
}

// anyFits reports whether some entry of t can be drawn.
func (d *Draw) anyFits(t *Table) bool {
	for _, f := range t.Entries {
		if !d.exclude[f.Name] && (f.Fits == nil || f.Fits(d)) {
			return true
		}
	}
	return false
}

// draw fills the scenario slot by slot, in the order of the format.
func (d *Draw) draw() error {
	if err := d.pick(Kinds); err != nil {
		return err
	}
	if err := d.pick(ScenarioObjects); err != nil {
		return err
	}
	d.Target = d.Objects[0]
	if err := d.pick(ScenarioLags); err != nil {
		return err
	}
	n := d.opts.MinControllers + d.R.IntN(d.opts.MaxControllers-d.opts.MinControllers+1)
	for i := 0; i < n; i++ {
		d.Scenario.Controllers = append(d.Scenario.Controllers, scenario.Controller{Program: controller.Program{
			Name: ControllerName(i), Target: d.Objects[0].Ref(), Read: controller.FromLister,
			Retry: controller.NoRetry(), Reconciles: 1,
		}})
		d.Ctl = &d.Scenario.Controllers[i]
		for _, t := range ControllerSlots {
			if err := d.pick(t); err != nil {
				return fmt.Errorf("controller %s: %w", d.Ctl.Name, err)
			}
		}
		for m := 1 + d.R.IntN(3); m > 0; m-- {
			if err := d.pick(Mutations); err != nil {
				return fmt.Errorf("controller %s: %w", d.Ctl.Name, err)
			}
		}
		for j := range d.Ctl.Mutations {
			d.Mut = &d.Ctl.Mutations[j]
			if err := d.pick(Conditions); err != nil {
				return fmt.Errorf("controller %s: %w", d.Ctl.Name, err)
			}
		}
		d.Mut = nil
	}
	d.Ctl = nil
	for _, t := range ScenarioSlots {
		if err := d.pick(t); err != nil {
			return err
		}
	}
	return d.pick(Schedules)
}

// pick applies one entry of t, drawn by weight among the entries that are
// not excluded and fit the draw so far.
func (d *Draw) pick(t *Table) error {
	var fit []Feature
	total := 0
	for _, f := range t.Entries {
		if d.exclude[f.Name] || (f.Fits != nil && !f.Fits(d)) {
			continue
		}
		fit = append(fit, f)
		total += f.weight()
	}
	if total == 0 {
		return fmt.Errorf("%s: every entry is excluded or does not fit", t.Slot)
	}
	n := d.R.IntN(total)
	for _, f := range fit {
		if n -= f.weight(); n < 0 {
			d.used[f.Name] = true
			f.Apply(d)
			return nil
		}
	}
	panic("unreachable")
}

// oneOf picks an element.
func oneOf[T any](r *rand.Rand, xs ...T) T { return xs[r.IntN(len(xs))] }

// Features lists the names of every feature of every table, sorted.
func Features() []string {
	var out []string
	for _, t := range AllTables() {
		for _, f := range t.Entries {
			out = append(out, f.Name)
		}
	}
	sort.Strings(out)
	return out
}

// AllTables lists the tables, in the order a draw visits them.
func AllTables() []*Table {
	out := []*Table{Kinds, ScenarioObjects, SecondKinds}
	out = append(out, MetaSlots...)
	out = append(out, ScenarioLags)
	out = append(out, ControllerSlots...)
	out = append(out, Mutations, Conditions)
	out = append(out, ScenarioSlots...)
	return append(out, Schedules)
}

// Table is the entries of one slot of the format.
type Table struct {
	Slot    string
	Entries []Feature
}

// Feature is one thing a scenario may contain.
type Feature struct {
	// Name is SLOT/WHAT: how Options.Exclude and Generated.Features call it.
	Name string
	// Weight is its chance relative to the other fitting entries of its
	// table (0 counts as 1).
	Weight int
	// Fits, when set, says whether the entry applies to the draw so far
	// (a JSON patch test needs a JSON patch).
	Fits func(d *Draw) bool
	// Apply adds the feature to the draw: to d.Scenario, d.Ctl or d.Mut.
	Apply func(d *Draw)
}

func (f Feature) weight() int {
	if f.Weight <= 0 {
		return 1
	}
	return f.Weight
}

// ControllerName is the name of the i-th controller a draw makes.
func ControllerName(i int) string { return string(rune('a' + i)) }
