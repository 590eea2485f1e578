package play_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/conflictlab/conflictlab/lessons"
	"github.com/conflictlab/conflictlab/lessons/racecache"
	"github.com/conflictlab/conflictlab/progress"
	"github.com/conflictlab/conflictlab/sim/scenario"
	"github.com/conflictlab/conflictlab/ui/keyhelp"
	"github.com/conflictlab/conflictlab/ui/player"
	"github.com/conflictlab/conflictlab/ui/styles"
	"github.com/conflictlab/conflictlab/ui/uitest"
)

// screen is the lesson player as the root holds it, for a driver.
type screen struct {
	m    player.Model
	prog *progress.Progress
}

func (s screen) Init() tea.Cmd { return nil }
func (s screen) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if c, ok := msg.(progress.Change); ok {
		s.prog.Apply(c) // as the app does, then the player hears it
	}
	m, cmd := s.m.Update(msg)
	return screen{m, s.prog}, cmd
}
func (s screen) View() tea.View { return tea.NewView(s.m.View()) }

// twice lists the keys that more than one binding of the groups has:
// "r: Play/restart, Race/restart race".
func twice(groups []keyhelp.Group) []string {
	owners := map[string][]string{}
	var order []string
	for _, g := range groups {
		for _, b := range g.Keys {
			if !b.Enabled() || b.Help().Key == "" {
				continue // keyhelp leaves these out
			}
			for _, k := range b.Keys() {
				if len(owners[k]) == 0 {
					order = append(order, k)
				}
				owners[k] = append(owners[k], g.Title+"/"+b.Help().Desc)
			}
		}
	}
	var out []string
	for _, k := range order {
		if len(owners[k]) > 1 {
			out = append(out, fmt.Sprintf("%s: %s", k, strings.Join(owners[k], ", ")))
		}
	}
	return out
}

// TestPlayStepKeyListsGiveEachKeyOneMeaning opens every play step of the
// course in the lesson player at 80×24 and, at each stage of solving it
// (break: before a move and solved; fix: before a proof, a failed proof,
// its example watched, and solved), lays the screen's key groups out as
// OneMeaning leaves them: no key may be listed by two bindings.
func TestPlayStepKeyListsGiveEachKeyOneMeaning(t *testing.T) {
	course, err := lessons.Course()
	if err != nil {
		t.Fatal(err)
	}
	races := racecache.New(course)
	modes := map[bool]int{}
	for li, l := range course.Lessons {
		var next *lessons.Lesson
		if li+1 < len(course.Lessons) {
			next = course.Lessons[li+1]
		}
		for i, s := range l.Steps {
			if s.Kind != lessons.Play {
				continue
			}
			d, sc := openStep(t, races, l, next, i, 79, 22)
			check := func(when string) {
				t.Helper()
				groups := d.Model.(screen).m.HelpGroups()
				if !slices.ContainsFunc(groups, func(g keyhelp.Group) bool { return g.Title == "Play" }) {
					t.Fatalf("%s step %d %s: no Play group: the play step is not on:\n%s", l.ID, i+1, when, d.View())
				}
				if dup := twice(groups); len(dup) > 0 {
					t.Errorf("%s step %d %s: keys listed twice: %s", l.ID, i+1, when, strings.Join(dup, "; "))
				}
			}
			check("at the start")
			modes[s.Goal.IsBreak()]++
			if s.Goal.IsBreak() {
				for _, tok := range s.Goal.Schedule {
					d.Press(tokenKey(t, sc, tok))
				}
				if !strings.Contains(d.View(), "✓ Solved") {
					t.Fatalf("%s step %d: the author's order did not solve it:\n%s", l.ID, i+1, d.View())
				}
				check("solved")
				continue
			}
			d.Press("enter")
			if !strings.Contains(d.View(), "e.g.") {
				t.Fatalf("%s step %d: the race as written was not refuted:\n%s", l.ID, i+1, d.View())
			}
			check("with a failed proof")
			d.Press("space")
			check("watching its example")
			d.Press("esc")
			typeFix(d, s, sc)
			d.Press("enter")
			if !strings.Contains(d.View(), "✓ Proven") {
				t.Fatalf("%s step %d: the author's fix was not proven:\n%s", l.ID, i+1, d.View())
			}
			check("solved")
		}
	}
	if modes[true] == 0 || modes[false] == 0 {
		t.Fatalf("the course's play steps: %d break, %d fix; this test wants both", modes[true], modes[false])
	}
}

// tokenKey is the key that schedules tok: 1-4, or !@#$ for a cache.
func tokenKey(t *testing.T, sc *scenario.Scenario, tok string) string {
	t.Helper()
	name, cache := strings.CutSuffix(tok, ".cache") // a lesson file's token
	i := slices.IndexFunc(sc.Controllers, func(c scenario.Controller) bool { return c.Name == name })
	if i < 0 || i > 3 {
		t.Fatalf("%q: no key schedules it", tok)
	}
	if cache {
		return []string{"!", "@", "#", "$"}[i]
	}
	return fmt.Sprint(i + 1)
}

// The player's line about a solved play step counts in number: lesson
// 15's fix has par 1, and one change solves it ("Best: 1 change").
func TestSolvedLineCountsInNumber(t *testing.T) {
	course, err := lessons.Course()
	if err != nil {
		t.Fatal(err)
	}
	races := racecache.New(course)
	for _, l := range course.Lessons {
		for i, s := range l.Steps {
			if s.Kind != lessons.Play || s.Goal.IsBreak() || s.Goal.Par != 1 {
				continue
			}
			d, sc := openStep(t, races, l, nil, i, 100, 40)
			typeFix(d, s, sc)
			d.Press("enter")
			if v := d.View(); !strings.Contains(v, "Best: 1 change; par 1.") {
				t.Fatalf("%s step %d solved in one change:\n%s", l.ID, i+1, v)
			}
			return
		}
	}
	t.Fatal("no fix step of the course has par 1: this test checks nothing")
}

// openStep opens step i of lesson l in a player of w×h, driven as the app
// drives it, and returns the step's race as written.
func openStep(t *testing.T, races *racecache.Races, l, next *lessons.Lesson, i, w, h int) (*uitest.Driver, *scenario.Scenario) {
	t.Helper()
	sc, err := races.Scenario(l.Steps[i].Spec(nil))
	if err != nil {
		t.Fatal(err)
	}
	prog := progress.New()
	m, cmd := player.New(l, next, prog, races, styles.New(true, true), i)
	m.SetTicker(uitest.Ticker)
	m.SetSize(w, h)
	d := &uitest.Driver{T: t, Model: screen{m, prog}}
	d.Run(cmd)
	return d, sc
}

// typeFix sets the author's fix in the settings table by keys, from the
// top row down (→ until the value is the author's, ↓ to the next row).
func typeFix(d *uitest.Driver, s lessons.Step, sc *scenario.Scenario) {
	start, want := s.Goal.StartSettings(sc), s.Goal.Answer(sc)
	for _, c := range s.Goal.Tunable(sc) {
		for _, k := range s.Goal.Knobs {
			from, to := slices.Index(k.Values, start[c][k.Name]), slices.Index(k.Values, want[c][k.Name])
			for n := (to - from + len(k.Values)) % len(k.Values); n > 0; n-- {
				d.Press("right")
			}
			d.Press("down")
		}
	}
}
