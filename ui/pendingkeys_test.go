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
	if id, want := app(d).Player().Lesson().ID, pack.Lessons[1].ID; id != want {
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
