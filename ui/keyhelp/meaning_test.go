package keyhelp_test

import (
	"strings"
	"testing"

	"charm.land/bubbles/v2/key"

	"github.com/conflictlab/conflictlab/ui/keyhelp"
	"github.com/conflictlab/conflictlab/ui/play"
	"github.com/conflictlab/conflictlab/ui/raceview"
)

// OneMeaning keeps a key with its first binding: a later one loses it,
// names only the keys it keeps, and goes when it keeps none.
func TestOneMeaning(t *testing.T) {
	k := play.DefaultKeys()
	race := raceview.DefaultKeys()
	off := key.NewBinding(key.WithKeys("x"), key.WithHelp("x", "off"))
	off.SetEnabled(false)
	change := key.NewBinding(key.WithKeys("left", "right"), key.WithHelp("←→", "change it"))
	groups := keyhelp.OneMeaning([]keyhelp.Group{
		{Title: "Play", Keys: []key.Binding{change, k.Restart, k.Watch, off}},
		{Title: "Race", Keys: race.Bindings()},
	})
	list := func(g keyhelp.Group) string {
		var out []string
		for _, b := range g.Keys {
			out = append(out, b.Help().Key+" "+b.Help().Desc+" "+strings.Join(b.Keys(), ","))
		}
		return strings.Join(out, " | ")
	}
	if got, want := list(groups[0]), "←→ change it left,right | r restart r | space watch example space"; got != want {
		t.Errorf("Play:\n got %s\nwant %s", got, want)
	}
	want := ". step . | , step back , | +/- speed +,= | o object/timeline o | K/J scroll pane K,shift+up | i inspect row i"
	if got := list(groups[1]); got != want {
		t.Errorf("Race:\n got %s\nwant %s", got, want)
	}
}
