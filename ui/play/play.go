// Package play is a lesson's play step on the stage: the learner is the
// scheduler and steps the controllers until the race breaks as the goal
// asks (break), or changes the controllers' settings until the explorer
// proves that no order of steps loses (fix). The goal is checked by the
// simulator after every move, and a fix by the explorer, in a command,
// off the UI loop; the component reports a solution with Solved, and the
// lesson player records it.
package play

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/conflictlab/conflictlab/lessons"
	"github.com/conflictlab/conflictlab/lessons/playgoal"
	"github.com/conflictlab/conflictlab/sandbox/draft"
	"github.com/conflictlab/conflictlab/sim/explore"
	"github.com/conflictlab/conflictlab/sim/race"
	"github.com/conflictlab/conflictlab/sim/report"
	"github.com/conflictlab/conflictlab/sim/scenario"
	"github.com/conflictlab/conflictlab/termsafe"
	"github.com/conflictlab/conflictlab/ui/layout"
	"github.com/conflictlab/conflictlab/ui/preview"
	"github.com/conflictlab/conflictlab/ui/raceview"
	"github.com/conflictlab/conflictlab/ui/styles"
)

// Solved reports a solution: Moves scheduler moves (break) or settings
// changed (fix), against Par. ID is the one the component was made with
// (the player's step index), so a late report about another step is
// told apart.
type Solved struct {
	ID          int
	Moves, Par  int
	Break       bool
	Description string
}

// proveProgress is the explorer's count of orders so far; proveDone is
// its verdict. gen drops the reports of a proof cancelled or superseded.
type proveProgress struct {
	gen, done int
	ch        <-chan int
}

type proveDone struct {
	gen int
	res playgoal.FixResult
	// example is an order played: one that loses (not proven), or, once
	// proven, an order that failed before, played with these settings.
	example *race.Outcome
	// order is that order as it failed before (proven).
	order []string
	err   error
}

// row is one line of the settings table: a controller's knob.
type row struct {
	ctrl string
	knob lessons.Knob
}

// Model is a play step's stage.
type Model struct {
	id       int
	goal     *lessons.PlayGoal
	base     *scenario.Scenario
	question string

	// Break: start is the race before any move, world the race as
	// stepped, next what each move would do now.
	start *race.World
	world *race.World
	hist  []*race.World
	next  map[scenario.Move]string
	// Fix: the settings as they are now and as the race has them.
	settings, startSet lessons.Settings
	rows               []row
	cursor             int
	// proving: a proof runs (gen is its generation; cancel stops it),
	// done is its count of orders so far.
	proving bool
	gen     int
	cancel  context.CancelFunc
	done    int
	// result is the last proof's verdict, for the settings provenFor.
	result    *playgoal.FixResult
	provenFor lessons.Settings
	// watching: the learner plays the failed proof's example order. When
	// the stage is short the settings table folds to one line so the
	// race has the room; esc or a settings key brings the table back.
	watching bool
	// failed is the last order a proof found failing; passing: the
	// example on the stage is that order (or the race's own first
	// failure) played with the settings proven, which pass it.
	failed  []string
	passing bool

	// attempts counts finished attempts: races that ended, solutions,
	// proofs. solved: the goal is met now (this race, these settings);
	// best is the fewest moves or changes of a solution (0: none yet).
	attempts int
	solved   bool
	best     int
	// answer: the author's order or fix is on show.
	answer bool
	notice string
	bad    bool

	race raceview.Model
	w, h int
	st   *styles.Styles
	Keys KeyMap
	// Reserved are keys the screen around the component uses: a
	// controller's initial is not a key of its own when it is one of
	// these.
	Reserved []key.Binding
}

// New is the play step of goal on the race base. question is the task,
// shown as the goal line; id comes back in Solved. For a break it starts
// the race, which builds the API server: call it in a command the first
// time.
func New(goal *lessons.PlayGoal, base *scenario.Scenario, question string, id int, st *styles.Styles) (Model, error) {
	m := Model{id: id, goal: goal, base: base, question: question, race: raceview.New(st), st: st, Keys: DefaultKeys()}
	if goal.IsBreak() {
		w, err := race.New(base)
		if err != nil {
			return m, err
		}
		m.start = w
		m.world = w.Clone()
		m.refresh()
		return m, nil
	}
	m.startSet = goal.StartSettings(base)
	m.settings = m.startSet.Clone()
	for _, c := range goal.Tunable(base) {
		for _, k := range goal.Knobs {
			m.rows = append(m.rows, row{c, k})
		}
	}
	return m, nil
}

