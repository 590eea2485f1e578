package player

import (
	"context"
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/conflictlab/conflictlab/lessons"
	"github.com/conflictlab/conflictlab/lessons/racecache"
	"github.com/conflictlab/conflictlab/progress"
	"github.com/conflictlab/conflictlab/sim/explore"
	"github.com/conflictlab/conflictlab/sim/race"
	"github.com/conflictlab/conflictlab/ui/styles"
	"github.com/conflictlab/conflictlab/ui/uitest"
)

// withExplore gives the fixture's choose step (lost-update, step 1) an
// explore claim on each option, as lesson 3 has.
func withExplore(l *lessons.Lesson) {
	s := &l.Steps[1]
	for i := range s.Options {
		s.Options[i].Claims = append(s.Options[i].Claims,
			lessons.Claim{Explore: &lessons.ExploreClaim{Verdict: race.VerdictNoLoss, Count: "some"}})
	}
}

// counted runs the explorer itself on the race a step plays with opt's
// strategy (nil: the step's own race).
func counted(t *testing.T, races Races, s lessons.Step, opt *lessons.Option) *explore.Result {
	t.Helper()
	sc, err := races.(scenarios).Scenario(s.Spec(opt))
	if err != nil {
		t.Fatal(err)
	}
	r, err := explore.Explore(context.Background(), sc, explore.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if r.Truncated || r.Cancelled || r.Schedules < 2 {
		t.Fatalf("unusable tally for the test: %+v", r)
	}
	return r
}

// seeTally checks the screen has r's tally, built here from its numbers.
func (f *fixture) seeTally(r *explore.Result) {
	f.T.Helper()
	want := []string{fmt.Sprintf("Over all %d interleavings: ", r.Schedules)}
	for v, n := range r.Tally {
		if n > 0 {
			want = append(want, fmt.Sprintf("%s %d (%d%%)", v, n, (n*200+r.Schedules)/(2*r.Schedules)))
		}
	}
	f.see(want...)
}

func TestTallyAppearsAfterTheAnswerWithTheChosenStrategy(t *testing.T) {
	f := openSized(t, "lost-update", 1, 100, 30, withExplore)
	f.notSee("Over all", "interleavings:", "counting every interleaving")
	s := f.player().Lesson().Steps[1]
	races := f.player().races
	first := counted(t, races, s, &s.Options[0])
	second := counted(t, races, s, &s.Options[1])
	if fmt.Sprint(first.Tally) == fmt.Sprint(second.Tally) {
		t.Fatalf("the two strategies tally alike (%v): the test cannot tell them apart", first.Tally)
	}
	f.Press("1")
	f.seeTally(first)
	f.Press("2")
	f.seeTally(second)
	f.notSee(fmt.Sprintf("%s %d (", race.VerdictLost, first.Tally[race.VerdictLost]))
	// Coming back to the answered step shows it again.
	f.Press("n", "p")
	if f.player().Step() != 1 {
		t.Fatalf("at step %d, want 1", f.player().Step())
	}
	f.seeTally(first) // the scored (first) answer is the one shown
}

func TestTallyOnTheCourseStep(t *testing.T) {
	p, err := lessons.Course()
	if err != nil {
		t.Fatal(err)
	}
	l := p.Lesson("stale-cache")
	const step = 3 // "A busy object": over every interleaving, how often does c conflict?
	races := racecache.New(p)
	m, cmd := New(l, nil, progress.New(), races, styles.New(true, true), step)
	m.SetTicker(uitest.Ticker)
	m.SetSnippets(func(string) (string, error) { return "", nil })
	m.SetSize(100, 40)
	f := &fixture{Driver: &uitest.Driver{T: t, Model: wrap{m}}}
	f.Run(cmd)
	f.notSee("interleavings:", "counting every interleaving")
	want := counted(t, races, l.Steps[step], nil)
	f.Press("2")
	f.seeTally(want)
}

func TestNoTallyWithoutExploreClaims(t *testing.T) {
	for _, step := range []int{0, 1} {
		f := open(t, "lost-update", step)
		f.Press("2")
		f.see("✓ Correct.")
		f.notSee("interleaving")
		if n := len(f.player().tallies.jobs); n != 0 {
			t.Fatalf("step %d: %d counts started on a step without explore claims", step, n)
		}
	}
}

// press gives m a key and delivers what its commands make (deliver),
// but the counts of interleavings, which it returns undelivered.
func press(m Model, k string) (Model, []tallyReady) {
	m, cmd := m.Update(uitest.Key(k))
	m, msgs := deliver(m, cmd, func(msg tea.Msg) bool { _, ok := msg.(tallyReady); return ok })
	held := make([]tallyReady, len(msgs))
	for i, msg := range msgs {
		held[i] = msg.(tallyReady)
	}
	return m, held
}

func TestStaleTallyIsDropped(t *testing.T) {
	f := openSized(t, "lost-update", 1, 100, 30, withExplore)
	m, first := press(f.player(), "1")
	f.Model = wrap{m}
	if !strings.Contains(f.View(), "counting every interleaving…") {
		t.Fatalf("no word of the count while it runs:\n%s", f.View())
	}
	if len(first) != 1 {
		t.Fatalf("answering started %d counts, want 1", len(first))
	}
	// Another option picked before the count arrives: the first is stale.
	m, second := press(m, "2")
	if len(second) != 1 {
		t.Fatalf("the second answer started %d counts, want 1", len(second))
	}
	m, _ = m.Update(first[0])
	f.Model = wrap{m}
	f.see("counting every interleaving…")
	f.notSee("Over all")
	m, _ = m.Update(second[0])
	f.Model = wrap{m}
	s := m.Lesson().Steps[1]
	f.seeTally(counted(t, m.races, s, &s.Options[1]))

	// Left before it arrives, and back: the count is made afresh, and the
	// old one (for the same option) is still dropped.
	f = openSized(t, "lost-update", 1, 100, 30, withExplore)
	m, old := press(f.player(), "1")
	m, _ = press(m, "n")
	m, fresh := press(m, "p")
	if len(old) != 1 || len(fresh) != 1 {
		t.Fatalf("counts started: %d, then %d on coming back; want 1 and 1", len(old), len(fresh))
	}
	m, _ = m.Update(old[0])
	f.Model = wrap{m}
	f.see("counting every interleaving…")
	f.notSee("Over all")
	m, _ = m.Update(fresh[0])
	f.Model = wrap{m}
	f.seeTally(counted(t, m.races, s, &s.Options[0]))
	// Computed once: answering the same option again starts nothing.
	m, again := press(m, "1")
	if n := len(again); n != 0 {
		t.Fatalf("answering again started %d counts, want none (kept)", n)
	}
	f.Model = wrap{m}
	f.seeTally(counted(t, m.races, s, &s.Options[0]))
}
