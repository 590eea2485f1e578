package ui

import (
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/conflictlab/conflictlab/progress"
	"github.com/conflictlab/conflictlab/ui/uitest"
)

// TestKeysPressedWhileLoadingTakeEffect: keys pressed on "loading the
// course…" are kept and, once the course is there, act in the order they
// were pressed: down then enter opens the first lesson (enter then down
// would open the course's continue entry and move in the lesson).
func TestKeysPressedWhileLoadingTakeEffect(t *testing.T) {
	d := &uitest.Driver{T: t, Model: New(testConfig(t))}
	d.Send(tea.WindowSizeMsg{Width: 100, Height: 30})
	d.Press("down", "down", "enter")
	if got := app(d).Screen(); got != "loading" {
		t.Fatalf("screen %s before the course is loaded", got)
	}
	pack, err := fixtureCourse()
	if err != nil {
		t.Fatal(err)
	}
	d.Send(loaded{pack: pack, prog: progress.New()})
	if got := app(d).Screen(); got != "player" {
		t.Fatalf("the keys pressed while loading were lost: screen %s\n%s", got, d.View())
	}
	if id, want := playerOf(d).Lesson().ID, pack.Lessons[1].ID; id != want {
		t.Fatalf("down down enter opened %s, want %s (the second lesson)", id, want)
	}
	if len(app(d).pending) != 0 {
		t.Fatal("the keys are still queued after being replayed")
	}

	// ctrl+c is never queued: it quits at once.
	d2 := &uitest.Driver{T: t, Model: New(testConfig(t))}
	d2.Press("ctrl+c")
	if !d2.Quit {
		t.Fatal("ctrl+c while loading did not quit")
	}
}

// TestKeysAfterOpeningALessonWhileLoading (issue 17): keys typed ahead
// past the one that opens a lesson act in the lesson, not on the home
// screen it left: down down enter 2 opens the second lesson and answers
// its first question (the 2 used to reach the home screen, whose enter
// opens the lesson only when its message comes back, and was lost).
func TestKeysAfterOpeningALessonWhileLoading(t *testing.T) {
	d := &uitest.Driver{T: t, Model: New(testConfig(t))}
	d.Send(tea.WindowSizeMsg{Width: 100, Height: 30})
	d.Press("down", "down", "enter", "2", "+")
	pack, err := fixtureCourse()
	if err != nil {
		t.Fatal(err)
	}
	d.Send(loaded{pack: pack, prog: progress.New()})
	if got := app(d).Screen(); got != "player" {
		t.Fatalf("screen %s, want the lesson\n%s", got, d.View())
	}
	id := pack.Lessons[1].ID
	if rec := app(d).Progress().Lessons[id]; rec == nil || len(rec.Answers) != 1 {
		t.Fatalf("the 2 typed after enter did not answer the lesson's first question: %+v\n%s", rec, d.View())
	}
	if r := playerOf(d).Race(); r.Hidden() || r.Speed() != "2x" {
		t.Fatalf("after the answer and +: race hidden %v, speed %s (want shown, 2x)\n%s", r.Hidden(), r.Speed(), d.View())
	}
}

// A q typed ahead, with keys after it, still quits.
func TestQuitTypedWhileLoading(t *testing.T) {
	d := &uitest.Driver{T: t, Model: New(testConfig(t))}
	d.Send(tea.WindowSizeMsg{Width: 100, Height: 30})
	d.Press("q", "down")
	pack, err := fixtureCourse()
	if err != nil {
		t.Fatal(err)
	}
	d.Send(loaded{pack: pack, prog: progress.New()})
	if !d.Quit {
		t.Fatal("q pressed while loading, then down: the program did not quit")
	}
}

// TestPendingKeysBounded: a paste while the course loads keeps at most
// maxPendingKeys keys (a megabyte pasted into a fresh SSH session held a
// million, 100 MiB).
func TestPendingKeysBounded(t *testing.T) {
	m := New(testConfig(t))
	var next tea.Model = m
	for range 10 * maxPendingKeys {
		next, _ = next.Update(tea.KeyPressMsg{Code: 'x', Text: "x"})
	}
	if n := len(next.(Model).pending); n != maxPendingKeys {
		t.Fatalf("%d keys kept while loading", n)
	}
}