// IsBreak reports whether the learner breaks the race (else fixes it).
func (m Model) IsBreak() bool { return m.goal.IsBreak() }

// Scenario is the race's name.
func (m Model) Scenario() string { return termsafe.Escape(m.base.Name) }

// Attempts is the number of finished attempts.
func (m Model) Attempts() int { return m.attempts }

// Solved reports whether the goal is met now.
func (m Model) Solved() bool { return m.solved }

// Proving reports whether a proof runs.
func (m Model) Proving() bool { return m.proving }

// Moves is the number of moves (break) or changes (fix) made so far.
func (m Model) Moves() int {
	if m.IsBreak() {
		return len(m.world.Taken())
	}
	return m.settings.Changes(m.startSet)
}

// Settings are the settings as the learner has them (fix).
func (m Model) Settings() lessons.Settings { return m.settings }

// Race is the race view (tests).
func (m Model) Race() raceview.Model { return m.race }

// SetBest is the fewest moves or changes of an earlier solution (0: none).
func (m *Model) SetBest(best int) { m.best = best }

// ShowAnswer puts the author's order or fix on show.
func (m *Model) ShowAnswer() { m.answer = true }

// SetStyles replaces the styles.
func (m *Model) SetStyles(st *styles.Styles) {
	m.st = st
	m.race.SetStyles(st)
}

// SetTicker replaces the race view's clock (tests).
func (m *Model) SetTicker(t raceview.Ticker) { m.race.Tick = t }

// SetSize sets the rectangle View fills.
func (m *Model) SetSize(w, h int) { m.w, m.h = w, h }

// Stop cancels a proof that runs (the step is left).
func (m *Model) Stop() {
	if m.proving && m.cancel != nil {
		m.cancel()
	}
	m.proving = false
	m.gen++
}

// refresh hands the race so far to the race view and previews the next
// moves.
func (m *Model) refresh() {
	o := m.world.Outcome()
	m.race.SetRun(termsafe.Deep(&raceview.Run{Outcome: o}), false)
	m.race.SetOpen(true)
	m.race.SetIndex(len(o.Steps) - 1)
	m.next = preview.Next(m.world)
}

// over reports whether nothing can be scheduled any more.
func (m Model) over() bool {
	return m.world.Done() || len(m.world.Enabled()) == 0 || len(m.world.Taken()) >= m.base.StepBudget()
}

// moveKeys maps key names to the scheduler's moves, as the sandbox's race
// tab does (preview.MoveKeys), around the play step's own bindings.
func (m Model) moveKeys() map[string]scenario.Move {
	k := m.Keys
	taken := append([]key.Binding{k.Undo, k.Restart}, m.race.Keys.Bindings()...)
	taken = append(taken, m.race.Keys.Up, m.race.Keys.Down, m.race.Keys.Close, m.race.Keys.ScrollDown, m.race.Keys.Slower)
	names := make([]string, len(m.base.Controllers))
	for i, c := range m.base.Controllers {
		names[i] = c.Name
	}
	return preview.MoveKeys(names, append(taken, m.Reserved...))
}

// keysOf lists the keys that schedule a move ("1/a").
func (m Model) keysOf(move scenario.Move) string { return preview.KeysOf(m.moveKeys(), move) }

// HandlesKey reports whether the component takes the key, so the screen
// around it can leave the key to it.
func (m Model) HandlesKey(msg tea.KeyPressMsg) bool {
	k := m.Keys
	if m.IsBreak() {
		if _, ok := m.moveKeys()[msg.String()]; ok {
			return true
		}
		return key.Matches(msg, k.Undo, k.Restart) || m.race.HandlesKey(msg)
	}
	switch {
	case key.Matches(msg, k.Cancel):
		return m.proving || m.watching || m.race.HandlesKey(msg)
	case key.Matches(msg, k.Prove):
		// Settings proven to fix it: enter is the screen's (continue).
		return !m.solved
	case key.Matches(msg, k.Up, k.Down, k.Left, k.Right, k.Watch):
		return true
	}
	return m.race.HandlesKey(msg)
}

