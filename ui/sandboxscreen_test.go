package ui

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/conflictlab/conflictlab/sandbox/draft"
	"github.com/conflictlab/conflictlab/sim/scenario"
	"github.com/conflictlab/conflictlab/ui/uitest"
)

// TestSandboxGoldenScreens renders the sandbox's editor forms and the
// scheduler at the two reference sizes, colour off (the goldens are the
// text, reviewed by eye): the starting race, a mutation being typed with
// a mistake, both writes switched to update-clear-rv by keys, the race
// played a b a b with its lost field marked, the explorer's tally, the
// challenge list, and a fix challenge's editor.
func TestSandboxGoldenScreens(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {120, 40}} {
		w, h := size[0], size[1]
		t.Run(fmt.Sprintf("%dx%d", w, h), func(t *testing.T) {
			cfg := testConfig(t)
			cfg.SandboxEnv.Clock = func() time.Time { return time.Time{} }
			d := start(t, cfg, w, h)
			shot := func(name string) {
				t.Helper()
				uitest.CheckFrame(t, d.Model.View().Content, w, h)
				uitest.Golden(t, fmt.Sprintf("sandbox-%s-%dx%d", name, w, h), d.View())
			}
			d.Send(app(d).sandboxPush())
			shot("build")
			// a's first change, retyped with a typo.
			d.Press("down", "down", "down", "down", "down", "enter", "ctrl+u")
			for _, r := range "sett data.owner = me" {
				d.Press(string(r))
			}
			d.Press("enter")
			shot("edit-mutation-error")
			d.Press("esc")
			// a's write and b's write: update → update-clear-rv.
			d.Press("down", "down", "right")
			for i := 0; i < 9; i++ {
				d.Press("down")
			}
			d.Press("right")
			shot("build-clear-rv")
			d.Press("tab", "a", "b", "a", "b")
			shot("race-lost")
			d.Press("tab", "e")
			shot("explore")
			d.Press("tab")
			shot("challenges")
			d.Press("down", "enter")
			shot("fix-challenge")
		})
	}
}

// TestSandboxKeysAndRouting: the home screen's Sandbox entry opens it; in
// a text field q and ? are letters, not quit and help; esc closes the
// field, then goes home; the sandbox is kept for the next visit.
func TestSandboxKeysAndRouting(t *testing.T) {
	d := start(t, testConfig(t), 100, 30)
	for i := 0; i < 10 && app(d).Screen() == "home"; i++ {
		if md := homeOf(d); md.Cursor() >= 0 {
			d.Press("down")
		}
	}
	d.Press("enter")
	if app(d).Screen() != "exercises" {
		// The Exercises entry is the last one under Other modes.
		t.Fatalf("the last home entry opened %s", app(d).Screen())
	}
	// Without a workspace the exercises' screen says how to make one.
	mustContain(t, d.View(), "No exercises workspace here", "conflictlab exercises init")
	d.Press("esc", "up", "enter")
	if app(d).Screen() != "sandbox" {
		// The Sandbox entry is the one before it.
		t.Fatalf("the entry before Exercises opened %s", app(d).Screen())
	}
	d.Press("enter", "ctrl+u", "q", "?", "enter")
	if d.Quit || app(d).Screen() != "sandbox" {
		t.Fatal("q in a text field quit the app")
	}
	mustContain(t, d.View(), "race         name          q?")
	d.Press("enter", "esc")
	mustContain(t, d.View(), "name          q?")
	d.Press("tab", "1", "esc")
	if app(d).Screen() != "home" {
		t.Fatalf("esc at the sandbox's top went to %s", app(d).Screen())
	}
	d.Send(app(d).sandboxPush())
	mustContain(t, d.View(), "Sandbox · race", "1 turns taken")
	d.Press("q")
	if !d.Quit {
		t.Fatal("q outside a text field did not quit")
	}
}

// TestSandboxHelpShowsEveryKey: the sandbox's full key list at 80×24
// (and at other supported sizes) has every binding's key in it, on
// screen or a scroll away, and no line wider than the window.
func TestSandboxHelpShowsEveryKey(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {100, 30}, {120, 40}, {80, 40}, {200, 24}} {
		w, h := size[0], size[1]
		d := start(t, testConfig(t), w, h)
		d.Send(app(d).sandboxPush())
		d.Press("?")
		if w == 80 && h == 24 {
			uitest.Golden(t, "sandbox-help-80x24", d.View())
		}
		seen := ""
		for i := 0; i < 40; i++ {
			uitest.CheckFrame(t, d.Model.View().Content, w, h)
			seen += d.View()
			d.Press("down")
		}
		// Keys are padded to align within a group: compare words.
		words := strings.Join(strings.Fields(seen), " ")
		for _, g := range sandboxOf(d).HelpGroups() {
			for _, b := range g.Keys {
				if !strings.Contains(words, b.Help().Key+" "+b.Help().Desc) {
					t.Fatalf("%dx%d: the key list lacks %q %q:\n%s", w, h, b.Help().Key, b.Help().Desc, d.View())
				}
			}
		}
		mustContain(t, words, "Everywhere", "? all keys", "q quit", "esc back")
	}
}

// TestSandboxDraftKeptAcrossRuns: the race being built is written to the
// state folder when the learner leaves the sandbox and when the program
// ends, and the next run's sandbox opens on it with a note.
func TestSandboxDraftKeptAcrossRuns(t *testing.T) {
	cfg := testConfig(t)
	draftFile := filepath.Join(filepath.Dir(cfg.ProgressPath), "sandbox-draft.yaml")
	d := start(t, cfg, 100, 30)
	d.Press("q")
	if said := leaveOnExit(d.Model); len(said) > 0 {
		t.Fatal(said)
	}
	if _, err := os.Stat(draftFile); err == nil {
		t.Fatal("a run that never opened the sandbox wrote a draft")
	}

	d = start(t, cfg, 100, 30)
	d.Send(app(d).sandboxPush())
	d.Press("tab", "a", "b", "esc")
	if app(d).Screen() != "home" {
		t.Fatalf("esc went to %s", app(d).Screen())
	}
	if _, err := os.Stat(draftFile); err != nil {
		t.Fatalf("leaving the sandbox kept no draft: %v", err)
	}
	d.Send(app(d).sandboxPush())
	d.Press("a")
	d.Press("q")
	if !d.Quit {
		t.Fatal("q in the sandbox asked instead of quitting (the draft is kept anyway)")
	}
	if said := leaveOnExit(d.Model); len(said) > 0 {
		t.Fatal(said)
	}

	next := start(t, cfg, 100, 30)
	next.Send(app(next).sandboxPush())
	mustContain(t, next.View(), "restored the race you were building")
	if got := strings.Join(scenario.Tokens(sandboxOf(next).Taken()), " "); got != "a b a" {
		t.Fatalf("restored schedule %q, want a b a", got)
	}

	// A race asked for with -f wins over the draft.
	cfg.OpenSandbox, cfg.Sandbox = true, draft.New()
	withFile := start(t, cfg, 100, 30)
	mustNotContain(t, withFile.View(), "restored the race you were building")
}
