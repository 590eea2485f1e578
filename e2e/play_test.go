package e2e

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/conflictlab/conflictlab/lessons"
	"github.com/conflictlab/conflictlab/lessons/racecache"
	"github.com/conflictlab/conflictlab/progress"
	"github.com/conflictlab/conflictlab/sim/scenario"
)

// TestPlayStepsInATerminal takes a pack of two play steps at 80×24, the
// smallest size the app draws: the learner schedules the lost-update race
// until a's key is lost (solved at par), then changes how both
// controllers write until the explorer proves no order loses; the summary
// scores both, and the progress on disk has them.
func TestPlayStepsInATerminal(t *testing.T) {
	needTmux(t)
	bin := build(t)
	pack, err := filepath.Abs("../ui/play/testdata/pack")
	if err != nil {
		t.Fatal(err)
	}
	state := t.TempDir()
	tm := start(t, bin+" --lessons "+pack, state, filepath.Join(t.TempDir(), "trace"), 80, 24)
	tm.waitFor(10*time.Second, "Be the scheduler")
	tm.send("Enter")
	s := tm.waitFor(10*time.Second, "Break it", "play: break it", "moves 0 · par 4", "1/a", "2/b")
	if strings.Contains(s, "Author's order") {
		t.Fatalf("the author's order is shown before any attempt:\n%s", s)
	}

	// A wrong first move and its undo; then the order that breaks it.
	tm.send("a")
	tm.waitFor(5*time.Second, "moves 1 · par 4")
	tm.send("a")
	tm.waitFor(5*time.Second, "moves 2 · par 4")
	tm.send("BSpace")
	tm.waitFor(5*time.Second, "moves 1 · par 4")
	for i, k := range []string{"b", "a", "b"} {
		tm.send(k)
		tm.waitFor(5*time.Second, "moves "+string(rune('2'+i))+" · par 4")
	}
	tm.waitFor(5*time.Second, "✓ Solved: 4 moves, at par.", "LOST data.owner")
	tm.send("s")
	tm.waitFor(5*time.Second, "Author's order: a b a b")

	tm.send("Enter")
	tm.waitFor(10*time.Second, "Fix it", "play: fix it", "changes: 0 · par 2", "‹ update-clear-rv ›")
	// The race as it is: the explorer finds orders that lose.
	tm.send("Enter")
	tm.waitFor(20*time.Second, "orders end lost, e.g.")
	// Watching the example at 80×24: the settings fold to one line so the
	// race has the stage; esc brings the table back.
	tm.send("Space")
	tm.waitFor(5*time.Second, "e.g. this one · esc settings · tab zoom", "changes: 0 · par 2 · the race as written")
	tm.send("Escape")
	tm.waitFor(5*time.Second, "‹ update-clear-rv ›", "space watches it")
	// Both write with the resourceVersion: proven.
	tm.send("Right")
	tm.waitFor(5*time.Second, "changes: 1 · par 2")
	tm.send("Down", "Down", "Right")
	tm.waitFor(5*time.Second, "changes: 2 · par 2")
	tm.send("Enter")
	tm.waitFor(20*time.Second, "✓ Proven: none of", "Solved: 2 changes, at par.")

	tm.send("Enter")
	tm.waitFor(10*time.Second, "Lesson complete: Be the scheduler", "Score: 2 of 2 questions right on the first try")
	tm.send("q")
	waitGone(t, tm)

	// The progress file, wherever this pack keeps it under the state folder.
	var found *progress.Lesson
	filepath.WalkDir(state, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".json") {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return nil
		}
		if p, err := progress.Decode(data); err == nil && p.Lessons["play"] != nil {
			found = p.Lessons["play"]
		}
		return nil
	})
	if found == nil {
		t.Fatal("no progress file with the play lesson under the state folder")
	}
	if !found.Done || found.Answers[0].Best != 4 || !found.Answers[0].FirstTry || found.Answers[1].Best != 2 || !found.Answers[1].FirstTry {
		t.Fatalf("progress after the lesson: %+v", found)
	}
}

// solvePlay solves the play step on screen with the author's answer: the
// break's order by the controllers' keys (1–4, !@#$ for their caches), or
// the fix's settings by the table's keys; then waits for the verdict.
func solvePlay(t *testing.T, tm *term, p *lessons.Pack, s lessons.Step) {
	t.Helper()
	sc, err := racecache.New(p).Scenario(s.Spec(nil))
	if err != nil {
		t.Fatal(err)
	}
	g := s.Goal
	if g.IsBreak() {
		for _, tok := range g.Schedule {
			name, cache := strings.CutSuffix(tok, ".cache") // a lesson file's token
			i := slices.IndexFunc(sc.Controllers, func(c scenario.Controller) bool { return c.Name == name })
			if i < 0 || i > 3 {
				t.Fatalf("%q: no key schedules it", tok)
			}
			k := fmt.Sprint(i + 1)
			if cache {
				k = []string{"!", "@", "#", "$"}[i]
			}
			tm.send(k)
		}
		tm.waitFor(10*time.Second, "✓ Solved: ", fmt.Sprintf("moves %d · par %d", g.Par, g.Par))
		return
	}
	start, want := g.StartSettings(sc), g.Answer(sc)
	for _, c := range g.Tunable(sc) {
		for _, k := range g.Knobs {
			from, to := slices.Index(k.Values, start[c][k.Name]), slices.Index(k.Values, want[c][k.Name])
			for n := (to - from + len(k.Values)) % len(k.Values); n > 0; n-- {
				tm.send("Right")
			}
			tm.send("Down")
		}
	}
	tm.waitFor(5*time.Second, fmt.Sprintf("changes: %d · par %d", g.Par, g.Par))
	tm.send("Enter")
	tm.waitFor(30*time.Second, "✓ Proven: none of", "at par.")
}

// TestCoursePlayStepsInATerminal opens every play step of the built-in
// course at 80×24 and solves it with the author's answer, by keys.
func TestCoursePlayStepsInATerminal(t *testing.T) {
	needTmux(t)
	pack, err := lessons.Course()
	if err != nil {
		t.Fatal(err)
	}
	bin := build(t)
	for _, l := range pack.Lessons {
		for i, s := range l.Steps {
			if s.Kind != lessons.Play {
				continue
			}
			t.Run(fmt.Sprintf("%s/%d", l.ID, i+1), func(t *testing.T) {
				state := t.TempDir()
				seed := progress.New()
				seed.Last = l.ID
				seed.Lesson(l.ID).Step = i
				if err := progress.Open(filepath.Join(state, progress.AppDir, progress.FileName)).Save(seed); err != nil {
					t.Fatal(err)
				}
				tm := start(t, bin, state, filepath.Join(t.TempDir(), "trace"), 80, 24)
				tm.waitFor(10*time.Second, "Continue")
				tm.send("c")
				tm.waitFor(10*time.Second, fmt.Sprintf("step %d/%d · play", i+1, len(l.Steps)), "par ")
				solvePlay(t, tm, pack, s)
			})
		}
	}
}