// shown are the rows of the settings table that mean something for the
// settings as they are (the sandbox's rule: "with RV" only for a patch,
// "test" only for a JSON patch, "force" only for an apply).
func (m Model) shown() []row {
	sc, err := lessons.Tuned(m.base, m.settings)
	if err != nil {
		return m.rows
	}
	var out []row
	for _, r := range m.rows {
		if s, ok := draft.Lookup(string(r.knob.Name)); ok && !s.Shown(sc, m.ctrlIndex(r.ctrl)) {
			continue
		}
		out = append(out, r)
	}
	return out
}

// ctrlIndex is the controller's place in the race.
func (m Model) ctrlIndex(name string) int {
	for i, c := range m.base.Controllers {
		if c.Name == name {
			return i
		}
	}
	return 0
}

// explain says what the selected setting's value does, where it is
// changed.
func (m Model) explain(r row) string {
	v := m.settings[r.ctrl][r.knob.Name]
	if r.knob.Name == lessons.KnobRequeue {
		if v == "0" {
			return "an error left after the retries is dropped: nothing brings the key back"
		}
		return "an error left after the retries goes back to the workqueue, up to " + v + " times, later each time, then is dropped"
	}
	sc, err := lessons.Tuned(m.base, m.settings)
	s, ok := draft.Lookup(string(r.knob.Name))
	if err != nil || !ok {
		return ""
	}
	return s.Explain(sc, m.ctrlIndex(r.ctrl))
}

// hideMeaningless puts the settings the table no longer shows back to
// the race's own: a change that means nothing is not one.
func (m *Model) hideMeaningless() {
	shown := m.shown()
	for _, r := range m.rows {
		if !slices.ContainsFunc(shown, func(x row) bool { return x.ctrl == r.ctrl && x.knob.Name == r.knob.Name }) {
			m.settings[r.ctrl][r.knob.Name] = m.startSet[r.ctrl][r.knob.Name]
		}
	}
	m.cursor = max(0, min(m.cursor, len(shown)-1))
}

// provenNow reports whether the settings on show are the ones the last
// proof was about.
func (m Model) provenNow() bool {
	return m.result != nil && m.provenFor != nil && m.settings.Changes(m.provenFor) == 0
}

// Update handles keys, the explorer's reports and playback ticks.
func (m Model) Update(msg tea.Msg) (Model, tea.Cmd) {
	switch msg := msg.(type) {
	case proveProgress:
		if msg.gen != m.gen || !m.proving {
			return m, nil
		}
		m.done = max(m.done, msg.done)
		return m, waitProgress(msg.gen, msg.ch)
	case proveDone:
		return m.proved(msg)
	case raceview.TickMsg:
		var cmd tea.Cmd
		m.race, cmd = m.race.Update(msg)
		return m, cmd
	case tea.KeyPressMsg:
		if m.IsBreak() {
			return m.breakKey(msg)
		}
		return m.fixKey(msg)
	}
	return m, nil
}

func (m *Model) say(bad bool, format string, a ...any) {
	m.notice, m.bad = fmt.Sprintf(format, a...), bad
}

func (m Model) breakKey(msg tea.KeyPressMsg) (Model, tea.Cmd) {
	k := m.Keys
	if tok, ok := m.moveKeys()[msg.String()]; ok {
		return m.move(tok)
	}
	switch {
	case key.Matches(msg, k.Undo):
		if len(m.hist) == 0 {
			m.say(false, "nothing to undo: this is the start of the race")
			return m, nil
		}
		m.world = m.hist[len(m.hist)-1]
		m.hist = m.hist[:len(m.hist)-1]
		m.solved = playgoal.BreakMet(m.goal, m.base, m.world.Outcome())
		m.notice = ""
		m.refresh()
	case key.Matches(msg, k.Restart):
		m.world, m.hist, m.solved, m.notice = m.start.Clone(), nil, false, ""
		m.refresh()
	case m.race.HandlesKey(msg):
		var cmd tea.Cmd
		m.race, cmd = m.race.Update(msg)
		return m, cmd
	}
	return m, nil
}

