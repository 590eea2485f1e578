package play

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/conflictlab/conflictlab/lessons"
	"github.com/conflictlab/conflictlab/lessons/playgoal"
	"github.com/conflictlab/conflictlab/lessons/racecache"
	"github.com/conflictlab/conflictlab/sim/race"
	"github.com/conflictlab/conflictlab/sim/scenario"
	"github.com/conflictlab/conflictlab/ui/styles"
	"github.com/conflictlab/conflictlab/ui/uitest"
)

// open is step i (0: break, 1: fix) of the test pack at w×h.
func open(t *testing.T, i, w, h int) Model {
	t.Helper()
	p, err := lessons.Load(os.DirFS("testdata/pack"))
	if err != nil {
		t.Fatal(err)
	}
	return openIn(t, p, p.Lessons[0], i, w, h)
}

// openIn is step i of lesson l of pack p as a play component of w×h.
func openIn(t *testing.T, p *lessons.Pack, l *lessons.Lesson, i, w, h int) Model {
	t.Helper()
	s := l.Steps[i]
	sc, err := racecache.New(p).Scenario(s.Spec(nil))
	if err != nil {
		t.Fatal(err)
	}
	m, err := New(s.Goal, sc, s.Question, i, styles.New(true, true))
	if err != nil {
		t.Fatal(err)
	}
	m.SetTicker(uitest.Ticker)
	m.SetSize(w, h)
	return m
}

// run delivers the messages a command leads to, as a program would (but
// in order, on this goroutine), and collects what the component reports.
func run(t *testing.T, m Model, cmd tea.Cmd) (Model, []Solved) {
	t.Helper()
	var solved []Solved
	var do func(tea.Cmd)
	do = func(cmd tea.Cmd) {
		if cmd == nil {
			return
		}
		switch msg := cmd().(type) {
		case nil:
		case tea.BatchMsg:
			for _, c := range msg {
				do(c)
			}
		case Solved:
			solved = append(solved, msg)
		default:
			var next tea.Cmd
			m, next = m.Update(msg)
			if _, tick := msg.(interface{ PlaybackTick() }); !tick {
				do(next)
			}
		}
	}
	do(cmd)
	return m, solved
}

func press(t *testing.T, m Model, keys ...string) (Model, []Solved) {
	t.Helper()
	var all []Solved
	for _, k := range keys {
		var cmd tea.Cmd
		m, cmd = m.Update(uitest.Key(k))
		var s []Solved
		m, s = run(t, m, cmd)
		all = append(all, s...)
	}
	return m, all
}

func view(m Model) string { return ansi.Strip(m.View()) }

func see(t *testing.T, m Model, want ...string) {
	t.Helper()
	v := view(m)
	for _, w := range want {
		if !strings.Contains(v, w) {
			t.Fatalf("screen lacks %q:\n%s", w, v)
		}
	}
}

func notSee(t *testing.T, m Model, bad ...string) {
	t.Helper()
	v := view(m)
	for _, b := range bad {
		if strings.Contains(v, b) {
			t.Fatalf("screen shows %q:\n%s", b, v)
		}
	}
}

func TestBreakAtPar(t *testing.T) {
	m := open(t, 0, 100, 30)
	see(t, m, "Goal: Make a's data.owner get lost.", "moves 0 · par 4", "1/a", "2/b", "next: read its Lister")
	m, s := press(t, m, "a", "b", "1")
	if len(s) != 0 || m.Solved() {
		t.Fatalf("solved after three moves: %v", s)
	}
	see(t, m, "moves 3 · par 4")
	m, s = press(t, m, "2")
	if len(s) != 1 || s[0] != (Solved{ID: 0, Moves: 4, Par: 4, Break: true, Description: "a b a b"}) {
		t.Fatalf("reported %+v, want one solution in 4 moves", s)
	}
	see(t, m, "moves 4 · par 4", "✓ Solved: 4 moves, at par.", "LOST data.owner")
	// Solved: more moves are refused until a restart.
	m, s = press(t, m, "a")
	if len(s) != 0 || m.Moves() != 4 {
		t.Fatalf("a move after the solution was taken: %d moves, %v", m.Moves(), s)
	}
	see(t, m, "best 4")
}

