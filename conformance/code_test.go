package conformance

import (
	"bytes"
	"context"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/conflictlab/conflictlab/live"
	"github.com/conflictlab/conflictlab/sim/race"
	"github.com/conflictlab/conflictlab/sim/report"
	"github.com/conflictlab/conflictlab/sim/scenario"
	"github.com/conflictlab/conflictlab/simcluster"
	"github.com/conflictlab/conflictlab/simcluster/strategies"
)

// Real controller code — a reference answer and the typical wrong one for
// each idea — runs through package simcluster on the simulator and, with
// the same schedule, on a real kube-apiserver (the same clients, the same
// request bodies; the world's backend is the cluster), and both must give
// the same verdict and the same outcome. The schedules are every example
// the simulator's exploration of the code found, one per verdict: each
// way the code can end is checked on the server.

type codeCase struct {
	name string
	// scenario is a file of simcluster/testdata, played at each lag.
	scenario string
	code     strategies.New
	// want is the verdicts the simulator's exploration must find, so a
	// wrong answer is proven wrong and a reference right; wantManual,
	// when set, under a manual lag (a cache the schedule may never catch
	// up lets a reconcile that rereads it spend its requeues).
	want, wantManual []race.Verdict
}

var codeCases = []codeCase{
	{
		name: "finalizer/update-from-cache (reference)", scenario: "finalizers.yaml",
		code:       strategies.Finalizer("example.com/you", false),
		want:       []race.Verdict{race.VerdictNoLoss, race.VerdictRequeued},
		wantManual: []race.Verdict{race.VerdictGaveUp, race.VerdictNoLoss, race.VerdictRequeued},
	},
	{
		name: "finalizer/merge-from (wrong: replaces the list)", scenario: "finalizers.yaml",
		code: strategies.Finalizer("example.com/you", true),
		want: []race.Verdict{race.VerdictLost, race.VerdictNoLoss},
	},
	{
		name: "counter/merge-from increment (wrong: blind)", scenario: "counter.yaml",
		code: strategies.Increment("count", false),
		want: []race.Verdict{race.VerdictLost, race.VerdictNoLoss},
	},
	{
		name: "counter/optimistic-lock increment (reference)", scenario: "counter.yaml",
		code:       strategies.Increment("count", true),
		want:       []race.Verdict{race.VerdictNoLoss, race.VerdictRequeued},
		wantManual: []race.Verdict{race.VerdictGaveUp, race.VerdictNoLoss, race.VerdictRequeued},
	},
	{
		name: "owner/retry-on-conflict with a live GET (reference)", scenario: "owner.yaml",
		code: strategies.RetryLive("you", "1"),
		want: []race.Verdict{race.VerdictNoLoss},
	},
	{
		name: "owner/lister copy without its resourceVersion (wrong)", scenario: "owner.yaml",
		code: strategies.ListerOverwrite("you", "1"),
		want: []race.Verdict{race.VerdictLost, race.VerdictNoLoss},
	},
	{
		name: "owner/server-side apply of its own field (reference)", scenario: "owner.yaml",
		code: strategies.Apply("you", "1", "you", false),
		want: []race.Verdict{race.VerdictNoLoss},
	},
}

func TestCodeConformance(t *testing.T) {
	c := cluster(t, "")
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Minute)
	defer cancel()
	runs := 0
	for _, lag := range []string{"0", "manual"} {
		for _, cc := range codeCases {
			t.Run("lag "+lag+"/"+cc.name, func(t *testing.T) {
				sc, err := scenario.Load("../simcluster/testdata/" + cc.scenario)
				if err != nil {
					t.Fatal(err)
				}
				sc.Lag = scenario.Lag{Manual: lag == "manual"}
				ctrl := simcluster.Controller{Name: "you", New: cc.code}
				sim, err := simcluster.New(Labelled(sc), simcluster.Options{}, ctrl)
				if err != nil {
					t.Fatal(err)
				}
				x, err := sim.Explore(ctx)
				if err != nil {
					t.Fatal(err)
				}
				var verdicts []race.Verdict
				for v := range x.Examples {
					verdicts = append(verdicts, v)
				}
				sort.Slice(verdicts, func(i, j int) bool { return verdicts[i] < verdicts[j] })
				want := append([]race.Verdict(nil), cc.want...)
				if lag == "manual" && cc.wantManual != nil {
					want = append([]race.Verdict(nil), cc.wantManual...)
				}
				sort.Slice(want, func(i, j int) bool { return want[i] < want[j] })
				if strings.Join(verdictStrings(verdicts), ",") != strings.Join(verdictStrings(want), ",") {
					t.Fatalf("the simulator's exploration found %v (%v), want %v", verdicts, x.Tally, want)
				}
				onServer, err := simcluster.New(sc, simcluster.Options{}, ctrl)
				if err != nil {
					t.Fatal(err)
				}
				for _, v := range verdicts {
					sched := race.Schedule{Moves: x.Examples[v]}
					compareCodeRun(ctx, t, c, sim, onServer, sched)
					runs++
				}
			})
		}
	}
	t.Logf("%d code races compared with the server", runs)
}

// compareCodeRun plays sched on the simulator (sim) and on the cluster
// (onServer: the same code on the scenario as written) and fails t unless
// both end with the same verdict and the same outcome.
func compareCodeRun(ctx context.Context, t *testing.T, c *live.Cluster, sim, onServer *simcluster.Race, sched race.Schedule) {
	t.Helper()
	simRun, err := sim.Run(ctx, sched)
	if err != nil {
		t.Fatal(err)
	}
	liveOut := runCodeLive(ctx, t, c, onServer, sched)
	if liveOut.Verdict != simRun.Outcome.Verdict {
		t.Errorf("schedule %v: the simulator says %s, the server %s", sched.Moves, simRun.Outcome.Verdict, liveOut.Verdict)
	}
	if d := Diff(Normalize(simRun.Outcome), Normalize(liveOut)); len(d) > 0 {
		var simText, liveText bytes.Buffer
		_ = report.Text(&simText, simRun.Outcome)
		_ = report.Text(&liveText, liveOut)
		t.Errorf("schedule %v: simulator and server differ in %d place(s):\n  %s\n\n--- simulator ---\n%s\n--- live ---\n%s",
			sched.Moves, len(d), strings.Join(d, "\n  "), simText.String(), liveText.String())
		return
	}
	t.Logf("schedule %v: %s on both, identical outcomes", sched.Moves, simRun.Outcome.Verdict)
}

func verdictStrings(vs []race.Verdict) []string {
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = string(v)
	}
	return out
}

// runCodeLive plays the code race on the cluster: a fresh namespace, the
// world on the live backend, the same simcluster run.
func runCodeLive(ctx context.Context, t *testing.T, c *live.Cluster, rc *simcluster.Race, sched race.Schedule) *race.Outcome {
	t.Helper()
	sc := rc.Scenario()
	s, err := c.Prepare(ctx, sc)
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		if err := s.Cleanup(ctx); err != nil {
			t.Errorf("cleanup: %v", err)
		}
	}()
	b, err := s.NewBackend(ctx, sc)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	w, err := race.NewWithBackend(sc, b)
	if err != nil {
		t.Fatal(err)
	}
	run, err := rc.RunWorld(ctx, w, sched)
	if err != nil {
		t.Fatal(err)
	}
	if err := b.Err(); err != nil {
		t.Fatal(err)
	}
	return run.Outcome
}
