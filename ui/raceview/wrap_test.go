package raceview

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/conflictlab/conflictlab/lessons"
	"github.com/conflictlab/conflictlab/sim/race"
	"github.com/conflictlab/conflictlab/sim/report"
	"github.com/conflictlab/conflictlab/sim/scenario"
)

// courseRace is the race of the built-in course's lesson l, step s (both
// counted from 1, as the screen counts them), with no option chosen.
func courseRace(t *testing.T, l, s int) *Run {
	t.Helper()
	p, err := lessons.Course()
	if err != nil {
		t.Fatal(err)
	}
	st := p.Lessons[l-1].Steps[s-1]
	if st.Race == nil {
		t.Fatalf("lesson %d step %d has no race", l, s)
	}
	o, err := p.Run(st, nil)
	if err != nil {
		t.Fatal(err)
	}
	return NewRun(o)
}

// lines is a view, unstyled, as lines without their trailing blanks.
func lines(v string) []string {
	out := strings.Split(ansi.Strip(v), "\n")
	for i := range out {
		out[i] = strings.TrimRight(out[i], " ")
	}
	return out
}

// setupPlan is the plan a controller's lines in the setup show, its
// continuation lines joined back on, and the continuation lines.
func setupPlan(t *testing.T, m Model, name string, w int) (plan string, cont []string) {
	t.Helper()
	ls := lines(view(m, w, 60))
	for i, l := range ls {
		if !strings.HasPrefix(l, name+" ") {
			continue
		}
		plan = strings.TrimSpace(l[len(name):])
		for _, c := range ls[i+1:] {
			if strings.Contains(c, "informer cache at RV") {
				return plan, cont
			}
			cont = append(cont, c)
			plan += " " + strings.TrimSpace(c)
		}
	}
	t.Fatalf("no plan for %s in:\n%s", name, strings.Join(ls, "\n"))
	return "", nil
}

// A plan longer than the window goes on under itself, after the name
// column, broken at its " · " separators: its end (the retry) is readable
// at 80 columns, in the view zoomed or not.
func TestSetupPlanWrapsUnderItself(t *testing.T) {
	r := courseRace(t, 11, 1)
	var want string
	for _, c := range r.Outcome.Controllers {
		if c.Name == "r" {
			want = c.Plan.String()
		}
	}
	if !strings.HasSuffix(want, "re-read lister") {
		t.Fatalf("lesson 11 step 1 changed: r's plan is %q", want)
	}
	for _, w := range []int{78, 79, 80} {
		m := newView(r, true)
		plan, cont := setupPlan(t, m, "r", w)
		if plan != want {
			t.Errorf("at %d columns the setup shows r's plan as\n%q\nwant\n%q", w, plan, want)
		}
		if len(cont) == 0 {
			t.Errorf("at %d columns the plan (%d wide) was not wrapped", w, len(want))
		}
		for _, c := range cont {
			if !strings.HasPrefix(c, strings.Repeat(" ", 12)+"· ") {
				t.Errorf("continuation %q does not hang after the name column at a separator", c)
			}
			if n := ansi.StringWidth(c); n > w {
				t.Errorf("continuation %q is %d wide at %d columns", c, n, w)
			}
		}
	}
}

// A plan part with no separator to break at (a condition written as
// JSON) wraps inside, indented under its text; nothing of it is cut.
func TestSetupPlanWrapsALongPart(t *testing.T) {
	r := courseRace(t, 14, 7)
	for _, c := range r.Outcome.Controllers {
		m := newView(r, true)
		plan, cont := setupPlan(t, m, c.Name, 79)
		// Joining the lines puts a space where a JSON value broke.
		if strings.ReplaceAll(plan, ", ", ",") != c.Plan.String() || !strings.HasSuffix(plan, "· apply") {
			t.Errorf("%s's plan shows as\n%q\nwant\n%q", c.Name, plan, c.Plan.String())
		}
		if len(cont) < 2 {
			t.Errorf("%s's plan should take several lines: %q", c.Name, cont)
		}
		for _, l := range cont {
			if strings.Contains(l, "…") || !strings.HasPrefix(l, strings.Repeat(" ", 12)) {
				t.Errorf("continuation %q is cut or not indented", l)
			}
		}
	}
}

