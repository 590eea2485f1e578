package player

import (
	"fmt"
	"os"
	"testing"

	"github.com/conflictlab/conflictlab/lessons"
	"github.com/conflictlab/conflictlab/lessons/racecache"
	"github.com/conflictlab/conflictlab/progress"
	"github.com/conflictlab/conflictlab/ui/play"
	"github.com/conflictlab/conflictlab/ui/styles"
	"github.com/conflictlab/conflictlab/ui/uitest"
)

// openPlay starts the player on the play step test pack (a break step,
// then a fix step) at w×h.
func openPlay(t *testing.T, step, w, h int, prog *progress.Progress) *fixture {
	t.Helper()
	p, err := lessons.Load(os.DirFS("../play/testdata/pack"))
	if err != nil {
		t.Fatal(err)
	}
	if prog == nil {
		prog = progress.New()
	}
	m, cmd := New(p.Lessons[0], nil, prog, racecache.New(p), styles.New(true, true), step)
	m.SetTicker(uitest.Ticker)
	m.SetSnippets(func(name string) (string, error) { return "// snippet " + name + "\nfunc F() {}", nil })
	m.SetSize(w, h)
	f := &fixture{Driver: &uitest.Driver{T: t, Model: wrap{m}}, prog: prog}
	f.Run(cmd)
	return f
}

func TestPlayBreakStepRecordsASolution(t *testing.T) {
	f := openPlay(t, 0, 100, 30, nil)
	f.see("Make a's data.owner get lost.", "play: break it", "moves 0 · par 4", "step the controllers by their keys",
		"Scored: your first solution, at par or over it")
	// s does nothing before an attempt or the hint.
	f.Press("s")
	f.notSee("Author's order", "Solution")
	f.Press("a", "b", "a")
	f.see("moves 3 · par 4")
	if _, ok := f.prog.Lesson("play").Answers[0]; ok {
		t.Fatal("recorded before the goal was met")
	}
	f.Press("b")
	f.see("✓ Solved: 4 moves, at par.", "✓ Solved. Best: 4 moves; par 4.", "at par.", "enter: continue")
	a := f.prog.Lesson("play").Answers[0]
	if !a.Correct || !a.FirstTry || a.Best != 4 || a.Attempts != 1 {
		t.Fatalf("recorded %+v, want a first solution at par", a)
	}
	// Now the author's order may be shown.
	f.Press("s")
	f.see("Author's order: a b a b", "Solution")
	// enter continues to the fix step.
	f.Press("enter")
	if f.player().Step() != 1 {
		t.Fatalf("enter left the player at step %d", f.player().Step())
	}
	f.see("play: fix it", "changes: 0 · par 2")
	// The summary keeps each play step's best against par.
	f.Press("n")
	f.see("best 4 moves, par 4.", "not solved yet.")
	f.Press("p")
	// Back on the break step, the best is shown and the race is fresh.
	f.Press("p")
	f.see("✓ Solved. Best: 4 moves; par 4.", "moves 0 · par 4 · best 4")
}

func TestPlayHintUnlocksTheSolution(t *testing.T) {
	f := openPlay(t, 0, 100, 30, nil)
	f.Press("h")
	f.see("Hint: Let both controllers read before either writes.")
	f.Press("s")
	f.see("Author's order: a b a b (4 moves)", "Solution")
}

func TestPlayFixStepOverParThenAtPar(t *testing.T) {
	f := openPlay(t, 1, 100, 30, nil)
	// Three changes: a writes with the RV and retries, b writes with the RV.
	f.Press("right", "down", "right", "down", "right", "enter")
	f.see("changes: 3 · par 2", "✓ Proven: none of", "Solved: 3 changes; par is 2.")
	a := f.prog.Lesson("play").Answers[1]
	if !a.Correct || a.FirstTry || a.Best != 3 {
		t.Fatalf("recorded %+v, want a first solution over par", a)
	}
	// Take the retry back: two changes, proven again; the best improves,
	// the score keeps the first solution.
	f.Press("up", "left", "enter")
	f.see("changes: 2 · par 2", "Solved: 2 changes, at par.", "Best: 2 changes; par 2.", "over par")
	a = f.prog.Lesson("play").Answers[1]
	if a.FirstTry || a.Best != 2 || a.Attempts != 2 {
		t.Fatalf("recorded %+v", a)
	}
	// The proven settings: enter continues to the summary.
	f.Press("enter")
	f.see("Not complete yet", "Score so far: 1 of 2 questions answered")
}

