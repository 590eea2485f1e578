package conformance

import (
	"context"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	memberssolution "github.com/conflictlab/conflictlab/exercises/course/01-retry-fresh-read/solution"
	memberswrong "github.com/conflictlab/conflictlab/exercises/course/01-retry-fresh-read/wrong"
	ownersolution "github.com/conflictlab/conflictlab/exercises/course/02-return-the-error/solution"
	ownerwrong "github.com/conflictlab/conflictlab/exercises/course/02-return-the-error/wrong"
	finalizersolution "github.com/conflictlab/conflictlab/exercises/course/03-add-finalizer/solution"
	finalizerwrong "github.com/conflictlab/conflictlab/exercises/course/03-add-finalizer/wrong"
	countersolution "github.com/conflictlab/conflictlab/exercises/course/04-count-every-visit/solution"
	counterwrong "github.com/conflictlab/conflictlab/exercises/course/04-count-every-visit/wrong"
	statussolution "github.com/conflictlab/conflictlab/exercises/course/05-observed-generation/solution"
	statuswrong "github.com/conflictlab/conflictlab/exercises/course/05-observed-generation/wrong"
	releasesolution "github.com/conflictlab/conflictlab/exercises/course/07-release-finalizer/solution"
	releasewrong "github.com/conflictlab/conflictlab/exercises/course/07-release-finalizer/wrong"
	applysolution "github.com/conflictlab/conflictlab/exercises/course/08-apply-your-fields/solution"
	applywrong "github.com/conflictlab/conflictlab/exercises/course/08-apply-your-fields/wrong"
	"github.com/conflictlab/conflictlab/exercises/verdict"
	"github.com/conflictlab/conflictlab/sim/race"
	"github.com/conflictlab/conflictlab/sim/scenario"
	"github.com/conflictlab/conflictlab/simcluster"
)

type builder = func(simcluster.Clients) reconcile.Reconciler

// exerciseCode is each exercise's reference solution and typical wrong
// answer, by exercise folder. 06-create-once is not here: its code
// creates a child the scenario does not list, which live mode's safety
// rules refuse to create on a cluster (and its manual lag's watch events
// are not played live the same way).
var exerciseCode = []struct {
	dir             string
	solution, wrong builder
}{
	{"01-retry-fresh-read", memberssolution.New, memberswrong.New},
	{"02-return-the-error", ownersolution.New, ownerwrong.New},
	{"03-add-finalizer", finalizersolution.New, finalizerwrong.New},
	{"04-count-every-visit", countersolution.New, counterwrong.New},
	{"05-observed-generation", statussolution.New, statuswrong.New},
	{"07-release-finalizer", releasesolution.New, releasewrong.New},
	{"08-apply-your-fields", applysolution.New, applywrong.New},
}

// TestExerciseConformance: every exercise's reference solution and its
// typical wrong answer, in each race of its check, end the same on the
// simulator and on a real kube-apiserver through the same schedule — one
// schedule per verdict the simulator's exploration finds (the race's own
// order, for a race the check plays once).
func TestExerciseConformance(t *testing.T) {
	c := cluster(t, "")
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Minute)
	defer cancel()
	defer withWidgetCRD(ctx, t, c, "conformance")()
	runs := 0
	for _, ec := range exerciseCode {
		dir := filepath.Join("..", "exercises", "course", ec.dir)
		spec, err := verdict.LoadSpec(filepath.Join(dir, verdict.SpecFile))
		if err != nil {
			t.Fatal(err)
		}
		for _, variant := range []struct {
			name string
			code builder
		}{{"solution", ec.solution}, {"wrong", ec.wrong}} {
			for _, rs := range spec.Races {
				t.Run(ec.dir+"/"+variant.name+"/"+rs.Scenario, func(t *testing.T) {
					sc, err := scenario.Load(filepath.Join(dir, rs.Scenario))
					if err != nil {
						t.Fatal(err)
					}
					var ctrls []simcluster.Controller
					for _, e := range spec.Code {
						if slices.ContainsFunc(sc.Controllers, func(s scenario.Controller) bool { return s.Name == e.Controller }) {
							ctrls = append(ctrls, simcluster.Controller{Name: e.Controller, New: variant.code})
						}
					}
					opts := simcluster.Options{MaxCallsPerReconcile: spec.Limits.CallsPerReconcile, MaxRequests: spec.Limits.Requests}
					sim, err := simcluster.New(Labelled(sc), opts, ctrls...)
					if err != nil {
						t.Fatal(err)
					}
					var scheds []race.Schedule
					if rs.One {
						scheds = append(scheds, race.Schedule{Moves: rs.Schedule})
					} else {
						x, err := sim.Explore(ctx)
						if err != nil {
							t.Fatal(err)
						}
						for _, v := range race.Verdicts {
							if ex, ok := x.Examples[v]; ok {
								scheds = append(scheds, race.Schedule{Moves: ex})
							}
						}
					}
					onServer, err := simcluster.New(sc, opts, ctrls...)
					if err != nil {
						t.Fatal(err)
					}
					for _, sched := range scheds {
						compareCodeRun(ctx, t, c, sim, onServer, sched)
						runs++
					}
				})
			}
		}
	}
	t.Logf("%d exercise races compared with the server", runs)
}