// The withheld choice still comes first, on the name's own line, however
// the plan wraps.
func TestWithheldChoiceStaysFirst(t *testing.T) {
	r := courseRace(t, 11, 1)
	r.WithholdChoice([]string{"r"}, []string{"write", "retry"})
	m := newView(r, true)
	plan, _ := setupPlan(t, m, "r", 79)
	first := lines(view(m, 79, 60))
	must(t, plan, "write, retry: your choice")
	for _, l := range first {
		if strings.HasPrefix(l, "r ") && !strings.HasPrefix(strings.TrimSpace(l[1:]), "write, retry: your choice") {
			t.Errorf("the withheld choice is not first: %q", l)
		}
	}
	mustNot(t, plan, "update ·", "retry on Conflict")
}

// The setup never says the turns a race takes: how many times each
// controller moves is how it went (lesson 5 step 1's 106 steps are five
// conflicts a side), even on a view given the whole outcome.
func TestSetupShowsNoTurns(t *testing.T) {
	r := courseRace(t, 5, 1)
	if len(r.Outcome.Schedule) < 10 {
		t.Fatalf("the race takes %d turns: the test proves nothing", len(r.Outcome.Schedule))
	}
	v := view(newView(r, true), 79, 60)
	mustNot(t, v, "turns:", strings.Join(scenario.Tokens(r.Outcome.Schedule[:4]), " → "))
}

// A setup made from the scenario alone has taken no step: no schedule,
// no step, and a view holds it at its setup, whatever is asked of it.
func TestSetupFromTheScenarioCannotBeRevealed(t *testing.T) {
	p, err := lessons.Course()
	if err != nil {
		t.Fatal(err)
	}
	st := p.Lessons[4].Steps[0]
	sc, err := p.ScenarioFor(st, nil)
	if err != nil {
		t.Fatal(err)
	}
	r, err := NewSetup(sc)
	if err != nil {
		t.Fatal(err)
	}
	if !r.Setup() || len(r.Outcome.Steps) != 0 || len(r.Outcome.Schedule) != 0 {
		t.Fatalf("a setup with %d steps and schedule %v", len(r.Outcome.Steps), r.Outcome.Schedule)
	}
	m := newView(r, false)
	if !m.Hidden() {
		t.Fatal("a setup is shown as a race")
	}
	if cmd := m.Reveal(); cmd != nil || !m.Hidden() {
		t.Fatal("a setup was revealed")
	}
	must(t, view(m, 79, 30), "Before the race")
}

// The object pane's short form wraps a long change under its path: the
// value after the arrow, and the LOST mark after it, are never cut.
func TestShortChangeLinesWrap(t *testing.T) {
	m := newView(courseRace(t, 13, 6), false)
	m.SetIndex(len(m.Run().Outcome.Steps) - 1)
	var text []string
	for _, l := range lines(strings.Join(m.objectLines(79, false), "\n")) {
		if n := ansi.StringWidth(l); n > 79 {
			t.Errorf("line %q is %d wide", l, n)
		}
		text = append(text, l)
	}
	all := strings.Join(text, "\n")
	must(t, all, "~ metadata.finalizers: [", `→ ["example.com/audit"] ✗ LOST (other's change)`, "\n    ")
	mustNot(t, all, "…")
}

// A LOST note under a timeline row wraps under its own text (after
// "└ ✗ "), not at the window's edge.
func TestTimelineLostNoteHangs(t *testing.T) {
	m := newView(courseRace(t, 16, 5), false)
	m.SetIndex(len(m.Run().Outcome.Steps) - 1)
	ls := lines(view(m, 79, 24))
	for i, l := range ls {
		if !strings.Contains(l, "└ ✗ LOST status.") {
			continue
		}
		col := strings.Index(l, "✗")
		next := ls[i+1]
		if strings.TrimSpace(next) == "" || strings.Contains(next, "paused") {
			t.Fatalf("the note did not wrap at 79 columns:\n%s", strings.Join(ls, "\n"))
		}
		// Under "LOST": "✗" is one column wide, "└" too.
		pre := len(next) - len(strings.TrimLeft(next, " "))
		if want := len([]rune(l[:col])) + 2; pre != want {
			t.Errorf("continuation %q starts at column %d, want %d (under the note's text)", next, pre, want)
		}
		return
	}
	t.Fatalf("no LOST note:\n%s", strings.Join(ls, "\n"))
}