func TestBreakUndoAndRestart(t *testing.T) {
	m := open(t, 0, 100, 30)
	m, _ = press(t, m, "backspace")
	see(t, m, "nothing to undo")
	m, _ = press(t, m, "a", "a")
	if got := strings.Join(scenario.Tokens(m.world.Taken()), " "); got != "a a" {
		t.Fatalf("taken %q", got)
	}
	m, _ = press(t, m, "backspace")
	if got := strings.Join(scenario.Tokens(m.world.Taken()), " "); got != "a" {
		t.Fatalf("after undo taken %q, want a", got)
	}
	see(t, m, "moves 1 · par 4")
	m, s := press(t, m, "b", "a", "b")
	if len(s) != 1 || !m.Solved() {
		t.Fatalf("a b a b after an undo did not solve it: %v", s)
	}
	// Undo the winning move: no longer solved, and moves count down.
	m, _ = press(t, m, "backspace")
	if m.Solved() || m.Moves() != 3 {
		t.Fatalf("after undoing the last move: solved %v, %d moves", m.Solved(), m.Moves())
	}
	m, _ = press(t, m, "r")
	see(t, m, "moves 0 · par 4")
	if m.Moves() != 0 || len(m.hist) != 0 {
		t.Fatalf("restart left %d moves", m.Moves())
	}
}

func TestBreakOverParAndRaceOver(t *testing.T) {
	m := open(t, 0, 100, 30)
	// a finishes first: b's write then carries a's key. No loss.
	m, s := press(t, m, "a", "a", "b", "b")
	if len(s) != 0 {
		t.Fatalf("a a b b reported a solution: %v", s)
	}
	see(t, m, "✗ The race is over and the goal is not met.")
	if m.Attempts() != 1 {
		t.Fatalf("attempts %d, want 1 (the race ended)", m.Attempts())
	}
	m, _ = press(t, m, "2")
	see(t, m, "b takes no more steps")
	// A longer order than par breaks it too: solved, over par.
	// (Both read; b writes nothing yet... a writes after b read.)
	m, _ = press(t, m, "r")
	m, s = press(t, m, "a", "b", "a", "b")
	if len(s) != 1 {
		t.Fatal("not solved")
	}
	m.best = 0
	m, _ = press(t, m, "r")
	m.goal = &lessons.PlayGoal{Break: m.goal.Break, Par: 3, Schedule: m.goal.Schedule}
	m, s = press(t, m, "a", "b", "a", "b")
	if len(s) != 1 || s[0].Moves != 4 || s[0].Par != 3 {
		t.Fatalf("reported %+v", s)
	}
	see(t, m, "✓ Solved: 4 moves; par is 3.")
}

func TestBreakAnswerOnShow(t *testing.T) {
	m := open(t, 0, 100, 30)
	notSee(t, m, "Author's order")
	m.ShowAnswer()
	see(t, m, "Author's order: a b a b (4 moves)")
}

func TestFixChangeAndProve(t *testing.T) {
	m := open(t, 1, 100, 30)
	see(t, m, "Goal: Change the fewest settings", "changes: 0 · par 2", "‹ update-clear-rv ›", "enter proves")
	// Prove the race as it is: some orders lose.
	m, s := press(t, m, "enter")
	if len(s) != 0 || m.result == nil || m.result.Bad == 0 {
		t.Fatalf("the race as written was proven: %+v %v", m.result, s)
	}
	see(t, m, fmt.Sprintf("✗ %d of %d orders end lost, e.g. ", m.result.Bad, m.result.Schedules), "space watches it")
	if m.Race().Run() == nil {
		t.Fatal("no example race on the stage")
	}
	if !m.provenNow() || !m.HandlesKey(uitest.Key("enter")) {
		t.Fatal("enter on settings proven not to fix it should prove them again, not continue")
	}
	// a writes with the RV: one change, still losing (b clears it).
	m, _ = press(t, m, "right")
	see(t, m, "changes: 1 · par 2", "‹ update ›", "changed")
	m, s = press(t, m, "enter")
	if len(s) != 0 || m.result.Proven() {
		t.Fatalf("one change proven: %+v", m.result)
	}
	// b too: proven, solved at par.
	m, _ = press(t, m, "down", "down", "right")
	see(t, m, "changes: 2 · par 2")
	m, s = press(t, m, "enter")
	if len(s) != 1 || s[0] != (Solved{ID: 1, Moves: 2, Par: 2, Description: "a.write=update b.write=update"}) {
		t.Fatalf("reported %+v", s)
	}
	see(t, m, "✓ Proven: none of", "ends lost", "Solved: 2 changes, at par.")
	if m.HandlesKey(uitest.Key("enter")) {
		t.Fatal("enter on settings proven to fix it should be left to the screen (continue)")
	}
	// Changing a setting away and back keeps the proof.
	m, _ = press(t, m, "left")
	if m.Solved() {
		t.Fatal("solved with changed settings")
	}
	see(t, m, "enter proves")
	m, _ = press(t, m, "right")
	if !m.Solved() {
		t.Fatal("back to the proven settings: not solved")
	}
}

