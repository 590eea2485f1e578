// Package replay is live mode for the lesson player: the replays of one
// run of the tutorial on a real cluster, and player.Live over the live
// package. The program's owner (the CLI for a terminal, conflictlab serve
// for a workshop) makes one and hands it to ui.Options: the TUI itself
// never imports the live package nor reads the environment.
package replay

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"sync"

	"github.com/conflictlab/conflictlab/lessons"
	"github.com/conflictlab/conflictlab/live"
	"github.com/conflictlab/conflictlab/sim/race"
	"github.com/conflictlab/conflictlab/sim/scenario"
	"github.com/conflictlab/conflictlab/termsafe"
	"github.com/conflictlab/conflictlab/ui/player"
	"github.com/conflictlab/conflictlab/ui/raceview"
)

// KubeconfigFound reports whether a kubeconfig is where client-go looks
// for one: the terminal tutorial offers "replay on your cluster" only then.
func KubeconfigFound(getenv func(string) string) bool {
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

// Replays are the replays on a cluster that one run of the program
// starts. However the program ends — q, Ctrl+C, a signal, an error — it
// stops them and waits for their cleanup before the process exits, then
// says what the cleanup did (and what is left, if anything).
type Replays struct {
	ctx        context.Context
	cancel     context.CancelFunc
	journal    live.Journal
	kubeconfig string
	mu         sync.Mutex
	running    int
	stopped    bool
	done       *sync.Cond   // signalled when running drops
	log        bytes.Buffer // the live package's notices, said after the screen is given back
}

// New makes the replays of one run: on kubeconfig's cluster ("":
// client-go's usual places), journalled in journal so that `conflictlab
// cleanup` can remove what an interrupted replay left.
func New(journal live.Journal, kubeconfig string) *Replays {
	ctx, cancel := context.WithCancel(context.Background())
	l := &Replays{ctx: ctx, cancel: cancel, journal: journal, kubeconfig: kubeconfig}
	l.done = sync.NewCond(&l.mu)
	return l
}

func (l *Replays) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.log.Write(p)
}

// begin counts a replay in; false once the program is ending.
func (l *Replays) begin() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.stopped {
		return false
	}
	l.running++
	return true
}

func (l *Replays) end() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.running--
	l.done.Broadcast()
}

// Stop cancels the replays still running, waits for their cleanup and
// returns what they reported ("" when nothing ran).
func (l *Replays) Stop() string {
	l.mu.Lock()
	l.stopped = true
	l.mu.Unlock()
	l.cancel()
	l.mu.Lock()
	defer l.mu.Unlock()
	for l.running > 0 {
		l.done.Wait()
	}
	return l.log.String()
}

// For is the player's Live for a pack: nil when there is no kubeconfig
// that works.
func (l *Replays) For(p *lessons.Pack) player.Live {
	// The learner consents on screen (server, context, what is created)
	// before each replay, so the Widget CRD may be installed for it; it is
	// removed after, if the replay created it.
	c, err := live.Connect(live.Options{Kubeconfig: l.kubeconfig, InstallCRD: true, Journal: l.journal, Log: l})
	if err != nil {
		return nil
	}
	return &liveReplayer{pack: p, cluster: c, runs: l}
}

// liveReplayer is player.Live over the live package: the same scenario the
// simulator ran, with the step's schedule, in a namespace of its own.
type liveReplayer struct {
	pack    *lessons.Pack
	cluster *live.Cluster
	runs    *Replays
	// mu keeps replays one at a time.
	mu sync.Mutex
}

func (l *liveReplayer) Target() (string, string) { return l.cluster.Host, l.cluster.Context }

func (l *liveReplayer) Replay(ctx context.Context, s lessons.Step, opt *lessons.Option) (*raceview.Run, error) {
	if !l.runs.begin() {
		return nil, context.Canceled // the program is ending
	}
	defer l.runs.end()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	defer context.AfterFunc(l.runs.ctx, cancel)()
	l.mu.Lock()
	defer l.mu.Unlock()
	sc, err := l.pack.ScenarioFor(s, opt)
	if err != nil {
		return nil, err
	}
	moves, err := scenario.ParseMoves(s.Race.Schedule)
	if err != nil {
		return nil, err
	}
	res, err := l.cluster.Run(ctx, sc, race.Schedule{Moves: moves})
	if err != nil {
		return nil, err
	}
	r := &raceview.Run{Outcome: res.Outcome, Source: "live on " + l.cluster.Host}
	return termsafe.Deep(r), nil // what the server said is shown, not obeyed
}
