package simcluster_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/conflictlab/conflictlab/sim/race"
	"github.com/conflictlab/conflictlab/sim/report"
	"github.com/conflictlab/conflictlab/sim/scenario"
	"github.com/conflictlab/conflictlab/simcluster"
	"github.com/conflictlab/conflictlab/simcluster/strategies"
)

func parse(t testing.TB, src string) *scenario.Scenario {
	t.Helper()
	sc, err := scenario.Parse("race.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return sc
}

// load reads a scenario of testdata.
func load(t testing.TB, name string) *scenario.Scenario {
	t.Helper()
	sc, err := scenario.Load("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return sc
}

func TestRunUpdateFromCache(t *testing.T) {
	rc, err := simcluster.New(load(t, "finalizers.yaml"), simcluster.Options{},
		simcluster.Controller{Name: "you", New: strategies.Finalizer("example.com/you", false)})
	if err != nil {
		t.Fatal(err)
	}
	run, err := rc.Run(context.Background(), race.Schedule{Moves: scenario.MustMoves("you", "b", "b", "you")})
	if err != nil {
		t.Fatal(err)
	}
	o := run.Outcome
	var b strings.Builder
	_ = report.Text(&b, o)
	t.Logf("%s", b.String())
}

func TestExploreUpdateFromCache(t *testing.T) {
	rc, err := simcluster.New(load(t, "finalizers.yaml"), simcluster.Options{},
		simcluster.Controller{Name: "you", New: strategies.Finalizer("example.com/you", false)})
	if err != nil {
		t.Fatal(err)
	}
	x, err := rc.Explore(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%+v", *x)
}

// recorder is a TB that keeps what a test would print.
type recorder struct {
	errors, logs []string
}

func (r *recorder) Helper() {}
func (r *recorder) Errorf(f string, args ...any) {
	r.errors = append(r.errors, fmt.Sprintf(f, args...))
}
func (r *recorder) Logf(f string, args ...any) { r.logs = append(r.logs, fmt.Sprintf(f, args...)) }

func TestProveFailsWithTheLosingSchedule(t *testing.T) {
	var rec recorder
	x := simcluster.Prove(&rec, load(t, "finalizers.yaml"), simcluster.Options{},
		simcluster.Controller{Name: "you", New: strategies.Finalizer("example.com/you", true)})
	if x == nil || len(rec.errors) != 1 {
		t.Fatalf("want one failure, got %q", rec.errors)
	}
	msg := rec.errors[0]
	for _, want := range []string{
		"2 lost of 6 interleavings", "the first, in depth-first order: [you,b,b,you]",
		"✗ LOST metadata.finalizers", "b wanted \"add finalizer example.com/b\"", "erased by you",
		"PATCH merge cm1", "strategies.go:",
	} {
		if !strings.Contains(msg, want) {
			t.Errorf("the failure lacks %q:\n%s", want, msg)
		}
	}
}

func TestProvePassesTheUpdate(t *testing.T) {
	var rec recorder
	x := simcluster.Prove(&rec, load(t, "finalizers.yaml"), simcluster.Options{},
		simcluster.Controller{Name: "you", New: strategies.Finalizer("example.com/you", false)})
	if x == nil || len(rec.errors) != 0 || len(rec.logs) != 1 || !strings.Contains(rec.logs[0], "all 6 interleavings end well") {
		t.Fatalf("errors %q logs %q", rec.errors, rec.logs)
	}
}