// A proof's result about settings changed since, or cancelled, is
// dropped.
func TestFixStaleAndCancelled(t *testing.T) {
	m := open(t, 1, 100, 30)
	m, cmd := m.Update(uitest.Key("enter"))
	if !m.Proving() {
		t.Fatal("not proving")
	}
	see(t, m, "proving…", "esc cancels")
	if !m.HandlesKey(uitest.Key("esc")) {
		t.Fatal("esc is not the component's while proving")
	}
	// A knob changes while it runs: the run's result is stale.
	m, _ = press(t, m, "right")
	if m.Proving() {
		t.Fatal("still proving after the settings changed")
	}
	m, _ = run(t, m, cmd)
	if m.result != nil {
		t.Fatalf("stale result taken: %+v", m.result)
	}
	see(t, m, "enter proves")

	// Esc cancels: the run stops at once and its result is dropped.
	m, cmd = m.Update(uitest.Key("enter"))
	m, _ = press(t, m, "esc")
	if m.Proving() {
		t.Fatal("esc did not cancel")
	}
	see(t, m, "proof cancelled")
	if m.HandlesKey(uitest.Key("esc")) {
		t.Fatal("esc is kept by the component when nothing runs")
	}
	m, s := run(t, m, cmd)
	if m.result != nil || len(s) != 0 {
		t.Fatalf("cancelled result taken: %+v %v", m.result, s)
	}
}

func TestFixAnswerOnShow(t *testing.T) {
	m := open(t, 1, 100, 30)
	m.ShowAnswer()
	see(t, m, "Author's fix: a.write=update b.write=update")
}

func TestGoldens(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {120, 40}} {
		w, h := size[0], size[1]
		b := open(t, 0, w, h)
		b, _ = press(t, b, "a", "b", "a")
		uitest.CheckFrame(t, b.View(), w, h)
		uitest.Golden(t, fmt.Sprintf("break-%dx%d", w, h), view(b))
		b, _ = press(t, b, "b")
		uitest.Golden(t, fmt.Sprintf("break-solved-%dx%d", w, h), view(b))

		f := open(t, 1, w, h)
		f, _ = press(t, f, "right", "enter")
		uitest.CheckFrame(t, f.View(), w, h)
		uitest.Golden(t, fmt.Sprintf("fix-lost-%dx%d", w, h), view(f))
		f, _ = press(t, f, "down", "down", "right", "enter")
		uitest.Golden(t, fmt.Sprintf("fix-proven-%dx%d", w, h), view(f))
	}
}

// The key bar names the step keys there are: "1-2 step" for two
// controllers, "1 step" for one (lesson 12's race without its decoy),
// never "1-1".
func TestStepKeysInTheBar(t *testing.T) {
	help := func(m Model) string {
		var out []string
		for _, b := range m.ShortHelp() {
			out = append(out, b.Help().Key+" "+b.Help().Desc)
		}
		return strings.Join(out, " · ")
	}
	if got := help(open(t, 0, 80, 24)); !strings.Contains(got, "1-2 step") {
		t.Errorf("two controllers: %q", got)
	}
	course, err := lessons.Course()
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range course.Lessons {
		for _, s := range l.Steps {
			if s.Kind != lessons.Play || !s.Goal.IsBreak() {
				continue
			}
			sc, err := racecache.New(course).Scenario(s.Spec(nil))
			if err != nil {
				t.Fatal(err)
			}
			if len(sc.Controllers) != 1 {
				// A break step whose order moves one controller (its
				// others are decoys) serves, played without the decoys.
				named := map[string]bool{}
				for _, mv := range s.Goal.Schedule {
					name, _, _ := strings.Cut(mv, ".")
					named[name] = true
				}
				if len(named) != 1 {
					continue
				}
				one := *sc
				one.Controllers = nil
				for _, c := range sc.Controllers {
					if named[c.Name] {
						one.Controllers = append(one.Controllers, c)
					}
				}
				one.Schedule = scenario.MustMoves(s.Goal.Schedule...)
				sc = &one
			}
			m, err := New(s.Goal, sc, s.Question, 0, styles.New(true, true))
			if err != nil {
				t.Fatal(err)
			}
			if got := help(m); !strings.Contains(got, "1 step") || strings.Contains(got, "1-1") {
				t.Errorf("%s: one controller: %q", l.ID, got)
			}
			return
		}
	}
	t.Fatal("no break step of the course has one controller: this test checks nothing")
}

