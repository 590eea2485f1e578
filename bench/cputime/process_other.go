//go:build !unix

package cputime

import "time"

// process is unavailable here: benchmarks report wall time only.
func process() (time.Duration, bool) { return 0, false }
