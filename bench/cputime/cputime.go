// Package cputime reads the CPU time a process has used, for benchmarks:
// on a machine shared with other work it is far steadier than wall time.
package cputime

import (
	"testing"
	"time"
)

// Clock measures the process CPU time of a benchmark loop.
type Clock struct {
	start time.Duration
	ok    bool
}

// Start starts the clock.
func Start() Clock {
	t, ok := process()
	return Clock{t, ok}
}

// Report reports the CPU time per operation since Start as "cpu-ns/op"
// (nothing where the system does not say).
func (c Clock) Report(b *testing.B) {
	if t, ok := process(); ok && c.ok {
		b.ReportMetric(float64(t-c.start)/float64(b.N), "cpu-ns/op")
	}
}