// rowsShown counts the lines of the race view's timeline on screen: those
// between its header ("   # a …") and its status ("‖ paused · step 3/8").
func rowsShown(v string) int {
	n, in := 0, false
	for _, l := range strings.Split(v, "\n") {
		switch {
		case strings.HasPrefix(strings.TrimSpace(l), "# "):
			in = true
		case strings.Contains(l, " · step "):
			return n
		case in:
			n++
		}
	}
	return n
}

// At 80×24 the player gives the stage 13 rows under the text: with the
// settings table and the verdict above it, a failed proof's example had
// room for one or two of its rows. A failed proof's example is watched
// at once: the table folds to one line so that its rows show; esc, a
// settings key or a new proof bring the table back.
func TestFixWatchGivesTheExampleRoom(t *testing.T) {
	m := open(t, 1, 79, 13)
	m.Reserved = []key.Binding{key.NewBinding(key.WithKeys("tab"), key.WithHelp("tab", "zoom race"))}
	m, _ = press(t, m, "right", "enter")
	steps := len(m.Race().Run().Outcome.Steps)
	if steps < 6 {
		t.Fatalf("the example has %d steps: too few to tell a folded table from a full one", steps)
	}
	if !m.Watching() {
		t.Fatal("a failed proof's example is not given the stage")
	}
	if got := rowsShown(view(m)); got < 2 {
		t.Fatalf("a failed proof at 79×13 shows %d lines of its example, want its rows:\n%s", got, view(m))
	}
	see(t, m, "orders end lost, e.g. this one", "esc settings")
	notSee(t, m, "b   retry")
	m, _ = press(t, m, "esc")
	see(t, m, "› a   write  ‹ update ›", "b   retry", "space watches it")
	// space plays the example from its start; . steps it (paused).
	m, _ = press(t, m, "space")
	if !m.Watching() || !m.Race().Playing() {
		t.Fatalf("space: watching %v, playing %v", m.Watching(), m.Race().Playing())
	}
	m, _ = press(t, m, ".", ".", ".", ".", ".", ".")
	// The race view has all but the top three lines (it splits them
	// between its rows and the object): rows 4 of 13, not 9.
	if top := strings.Index(view(m), "────"); top < 0 || strings.Count(view(m)[:top], "\n") > 2 {
		t.Fatalf("watching the example at 79×13, the race is not given the stage:\n%s", view(m))
	}
	if got := rowsShown(view(m)); got < 3 {
		t.Fatalf("watching the example at 79×13 shows %d lines of its timeline, want 3 or more:\n%s", got, view(m))
	}
	uitest.CheckFrame(t, m.View(), 79, 13)
	see(t, m, "changes: 1 · par 2 · a.write=update", "orders end lost, e.g. this one", "esc settings · tab zoom")
	notSee(t, m, "b   retry", "Goal:")
	if !m.HandlesKey(uitest.Key("esc")) {
		t.Fatal("esc while watching is left to the screen (it would leave the lesson)")
	}
	// esc: the table is back, the example where it was.
	idx := m.Race().Index()
	m, _ = press(t, m, "esc")
	if m.Watching() || m.Race().Index() != idx {
		t.Fatalf("esc: watching %v, index %d → %d", m.Watching(), idx, m.Race().Index())
	}
	see(t, m, "b   retry", "Goal:")
	if m.HandlesKey(uitest.Key("esc")) {
		t.Fatal("esc is kept by the component after watching ends")
	}
	// A race key watches again; a settings key ends it, and moves.
	m, _ = press(t, m, ",")
	if !m.Watching() {
		t.Fatal(", (step back) did not watch the example")
	}
	m, _ = press(t, m, "down")
	if m.Watching() || m.cursor != 1 {
		t.Fatalf("down while watching: watching %v, cursor %d", m.Watching(), m.cursor)
	}
	// space pauses the example it plays.
	m, _ = press(t, m, "space")
	m, _ = press(t, m, "space")
	if m.Race().Playing() || !m.Watching() {
		t.Fatalf("space twice: playing %v, watching %v", m.Race().Playing(), m.Watching())
	}
	// A new proof that fails again shows its own example.
	m, _ = press(t, m, "enter")
	if !m.Watching() {
		t.Fatal("a new failed proof does not show its example")
	}
	// A stage tall enough for the table and the example keeps the table.
	m = open(t, 1, 100, 40)
	m, _ = press(t, m, "right", "enter", "space")
	see(t, m, "Goal:", "b   retry")
}

