package cli

import (
	"runtime/debug"
	"testing"
)

// gcPercent reads the collector's GOGC without changing it.
func gcPercent() int {
	p := debug.SetGCPercent(-1)
	debug.SetGCPercent(p)
	return p
}

// TestTuneGCForExplore: the explore command lets the heap grow while it
// explores and puts the process's settings back afterwards; a process
// that runs laxer already keeps its own setting.
func TestTuneGCForExplore(t *testing.T) {
	before, limit := gcPercent(), debug.SetMemoryLimit(-1)
	restore := tuneGCForExplore()
	if got := gcPercent(); got != exploreGCPercent {
		t.Errorf("GOGC %d while exploring, want %d", got, exploreGCPercent)
	}
	if got := debug.SetMemoryLimit(-1); got > exploreMemoryLimit {
		t.Errorf("memory limit %d while exploring, want at most %d", got, exploreMemoryLimit)
	}
	restore()
	if got := gcPercent(); got != before {
		t.Errorf("GOGC %d after, want the process's %d back", got, before)
	}
	if got := debug.SetMemoryLimit(-1); got != limit {
		t.Errorf("memory limit %d after, want the process's %d back", got, limit)
	}
	debug.SetGCPercent(1000)
	defer debug.SetGCPercent(before)
	restore = tuneGCForExplore()
	if got := gcPercent(); got != 1000 {
		t.Errorf("a process at GOGC 1000 explores at %d", got)
	}
	restore()
}
