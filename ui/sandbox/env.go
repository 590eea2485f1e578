package sandbox

import (
	"context"
	"path/filepath"
	"time"

	"github.com/conflictlab/conflictlab/sim/explore"
)

// Env is what the sandbox takes from the program around it: the clock,
// the explorer's budget and where files go. It is given to each Model,
// never kept in a package variable, so that many sandboxes in one process
// (conflictlab serve) share nothing. The zero Env is the terminal
// tutorial's: the wall clock, the CLI's limit, the working directory.
type Env struct {
	// Clock reads the explorer's elapsed time (nil: time.Now); the golden
	// tests stop it.
	Clock func() time.Time
	// Explore bounds each exploration.
	Explore ExploreBudget
	// Files is where s, l and x write and read relative names ("": the
	// working directory).
	Files string
	// NoFiles turns save, load and export off: on a server the files
	// would be the server's.
	NoFiles bool
	// Draft is the file that keeps the race being built between runs,
	// beside the progress ("": it is not kept).
	Draft string
}

// ExploreBudget bounds what one exploration may take: a room of
// attendees shares the server's CPUs, and one attendee's four-controller
// exploration must not freeze everyone else's screen.
type ExploreBudget struct {
	// MaxSchedules stops the search after this much work (0:
	// explore.DefaultMaxSchedules): schedules played to their end and
	// states explored (explore.Options); the tally then says it stopped at
	// the limit. The explorer's memory grows with the states it keeps, so
	// this bounds memory as well as time.
	MaxSchedules int
	// Timeout cancels the search after this long (0: no limit); the tally
	// then says it covers only what was explored.
	Timeout time.Duration
	// MaxMemory cancels the search once the process's heap has grown by
	// this many bytes (0: no limit; package budget).
	MaxMemory uint64
	// Lift says how the person can lift the budget, in the notice shown
	// when an exploration runs out of it ("the workshop's server sets
	// it", "conflictlab --explore-timeout 5m lifts it").
	Lift string
	// Acquire, when set, is called before the search starts and waits for
	// a turn (a server keeps a few searches running at once, not one per
	// attendee); release gives the turn back. It fails when ctx ends first.
	Acquire func(ctx context.Context) (release func(), err error)
}

func (e Env) now() time.Time {
	if e.Clock != nil {
		return e.Clock()
	}
	return time.Now()
}

func (b ExploreBudget) limit() int {
	if b.MaxSchedules > 0 {
		return b.MaxSchedules
	}
	return explore.DefaultMaxSchedules
}

// resolve places a relative file name in e.Files.
func (e Env) resolve(path string) string {
	if e.Files != "" && !filepath.IsAbs(path) {
		return filepath.Join(e.Files, path)
	}
	return path
}