// In the one-column timeline the text keeps two columns from the RV
// column, as the lanes do: an answer ending "→ RV 102" is not read with
// the RV beside it.
func TestOneColumnTextKeepsApartFromRV(t *testing.T) {
	m := newView(courseRace(t, 17, 4), false)
	m.SetIndex(len(m.Run().Outcome.Steps) - 1)
	for _, w := range []int{76, 79, 80} {
		tl, blocks := m.timelineLines(w)
		hdr := ansi.Strip(tl[0])
		must(t, hdr, "who: request → answer")
		rvCol := len([]rune(hdr[:strings.Index(hdr, " RV ")+1]))
		for _, b := range blocks {
			for _, l := range b.lines {
				r := []rune(ansi.Strip(l))
				if len(r) <= rvCol {
					continue
				}
				if r[rvCol-1] != ' ' || r[rvCol-2] != ' ' {
					t.Errorf("at %d columns the text runs up to the RV column (%d):\n%s\n%s", w, rvCol, hdr, string(r))
				}
			}
		}
	}
}

// A wait row's lines after the first start under its text and fit the
// window.
func TestWaitLinesFitAndHang(t *testing.T) {
	m := newView(courseRace(t, 17, 4), false)
	for w := 30; w <= 80; w++ {
		g := m.geometry(w)
		for _, actor := range []string{"you", "worker"} {
			for _, kind := range []race.WaitKind{race.WaitBackoff, race.WaitRequeue, race.WaitOwnWrite} {
				ls := m.waitLines(race.Wait{Actor: actor, Kind: kind, FromMS: 10, UntilMS: 250, AwaitRV: 102, CacheRV: 101}, g, 0, w)
				if len(ls) < 2 {
					continue
				}
				lead := g.gutter + g.clock + 2
				for _, l := range ls {
					l = ansi.Strip(l)
					if n := ansi.StringWidth(l); n > w {
						t.Errorf("wait line %q is %d wide at %d columns", l, n, w)
					}
				}
				for _, l := range ls[1:] {
					l = ansi.Strip(l)
					if pre := len(l) - len(strings.TrimLeft(l, " ")); pre != lead {
						t.Errorf("wait continuation %q starts at %d, want %d", l, pre, lead)
					}
				}
			}
		}
	}
}

// An empty map or list inside a list item prints as YAML would: {} and [],
// never Go's map[].
func TestEmptyValuesInListItems(t *testing.T) {
	for v, want := range map[string]any{
		"{}":             map[string]any{},
		"[]":             []any{},
		"{a: 1, b: [x]}": map[string]any{"b": []any{"x"}, "a": int64(1)},
		`["1", {}]`:      []any{"1", map[string]any{}},
	} {
		if got := report.Scalar(want); got != v {
			t.Errorf("scalar(%#v) = %q, want %q", want, got, v)
		}
	}
	m := newView(courseRace(t, 14, 7), false)
	m.SetIndex(len(m.Run().Outcome.Steps) - 1)
	m, _ = press(m, "o")
	v := view(m, 79, 300)
	must(t, v, "resources: {}")
	mustNot(t, v, "map[")
}