// move schedules one move, then checks the goal on the race so far.
func (m Model) move(tok scenario.Move) (Model, tea.Cmd) {
	if m.solved {
		m.say(false, "solved: r restarts the race for another go, ⌫ takes a move back")
		return m, nil
	}
	switch name, why := preview.Why(m.world, m.base, tok); why {
	case preview.FedOnItsOwn:
		m.say(false, "%s cache is fed on its own: its events are not yours to deliver here", report.Possessive(name))
		return m, nil
	case preview.NothingPending:
		m.say(false, "%s cache has seen every write: no watch event is waiting", report.Possessive(name))
		return m, nil
	case preview.Finished:
		m.say(false, "%s takes no more steps", name)
		return m, nil
	}
	before := m.world.Clone()
	if err := m.world.Step(tok); err != nil {
		m.say(true, "%v", err)
		return m, nil
	}
	m.hist = append(m.hist, before)
	m.notice = ""
	m.refresh()
	if playgoal.BreakMet(m.goal, m.base, m.world.Outcome()) {
		m.solved = true
		m.attempts++
		n := len(m.world.Taken())
		if m.best == 0 || n < m.best {
			m.best = n
		}
		return m, m.report(n, strings.Join(scenario.Tokens(m.world.Taken()), " "))
	}
	if m.over() {
		m.attempts++
	}
	return m, nil
}

func (m Model) report(n int, what string) tea.Cmd {
	s := Solved{ID: m.id, Moves: n, Par: m.goal.Par, Break: m.IsBreak(), Description: what}
	return func() tea.Msg { return s }
}

func (m Model) fixKey(msg tea.KeyPressMsg) (Model, tea.Cmd) {
	k := m.Keys
	switch {
	case key.Matches(msg, k.Cancel) && m.proving:
		m.Stop()
		m.say(false, "proof cancelled: enter starts it again")
	case key.Matches(msg, k.Cancel) && m.watching && !m.race.Inspecting():
		// Back to the settings; the example plays on where it is.
		m.watching = false
	case key.Matches(msg, k.Up):
		m.watching = false
		m.cursor = max(0, m.cursor-1)
	case key.Matches(msg, k.Down):
		m.watching = false
		m.cursor = min(len(m.shown())-1, m.cursor+1)
	case key.Matches(msg, k.Left, k.Right) && len(m.rows) > 0:
		m.watching = false
		d := 1
		if key.Matches(msg, k.Left) {
			d = -1
		}
		r := m.shown()[m.cursor]
		vals := r.knob.Values
		cur := slices.Index(vals, m.settings[r.ctrl][r.knob.Name])
		if cur < 0 {
			// The race's own value is none of those offered: start at
			// either end.
			cur = map[bool]int{true: len(vals), false: -1}[d < 0]
		}
		// A copy: an older model (or a proof) may still hold the map.
		m.settings = m.settings.Clone()
		m.settings[r.ctrl][r.knob.Name] = vals[(cur+d+len(vals))%len(vals)]
		m.hideMeaningless()
		if m.proving {
			// The proof running is about other settings now.
			m.Stop()
		}
		// The example on the stage was the old settings'.
		m.race.SetRun(nil, false)
		m.passing = false
		m.solved = m.provenNow() && m.result.Proven()
		m.notice = ""
	case key.Matches(msg, k.Prove):
		if m.proving {
			return m, nil
		}
		m.watching = false
		return m.prove()
	case key.Matches(msg, k.Watch):
		if m.race.Run() == nil {
			switch {
			case m.proving:
				m.say(false, "no example yet: the proof is still counting")
			case m.provenNow() && m.result.Proven():
				m.say(false, "no example to watch: no order ever failed here")
			default:
				m.say(false, "no example to watch: prove the settings first (enter)")
			}
			return m, nil
		}
		m.watching = true
		if m.race.Playing() {
			m.race.SetIndex(m.race.Index()) // pauses where it is
			return m, nil
		}
		return m, m.race.Play()
	case m.race.HandlesKey(msg):
		// Stepping, restarting or inspecting the example is watching it.
		m.watching = m.race.Run() != nil
		var cmd tea.Cmd
		m.race, cmd = m.race.Update(msg)
		return m, cmd
	}
	return m, nil
}

// Watching reports whether the learner is watching the failed proof's
// example (fix).
func (m Model) Watching() bool { return m.watching }

