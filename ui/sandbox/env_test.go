package sandbox

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

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
	if v := ansi.Strip(m.View()); !strings.Contains(v, "the explorer stopped after 1ns") {
		t.Fatalf("the budget is not said:\n%s", v)
	}
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
