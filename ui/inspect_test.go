package ui

import (
	"os"
	"strings"
	"testing"

	"github.com/conflictlab/conflictlab/lessons"
	"github.com/conflictlab/conflictlab/ui/keyhelp"
	"github.com/conflictlab/conflictlab/ui/uitest"
)

// escMeanings is every meaning esc is listed with in the app's key list.
func escMeanings(groups []keyhelp.Group) []string {
	var out []string
	for _, g := range groups {
		for _, b := range g.Keys {
			for _, k := range b.Keys() {
				if k == "esc" {
					out = append(out, g.Title+": "+b.Help().Desc)
				}
			}
		}
	}
	return out
}

// Esc with the race's inspect panel open closes the panel, as the panel
// says, and leaves the lesson open; the next esc goes back. The key bar
// and the key list give esc the meaning it has at each point.
func TestEscClosesTheInspectPanelNotTheLesson(t *testing.T) {
	d := start(t, testConfig(t), 80, 24)
	d.Press("down", "down", "enter")
	if got := app(d).Screen(); got != "player" {
		t.Fatalf("on %s, not the player", got)
	}
	d.Press("2")
	d.PlayAll()
	d.Press("i")
	if !playerOf(d).Race().Inspecting() {
		t.Fatalf("i did not open the inspect panel:\n%s", d.View())
	}
	uitest.CheckFrame(t, d.Model.View().Content, 80, 24)
	mustContain(t, d.View(), "esc/i close details")
	mustNotContain(t, d.View(), "esc back")
	if got := escMeanings(app(d).helpGroups()); len(got) != 1 || got[0] != "Inspect panel: close details" {
		t.Fatalf("with the panel open the key list gives esc %q, want only the panel's", got)
	}
	d.Press("esc")
	if got := app(d).Screen(); got != "player" {
		t.Fatalf("esc with the inspect panel open went to %s", got)
	}
	if playerOf(d).Race().Inspecting() {
		t.Fatalf("esc did not close the inspect panel:\n%s", d.View())
	}
	if got := escMeanings(app(d).helpGroups()); len(got) != 1 || got[0] != "Everywhere: back" {
		t.Fatalf("with the panel closed the key list gives esc %q, want the app's back", got)
	}
	d.Press("esc")
	if got := app(d).Screen(); got != "home" {
		t.Fatalf("esc after the panel closed went to %s, not home", got)
	}
}

// On a play step watching an example, esc goes back to the settings: the
// key list says so once and does not list the app's "esc back" beside it.
func TestPlayStepKeyListGivesEscOneMeaning(t *testing.T) {
	cfg := testConfig(t)
	cfg.LoadCourse = func() (*lessons.Pack, error) { return lessons.Load(os.DirFS("play/testdata/pack")) }
	d := start(t, cfg, 80, 24)
	d.Press("enter")
	if got := app(d).Screen(); got != "player" {
		t.Fatalf("on %s, not the player", got)
	}
	d.Press("n")
	if playerOf(d).Step() != 1 {
		t.Fatalf("on step %d, not the fix step", playerOf(d).Step())
	}
	if got := escMeanings(app(d).helpGroups()); len(got) != 1 || got[0] != "Everywhere: back" {
		t.Fatalf("before the proof the key list gives esc %q, want the app's back", got)
	}
	// Unchanged settings fail the proof with an example; space watches it.
	d.Press("enter")
	d.Press("space")
	got := escMeanings(app(d).helpGroups())
	if len(got) != 1 || strings.HasPrefix(got[0], "Everywhere") {
		t.Fatalf("watching the example the key list gives esc %q, want the play step's only", got)
	}
	d.Press("?")
	// The list, without the key bar under it (esc closes the list).
	words := strings.Join(strings.Fields(d.View()), " ")
	words, _, _ = strings.Cut(words, "esc or ? closes this list")
	mustContain(t, words, "Everywhere", "? all keys", "q quit", "esc "+strings.SplitN(got[0], ": ", 2)[1])
	if _, every, _ := strings.Cut(words, "Everywhere"); strings.Contains(every, "esc") {
		t.Fatalf("the Everywhere group lists esc beside the play step's:\n%s", d.View())
	}
	d.Press("esc", "esc")
	if got := app(d).Screen(); got != "player" {
		t.Fatalf("esc while watching went to %s", got)
	}
}
