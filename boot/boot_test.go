package boot

import (
	"math"
	"runtime/debug"
	"testing"
)

// settings reads the collector's settings without changing them.
func settings() (percent int, limit int64) {
	percent = debug.SetGCPercent(-1)
	debug.SetGCPercent(percent)
	return percent, debug.SetMemoryLimit(-1)
}

func TestHoldAndResume(t *testing.T) {
	Resume() // nothing to resume: a test's stdout is not a terminal
	percent, limit := settings()
	if percent < 0 || limit != math.MaxInt64 {
		t.Fatalf("after Resume: GC percent %d, memory limit %d; want the defaults back", percent, limit)
	}

	resume := hold(func(string) string { return "" })
	if p, l := settings(); p != -1 || l != startupLimit {
		t.Fatalf("held: GC percent %d, memory limit %d; want -1 and %d", p, l, startupLimit)
	}
	resume()
	if p, l := settings(); p != percent || l != limit {
		t.Fatalf("resumed: GC percent %d, memory limit %d; want %d and %d", p, l, percent, limit)
	}

	// A second call must not put back what a later change set.
	debug.SetGCPercent(250)
	defer debug.SetGCPercent(percent)
	resume()
	if p, _ := settings(); p != 250 {
		t.Fatalf("a second resume changed the GC percent to %d", p)
	}
}

func TestTheUsersSettingsWin(t *testing.T) {
	Resume()
	percent, limit := settings()
	for _, name := range []string{"GOGC", "GOMEMLIMIT"} {
		resume := hold(func(k string) string {
			if k == name {
				return "200"
			}
			return ""
		})
		if p, l := settings(); p != percent || l != limit {
			t.Errorf("%s set: hold changed the collector to %d, %d", name, p, l)
		}
		resume()
	}
}