// A controller named "you" is the learner's: "your PATCH", "nothing you
// sent", "you back off", never "you's" or "it".
func TestTheLearnersControllerIsYou(t *testing.T) {
	r := courseRace(t, 17, 4)
	m := newView(r, false)
	m.SetIndex(len(r.Outcome.Steps) - 1)
	v := view(m, 79, 24)
	must(t, v, "you got 1 × 409 Conflict; nothing you sent then was written")
	mustNot(t, v, "you's", "nothing it sent")
	d, ok := r.DecidingRow()
	if !ok || !strings.HasPrefix(d.What, "your UPDATE") {
		t.Errorf("deciding row: %q", d.What)
	}
	d, ok = courseRace(t, 13, 6).DecidingRow()
	if !ok || !strings.HasPrefix(d.What, "your PATCH") || strings.Contains(d.What, "you's") {
		t.Errorf("deciding row: %q", d.What)
	}
	g := m.geometry(200)
	back := ansi.Strip(strings.Join(m.waitLines(race.Wait{Actor: "you", Kind: race.WaitBackoff, UntilMS: 5}, g, 0, 200), " "))
	must(t, back, "you back off before your retry")
	req := ansi.Strip(strings.Join(m.waitLines(race.Wait{Actor: "you", Kind: race.WaitRequeue, UntilMS: 5}, g, 0, 200), " "))
	must(t, req, "you return the error")
	other := ansi.Strip(strings.Join(m.waitLines(race.Wait{Actor: "b", Kind: race.WaitBackoff, UntilMS: 5}, g, 0, 200), " "))
	must(t, other, "b backs off before its retry")
	own := ansi.Strip(strings.Join(m.waitLines(race.Wait{Actor: "you", Kind: race.WaitOwnWrite, AwaitRV: 102, CacheRV: 101, FromMS: 2, UntilMS: 6}, g, 0, 200), " "))
	must(t, own, "you wait: your cache is at RV 101, your own write at 102, so no read yet (4ms)")
	own = ansi.Strip(strings.Join(m.waitLines(race.Wait{Actor: "c", Kind: race.WaitOwnWrite, AwaitRV: 102, CacheRV: 101, FromMS: 2, UntilMS: 2}, g, 0, 200), " "))
	must(t, own, "c waits: its cache is at RV 101, its own write at 102, so no read yet")
	mustNot(t, own, "ms)")
}

// Field managers named "you" own fields in the second person.
func TestOwnershipChangesAgreeWithYou(t *testing.T) {
	mf := func(entries ...map[string]any) map[string]any {
		list := make([]any, len(entries))
		for i, e := range entries {
			list[i] = e
		}
		return map[string]any{"metadata": map[string]any{"managedFields": list}}
	}
	entry := func(manager, field string) map[string]any {
		return map[string]any{"manager": manager, "operation": "Apply",
			"fieldsV1": map[string]any{"f:data": map[string]any{"f:" + field: map[string]any{}}}}
	}
	prev := mf(entry("you", "x"), entry("b", "y"), entry("gone", "z"), entry("left", "w"))
	cur := mf(entry("you", "y"), entry("b", "x"))
	got := strings.Join(ownershipChanges(prev, cur), "\n")
	must(t, got, "you (Apply) now own: data.y", "b (Apply) now owns: data.x", "gone (Apply) no longer owns any field")
	got = strings.Join(ownershipChanges(mf(entry("you", "x")), mf()), "\n")
	must(t, got, "you (Apply) no longer own any field")
}

// A stale decision of the learner's controller was taken from the copy
// "you read" (the report's sentence says "it"), and the deciding row
// says whose write it was.
func TestStaleDecisionOfYou(t *testing.T) {
	r := courseRace(t, 17, 4)
	o := *r.Outcome
	o.Lost = nil
	o.Stale = []race.StaleDecision{{Actor: "you", Field: "spec.replicas", Decided: "set spec.replicas=3", Basis: "spec.size",
		Read: 1, Now: 2, ReadRV: "101", ChangedBy: "other", ChangedAtStep: 2, ChangedRV: "102", WriteStep: 3}}
	m := newView(&Run{Outcome: &o}, false)
	got := ansi.Strip(strings.Join(m.staleLines(), "\n"))
	must(t, got, "your write at step 4", "in the copy you read at RV 101")
	mustNot(t, got, "copy it read")
	d, ok := m.Run().DecidingRow()
	if !ok || !strings.HasPrefix(d.What, "your UPDATE") || !strings.Contains(d.What, "in the copy you read") {
		t.Errorf("deciding row: %q", d.What)
	}
	o.Stale[0].Actor = "b"
	got = ansi.Strip(strings.Join(m.staleLines(), "\n"))
	must(t, got, "b's write at step 4", "in the copy it read at RV 101")
}