// Counts agree with their nouns: "1 change", never "1 changes".
func TestCountsAgree(t *testing.T) {
	for _, c := range []struct{ got, want string }{
		{Count(1, "change"), "1 change"},
		{Count(2, "change"), "2 changes"},
		{Count(0, "order"), "0 orders"},
		{verdictOf(1, 1, "change"), "1 change, at par."},
		{verdictOf(1, 0, "move"), "1 move; par is 0."},
		{verdictOf(3, 2, "change"), "3 changes; par is 2."},
	} {
		if c.got != c.want {
			t.Errorf("%q, want %q", c.got, c.want)
		}
	}
	b := open(t, 0, 100, 30)
	b.goal = &lessons.PlayGoal{Break: b.goal.Break, Par: 1, Schedule: []string{"a"}}
	b.ShowAnswer()
	see(t, b, "Author's order: a (1 move)")

	f := open(t, 1, 100, 30)
	f.result = &playgoal.FixResult{Schedules: 1, Bad: 1, Verdict: "lost", Example: []string{"a", "b"}}
	f.provenFor = f.settings.Clone()
	see(t, f, "✗ 1 of 1 order ends lost, e.g. a b")
	f.result.Schedules = 6
	see(t, f, "✗ 1 of 6 orders ends lost")
	f.result.Bad = 2
	see(t, f, "✗ 2 of 6 orders end lost")
}

// FullHelp lists only keys the component takes at that moment, so the
// screen can put them first and drop the same keys from its other groups
// (OneMeaning) without the list lying about them.
func TestFullHelpKeysAreTaken(t *testing.T) {
	course, err := lessons.Course()
	if err != nil {
		t.Fatal(err)
	}
	check := func(m Model, where string) {
		t.Helper()
		for _, b := range m.FullHelp() {
			if len(b.Keys()) == 0 {
				t.Errorf("%s: %q lists no keys", where, b.Help().Desc)
			}
			for _, k := range b.Keys() {
				if !m.HandlesKey(uitest.Key(k)) {
					t.Errorf("%s: %q lists %s, which the step leaves to the screen", where, b.Help().Desc, k)
				}
			}
		}
	}
	n := 0
	for _, l := range course.Lessons {
		for i, s := range l.Steps {
			if s.Kind != lessons.Play {
				continue
			}
			m := openIn(t, course, l, i, 79, 13)
			where := fmt.Sprintf("%s step %d", l.ID, i+1)
			check(m, where)
			n++
			if m.IsBreak() {
				// Initials schedule too: they are listed with the digits.
				for k, tok := range m.moveKeys() {
					if !slices.Contains(m.FullHelp()[0].Keys(), k) && !slices.Contains(m.FullHelp()[1].Keys(), k) {
						t.Errorf("%s: %s schedules %s but is not listed", where, k, tok)
					}
				}
				continue
			}
			m, _ = press(t, m, "enter")
			check(m, where+" after a proof")
			m, _ = press(t, m, "space")
			check(m, where+" watching")
			m.settings = s.Goal.Answer(m.base)
			m, _ = press(t, m, "enter")
			if !m.Solved() {
				t.Fatalf("%s: the author's fix did not solve it", where)
			}
			check(m, where+" solved")
		}
	}
	if n == 0 {
		t.Fatal("no play steps")
	}
}