// prove starts the explorer on the settings on show.
func (m Model) prove() (Model, tea.Cmd) {
	sc, err := lessons.Tuned(m.base, m.settings)
	if err != nil {
		m.say(true, "these settings do not make a race: %v", err)
		return m, nil
	}
	m.gen++
	gen := m.gen
	ctx, cancel := context.WithCancel(context.Background())
	m.proving, m.cancel, m.done, m.notice = true, cancel, 0, ""
	ch := make(chan int, 1)
	goal, failed := m.goal, m.failed
	start, _ := lessons.Tuned(m.base, m.startSet)
	run := func() tea.Msg {
		defer close(ch)
		defer cancel()
		res, err := playgoal.ProveFix(ctx, goal, sc, explore.Options{Progress: func(done int) bool {
			select {
			case ch <- done:
			default: // the last report is still unread: skip this one
			}
			return ctx.Err() == nil
		}})
		d := proveDone{gen: gen, res: res, err: err}
		switch {
		case err != nil:
		case res.Bad > 0 && len(res.Example) > 0:
			// The order that loses, played, for the learner to watch.
			moves, err := scenario.ParseMoves(res.Example)
			if err != nil {
				d.err = err
				return d
			}
			d.example, d.err = race.Run(sc, race.Schedule{Moves: moves})
		case res.Proven():
			// Proven: an order that failed before, now passing. The last
			// one a proof found, else one of the race as written.
			if len(failed) == 0 && start != nil {
				if was, err := playgoal.ProveFix(ctx, goal, start, explore.Options{}); err == nil {
					failed = was.Example
				}
			}
			if len(failed) > 0 {
				d.order = failed
				d.example, _ = replayOrder(sc, failed)
			}
		}
		return d
	}
	return m, tea.Batch(run, waitProgress(gen, ch))
}

// waitProgress waits for the explorer's next count.
func waitProgress(gen int, ch <-chan int) tea.Cmd {
	return func() tea.Msg {
		done, ok := <-ch
		if !ok {
			return nil
		}
		return proveProgress{gen: gen, done: done, ch: ch}
	}
}

func (m Model) proved(msg proveDone) (Model, tea.Cmd) {
	if msg.gen != m.gen || !m.proving {
		return m, nil // a proof cancelled, or about other settings
	}
	m.proving, m.cancel, m.watching = false, nil, false
	if msg.err != nil {
		m.say(true, "the proof could not run: %v", msg.err)
		return m, nil
	}
	res := msg.res
	m.result, m.provenFor = &res, m.settings.Clone()
	if m.Moves() > 0 {
		// Proving the race as it is shows what to fix; it is no attempt.
		m.attempts++
	}
	m.race.SetRun(nil, false)
	m.passing = false
	if msg.example != nil {
		r := raceview.NewRun(msg.example)
		m.race.SetRun(r, false)
		m.race.SetIndex(len(msg.example.Steps) - 1)
		if d, ok := r.DecidingRow(); ok {
			// The row that decides it stays in view, however short the stage.
			m.race.Focus(d.Step)
		}
	}
	if !res.Proven() {
		m.solved = false
		m.failed = res.Example
		// The example is what to look at now: on a short stage the table
		// folds so that its rows show.
		m.watching = msg.example != nil
		return m, nil
	}
	m.passing = msg.example != nil
	m.failed = msg.order
	m.solved = true
	n := m.Moves()
	if m.best == 0 || n < m.best {
		m.best = n
	}
	return m, m.report(n, m.changes())
}

// replayOrder plays order on sc as far as it goes — a step of a
// controller that has finished, or a cache with nothing to deliver, is
// passed over — then the race to its end, each controller in turn: an
// order found under other settings, played with these.
func replayOrder(sc *scenario.Scenario, order []string) (*race.Outcome, error) {
	moves, err := scenario.ParseMoves(order)
	if err != nil {
		return nil, err
	}
	w, err := race.New(sc)
	if err != nil {
		return nil, err
	}
	budget := sc.StepBudget()
	for _, mv := range moves {
		if len(w.Taken()) >= budget {
			break
		}
		if slices.Contains(w.Enabled(), mv) {
			if err := w.Step(mv); err != nil {
				return nil, err
			}
		}
	}
	for !w.Done() && len(w.Taken()) < budget {
		next := w.Enabled()
		if len(next) == 0 {
			break
		}
		if err := w.Step(next[0]); err != nil {
			return nil, err
		}
	}
	return w.Outcome(), nil
}

// changes lists the settings changed from the race's ("a.write=update").
func (m Model) changes() string {
	return diff(m.settings, m.startSet, m.rows)
}

func diff(s, from lessons.Settings, rows []row) string {
	var out []string
	for _, r := range rows {
		if v := s[r.ctrl][r.knob.Name]; v != from[r.ctrl][r.knob.Name] {
			out = append(out, fmt.Sprintf("%s.%s=%s", r.ctrl, r.knob.Name, v))
		}
	}
	return termsafe.Escape(strings.Join(out, " "))
}

