package ui

import (
	"context"
	"os"
	"path/filepath"
	"sync"

	"github.com/conflictlab/conflictlab/lessons"
	"github.com/conflictlab/conflictlab/live"
	"github.com/conflictlab/conflictlab/sim/race"
	"github.com/conflictlab/conflictlab/ui/player"
	"github.com/conflictlab/conflictlab/ui/raceview"
)

// kubeconfigFound reports whether a kubeconfig is where client-go looks
// for one: the player offers "replay on your cluster" only then.
func kubeconfigFound(getenv func(string) string) bool {
	for _, p := range filepath.SplitList(getenv("KUBECONFIG")) {
		if p == "" {
			continue
		}
		if _, err := os.Stat(p); err == nil {
			return true
		}
	}
	if home := getenv("HOME"); home != "" {
		if _, err := os.Stat(filepath.Join(home, ".kube", "config")); err == nil {
			return true
		}
	}
	return false
}

// liveReplayer is player.Live over the live package: the same scenario the
// simulator ran, with the step's schedule, in a namespace of its own. The
// learner has consented on screen (server, context, what is created), so
// the Widget CRD may be installed for the replay and is removed after.
type liveReplayer struct {
	pack    *lessons.Pack
	cluster *live.Cluster
	// mu keeps replays one at a time.
	mu sync.Mutex
}

// newLiveReplayer reads the kubeconfig (it sends nothing); nil when there
// is none that works.
func newLiveReplayer(p *lessons.Pack) player.Live {
	c, err := live.Connect(live.Options{InstallCRD: true})
	if err != nil {
		return nil
	}
	return &liveReplayer{pack: p, cluster: c}
}

func (l *liveReplayer) Target() (string, string) { return l.cluster.Host, l.cluster.Context }

func (l *liveReplayer) Replay(ctx context.Context, s lessons.Step, opt *lessons.Option) (*raceview.Run, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	sc, err := l.pack.ScenarioFor(s, opt)
	if err != nil {
		return nil, err
	}
	res, err := l.cluster.Run(ctx, sc, race.Schedule{Tokens: s.Race.Schedule})
	if err != nil {
		return nil, err
	}
	r := &raceview.Run{Outcome: res.Outcome, Plans: map[string]string{}, Source: "live on " + l.cluster.Host}
	for _, c := range sc.Controllers {
		r.Plans[c.Name] = raceview.Plan(c.Program)
	}
	return r, nil
}
