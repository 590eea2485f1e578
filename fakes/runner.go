package fakes

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/conflictlab/conflictlab/sim/race"
	"github.com/conflictlab/conflictlab/sim/scenario"
)

// Runner is this package as `conflictlab sim --backend` uses it, in types
// the command line knows without importing the package: the command line
// links the fake client libraries only when built with -tags fakes (they
// add ≈25 MB to a 48 MB binary, 408 packages, and 2.4 times the CPU of a
// cold build), and its tests hand it a Runner themselves.
type Runner struct{}

// Check accepts a backend name, or "all".
func (Runner) Check(backend string) error {
	if backend == "all" {
		return nil
	}
	_, err := Parse(backend)
	return err
}

// Run plays the race on one backend; skipped says which schedule steps it
// could not take, one line each.
func (Runner) Run(backend string, sc *scenario.Scenario, sched race.Schedule) (*race.Outcome, []string, error) {
	n, err := Parse(backend)
	if err != nil {
		return nil, nil, err
	}
	r, err := Run(n, sc, sched)
	if err != nil {
		return nil, nil, err
	}
	var skipped []string
	for _, s := range r.Skipped {
		skipped = append(skipped, fmt.Sprintf("%s: schedule step %d (%s) skipped: %s", n, s.Step, s.Token, s.Why))
	}
	return r.Outcome, skipped, nil
}

// Compare plays the race on every backend and prints where they diverge,
// as text or json.
func (Runner) Compare(w io.Writer, sc *scenario.Scenario, sched race.Schedule, output string) error {
	c, err := Compare(sc, sched, All())
	if err != nil {
		return err
	}
	if output == "json" {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(c)
	}
	return c.WriteText(w)
}
