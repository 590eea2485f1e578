package replay

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// Quitting the tutorial while a replay runs on a cluster must not end the
// process before the replay's cleanup: stop cancels the replay and waits
// for it, then hands back what the cleanup said (issue 9).
func TestLiveReplaysStopWaitsForTheCleanup(t *testing.T) {
	l := New("", "")
	if !l.begin() {
		t.Fatal("a replay could not start")
	}
	stopped := make(chan string)
	go func() { stopped <- l.Stop() }()
	<-l.ctx.Done() // stop has cancelled the replay's context…
	select {
	case said := <-stopped:
		t.Fatalf("…and returned before the replay's cleanup ended: %q", said)
	default:
	}
	fmt.Fprintln(l, "live: deleted namespace conflictlab-x-abc123")
	l.end()
	if said := <-stopped; !strings.Contains(said, "deleted namespace conflictlab-x-abc123") {
		t.Fatalf("stop said %q", said)
	}
	if l.begin() {
		t.Fatal("a replay started after the program ended")
	}
	if err := l.ctx.Err(); err != context.Canceled {
		t.Fatal(err)
	}
}
