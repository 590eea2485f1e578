package raceview

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/conflictlab/conflictlab/lessons"
	"github.com/conflictlab/conflictlab/lessons/racecache"
	"github.com/conflictlab/conflictlab/sim/race"
	"github.com/conflictlab/conflictlab/sim/scenario"
)

var (
	twoChildren = race.InvariantResult{Kind: "ConfigMap", Namespace: "default", Selector: "app=web", Want: 1, Got: 2,
		Matching: []string{"web-a", "web-b"}, Why: "the parent needs exactly one child"}
	cm1Gone = race.InvariantResult{Kind: "ConfigMap", Namespace: "default", Name: "cm1", Want: 1, Got: 0, Why: "maker's new cm1 must survive"}
	metOne  = race.InvariantResult{Kind: "ConfigMap", Namespace: "default", Selector: "app=web", Want: 1, Got: 1, Matching: []string{"web-a"}, Why: "one child", Met: true}
)

// endText is the verdict lines of a finished race with this outcome,
// unstyled.
func endText(o *race.Outcome) string {
	m := newView(&Run{Outcome: o}, false)
	return ansi.Strip(strings.Join(m.renderVerdict(), "\n"))
}

// A race that loses nothing but breaks an invariant of its scenario ends
// with a warning that says what is wrong, never with the ✓ of a clean run;
// one that meets its invariants ends as it always did.
func TestBrokenInvariantReplacesTheTick(t *testing.T) {
	for _, tc := range []struct {
		name string
		o    *race.Outcome
		want []string // the lines, in order
	}{
		{"met: as before", &race.Outcome{Verdict: race.VerdictNoLoss, Invariants: []race.InvariantResult{metOne}},
			[]string{"✓ finished: every change landed, none was lost"}},
		{"no invariants: as before", &race.Outcome{Verdict: race.VerdictRequeued},
			[]string{"✓ finished: every change landed, after a requeue"}},
		{"by selector", &race.Outcome{Verdict: race.VerdictNoLoss, Invariants: []race.InvariantResult{metOne, twoChildren}},
			[]string{"⚠ finished: nothing was lost, but 2 ConfigMaps match app=web (want 1): the parent needs exactly one child"}},
		{"by name", &race.Outcome{Verdict: race.VerdictNoLoss, Invariants: []race.InvariantResult{cm1Gone}},
			[]string{"⚠ finished: nothing was lost, but ConfigMap cm1 does not exist (want 1): maker's new cm1 must survive"}},
		{"after a requeue", &race.Outcome{Verdict: race.VerdictRequeued, Invariants: []race.InvariantResult{cm1Gone}},
			[]string{"⚠ finished: nothing was lost (after a requeue), but ConfigMap cm1 does not exist (want 1): maker's new cm1 must survive"}},
		{"two broken", &race.Outcome{Verdict: race.VerdictNoLoss, Invariants: []race.InvariantResult{twoChildren, cm1Gone}},
			[]string{"⚠ finished: nothing was lost, but 2 ConfigMaps match app=web (want 1): the parent needs exactly one child",
				"  ⚠ ConfigMap cm1 does not exist (want 1): maker's new cm1 must survive"}},
		{"lost, and broken", &race.Outcome{Verdict: race.VerdictLost, Invariants: []race.InvariantResult{cm1Gone}},
			[]string{"✗ finished: a change was lost", "  ⚠ ConfigMap cm1 does not exist (want 1): maker's new cm1 must survive"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := endText(tc.o); got != strings.Join(tc.want, "\n") {
				t.Errorf("\n got %q\nwant %q", got, strings.Join(tc.want, "\n"))
			}
		})
	}
}

// The two lessons whose races lose nothing and still go wrong end with
// their warning, whole, in the race view at 80 columns (lesson 13's in
// the order its play step's solution gives).
func TestCourseRacesWarnOfTheirInvariants(t *testing.T) {
	for _, tc := range []struct {
		lesson, step int
		want         string
	}{
		{12, 1, "⚠ finished: nothing was lost, but 2 ConfigMaps match app=web (want 1): the parent needs exactly one child"},
		{13, 8, "⚠ finished: nothing was lost, but ConfigMap cm1 does not exist (want 1): maker's new cm1 must survive"},
	} {
		run := courseGoalRace(t, tc.lesson, tc.step)
		if run.Outcome.Verdict != race.VerdictNoLoss {
			t.Fatalf("lesson %d step %d: verdict %s, want no-loss", tc.lesson, tc.step, run.Outcome.Verdict)
		}
		m := newView(run, false)
		m.SetIndex(len(run.Outcome.Steps) - 1)
		v := view(m, 80, 24)
		if flat := strings.Join(strings.Fields(v), " "); !strings.Contains(flat, tc.want) {
			t.Errorf("lesson %d step %d lacks %q:\n%s", tc.lesson, tc.step, tc.want, v)
		}
		if strings.Contains(v, "none was lost") || strings.Contains(v, "✓ finished") {
			t.Errorf("lesson %d step %d still ends as a clean run:\n%s", tc.lesson, tc.step, v)
		}
	}
}

// courseGoalRace is the race of lesson l's step s; a play step's is played
// in the order of its goal (the author's solution).
func courseGoalRace(t *testing.T, l, s int) *Run {
	t.Helper()
	p, err := lessons.Course()
	if err != nil {
		t.Fatal(err)
	}
	st := p.Lessons[l-1].Steps[s-1]
	if st.Kind != lessons.Play || len(st.Goal.Schedule) == 0 {
		return courseRace(t, l, s)
	}
	sc, err := racecache.New(p).Scenario(st.Spec(nil))
	if err != nil {
		t.Fatal(err)
	}
	played := *sc
	played.Schedule = scenario.MustMoves(st.Goal.Schedule...)
	o, err := race.Run(&played, race.Schedule{})
	if err != nil {
		t.Fatal(err)
	}
	return NewRun(o)
}
