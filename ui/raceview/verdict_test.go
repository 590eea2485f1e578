package raceview

import (
	"strconv"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/conflictlab/conflictlab/lessons"
	"github.com/conflictlab/conflictlab/sim/controller"
	"github.com/conflictlab/conflictlab/sim/race"
)

func TestStoppedTextAgreesWithWhoStopped(t *testing.T) {
	for _, c := range []struct {
		names []string
		want  string
	}{
		{[]string{"b"}, "b stopped with its change not made"},
		{[]string{"you"}, "you stopped with your change not made"},
		{[]string{"a", "c"}, "a and c stopped with their changes not made"},
		{[]string{"a", "c", "d"}, "a, c and d stopped with their changes not made"},
	} {
		if got := stoppedText(c.names); got != c.want {
			t.Errorf("%v: %q, want %q", c.names, got, c.want)
		}
	}
}

// The learner's own controller is "you": its change is "your change",
// never "you's change", in the verdict and under the write.
func TestLossesNameTheLearnersChangeAsYours(t *testing.T) {
	l := race.Loss{Field: `metadata.finalizers["example.com/you"]`, Owner: "you", ErasedBy: "b", ErasedAtStep: 3, ErasedRV: "104"}
	m := newView(&Run{Outcome: &race.Outcome{Verdict: race.VerdictLost, Lost: []race.Loss{l}}}, false)
	got := ansi.Strip(strings.Join(m.lossLines(), "\n") + "\n" + lostNote(l))
	if strings.Contains(got, "you's") || !strings.Contains(got, "your change, erased by b at step 4") || !strings.Contains(got, "your change erased by this write") {
		t.Fatalf("loss lines:\n%s", got)
	}
}

// A retry loop's cost is how long it held its worker: each controller's
// longest reconcile is told once a controller retried or was requeued.
func TestLongestReconcileIsToldWhenControllersRetried(t *testing.T) {
	o := &race.Outcome{Verdict: race.VerdictNoLoss, Controllers: []race.ControllerResult{
		{Name: "a", Stats: controller.Stats{LongestReconcileMS: 3}},
		{Name: "b", Stats: controller.Stats{LongestReconcileMS: 1200, Retries: 4}},
	}}
	m := newView(&Run{Outcome: o}, false)
	if got := ansi.Strip(strings.Join(m.lossLines(), "\n")); !strings.Contains(got, "longest reconcile (worker held): a 3ms · b 1200ms") {
		t.Fatalf("no longest reconcile:\n%s", got)
	}
	o.Controllers[1].Stats.Retries = 0
	if got := ansi.Strip(strings.Join(m.lossLines(), "\n")); strings.Contains(got, "longest reconcile") {
		t.Fatalf("longest reconcile told for a race without retries:\n%s", got)
	}
}

// Lesson 8's scaler decides on a load that had changed: the race ends
// with the stale verdict, the decision's read and the write that made it
// stale (numbered as the rows are), whole at 80 columns, and that write is
// the row that decides the race.
func TestStaleDecisionVerdict(t *testing.T) {
	course, err := lessons.Course()
	if err != nil {
		t.Fatal(err)
	}
	var run *Run
	for _, l := range course.Lessons {
		for _, s := range l.Steps {
			if s.Kind == lessons.Predict && s.Race != nil && strings.HasSuffix(s.Race.Scenario, "decision.yaml") && run == nil {
				o, err := course.Run(s, nil)
				if err != nil {
					t.Fatal(err)
				}
				run = &Run{Outcome: o}
			}
		}
	}
	if run == nil || run.Outcome.Verdict != race.VerdictStale || len(run.Outcome.Stale) == 0 {
		t.Fatalf("no stale race in the course: %+v", run)
	}
	m := newView(run, false)
	m.SetIndex(len(run.Outcome.Steps) - 1)
	v := view(m, 79, 40)
	d := run.Outcome.Stale[0]
	flat := strings.Join(strings.Fields(v), " ")
	for _, want := range []string{
		"⚠ finished: every write landed, but a decision was taken from stale data",
		"⚠ decided on stale data — " + d.Actor + "'s write at step " + strconv.Itoa(d.WriteStep+1),
		"had made it", "at step " + strconv.Itoa(d.ChangedAtStep+1) + " (RV " + d.ChangedRV + ")",
	} {
		if !strings.Contains(flat, want) {
			t.Errorf("the stale race lacks %q:\n%s", want, v)
		}
	}
	if strings.Contains(v, "none was lost") {
		t.Errorf("a stale decision is called a clean run:\n%s", v)
	}
	dr, ok := run.DecidingRow()
	if !ok || dr.Step != d.WriteStep || !strings.Contains(dr.What, d.Basis) {
		t.Errorf("deciding row %+v, want the stale write (step %d)", dr, d.WriteStep)
	}
}

func TestDecidingRowIsTheWriteThatErased(t *testing.T) {
	r := fixtureRace(t, "lost-update", 0, "")
	d, ok := r.DecidingRow()
	l := r.Outcome.Lost[0]
	if !ok || d.Step != l.ErasedAtStep || d.Row != l.ErasedAtStep+1 || !strings.Contains(d.What, "erased a's change to data.owner") {
		t.Fatalf("deciding row %+v, want step %d", d, l.ErasedAtStep)
	}
	r = fixtureRace(t, "lost-update", 1, "update")
	d, ok = r.DecidingRow()
	if !ok || r.Outcome.Steps[d.Step].Code != 409 || !strings.Contains(d.What, "409") {
		t.Fatalf("deciding row of the 409 race: %+v", d)
	}
}
