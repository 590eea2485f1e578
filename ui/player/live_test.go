package player

import (
	"context"
	"errors"
	"testing"

	"github.com/conflictlab/conflictlab/lessons"
	"github.com/conflictlab/conflictlab/lessons/racecache"
	"github.com/conflictlab/conflictlab/ui/raceview"
)

// fakeLive stands in for a cluster: it records the replays asked of it and
// answers with the simulator's run, relabelled, or with an error.
type fakeLive struct {
	p       *lessons.Pack
	calls   []string
	failure error
}

func (l *fakeLive) Target() (string, string) { return "https://127.0.0.1:6443", "kind-test" }

func (l *fakeLive) Replay(_ context.Context, s lessons.Step, opt *lessons.Option) (*raceview.Run, error) {
	id := ""
	if opt != nil {
		id = opt.ID
	}
	l.calls = append(l.calls, s.Race.Scenario+"/"+id)
	if l.failure != nil {
		return nil, l.failure
	}
	o, err := l.p.Run(s, opt)
	return &raceview.Run{Outcome: o, Source: "live on https://127.0.0.1:6443"}, err
}

func openLive(t *testing.T, failure error) (*fixture, *fakeLive) {
	f := open(t, "lost-update", 0)
	p := f.player()
	l := &fakeLive{p: packOf(t), failure: failure}
	p.SetLive(l)
	f.Model = wrap{p}
	return f, l
}

func packOf(t *testing.T) *lessons.Pack {
	t.Helper()
	return open(t, "lost-update", 0).player().races.(*racecache.Races).Pack()
}

func TestLiveReplayAsksFirstAndShowsTheServer(t *testing.T) {
	f, l := openLive(t, nil)
	// While the predict step hides its race there is nothing to replay.
	f.notSee("L: replay")
	f.Press("L")
	f.notSee("Replay on your cluster?")
	f.Press("2")
	f.PlayAll()
	f.see("L: replay this race on your cluster")
	f.Press("L")
	f.see("Replay on your cluster?", "https://127.0.0.1:6443", "kind-test", "deleted afterwards", "y: replay")
	// Any key but y cancels, and nothing is sent.
	f.Press("x")
	f.notSee("Replay on your cluster?")
	if len(l.calls) != 0 {
		t.Fatalf("replayed without consent: %v", l.calls)
	}
	f.Press("L", "y")
	if len(l.calls) != 1 {
		t.Fatalf("replays: %v", l.calls)
	}
	f.PlayAll()
	f.see("live on https://127.0.0.1:6443", "The stage shows the real server's answers", "✗ LOST data.owner")
}

func TestLiveReplayFailureIsShown(t *testing.T) {
	f, _ := openLive(t, errors.New(`configmaps is forbidden: User "x" cannot create resource`))
	f.Press("2")
	f.PlayAll()
	f.Press("L", "y")
	f.see("The replay failed:", "forbidden")
}

func TestNoLiveNoOffer(t *testing.T) {
	f := open(t, "lost-update", 0)
	f.Press("2")
	f.PlayAll()
	f.notSee("L: replay")
	f.Press("L")
	f.notSee("Replay on your cluster?")
}