// ShortHelp is the component's part of the key bar.
func (m Model) ShortHelp() []key.Binding {
	k := m.Keys
	if m.IsBreak() {
		keys := "1"
		if n := min(4, len(m.base.Controllers)); n > 1 {
			keys = fmt.Sprintf("1-%d", n)
		}
		step := key.NewBinding(key.WithKeys("1"), key.WithHelp(keys, "step"))
		return []key.Binding{step, k.Undo, k.Restart}
	}
	if m.proving {
		return []key.Binding{k.Cancel}
	}
	if m.watching {
		return []key.Binding{m.watchKey(), m.backKey(), k.Up, k.Left}
	}
	out := []key.Binding{k.Up, k.Left}
	if !m.solved {
		out = append(out, k.Prove)
	}
	if m.race.Run() != nil {
		out = append(out, k.Watch)
	}
	return out
}

// watchKey is space as it stands: it plays the example, or pauses it.
func (m Model) watchKey() key.Binding {
	b := m.Keys.Watch
	if m.watching && m.race.Playing() {
		b.SetHelp(b.Help().Key, "pause example")
	}
	return b
}

// backKey is esc while the example is watched: back to the settings.
func (m Model) backKey() key.Binding {
	b := m.Keys.Cancel
	b.SetHelp(b.Help().Key, "back to settings")
	return b
}

// FullHelp lists the component's keys as they stand: the keys that
// schedule (with the controllers' initials), or those of the settings,
// each key once. The screen's list puts them first, so a key here
// outranks the same key of the race view's (keyhelp.OneMeaning).
func (m Model) FullHelp() []key.Binding {
	k := m.Keys
	if m.IsBreak() {
		var steps, caches []string
		for name, tok := range m.moveKeys() {
			if tok.Deliver {
				caches = append(caches, name)
			} else {
				steps = append(steps, name)
			}
		}
		sort.Strings(steps)
		sort.Strings(caches)
		n := min(4, len(m.base.Controllers))
		digits := "1"
		if n > 1 {
			digits = fmt.Sprintf("1-%d", n)
		}
		step := key.NewBinding(key.WithKeys(steps...), key.WithHelp(digits, "step a controller"))
		cache := key.NewBinding(key.WithKeys(caches...), key.WithHelp("!@#$"[:n], "deliver a cache event"))
		return []key.Binding{step, cache, k.Undo, k.Restart}
	}
	pick := key.NewBinding(key.WithKeys(append(k.Up.Keys(), k.Down.Keys()...)...), key.WithHelp(k.Up.Help().Key, "pick a setting"))
	change := key.NewBinding(key.WithKeys(append(k.Left.Keys(), k.Right.Keys()...)...), key.WithHelp(k.Left.Help().Key, "change it"))
	out := []key.Binding{pick, change}
	if !m.solved {
		// Proven: enter is the screen's (continue).
		out = append(out, k.Prove)
	}
	switch {
	case m.proving:
		out = append(out, k.Cancel)
	case m.watching:
		out = append(out, m.backKey())
	}
	w := k.Watch
	w.SetHelp(w.Help().Key, "watch/pause example")
	return append(out, w)
}

// View draws the component into exactly its size: the goal, the count
// against par, the controllers (break) or the settings (fix), what
// happened, and the race below.
func (m Model) View() string {
	w, h := m.w, m.h
	if w <= 0 || h <= 0 {
		return ""
	}
	var lines []string
	if m.IsBreak() {
		lines = m.breakLines(w)
		if (m.solved || m.over()) && m.race.Run() != nil && h-len(lines)-1 < watchRows(m.race.Run()) {
			// The race is played out: too short to show its rows under
			// the goal and a panel of "✓ done", fold them.
			lines = m.endLines(w)
		}
	} else {
		lines = m.fixLines(w)
		if m.watching && m.race.Run() != nil && h-len(lines)-1 < watchRows(m.race.Run()) {
			// Too short to watch the example under the table: fold it.
			lines = m.watchLines(w)
		}
	}
	for i, l := range lines {
		lines[i] = layout.Truncate(l, w)
	}
	top := strings.Join(lines, "\n")
	rest := h - len(lines) - 1
	if rest < 3 || m.race.Run() == nil {
		return layout.Fit(top, w, h)
	}
	m.race.SetSize(w, rest)
	return layout.Fit(top+"\n"+layout.Rule("", w, m.st.Border)+"\n"+m.race.View(), w, h)
}

// watchRows is the height at which the race view shows run whole: its
// header, a row a step, its status and verdict lines.
func watchRows(r *raceview.Run) int {
	return len(r.Outcome.Steps) + 5
}

