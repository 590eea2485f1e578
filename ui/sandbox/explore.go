package sandbox

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/progress"
	tea "charm.land/bubbletea/v2"

	"github.com/conflictlab/conflictlab/budget"
	"github.com/conflictlab/conflictlab/sandbox/draft"
	"github.com/conflictlab/conflictlab/sim/explore"
	"github.com/conflictlab/conflictlab/sim/race"
	"github.com/conflictlab/conflictlab/sim/scenario"
	"github.com/conflictlab/conflictlab/ui/layout"
	"github.com/conflictlab/conflictlab/ui/styles"
)

// exploreState is the explorer tab: a run in progress, or its tally.
type exploreState struct {
	running *exploreRun
	result  *explore.Result
	cursor  int
	// done and estimate are the last progress report.
	done, estimate int
	elapsed        time.Duration
}

// exploreRun is one exploration on its goroutine. The simulator has no
// goroutines of its own: Explore runs here, and its Progress callback is
// the only thing that touches the channel. Esc calls cancel; Explore
// checks ctx before every step, so it answers within one step.
type exploreRun struct {
	id     int
	ch     chan tea.Msg
	ctx    context.Context
	cancel context.CancelFunc
	start  time.Time
	sc     *scenario.Scenario
	budget ExploreBudget
}

type exploreProgress struct{ id, done, estimate int }
type exploreDone struct {
	id  int
	r   *explore.Result
	err error
	// over: the search ran out of the time or memory it is allowed.
	over *budget.Exceeded
}

// exploreTick redraws the elapsed time while the explorer runs, so that
// frames keep coming even between progress reports.
type exploreTick struct{ id int }

func (exploreProgress) sandboxMsg() {}
func (exploreDone) sandboxMsg()     {}
func (exploreTick) sandboxMsg()     {}

// PlaybackTick lets the test driver hold the redraw ticks.
func (exploreTick) PlaybackTick() {}

var runIDs atomic.Int64

// progressEvery is the least time between two progress reports: more
// would only queue frames the terminal cannot show.
const progressEvery = 30 * time.Millisecond

// startExplore runs the explorer on a copy of the race.
func (m Model) startExplore() (Model, tea.Cmd) {
	if m.ex.running != nil {
		return m, nil
	}
	if m.playing() {
		m.setNotice(true, "no explorer during a challenge: it would hand you the answer (esc leaves the challenge)")
		return m, nil
	}
	if err := draft.Check(m.sc); err != nil {
		m.setNotice(true, "the race cannot run: %v", err)
		return m, nil
	}
	ctx, cancel := context.WithCancel(context.Background())
	run := &exploreRun{id: int(runIDs.Add(1)), ch: make(chan tea.Msg, 1), ctx: ctx, cancel: cancel,
		start: m.env.now(), sc: draft.Clone(m.sc), budget: m.env.Explore}
	m.ex = exploreState{running: run}
	m.tab = exploreTab
	m.notice = ""
	go run.explore()
	return m, tea.Batch(run.wait(), m.exploreTick(run.id))
}

func (r *exploreRun) explore() {
	defer r.cancel() // releases the context once the search is over
	// The budget's time counts the wait for a turn too; its memory is the
	// heap's growth from when the search starts (while it waits, another
	// search's grows it). When the search is over (done, esc, or out of
	// budget) the memory it took goes back to the system.
	timed, stopTimer := budget.Budget{Timeout: r.budget.Timeout}.Start(r.ctx)
	defer stopTimer()
	if acquire := r.budget.Acquire; acquire != nil {
		// Waiting for a turn is cancelled like the search itself (esc, the
		// time budget, the session ending).
		release, err := acquire(timed)
		if err != nil {
			r.ch <- exploreDone{id: r.id, r: &explore.Result{Scenario: r.sc.Name, Tally: map[race.Verdict]int{}, Cancelled: true},
				over: budget.Of(timed)}
			return
		}
		defer release()
	}
	ctx, done := budget.Budget{MaxMemory: r.budget.MaxMemory}.Start(timed)
	var once sync.Once
	finish := func() { once.Do(done) }
	defer finish()
	r.ctx = ctx
	limit := r.budget.limit()
	est := estimate(r.ctx, r.sc, limit)
	r.ch <- exploreProgress{id: r.id, estimate: est}
	last, calls := time.Now(), 0
	res, err := explore.Explore(r.ctx, r.sc, explore.Options{MaxSchedules: limit, Progress: func(done int) bool {
		// Look at the clock every 128 calls, not every 128 interleavings:
		// a merged state adds its whole subtree to done at once, so done
		// rarely lands on a multiple of anything.
		calls++
		if calls&127 == 0 && time.Since(last) >= progressEvery {
			last = time.Now()
			// Never block the search on a slow screen: a report the UI
			// has not taken yet is simply superseded.
			select {
			case r.ch <- exploreProgress{id: r.id, done: done, estimate: est}:
			default:
			}
		}
		return true
	}})
	over := budget.Of(ctx)
	if over == nil {
		over = budget.Of(timed)
	}
	// The memory is back before the tally is shown.
	finish()
	r.ch <- exploreDone{id: r.id, r: res, err: err, over: over}
}

