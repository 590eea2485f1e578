package player

import (
	"os"
	"strings"
	"testing"

	"charm.land/bubbles/v2/key"

	"github.com/conflictlab/conflictlab/lessons"
	"github.com/conflictlab/conflictlab/lessons/racecache"
	"github.com/conflictlab/conflictlab/progress"
	"github.com/conflictlab/conflictlab/ui/keyhelp"
	"github.com/conflictlab/conflictlab/ui/styles"
	"github.com/conflictlab/conflictlab/ui/uitest"
)

// openEdited starts the player, at 80×22 (an 80×24 terminal less the
// header and the key bar), on step 0 of the fixture's lost-update lesson
// after edit has changed it: a lesson with steps the fixture course does
// not have.
func openEdited(t *testing.T, edit func(l *lessons.Lesson)) *fixture {
	t.Helper()
	p, err := lessons.Load(os.DirFS("../testdata/course"))
	if err != nil {
		t.Fatal(err)
	}
	l := p.Lesson("lost-update")
	edit(l)
	prog := progress.New()
	m, cmd := New(l, nil, prog, racecache.New(p), styles.New(true, true), 0)
	m.SetTicker(uitest.Ticker)
	m.SetSnippets(func(name string) (string, error) { return "// snippet " + name + "\nfunc F() {}", nil })
	m.SetSize(80, 22)
	f := &fixture{Driver: &uitest.Driver{T: t, Model: wrap{m}}, prog: prog}
	f.Run(cmd)
	return f
}

// readStep is a read step with code and no race, then one with neither,
// ahead of the lesson's own steps.
func readSteps(l *lessons.Lesson) {
	l.Steps = append([]lessons.Step{
		{Kind: lessons.Read, Title: "Code to read", Text: "The code below updates the object.", Code: "update-with-rv"},
		{Kind: lessons.Read, Title: "Words only", Text: "Nothing to run and no code: only these words."},
	}, l.Steps...)
}

// groupKeys is the help keys of every group, by group title.
func groupKeys(gs []keyhelp.Group) map[string][]string {
	out := map[string][]string{}
	for _, g := range gs {
		for _, b := range g.Keys {
			out[g.Title] = append(out[g.Title], b.Help().Key)
		}
	}
	return out
}

func helpHas(gs []keyhelp.Group, k string) bool {
	for _, g := range gs {
		if hasKey(g.Keys, k) {
			return true
		}
	}
	return false
}

// A read step with code and no race shows its code at once, below the
// text; the code key has nothing to switch to, so it is not offered and
// does not take the code away.
func TestCodeWithoutARaceShowsAtOnce(t *testing.T) {
	f := openEdited(t, readSteps)
	f.see("The code below updates the object.", "code: update-with-rv", "func F() {}")
	m := f.player()
	if hasKey(m.ShortHelp(), "c") || helpHas(m.HelpGroups(), "c") {
		t.Fatalf("the code key is offered on a step with code and no race: %v", groupKeys(m.HelpGroups()))
	}
	g := groupKeys(m.HelpGroups())
	if g["Race"] != nil || g["Answer"] != nil || helpHas(m.HelpGroups(), "g") {
		t.Fatalf("a read step without a race offers race or answer keys: %v", g)
	}
	if !helpHas(m.HelpGroups(), "tab") || !helpHas(m.HelpGroups(), "K/J") {
		t.Fatalf("the code can be zoomed and scrolled, but tab or K/J is not listed: %v", g)
	}
	f.Press("c")
	f.see("code: update-with-rv", "func F() {}")
	f.notSee("has no race")
	// Zoomed, the code has the screen.
	f.Press("tab")
	f.see("code: update-with-rv")
	f.notSee("The code below updates the object.")
}

// A step with neither a race nor code gives the text the whole screen,
// and offers no key that does nothing there.
func TestNoRaceNoCodeOffersNoStageKeys(t *testing.T) {
	f := openEdited(t, readSteps)
	f.Press("n")
	f.see("Nothing to run and no code")
	m := f.player()
	if hasKey(m.ShortHelp(), "c") {
		t.Fatalf("the key bar offers the code key: %v", m.ShortHelp())
	}
	gs := m.HelpGroups()
	g := groupKeys(gs)
	for _, k := range []string{"c", "tab", "g", "space", "h", "s", "1-9"} {
		if helpHas(gs, k) {
			t.Errorf("the key list offers %q on a step with no race and no code: %v", k, g)
		}
	}
	if !helpHas(gs, "enter") || !helpHas(gs, "n") || !helpHas(gs, "p") || g["Text"] == nil {
		t.Errorf("the key list lacks the keys that work here: %v", g)
	}
	// The keys do nothing indeed: no stage appears.
	for _, k := range []string{"c", "tab", "g"} {
		f.Press(k)
		f.see("Nothing to run and no code")
		f.notSee("─ code", "─ race", "has no race", "────")
	}
}

// A step with a race and code offers the code key, and it switches the
// stage between them; the race's keys and the question's are listed.
func TestRaceAndCodeOfferTheCodeKey(t *testing.T) {
	f := openEdited(t, readSteps)
	f.Press("n", "n")
	m := f.player()
	if !hasKey(m.ShortHelp(), "c") {
		t.Fatalf("the key bar does not offer the code key beside a race: %v", keyNames(m.ShortHelp()))
	}
	g := groupKeys(m.HelpGroups())
	if g["Race"] == nil || g["Answer"] == nil || !helpHas(m.HelpGroups(), "c") || !helpHas(m.HelpGroups(), "g") {
		t.Fatalf("a predict step with a race lacks keys: %v", g)
	}
	f.see("Before the race")
	f.Press("c")
	f.see("code: update-clear-rv")
	f.notSee("Before the race")
	f.Press("c")
	f.see("Before the race")
}

func keyNames(bs []key.Binding) string {
	var out []string
	for _, b := range bs {
		out = append(out, b.Help().Key)
	}
	return strings.Join(out, " ")
}

// plans: after-answer keeps every controller's plan off the setup until
// the question is answered; then the race plays, its own (no setup, no
// plans withheld).
func TestPlansWithheldUntilTheAnswer(t *testing.T) {
	f := openEdited(t, func(l *lessons.Lesson) { l.Steps[0].PlansAfterAnswer = true })
	f.see("Before the race", "plan: not shown before you answer")
	f.notSee("update-clear-rv", "read lister")
	f.Press("2")
	r := f.player().Race()
	if r.Hidden() || r.Run().Setup() || r.Run().PlansWithheld() {
		t.Fatalf("after the answer: hidden %v, a setup %v, plans withheld %v", r.Hidden(), r.Run().Setup(), r.Run().PlansWithheld())
	}
	f.notSee("plan: not shown before you answer")
	// A step without the field shows the plans before the answer.
	g := openEdited(t, func(*lessons.Lesson) {})
	g.see("Before the race", "read lister")
	g.notSee("plan: not shown before you answer")
}