func TestPlayWholeLessonScores(t *testing.T) {
	f := openPlay(t, 0, 100, 30, nil)
	f.Press("a", "b", "a", "b", "enter")
	f.Press("right", "down", "down", "right", "enter")
	f.see("Solved: 2 changes, at par.")
	f.Press("enter")
	f.see("Lesson complete", "Score: 2 of 2 questions right on the first try.")
	if !f.prog.Lesson("play").Done {
		t.Fatal("the lesson is not done")
	}
}

// esc cancels a proof in the player; the cancelled proof's verdict is
// dropped.
func TestPlayEscCancelsAProof(t *testing.T) {
	f := openPlay(t, 1, 100, 30, nil)
	m := f.player()
	m, cmd := m.Update(uitest.Key("enter"))
	if !m.TakesKey(uitest.Key("esc")) {
		t.Fatal("the player does not take esc while a proof runs")
	}
	m, _ = m.Update(uitest.Key("esc"))
	if m.TakesKey(uitest.Key("esc")) {
		t.Fatal("the player keeps esc after the proof was cancelled")
	}
	f.Model = wrap{m}
	f.Run(cmd)
	f.see("proof cancelled")
	if _, ok := f.prog.Lesson("play").Answers[1]; ok {
		t.Fatal("a cancelled proof was recorded")
	}
}

// A stage made for a step the learner has left is dropped.
func TestPlayStaleStageDropped(t *testing.T) {
	f := openPlay(t, 0, 100, 30, nil)
	m := f.player()
	old := m.enter(0) // a new stage on its way…
	m, cmd := m.Update(uitest.Key("n"))
	f.Model = wrap{m}
	f.Run(cmd)
	f.Run(old) // …arrives after the learner moved on
	f.see("play: fix it", "changes: 0 · par 2")
	f.notSee("moves 0")
}

func TestPlayGoldens(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {120, 40}} {
		w, h := size[0], size[1]
		f := openPlay(t, 0, w, h, nil)
		f.Press("a", "b", "a")
		uitest.CheckFrame(t, f.Model.View().Content, w, h)
		uitest.Golden(t, fmt.Sprintf("play-break-%dx%d", w, h), f.View())
		f.Press("b")
		uitest.CheckFrame(t, f.Model.View().Content, w, h)
		uitest.Golden(t, fmt.Sprintf("play-break-solved-%dx%d", w, h), f.View())
		f.Press("enter", "right", "enter")
		uitest.CheckFrame(t, f.Model.View().Content, w, h)
		uitest.Golden(t, fmt.Sprintf("play-fix-lost-%dx%d", w, h), f.View())
		f.Press("down", "down", "right", "enter")
		uitest.CheckFrame(t, f.Model.View().Content, w, h)
		uitest.Golden(t, fmt.Sprintf("play-fix-proven-%dx%d", w, h), f.View())
	}
}

// A solution the step's own stage did not send is not the step's: every
// screen hears what is not a key, and the sandbox's levels are play
// steps too.
func TestPlayStepTakesOnlyItsOwnSolution(t *testing.T) {
	f := openPlay(t, 0, 100, 30, nil)
	f.Send(play.Solved{ID: 0, Moves: 4, Par: 4, Break: true})
	if _, ok := f.prog.Lessons["play"].Answers[0]; ok {
		t.Fatal("a solution from elsewhere was recorded as the step's")
	}
	f.notSee("Solved.")
}