// liftHint is how to lift the budget, after the notice ("" says nothing).
func liftHint(lift string) string {
	if lift == "" {
		return ""
	}
	return " (" + lift + ")"
}

func (r *exploreRun) wait() tea.Cmd {
	return func() tea.Msg { return <-r.ch }
}

func (m Model) exploreTick(id int) tea.Cmd {
	t := m.play.tick
	if t == nil {
		t = tea.Tick
	}
	return t(100*time.Millisecond, func(time.Time) tea.Msg { return exploreTick{id: id} })
}

// estimate guesses how many interleavings there are, for the progress
// bar, by Knuth's estimator: the product of the branching factors along a
// random path is an unbiased estimate of the number of leaves. 64 random
// plays cost little next to the search itself; they stop, as the search
// does, at the first step after ctx is cancelled.
func estimate(ctx context.Context, sc *scenario.Scenario, limit int) int {
	w0, err := race.New(sc)
	if err != nil {
		return 0
	}
	max := sc.StepBudget()
	rng := rand.New(rand.NewPCG(1, 2))
	const probes = 64
	total := 0.0
	for p := 0; p < probes; p++ {
		w := w0.Clone()
		prod := 1.0
		for {
			if ctx.Err() != nil {
				return 0
			}
			en := w.Enabled()
			if len(en) == 0 || len(w.Taken()) >= max {
				break
			}
			prod *= float64(len(en))
			if w.Step(en[rng.IntN(len(en))]) != nil {
				break
			}
		}
		total += prod
	}
	// Not capped at limit: it bounds the paths the explorer plays, not the
	// interleavings it counts (a merged state adds its whole subtree).
	return int(min(total/probes+0.5, 1<<53))
}

func (m Model) onExplore(msg tea.Msg) (Model, tea.Cmd) {
	run := m.ex.running
	switch msg := msg.(type) {
	case exploreProgress:
		if run == nil || msg.id != run.id {
			return m, nil
		}
		m.ex.done, m.ex.estimate = msg.done, msg.estimate
		m.ex.elapsed = m.env.now().Sub(run.start)
		return m, run.wait()
	case exploreTick:
		if run == nil || msg.id != run.id {
			return m, nil
		}
		m.ex.elapsed = m.env.now().Sub(run.start)
		return m, m.exploreTick(run.id)
	case exploreDone:
		if run == nil || msg.id != run.id {
			return m, nil
		}
		m.ex.running = nil
		m.ex.elapsed = m.env.now().Sub(run.start)
		if msg.err != nil {
			m.setNotice(true, "the explorer stopped: %v", msg.err)
			return m, nil
		}
		m.ex.result, m.ex.done = msg.r, msg.r.Schedules
		m.ex.cursor = 0
		if msg.over != nil {
			m.setNotice(true, "the explorer stopped: %v, the most an exploration is given here; the tally covers only what it reached%s",
				msg.over, liftHint(m.env.Explore.Lift))
		}
	}
	return m, nil
}

// verdicts are the outcomes found, worst first.
func (m Model) verdicts() []race.Verdict {
	var out []race.Verdict
	if r := m.ex.result; r != nil {
		for _, v := range race.Verdicts {
			if r.Tally[v] > 0 {
				out = append(out, v)
			}
		}
	}
	return out
}