// TestPlayedOutBreakKeepsItsRows: once a break step's race is over on a
// short stage (the player's at 80×24), the goal and the panel of "✓ done"
// fold away so that the race keeps its rows, the erasing write among
// them; on a tall stage nothing folds.
func TestPlayedOutBreakKeepsItsRows(t *testing.T) {
	m := open(t, 0, 79, 13)
	m, _ = press(t, m, "a", "b", "a", "b")
	if !m.solved {
		t.Fatalf("a b a b did not solve the fixture's break step:\n%s", view(m))
	}
	uitest.CheckFrame(t, m.View(), 79, 13)
	see(t, m, "moves 4 · par 4", "Solved: 4 moves, at par.")
	notSee(t, m, "Goal:", "✓ done")
	if got := rowsShown(view(m)); got < 3 {
		t.Fatalf("solved at 79×13, the race shows %d lines of its timeline, want 3 or more:\n%s", got, view(m))
	}
	tall := open(t, 0, 100, 40)
	tall, _ = press(t, tall, "a", "b", "a", "b")
	see(t, tall, "Goal:", "✓ done", "Solved: 4 moves, at par.")
	// Undo: the race is not over, the panel is back.
	m, _ = press(t, m, "backspace")
	see(t, m, "Goal:")
}

// TestNothingToWatchSaysWhy: space on a fix step with no example says
// why there is none (not proven yet); once proven there is one to watch.
func TestNothingToWatchSaysWhy(t *testing.T) {
	m := open(t, 1, 100, 30)
	m, _ = press(t, m, "space")
	see(t, m, "prove the settings first")
	m.settings = m.goal.Answer(m.base)
	m, _ = press(t, m, "enter")
	if !m.Solved() {
		t.Fatalf("the author's fix did not solve the fixture's fix step:\n%s", view(m))
	}
	// Proven, the example is an order that failed before, now passing.
	see(t, m, "space watches a b a b, an order", "now passing")
	m, _ = press(t, m, "space")
	if !m.Watching() || m.Race().Run() == nil || m.Race().Run().Outcome.Verdict == race.VerdictLost {
		t.Fatalf("space after the proof does not watch a passing order:\n%s", view(m))
	}
	notSee(t, m, "prove the settings first")
}

// A fix step's table offers only the settings that mean something for
// the settings as they are, says what the value under the cursor does,
// and clears the example of the old settings on every change.
func TestFixTableMeansWhatItShows(t *testing.T) {
	p, err := lessons.Course()
	if err != nil {
		t.Fatal(err)
	}
	l := p.Lesson("controller-runtime-client")
	i := slices.IndexFunc(l.Steps, func(s lessons.Step) bool { return s.Kind == lessons.Play })
	m := openIn(t, p, l, i, 100, 40)
	// b merge-patches: "with RV" means something, and says what.
	see(t, m, "b   write", "b   withRV", "write: JSON merge patch")
	m, _ = press(t, m, "down", "right") // withRV: true
	see(t, m, "withRV: the patch carries the RV it read")
	if m.settings["b"]["withRV"] != "true" {
		t.Fatalf("withRV is %q", m.settings["b"]["withRV"])
	}
	// A failed proof leaves its example on the stage…
	m, _ = press(t, m, "enter")
	if m.Race().Run() == nil {
		t.Fatalf("no example after a failed proof:\n%s", view(m))
	}
	// …until a setting changes (merge-patch → strategic-patch)…
	m, _ = press(t, m, "up", "right")
	if m.Race().Run() != nil {
		t.Fatal("the old settings' example stayed on the stage after a change")
	}
	see(t, m, "b   withRV")
	// …and an update has no "with RV" to send: the row goes, and its
	// change with it.
	m, _ = press(t, m, "right")
	notSee(t, m, "b   withRV")
	if got := m.settings["b"]["withRV"]; got != m.startSet["b"]["withRV"] {
		t.Fatalf("the hidden withRV stays changed: %q", got)
	}
	if n := m.Moves(); n != 1 {
		t.Fatalf("%d changes counted, want 1 (the write)", n)
	}
	see(t, m, "write: PUT of the whole object")
}
