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

// SetLive enables "replay this race on my cluster".
func (m *Model) SetLive(l Live) {
	m.live = l
	m.relayout()
}

// liveOption is the option whose race is on the stage (choose steps).
func (m Model) liveOption() *lessons.Option {
	s := m.cur()
	if s == nil || s.Kind != lessons.Choose || m.picked < 0 {
		return nil
	}
	o := s.Options[m.picked]
	return &o
}

func (m Model) canReplay() bool {
	s := m.cur()
	return m.live != nil && s != nil && s.Race != nil && m.race.Run() != nil && !m.race.Hidden()
}

// liveKey handles keys while the prompt is open: y runs, anything else
// cancels. It reports whether it took the key.
func (m *Model) liveKey(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	switch {
	case m.liveState == liveAsk && key.Matches(msg, m.Keys.Confirm):
		m.liveState = liveRunning
		m.reveal = revealLive
		live, step, opt, k := m.live, *m.cur(), m.liveOption(), m.raceKey(m.liveOption())
		return func() tea.Msg {
			ctx, cancel := context.WithTimeout(context.Background(), liveTimeout)
			defer cancel()
			r, err := live.Replay(ctx, step, opt)
			return liveReady{key: k, run: r, err: err}
		}, true
	case m.liveState == liveAsk:
		m.liveState = liveIdle
		return nil, true
	case m.liveState == liveRunning && key.Matches(msg, m.Keys.Live):
		// One replay at a time.
		return nil, true
	case key.Matches(msg, m.Keys.Live) && m.canReplay():
		m.liveState, m.liveErr = liveAsk, nil
		m.reveal = revealLive
		return nil, true
	}
	return nil, false
}

// liveArrived shows the live run on the stage, from its first step.
func (m *Model) liveArrived(msg liveReady) tea.Cmd {
	m.reveal = revealLive
	if msg.err != nil {
		m.liveState, m.liveErr = liveFailed, msg.err
		return nil
	}
	if msg.key != m.raceKey(m.liveOption()) {
		// The learner moved on while it ran.
		m.liveState = liveIdle
		return nil
	}
	m.liveState = liveShown
	m.stage("", msg.run, true)
	return m.race.Reveal()
}

// liveLines is what the text column says about a replay.
func (m Model) liveLines(w int) []string {
	st := m.st
	if m.live == nil {
		return nil
	}
	server, ctx := m.live.Target()
	var out []string
	add := func(s string) { out = append(out, layout.Lines(layout.Wrap(s, w))...) }
	switch m.liveState {
	case liveIdle:
		if m.canReplay() {
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
		add(m.liveErr.Error())
	}
	return out
}
