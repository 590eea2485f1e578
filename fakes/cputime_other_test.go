//go:build !unix

package fakes

import "time"

// processCPUTime is unavailable here: benchmarks report wall time only.
func processCPUTime() (time.Duration, bool) { return 0, false }