func (m Model) exploreKey(msg tea.KeyPressMsg) (Model, tea.Cmd) {
	k := m.Keys
	vs := m.verdicts()
	switch {
	case m.ex.running != nil:
		return m, nil
	case key.Matches(msg, k.Explore):
		return m.startExplore()
	case key.Matches(msg, k.Up):
		m.ex.cursor = max(0, m.ex.cursor-1)
	case key.Matches(msg, k.Down):
		m.ex.cursor = min(len(vs)-1, m.ex.cursor+1)
	case key.Matches(msg, k.Enter) && len(vs) == 0:
		return m.startExplore()
	case key.Matches(msg, k.Enter):
		v := vs[m.ex.cursor]
		ex := m.ex.result.Examples[v]
		if err := m.replay(ex); err != nil {
			m.setNotice(true, "%v", err)
			return m, nil
		}
		m.tab = raceTab
		m.setNotice(false, "the explorer's example of %s: %s", v, strings.Join(scenario.Tokens(ex), " "))
	}
	return m, nil
}

func (m Model) viewExplore(w, h int) string {
	st := m.st
	ex := m.ex
	lines := []string{st.Heading.Render("Every interleaving of " + m.sc.Name)}
	lines = append(lines, layout.Lines(layout.Wrap(st.Faint.Render(
		"The explorer plays every order of the controllers' atomic steps (and of watch events, for manual lags) and tallies how each one ends."), w))...)
	lines = append(lines, "")
	if m.playing() {
		lines = append(lines, hang(st.Warn.Render(styles.Warn+" no explorer during a challenge: it would hand you the answer (esc leaves the challenge)"), w, 2)...)
		return layout.Fit(strings.Join(lines, "\n"), w, h)
	}
	if ex.running != nil || ex.result == nil {
		if ex.running == nil {
			lines = append(lines, "e or enter explores the race as it is in the build tab.")
			return layout.Fit(strings.Join(lines, "\n"), w, h)
		}
		frac := 0.0
		about := fmt.Sprintf("%s interleavings", count(ex.done))
		if ex.estimate > 0 {
			// The estimate is a guess: never show the bar full before the end.
			frac = min(0.99, float64(ex.done)/float64(ex.estimate))
			about = fmt.Sprintf("%s of ≈%s interleavings", count(ex.done), count(ex.estimate))
		}
		bar := progress.New(progress.WithWidth(max(10, min(50, w-2))), progress.WithoutPercentage())
		lines = append(lines, bar.ViewAs(frac))
		lines = append(lines, fmt.Sprintf("%3.0f%% · %s · %s", frac*100, about, ex.elapsed.Round(100*time.Millisecond)))
		lines = append(lines, st.Faint.Render("esc cancels"))
		return layout.Fit(strings.Join(lines, "\n"), w, h)
	}
	r := ex.result
	head := fmt.Sprintf("%s interleavings in %s", count(r.Schedules), ex.elapsed.Round(10*time.Millisecond))
	if r.Cancelled {
		head += " · cancelled: the tally covers only these"
	}
	if r.Truncated {
		head += " · stopped at the limit: the tally covers only these"
	}
	lines = append(lines, head, "")
	barW := max(5, w-32)
	for i, v := range m.verdicts() {
		n := r.Tally[v]
		lead := "  "
		name := layout.Pad(string(v), 11)
		if i == ex.cursor {
			lead = st.Accent.Render(styles.Cursor) + " "
			name = st.Selected.Render(name)
		}
		bar := strings.Repeat("█", max(1, n*barW/max(1, r.Schedules)))
		lines = append(lines, lead+name+fmt.Sprintf("%9s %5.1f%% ", count(n), 100*float64(n)/float64(r.Schedules))+verdictStyle(st, v).Render(bar))
	}
	if vs := m.verdicts(); len(vs) > 0 {
		v := vs[min(ex.cursor, len(vs)-1)]
		lines = append(lines, "")
		lines = append(lines, hang("example: "+strings.Join(scenario.Tokens(r.Examples[v]), " "), w, 9)...)
		lines = append(lines, st.Faint.Render("enter replays it in the race tab · e explores again"))
	}
	return layout.Fit(strings.Join(lines, "\n"), w, h)
}

func verdictStyle(st *styles.Styles, v race.Verdict) interface{ Render(...string) string } {
	switch v {
	case race.VerdictLost:
		return st.Bad
	case race.VerdictGaveUp, race.VerdictUnfinished:
		return st.Warn
	}
	return st.OK
}

// count writes a number with thousands separators: 34,650.
func count(n int) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
