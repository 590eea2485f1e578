package budget

import (
	"context"
	"errors"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/conflictlab/conflictlab/procstatus"
)

// TestTimeRunsOut: the context ends when the time is up, and says so.
func TestTimeRunsOut(t *testing.T) {
	ctx, done := Budget{Timeout: 30 * time.Millisecond}.Start(context.Background())
	defer done()
	select {
	case <-ctx.Done():
	case <-time.After(5 * time.Second):
		t.Fatal("the budget's time never ran out")
	}
	e := Of(ctx)
	if e == nil || e.Memory || !strings.Contains(e.Error(), "longer than 30ms") {
		t.Fatalf("cause %v", context.Cause(ctx))
	}
}

// TestMemoryRunsOut: work that keeps allocating is stopped once the heap
// has grown by the budget, not much later; and the memory is given back
// when it is done.
func TestMemoryRunsOut(t *testing.T) {
	runtime.GC()
	before := rss(t)
	const limit = 64 << 20
	ctx, done := Budget{MaxMemory: limit}.Start(context.Background())
	var kept [][]byte
	for ctx.Err() == nil {
		b := make([]byte, 1<<20)
		for i := range b {
			b[i] = 1 // touched, so that it is resident
		}
		kept = append(kept, b)
		if len(kept) > 4096 {
			t.Fatal("4 GiB allocated and the budget never ran out")
		}
	}
	e := Of(ctx)
	if e == nil || !e.Memory || !strings.Contains(e.Error(), "more than 64MiB") {
		t.Fatalf("cause %v", context.Cause(ctx))
	}
	if got := len(kept); got < 60 || got > 200 {
		t.Fatalf("stopped after %d MiB for a 64 MiB budget", got)
	}
	peak := rss(t)
	kept = nil
	done()
	after := rss(t)
	t.Logf("RSS before %d MiB, at the budget %d MiB, after done %d MiB", before>>20, peak>>20, after>>20)
	if raceEnabled {
		// The race detector's shadow of the freed memory stays resident:
		// the give-back is checked by the plain run (go test ./...).
		return
	}
	if after > before+(peak-before)/2 {
		t.Fatalf("the memory was not given back: RSS %d MiB before, %d at the peak, %d after", before>>20, peak>>20, after>>20)
	}
}

// TestParentAndNoBudget: without a budget the context ends only with its
// parent, and Of says no budget ran out.
func TestParentAndNoBudget(t *testing.T) {
	parent, cancel := context.WithCancel(context.Background())
	ctx, done := Budget{}.Start(parent)
	defer done()
	cancel()
	<-ctx.Done()
	if Of(ctx) != nil || !errors.Is(ctx.Err(), context.Canceled) {
		t.Fatalf("cause %v", context.Cause(ctx))
	}
}

func TestParseBytes(t *testing.T) {
	for in, want := range map[string]uint64{"0": 0, "1024": 1024, "512MiB": 512 << 20, "2GiB": 2 << 30, "64KiB": 64 << 10} {
		got, err := ParseBytes(in)
		if err != nil || got != want {
			t.Errorf("ParseBytes(%q) = %d, %v; want %d", in, got, err, want)
		}
		if want >= 1<<20 && Bytes(got) != in {
			t.Errorf("Bytes(%d) = %q, want %q", got, Bytes(got), in)
		}
	}
	for _, bad := range []string{"", "lots", "5MB", "-1", "99999999999GiB"} {
		if _, err := ParseBytes(bad); err == nil {
			t.Errorf("ParseBytes(%q) took it", bad)
		}
	}
}

// rss is the process's resident set, in bytes.
func rss(t *testing.T) uint64 {
	t.Helper()
	kb, ok := procstatus.KB(0, "VmRSS")
	if !ok {
		t.Skip("no VmRSS")
	}
	return kb << 10
}
