// Package budget bounds one piece of work a person started — an
// exploration of every interleaving of a race — in time and in memory.
// The simulator has no clock and no goroutines, so the bound is kept from
// outside: a context that ends when either runs out (the explorer checks
// its context before every step), watched by a goroutine of the caller's
// that reads the heap a few dozen times a second. When the work is over,
// the memory it took is given back to the system, so that a process that
// explored once (the tutorial, a workshop server) does not keep the peak.
package budget

import (
	"context"
	"fmt"
	"runtime/debug"
	"runtime/metrics"
	"time"
)

// Budget is what one piece of work may take.
type Budget struct {
	// Timeout is the time it may take (0: no limit).
	Timeout time.Duration
	// MaxMemory is how many bytes the process's heap may grow by while it
	// runs (0: no limit): the heap in use (garbage not yet collected
	// included) over the live heap when the work started. The heap is the
	// process's: what others allocate meanwhile (a server's sessions)
	// counts too, so the bound errs on the side of stopping early.
	MaxMemory uint64
}

// Exceeded is the cause of a context that ran out of its budget.
type Exceeded struct {
	// Memory is set when the memory ran out, else the time did.
	Memory bool
	Budget Budget
}

func (e *Exceeded) Error() string {
	if e.Memory {
		return fmt.Sprintf("it needed more than %s of memory", Bytes(e.Budget.MaxMemory))
	}
	return fmt.Sprintf("it took longer than %s", e.Budget.Timeout)
}

// Bytes writes a size the way the flags take it (512MiB, 2GiB).
func Bytes(n uint64) string {
	switch {
	case n >= 1<<30 && n%(1<<30) == 0:
		return fmt.Sprintf("%dGiB", n>>30)
	case n >= 1<<20:
		return fmt.Sprintf("%dMiB", n>>20)
	}
	return fmt.Sprintf("%dB", n)
}

// ParseBytes reads a size: a number of bytes, or one with KiB, MiB or
// GiB after it (0: no limit).
func ParseBytes(s string) (uint64, error) {
	var n uint64
	var unit string
	if _, err := fmt.Sscanf(s, "%d%s", &n, &unit); err != nil {
		if _, err := fmt.Sscanf(s, "%d", &n); err != nil {
			return 0, fmt.Errorf("%q is not a size (512MiB, 2GiB, or bytes)", s)
		}
		unit = ""
	}
	mult := map[string]uint64{"": 1, "B": 1, "KiB": 1 << 10, "MiB": 1 << 20, "GiB": 1 << 30}[unit]
	if mult == 0 {
		return 0, fmt.Errorf("%q: the unit is KiB, MiB or GiB", s)
	}
	if n > (1<<63)/mult {
		return 0, fmt.Errorf("%q is too large", s)
	}
	return n * mult, nil
}

// Of says which budget ended ctx (nil when it did not run out).
func Of(ctx context.Context) *Exceeded {
	e, _ := context.Cause(ctx).(*Exceeded)
	return e
}

// sampleEvery is how often the heap is read: an exploration allocates
// some tens of MiB a second, so a bound is passed by at most a few MiB.
const sampleEvery = 20 * time.Millisecond

// returnAbove is the growth past which the end of the work gives the
// memory back to the system at once (a forced collection: too costly
// after every small exploration, which leaves little).
const returnAbove = 32 << 20

// Start begins the work: ctx ends when parent does or the budget runs
// out (Of says which), and done ends the watch and gives back to the
// system the memory the work took, if it took much.
func (b Budget) Start(parent context.Context) (ctx context.Context, done func()) {
	ctx, cancel := context.WithCancelCause(parent)
	stopTimer := func() bool { return false }
	if b.Timeout > 0 {
		t := time.AfterFunc(b.Timeout, func() { cancel(&Exceeded{Budget: b}) })
		stopTimer = t.Stop
	}
	base := liveBytes()
	peak := make(chan uint64, 1)
	stopWatch := make(chan struct{})
	go func() {
		top := base
		defer func() { peak <- top }()
		tick := time.NewTicker(sampleEvery)
		defer tick.Stop()
		for {
			select {
			case <-stopWatch:
				return
			case <-ctx.Done():
				return
			case <-tick.C:
				h := heapBytes()
				top = max(top, h)
				if b.MaxMemory > 0 && h > base && h-base > b.MaxMemory {
					cancel(&Exceeded{Memory: true, Budget: b})
					return
				}
			}
		}
	}()
	return ctx, func() {
		stopTimer()
		close(stopWatch)
		top := <-peak
		cancel(context.Canceled)
		if top > base && top-base > returnAbove {
			debug.FreeOSMemory()
		}
	}
}

// heapBytes is the heap in use: live objects and those not yet swept.
func heapBytes() uint64 { return readMetric("/memory/classes/heap/objects:bytes") }

// liveBytes is the heap the last collection found live.
func liveBytes() uint64 { return readMetric("/gc/heap/live:bytes") }

func readMetric(name string) uint64 {
	s := []metrics.Sample{{Name: name}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return s[0].Value.Uint64()
}