// watchLines are the top of a fix step while its example is watched on
// a short stage: the changes in one line, the verdict, and how to get
// back to the table (or the whole stage for the race).
func (m Model) watchLines(w int) []string {
	st := m.st
	ch := m.changes()
	if ch == "" {
		ch = "the race as written"
	}
	lines := []string{m.counter("changes:") + st.Faint.Render(" · "+ch)}
	status := st.Warn.Render("watching an example")
	if m.passing {
		status = st.OK.Render(styles.OK+" an order that failed before, now passing") + st.Faint.Render(": "+termsafe.Escape(strings.Join(m.failed, " ")))
	}
	if r := m.result; r != nil && m.provenNow() && !r.Proven() && !r.Truncated {
		status = st.Bad.Render(fmt.Sprintf("%s %d of %s %s %s", styles.Bad, r.Bad, Count(r.Schedules, "order"), agree(r.Bad, "ends", "end"), r.Verdict)) + ", e.g. this one"
	}
	back := " · " + m.Keys.Cancel.Help().Key + " settings"
	if z := m.zoomKey(); z != "" {
		back += " · " + z + " zoom"
	}
	status += st.Faint.Render(back)
	return append(lines, layout.Lines(layout.Wrap(status, w))...)
}

// zoomKey is the key of the screen around that gives the stage the whole
// window ("tab"), if it has one.
func (m Model) zoomKey() string {
	for _, b := range m.Reserved {
		if b.Enabled() && strings.HasPrefix(b.Help().Desc, "zoom") {
			return b.Help().Key
		}
	}
	return ""
}

