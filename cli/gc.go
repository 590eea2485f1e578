package cli

import "runtime/debug"

// An exploration allocates fast and keeps little (the state DAG, the
// object and answer memories, all bounded or small), so with the default
// GOGC of 100 the collector runs every few milliseconds and takes a
// quarter of the CPU. `conflictlab explore` does nothing else meanwhile,
// so while it explores the collector is let grow the heap to five times
// the live data (measured: −25 % CPU on 3 controllers × 4 steps), under
// a soft memory limit that keeps the process well inside its budget. The
// engine leaves the collector alone: the tutorial's tallies, the sandbox
// and a server's sessions keep their memory small (a lesson's tally under
// this tuning took the tutorial from 36 to 55 MiB).
const (
	exploreGCPercent   = 400
	exploreMemoryLimit = 384 << 20
)

// tuneGCForExplore sets the collector for an exploration and returns what
// puts the process's settings back. A process that turned the collector
// off, or set it laxer, or a tighter memory limit, keeps its own.
func tuneGCForExplore() (restore func()) {
	percent := debug.SetGCPercent(exploreGCPercent)
	if percent < 0 || percent > exploreGCPercent {
		debug.SetGCPercent(percent)
	}
	limit := debug.SetMemoryLimit(-1)
	if limit > exploreMemoryLimit {
		debug.SetMemoryLimit(exploreMemoryLimit)
	}
	return func() {
		debug.SetGCPercent(percent)
		debug.SetMemoryLimit(limit)
	}
}
