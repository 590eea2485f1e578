package raceview

import (
	"sync"

	"github.com/conflictlab/conflictlab/sim/race"
	"github.com/conflictlab/conflictlab/ui/styles"
)

// A race is fixed once computed, so nearly everything a frame draws
// depends only on the run, the styles, the width and the step on show.
// frameCache keeps those pieces, rendered, so that a frame (a step key, a
// playback tick, any other screen's redraw) restyles only what changed:
// the timeline's current row. Copies of a Model share one cache (View
// and Update have value receivers); entries never change once made, and
// callers copy before appending to them.
type frameCache struct {
	mu sync.Mutex
	frameData
}

// frameData is the cache's content for one key.
type frameData struct {
	key cacheKey
	// targets are the indexes of the target's versions (targetVersions).
	targets []int
	tl      *timeline
	obj     map[objKey][]string
	owners  map[verKey][]string
	inspect map[verKey][]string
	// verdict is verdictLines, for a closed run (false) and an open one.
	verdict map[bool][]string
}

// cacheKey is what every entry depends on. A run's outcome is never
// modified once shown (the sandbox shows each new step as a new Run), so
// the pointers and lengths are a cheap and sufficient guard.
type cacheKey struct {
	run             *Run
	out             *race.Outcome
	st              *styles.Styles
	steps, versions int
}

// objKey is an object pane: setup is the hidden race's, whose rule for
// the generation line differs (showGeneration).
type objKey struct {
	cur, prev, w int
	full, setup  bool
}

// verKey is a version (or a step) at a width.
type verKey struct{ i, w int }

// maxEntries bounds each map (a resizing window makes one entry a width).
const maxEntries = 256

// timeline is the timeline at one width: its geometry and header, and
// each step's block as drawn when it is not the current row, built up to
// the newest step shown so far.
type timeline struct {
	// mu guards the rows below while they are built.
	mu     sync.Mutex
	w      int
	g      geometry
	header []string
	// blocks are in the order drawn: a step, then the waits after it.
	blocks []block
	// at[i] is step i's block in blocks; end[i] the number of blocks
	// drawn when steps[0..i] are.
	at, end []int
	// notes are the LOST notes under each step's row.
	notes [][]string
	// cur is a step's block as the current row (bold, marked).
	cur map[int][]string
}

// noFrameCache makes every frame compute everything afresh, as before the
// cache: the reference the equivalence test and the benchmarks compare
// against. Only tests set it.
var noFrameCache bool

// frames returns the view's cache, emptied if the run, the styles or
// the outcome changed since it was filled, and locked: the caller
// unlocks it, and never renders anything while holding it (rendering may
// consult the cache).
func (m Model) frames() *frameCache {
	fc := m.fc
	if fc == nil || noFrameCache {
		fc = &frameCache{}
	}
	fc.mu.Lock()
	k := cacheKey{run: m.run, st: m.st}
	if m.run != nil && m.run.Outcome != nil {
		k.out, k.steps, k.versions = m.run.Outcome, len(m.run.Outcome.Steps), len(m.run.Outcome.Versions)
	}
	if fc.key != k {
		fc.frameData = frameData{key: k}
	}
	return fc
}

// cachedLines returns the lines stored under k in the map pick chooses,
// or makes them (with the cache unlocked) and stores them.
func cachedLines[K comparable](m Model, pick func(*frameData) *map[K][]string, k K, make func() []string) []string {
	fc := m.frames()
	lines, ok := (*pick(&fc.frameData))[k]
	fc.mu.Unlock()
	if ok {
		return lines
	}
	lines = make()
	// The cache may have been emptied meanwhile (another run shown by a
	// copy of the view): frames keys it to this view's run again.
	fc = m.frames()
	remember(pick(&fc.frameData), k, lines)
	fc.mu.Unlock()
	return lines
}

// remember stores v under k in a bounded map.
func remember[K comparable](mp *map[K][]string, k K, v []string) []string {
	if *mp == nil || len(*mp) >= maxEntries {
		*mp = map[K][]string{}
	}
	(*mp)[k] = v
	return v
}
