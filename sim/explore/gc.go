package explore

import (
	"runtime/debug"
	"sync"
)

// An exploration allocates fast and keeps little (the state DAG, the
// object and answer memories, all bounded or small), so with the default
// GOGC of 100 the collector runs every few milliseconds and takes a
// quarter of the CPU. While any exploration that asks for it
// (Options.TuneGC) runs, the collector is let grow the heap to five times
// the live data instead (measured: −25 % CPU on 3 controllers × 4 steps),
// under a soft memory limit that keeps the process well inside its
// budget; the last exploration to finish puts the process's own settings
// back.
const (
	exploreGCPercent   = 400
	exploreMemoryLimit = 384 << 20
)

var gcTuning struct {
	sync.Mutex
	running     int
	percent     int
	memoryLimit int64
}

func tuneGC() (restore func()) {
	gcTuning.Lock()
	defer gcTuning.Unlock()
	if gcTuning.running == 0 {
		gcTuning.percent = debug.SetGCPercent(exploreGCPercent)
		if gcTuning.percent < 0 || gcTuning.percent > exploreGCPercent {
			// GC off, or already laxer: leave it as the process set it.
			debug.SetGCPercent(gcTuning.percent)
		}
		gcTuning.memoryLimit = debug.SetMemoryLimit(-1)
		if gcTuning.memoryLimit > exploreMemoryLimit {
			debug.SetMemoryLimit(exploreMemoryLimit)
		}
	}
	gcTuning.running++
	return func() {
		gcTuning.Lock()
		defer gcTuning.Unlock()
		gcTuning.running--
		if gcTuning.running == 0 {
			debug.SetGCPercent(gcTuning.percent)
			debug.SetMemoryLimit(gcTuning.memoryLimit)
		}
	}
}
