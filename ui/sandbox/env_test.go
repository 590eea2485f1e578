package sandbox

import (
	"context"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/conflictlab/conflictlab/procstatus"
	"github.com/conflictlab/conflictlab/sim/scenario"
	"github.com/conflictlab/conflictlab/ui/styles"
	"github.com/conflictlab/conflictlab/ui/uitest"
)

// explored runs e on the bench race in env and returns the finished tab.
func explored(t *testing.T, env Env) Model {
	t.Helper()
	env.Clock = stopped.Clock
	m := NewIn(env, styles.New(true, true), nil)
	m.SetSize(100, 30)
	if err := m.Open(benchScenario(), ""); err != nil {
		t.Fatal(err)
	}
	m, _ = m.Update(uitest.Key("tab"))
	m, _ = m.Update(uitest.Key("e"))
	run := m.ex.running
	if run == nil {
		t.Fatal("e did not start the explorer")
	}
	for m.ex.running != nil {
		m, _ = m.Update(run.wait()())
	}
	return m
}

// TestExploreBudgetIsPerSandbox: two sandboxes in one process explore
// the same 34,650-interleaving race under their own limits (the limit was
// one package variable before).
func TestExploreBudgetIsPerSandbox(t *testing.T) {
	small := explored(t, Env{Explore: ExploreBudget{MaxSchedules: 100}})
	larger := explored(t, Env{Explore: ExploreBudget{MaxSchedules: 400}})
	// The limit counts the explorer's work: the schedules played to their
	// end (Paths; each stands for several interleavings once states
	// merge) and the states it keeps.
	if r := small.ex.result; !r.Truncated || r.Paths+r.States != 100 {
		t.Fatalf("with a limit of 100: %d played, %d states, truncated %v", r.Paths, r.States, r.Truncated)
	}
	if r := larger.ex.result; !r.Truncated || r.Paths+r.States != 400 {
		t.Fatalf("with a limit of 400: %d played, %d states, truncated %v", r.Paths, r.States, r.Truncated)
	}
}

// TestExploreTimeBudget: a search over its time is stopped and says so.
func TestExploreTimeBudget(t *testing.T) {
	m := explored(t, Env{Explore: ExploreBudget{Timeout: time.Nanosecond}})
	if r := m.ex.result; r == nil || !r.Cancelled || r.Schedules >= 34650 {
		t.Fatalf("after the time budget: %+v", r)
	}
	if v := ansi.Strip(m.View()); !strings.Contains(v, "the explorer stopped: it took longer than 1ns") {
		t.Fatalf("the budget is not said:\n%s", v)
	}
}

// explodeScenario is a race whose interleavings explode (issue 25).
func explodeScenario(t *testing.T) *scenario.Scenario {
	t.Helper()
	sc, err := scenario.Load("../../testdata/hostile/explode.yaml")
	if err != nil {
		t.Fatal(err)
	}
	return sc
}

// startExploring opens sc in a sandbox of env and presses e.
func startExploring(t *testing.T, env Env, sc *scenario.Scenario) (Model, *exploreRun) {
	t.Helper()
	env.Clock = stopped.Clock
	m := NewIn(env, styles.New(true, true), nil)
	m.SetSize(100, 30)
	if err := m.Open(sc, ""); err != nil {
		t.Fatal(err)
	}
	m, _ = m.Update(uitest.Key("tab"))
	m, _ = m.Update(uitest.Key("e"))
	if m.ex.running == nil {
		t.Fatalf("e did not start the explorer:\n%s", ansi.Strip(m.View()))
	}
	return m, m.ex.running
}

// finish takes the run's messages until it is over.
func finish(m Model, run *exploreRun) Model {
	for m.ex.running != nil {
		m, _ = m.Update(run.wait()())
	}
	return m
}

// TestExploreMemoryBudget: a race whose interleavings explode is stopped
// once the heap has grown by the budget, and the notice says so and how
// to lift it.
func TestExploreMemoryBudget(t *testing.T) {
	m, run := startExploring(t, Env{Explore: ExploreBudget{MaxMemory: 16 << 20, Timeout: time.Minute,
		Lift: "conflictlab --explore-memory 4GiB lifts it"}}, explodeScenario(t))
	m = finish(m, run)
	v := ansi.Strip(m.View())
	if r := m.ex.result; r == nil || !r.Cancelled {
		t.Fatalf("after the memory budget: %+v", r)
	}
	if !strings.Contains(v, "the explorer stopped: it needed more than 16MiB of memory") || !strings.Contains(v, "conflictlab --explore-memory 4GiB lifts it") {
		t.Fatalf("the budget is not said:\n%s", v)
	}
}

// TestMemoryBackAfterEsc: esc on an exploration that has taken 64 MiB
// gives the memory back to the system.
func TestMemoryBackAfterEsc(t *testing.T) {
	runtime.GC()
	debug.FreeOSMemory()
	before := residentKB(t)
	m, run := startExploring(t, Env{}, explodeScenario(t))
	deadline := time.Now().Add(time.Minute)
	for residentKB(t) < before+64<<10 {
		if time.Now().After(deadline) {
			t.Fatalf("the exploration never took 64 MiB (RSS %d KiB, was %d)", residentKB(t), before)
		}
		time.Sleep(20 * time.Millisecond) // sampling the process's memory, not waiting for an event
	}
	peak := residentKB(t)
	m, _ = m.Update(uitest.Key("esc"))
	m = finish(m, run)
	if r := m.ex.result; r == nil || !r.Cancelled {
		t.Fatalf("after esc: %+v", r)
	}
	after := residentKB(t)
	t.Logf("RSS %d MiB before, %d MiB when esc was pressed, %d MiB after", before>>10, peak>>10, after>>10)
	if after > before+(peak-before)/4 {
		t.Fatalf("the memory was kept after esc: RSS %d MiB before, %d at esc, %d after", before>>10, peak>>10, after>>10)
	}
}

// residentKB is the process's resident set in KiB.
func residentKB(t *testing.T) uint64 {
	t.Helper()
	kb, ok := procstatus.KB(0, "VmRSS")
	if !ok {
		t.Skip("no VmRSS")
	}
	return kb
}

// TestExploreWaitsForATurn: with Acquire refusing (every turn taken until
// the search's own time runs out), the search never runs and the tab says
// it was cancelled rather than hanging.
func TestExploreWaitsForATurn(t *testing.T) {
	asked := 0
	m := explored(t, Env{Explore: ExploreBudget{Timeout: 20 * time.Millisecond, Acquire: func(ctx context.Context) (func(), error) {
		asked++
		<-ctx.Done()
		return nil, ctx.Err()
	}}})
	if r := m.ex.result; asked != 1 || r == nil || !r.Cancelled || r.Schedules != 0 {
		t.Fatalf("asked %d times; result %+v", asked, r)
	}
}

// TestNoFiles: on a server, s, l and x open no prompt and say why.
func TestNoFiles(t *testing.T) {
	m := NewIn(Env{NoFiles: true, Clock: stopped.Clock}, styles.New(true, true), nil)
	m.SetSize(100, 30)
	for _, k := range []string{"s", "l", "x"} {
		m, _ = m.Update(uitest.Key(k))
		if m.prompt != nil {
			t.Fatalf("%s opened a file prompt", k)
		}
		if v := ansi.Strip(m.View()); !strings.Contains(v, "no files here") {
			t.Fatalf("%s: not said:\n%s", k, v)
		}
	}
}
