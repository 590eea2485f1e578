package ui

import (
	"io/fs"
	"strings"
	"syscall"
	"testing"

	"github.com/conflictlab/conflictlab/ui/uitest"
)

// unwritable is the error a save gets when the state folder is not
// writable.
var unwritable = &fs.PathError{Op: "open", Path: "/home/learner/.local/state/conflictlab/.progress.json.tmp-1234", Err: syscall.EACCES}

// TestSaveWarningShowsAt80x24: when progress cannot be saved, the header
// says so on every screen of the smallest window, the title giving way.
func TestSaveWarningShowsAt80x24(t *testing.T) {
	d := start(t, testConfig(t), 80, 24)
	d.Send(saved{err: unwritable})
	v := d.View()
	uitest.CheckFrame(t, d.Model.View().Content, 80, 24)
	header := strings.SplitN(v, "\n", 2)[0]
	if !strings.Contains(header, "⚠ progress not saved: permission denied in /home/learner") {
		t.Fatalf("the header hides the warning at 80×24:\n%s", v)
	}
	uitest.Golden(t, "save-warning-home-80x24", v)

	d.Press("enter") // a lesson: a longer title (opening it saves, and that save works)
	d.Send(saved{err: unwritable})
	header = strings.SplitN(d.View(), "\n", 2)[0]
	if !strings.Contains(header, "⚠ progress not saved") {
		t.Fatalf("the player's header hides the warning at 80×24:\n%s", d.View())
	}
	// The next save that works clears it.
	d.Send(saved{})
	if strings.Contains(d.View(), "progress not saved") {
		t.Fatalf("the warning outlived a save that worked:\n%s", d.View())
	}
}
