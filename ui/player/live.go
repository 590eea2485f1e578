package player

import (
	"context"
	"fmt"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/conflictlab/conflictlab/lessons"
	"github.com/conflictlab/conflictlab/ui/layout"
	"github.com/conflictlab/conflictlab/ui/raceview"
	"github.com/conflictlab/conflictlab/ui/styles"
)

// Live replays a step's race on a real cluster (live mode). The player
// offers it only when one is configured, and only after the learner has
// seen where it would go and said yes.
type Live interface {
	// Target says where a replay would go, without contacting the server.
	Target() (server, context string)
	// Replay runs the race there: same controllers, same schedule, a
	// namespace of its own that is deleted afterwards.
	Replay(ctx context.Context, s lessons.Step, opt *lessons.Option) (*raceview.Run, error)
}

type liveState int

const (
	liveIdle liveState = iota
	liveAsk
	liveRunning
	liveShown
	liveFailed
)

// liveTimeout bounds a whole replay; each request has its own, shorter one.
const liveTimeout = 2 * time.Minute

type liveReady struct {
	key string
	run *raceview.Run
	err error
}

// prompting reports whether the replay's prompt is open: every key
// answers it.
func (sh shown) prompting() bool { return sh.liveState == liveAsk }

func (sh shown) canReplay(f *frame) bool {
	return sh.live != nil && f.s.Race != nil && f.race.Run() != nil && !f.race.Hidden()
}

// liveKey handles keys while the prompt is open: y runs, anything else
// cancels. It reports whether it took the key. opt is the option whose
// race is on the stage (a choose step's).
func (sh *shown) liveKey(f *frame, msg tea.KeyPressMsg, opt *lessons.Option) (tea.Cmd, bool) {
	k := f.keys()
	switch {
	case sh.liveState == liveAsk && key.Matches(msg, k.Confirm):
		sh.liveState = liveRunning
		f.reveal = revealLive
		live, s, rk := sh.live, *f.s, raceKey(*f, opt)
		var o *lessons.Option
		if opt != nil {
			c := *opt
			o = &c
		}
		return func() tea.Msg {
			ctx, cancel := context.WithTimeout(context.Background(), liveTimeout)
			defer cancel()
			r, err := live.Replay(ctx, s, o)
			return liveReady{key: rk, run: r, err: err}
		}, true
	case sh.liveState == liveAsk:
		sh.liveState = liveIdle
		return nil, true
	case sh.liveState == liveRunning && key.Matches(msg, k.Live):
		// One replay at a time.
		return nil, true
	case key.Matches(msg, k.Live) && sh.canReplay(f):
		sh.liveState, sh.liveErr = liveAsk, nil
		f.reveal = revealLive
		return nil, true
	}
	return nil, false
}

// liveArrived shows the live run on the stage, from its first step.
func (sh *shown) liveArrived(f *frame, msg liveReady, opt *lessons.Option) tea.Cmd {
	f.reveal = revealLive
	if msg.err != nil {
		sh.liveState, sh.liveErr = liveFailed, msg.err
		return nil
	}
	if msg.key != raceKey(*f, opt) {
		// The learner moved on while it ran.
		sh.liveState = liveIdle
		return nil
	}
	sh.liveState = liveShown
	sh.put(f, "", msg.run, true)
	return f.race.Reveal()
}

// liveLines is what the text column says about a replay.
func (sh shown) liveLines(f frame, w int) []string {
	st := f.st
	if sh.live == nil {
		return nil
	}
	server, ctx := sh.live.Target()
	var out []string
	add := func(s string) { out = append(out, layout.Lines(layout.Wrap(s, w))...) }
	switch sh.liveState {
	case liveIdle:
		if sh.canReplay(&f) {
			out = append(out, "", st.Faint.Render(layout.Truncate("L: replay this race on your cluster", w)))
		}
	case liveAsk:
		out = append(out, "", st.Heading.Render("Replay on your cluster?"))
		add(fmt.Sprintf("Server %s (context %s).", server, ctx))
		add("It creates a namespace conflictlab-…, labelled conflictlab.dev/run, and the race's objects in it; " +
			"the Widget CRD too if the race needs it. Everything it created is deleted afterwards.")
		add(st.Accent.Render("y") + ": replay   " + st.Accent.Render("any other key") + ": cancel")
	case liveRunning:
		out = append(out, "", st.Warn.Render(layout.Truncate("Replaying on "+server+" …", w)))
	case liveShown:
		out = append(out, "")
		add(st.OK.Render(styles.OK + " The stage shows the real server's answers (" + server + "); its resourceVersions are the cluster's own."))
	case liveFailed:
		out = append(out, "", st.Bad.Render("The replay failed:"))
		add(sh.liveErr.Error())
	}
	return out
}