// Count is n and the noun, in number: "1 change", "2 changes".
func Count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// agree is the verb for a subject of n: one for 1, many otherwise.
func agree(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// counter is "moves 3 · par 4 · best 4".
func (m Model) counter(word string) string {
	s := fmt.Sprintf("%s %d · par %d", word, m.Moves(), m.goal.Par)
	if m.best > 0 {
		s += fmt.Sprintf(" · best %d", m.best)
	}
	return m.st.Bold.Render(s)
}

func (m Model) goalLine(w int) []string {
	return layout.Lines(layout.Wrap(m.st.Accent.Render("Goal: ")+m.question, w))
}

func (m Model) breakLines(w int) []string {
	st := m.st
	lines := m.goalLine(w)
	lines = append(lines, m.counter("moves"))
	out := m.world.Outcome()
	names := make([]string, len(m.base.Controllers))
	for i, c := range m.base.Controllers {
		names[i] = termsafe.Escape(c.Name)
	}
	panel := preview.Panel{St: st, Keys: m.keysOf, Next: m.next, NameW: 4, CacheCol: 30, CacheGap: 30}
	lines = append(lines, panel.Lines(m.base, out, names, w)...)
	n := len(m.world.Taken())
	if m.notice != "" {
		style := st.Warn
		if m.bad {
			style = st.Bad
		}
		lines = append(lines, layout.Lines(layout.Wrap(style.Render(m.notice), w))...)
	}
	switch {
	case m.solved:
		lines = append(lines, layout.Lines(layout.Wrap(st.OK.Render(styles.OK+" Solved: ")+verdictOf(n, m.goal.Par, "move"), w))...)
	case m.over():
		lines = append(lines, st.Bad.Render(styles.Bad+" The race is over and the goal is not met.")+" ⌫ undoes · r restarts")
	case m.notice == "":
		lines = append(lines, st.Faint.Render("You are the scheduler: pick who moves next."))
	}
	if m.answer {
		lines = append(lines, layout.Lines(layout.Wrap(st.Heading.Render("Author's order: ")+termsafe.Escape(strings.Join(m.goal.Schedule, " "))+
			" ("+Count(len(m.goal.Schedule), "move")+")", w))...)
	}
	return lines
}

// endLines are the top of a break step whose race is over on a short
// stage: the count and how it ended, so that the race below keeps the
// room for its rows (the goal is in the text above the stage).
func (m Model) endLines(w int) []string {
	st := m.st
	lines := []string{m.counter("moves")}
	n := len(m.world.Taken())
	if m.solved {
		lines = append(lines, layout.Lines(layout.Wrap(st.OK.Render(styles.OK+" Solved: ")+verdictOf(n, m.goal.Par, "move")+
			st.Faint.Render(" ⌫ undoes · r restarts"), w))...)
	} else {
		lines = append(lines, st.Bad.Render(styles.Bad+" The race is over and the goal is not met.")+" ⌫ undoes · r restarts")
	}
	if m.answer {
		lines = append(lines, layout.Lines(layout.Wrap(st.Heading.Render("Author's order: ")+termsafe.Escape(strings.Join(m.goal.Schedule, " "))+
			" ("+Count(len(m.goal.Schedule), "move")+")", w))...)
	}
	return lines
}

// verdictOf is "4 moves, at par." or "6 moves; par is 4."
func verdictOf(n, par int, word string) string {
	if n <= par {
		return Count(n, word) + ", at par."
	}
	return fmt.Sprintf("%s; par is %d.", Count(n, word), par)
}

func (m Model) fixLines(w int) []string {
	st := m.st
	lines := m.goalLine(w)
	lines = append(lines, m.counter("changes:"))
	ctrlW, knobW, valW := 4, 6, 6
	for _, r := range m.rows {
		ctrlW = max(ctrlW, len(r.ctrl)+2)
		knobW = max(knobW, len(r.knob.Name)+2)
		for _, v := range r.knob.Values {
			valW = max(valW, len(v)+4)
		}
	}
	shown := m.shown()
	for i, r := range shown {
		v := m.settings[r.ctrl][r.knob.Name]
		cur := "  "
		val := "  " + v + "  "
		if i == m.cursor {
			cur = st.Accent.Render(styles.Cursor) + " "
			val = st.Selected.Render("‹ " + v + " ›")
		}
		line := cur + layout.Pad(st.Lane(m.laneOf(r.ctrl)).Render(termsafe.Escape(r.ctrl)), ctrlW) + layout.Pad(string(r.knob.Name), knobW) + layout.Pad(val, valW)
		if v != m.startSet[r.ctrl][r.knob.Name] {
			line += st.Warn.Render(" changed")
		}
		lines = append(lines, line)
	}
	if m.cursor < len(shown) {
		// What the value under the cursor does, where it is changed.
		r := shown[m.cursor]
		if e := m.explain(r); e != "" {
			lines = append(lines, layout.Lines(layout.Wrap(st.Faint.Render(string(r.knob.Name)+": "+e), w))...)
		}
	}
	lines = append(lines, layout.Lines(layout.Wrap(m.fixStatus(), w))...)
	if m.answer {
		lines = append(lines, layout.Lines(layout.Wrap(st.Heading.Render("Author's fix: ")+diff(m.goal.Answer(m.base), m.startSet, m.rows), w))...)
	}
	return lines
}

func (m Model) fixStatus() string {
	st := m.st
	orders := func(n int) string { return Count(n, "order") }
	r := m.result
	switch {
	case m.proving:
		return st.Warn.Render(fmt.Sprintf("proving… %s so far", orders(m.done))) + st.Faint.Render(" · esc cancels")
	case m.notice != "" && m.bad:
		return st.Bad.Render(m.notice)
	case m.notice != "":
		return st.Warn.Render(m.notice)
	case r == nil || !m.provenNow():
		return st.Faint.Render("enter proves these settings over every order of steps")
	case r.Truncated:
		return st.Warn.Render(fmt.Sprintf("not proven: the explorer stopped after %s", orders(r.Schedules)))
	case r.Proven():
		text := st.OK.Render(styles.OK+" Proven: ") + fmt.Sprintf("none of %s ends %s. ", orders(r.Schedules), verdicts(m.goal.Fix)) +
			st.OK.Render("Solved: ") + verdictOf(m.Moves(), m.goal.Par, "change")
		if m.passing {
			text += st.Faint.Render(" · space watches " + termsafe.Escape(strings.Join(m.failed, " ")) + ", an order that failed before, now passing")
		}
		return text
	}
	return st.Bad.Render(fmt.Sprintf("%s %d of %s %s %s", styles.Bad, r.Bad, orders(r.Schedules), agree(r.Bad, "ends", "end"), r.Verdict)) +
		", e.g. " + termsafe.Escape(strings.Join(r.Example, " ")) + st.Faint.Render(" · space watches it")
}

func verdicts(vs []race.Verdict) string {
	s := make([]string, len(vs))
	for i, v := range vs {
		s[i] = string(v)
	}
	return strings.Join(s, " or ")
}

func (m Model) laneOf(name string) int {
	for i, c := range m.base.Controllers {
		if c.Name == name {
			return i
		}
	}
	return 0
}
