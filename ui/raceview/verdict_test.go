package raceview

import (
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/conflictlab/conflictlab/lessons"
	"github.com/conflictlab/conflictlab/sim/controller"
	"github.com/conflictlab/conflictlab/sim/race"
	"github.com/conflictlab/conflictlab/sim/report"
)

// The learner's own controller is "you": its change is "your change",
// never "you's change", in the verdict and under the write.
func TestLossesNameTheLearnersChangeAsYours(t *testing.T) {
	l := race.Loss{Field: `metadata.finalizers["example.com/you"]`, Owner: "you", ErasedBy: "b", ErasedAtStep: 3, ErasedRV: "104"}
	m := newView(&Run{Outcome: &race.Outcome{Verdict: race.VerdictLost, Lost: []race.Loss{l}}}, false)
	got := ansi.Strip(strings.Join(m.lossLines(), "\n") + "\n" + report.LostNote(l))
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

// courseRaceOpt is lesson l step s of the course raced with the option
// whose id is opt.
func courseRaceOpt(t *testing.T, l, s int, opt string) *Run {
	t.Helper()
	p, err := lessons.Course()
	if err != nil {
		t.Fatal(err)
	}
	st := p.Lessons[l-1].Steps[s-1]
	for i := range st.Options {
		if st.Options[i].ID == opt {
			o, err := p.Run(st, &st.Options[i])
			if err != nil {
				t.Fatal(err)
			}
			return NewRun(o)
		}
	}
	t.Fatalf("lesson %d step %d has no option %q", l, s, opt)
	return nil
}

// A change that lands after 409s (a requeue, a retry) is decided by the
// write that lands it, not by the first 409: the verdict says every
// change landed.
func TestDecidingRowOfARequeueThatLandsIsTheLandingWrite(t *testing.T) {
	for _, c := range []struct {
		l, s int
		opt  string
	}{{3, 6, "requeue"}, {4, 3, "live"}, {5, 2, ""}} {
		var r *Run
		if c.opt == "" {
			r = courseRace(t, c.l, c.s)
		} else {
			r = courseRaceOpt(t, c.l, c.s, c.opt)
		}
		o := r.Outcome
		if o.Verdict != race.VerdictRequeued && o.Verdict != race.VerdictNoLoss {
			t.Fatalf("lesson %d step %d %s: verdict %s, want the change landed", c.l, c.s, c.opt, o.Verdict)
		}
		d, ok := r.DecidingRow()
		if !ok {
			t.Fatalf("lesson %d step %d %s: no deciding row", c.l, c.s, c.opt)
		}
		s := o.Steps[d.Step]
		if !isWrite(s) || !s.OK() {
			t.Errorf("lesson %d step %d %s: deciding row %d is not a write that landed: %+v", c.l, c.s, c.opt, d.Row, d)
		}
		refused := 0
		for _, p := range o.Steps[:d.Step] {
			if isWrite(p) && !p.OK() && p.Actor == s.Actor {
				refused++
			}
		}
		if refused == 0 || !strings.Contains(d.What, "landed at last, after") {
			t.Errorf("lesson %d step %d %s: deciding row %d (%q) is not the write that landed after %s's refusals", c.l, c.s, c.opt, d.Row, d.What, s.Actor)
		}
		for _, p := range o.Steps[d.Step+1:] {
			if isWrite(p) && p.Actor == s.Actor {
				t.Errorf("lesson %d step %d %s: %s writes again after the deciding row %d", c.l, c.s, c.opt, s.Actor, d.Row)
			}
		}
	}
	// The learner's case: three refusals while the cache catches up, the
	// change lands at row 18.
	d, _ := courseRaceOpt(t, 3, 6, "requeue").DecidingRow()
	if d.Row != 18 {
		t.Errorf("lesson 3 step 6 requeue: deciding row %d, want 18 (%q)", d.Row, d.What)
	}
}

// A write that lost its own change decides the race, even when it is a
// no-op the server answered 200 and an earlier write is the last that
// landed: lesson 8 step 1's second increment (computed from a stale read,
// it changes nothing), lesson 9 step 4's status update to the main
// endpoint (which keeps the old status). And a race whose last write to
// its target changed nothing is decided by that write: lesson 6 step 6's
// second label patch.
func TestDecidingRowOfAnOwnLossIsItsWrite(t *testing.T) {
	for _, c := range []struct {
		r     *Run
		name  string
		actor string
		what  string
	}{
		{courseRace(t, 8, 1), "lesson 8 step 1", "b", "lost its own change to data.count (200 no-op"},
		{courseRaceOpt(t, 9, 4, "update"), "lesson 9 step 4 update", "status", "lost its own change to status.phase (200 no-op"},
		{courseRace(t, 6, 6), "lesson 6 step 6", "b", "the last write, changed nothing: 200 no-op (RV 102)"},
	} {
		d, ok := c.r.DecidingRow()
		if !ok {
			t.Fatalf("%s: no deciding row", c.name)
		}
		s := c.r.Outcome.Steps[d.Step]
		if s.Actor != c.actor || !isWrite(s) || s.Version >= 0 || !strings.Contains(d.What, c.what) {
			t.Errorf("%s: deciding row %d (%q, %s's, version %d), want %s's no-op write saying %q", c.name, d.Row, d.What, s.Actor, s.Version, c.actor, c.what)
		}
	}
}

// A controller that gives up is decided by its last refused attempt:
// after it the controller stops.
func TestDecidingRowOfAGiveUpIsTheLastRefusal(t *testing.T) {
	r := courseRace(t, 4, 1)
	o := r.Outcome
	if o.Verdict != race.VerdictGaveUp {
		t.Fatalf("verdict %s", o.Verdict)
	}
	d, ok := r.DecidingRow()
	if !ok {
		t.Fatal("no deciding row")
	}
	s := o.Steps[d.Step]
	if !isWrite(s) || s.OK() {
		t.Fatalf("deciding row %+v is not a refused write", d)
	}
	earlier := 0
	for _, p := range o.Steps[:d.Step] {
		if isWrite(p) && !p.OK() && p.Actor == s.Actor {
			earlier++
		}
	}
	for _, p := range o.Steps[d.Step+1:] {
		if isWrite(p) && p.Actor == s.Actor {
			t.Errorf("%s writes at row %d, after the deciding row %d", s.Actor, p.Index+1, d.Row)
		}
	}
	if earlier == 0 || !strings.Contains(d.What, "its last try, was refused: 409 Conflict") {
		t.Errorf("deciding row %+v: want %s's last of several refusals", d, s.Actor)
	}
}

// In a server-side apply race the owners stay on screen once the race
// is over, in the pane a lesson gives the race at 80×24 (79×12): the
// verdict's lines must not push them out. The timeline keeps its header
// and the deciding row.
func TestOwnersStayInViewAtTheEnd(t *testing.T) {
	for _, s := range []int{1, 2} {
		r := courseRace(t, 7, s)
		m := newView(r, false)
		m.SetIndex(len(r.Outcome.Steps) - 1)
		v := view(m, 79, 12)
		must(t, v, "finished: nothing was lost, but c stopped", "owners at RV 103 (managedFields):",
			"setup (Update): data.mode", "a (Apply): data.x", "b (Apply): data.y",
			"who: request → answer", "6 5ms  c: APPLY cm1 → ✗ 409 Conflict")
		if n := len(lines(v)); n != 12 {
			t.Errorf("lesson 7 step %d: %d lines, want 12:\n%s", s, n, v)
		}
	}
}

// A race with nothing refused is decided by the last write to its target,
// not by a later write to another object: lesson 1 step 1's a updates cm1,
// and other then writes a ConfigMap of its own.
func TestDecidingRowIsAWriteToTheTarget(t *testing.T) {
	r := courseRace(t, 1, 1)
	o := r.Outcome
	d, ok := r.DecidingRow()
	if !ok {
		t.Fatal("no deciding row")
	}
	if s := o.Steps[d.Step]; !writesTarget(o, s) {
		t.Fatalf("deciding row %d (%s) does not write the race's target %s", d.Row, d.What, o.Target)
	}
	other := false
	for _, s := range o.Steps[d.Step+1:] {
		other = other || (isWrite(s) && s.OK() && !writesTarget(o, s))
	}
	if !other {
		t.Fatal("no write to another object after the deciding row: the test checks nothing")
	}
}

// An answer wraps as a whole word: "200 no-op" is never split at its
// hyphen (lesson 8 step 2, three counters in one column: the blind merge
// patches after c's update change nothing).
func TestAnswerKeepsItsHyphen(t *testing.T) {
	src, err := os.ReadFile("../../lessons/course/scenarios/play-counter.yaml")
	if err != nil {
		t.Fatal(err)
	}
	// Every read before any write: c's careful update lands, and the
	// blind patches after it say the count it already holds.
	r := inlineRace(t, string(src)+"schedule: [a, b, c, c, a, b]\n")
	found := false
	for w := 50; w <= 100; w++ {
		m := newView(r, false)
		m.SetIndex(len(r.Outcome.Steps) - 1)
		v := view(m, w, 12)
		if strings.Contains(v, "no- ") || strings.Contains(v, "no-\n") || strings.Contains(v, "no‑") {
			t.Fatalf("at width %d the answer splits or keeps a non-breaking hyphen:\n%s", w, v)
		}
		found = found || strings.Contains(v, "no-op")
	}
	if !found {
		t.Fatal("no \"no-op\" answer in lesson 8 step 2's race: the test checks nothing")
	}
}

// A loop still retrying when the run is cut off had no last try: lesson 5
// step 3's unbounded loop is decided by its latest refusal, named so.
func TestDecidingRowOfALoopCutOff(t *testing.T) {
	r := courseRace(t, 5, 3)
	if r.Outcome.Verdict != race.VerdictUnfinished {
		t.Fatalf("verdict %s, want unfinished", r.Outcome.Verdict)
	}
	d, ok := r.DecidingRow()
	if !ok || !strings.Contains(d.What, "its latest try when the run stopped, was refused") || strings.Contains(d.What, "last try") {
		t.Errorf("deciding row %+v", d)
	}
}
