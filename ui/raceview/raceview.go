// Package raceview draws one precomputed race as swimlanes: one lane per
// controller and one for the API server, time running down, each request
// with the resourceVersion it sent and the server's answer, and each
// informer cache's RV beside the server's so staleness shows. Below the
// lanes, the object at the selected step as YAML with its diff, lost
// fields marked in words and symbols as well as colour.
//
// The simulator is deterministic, so the view never re-runs anything:
// playing, stepping and stepping back only change which prefix
// steps[0..i] of the same Outcome is drawn.
package raceview

import (
	"fmt"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/conflictlab/conflictlab/sim/controller"
	"github.com/conflictlab/conflictlab/sim/race"
	"github.com/conflictlab/conflictlab/sim/report"
	"github.com/conflictlab/conflictlab/sim/scenario"
	"github.com/conflictlab/conflictlab/termsafe"
	"github.com/conflictlab/conflictlab/ui/layout"
	"github.com/conflictlab/conflictlab/ui/styles"
)

// Run is one race ready to show: the simulator's outcome, whose
// controllers carry their plans (what each will read, change and write),
// which the setup view shows before anything has happened.
type Run struct {
	Outcome *race.Outcome
	// Source says where the run came from when it is not the simulator
	// ("live on https://…").
	Source string
	// plansWithheld: see WithholdPlans (withhold.go); choice: see
	// WithholdChoice.
	plansWithheld bool
	choice        *choice
	// setup: the run is a race before its first step, made from its
	// scenario alone (NewSetup): it is shown at its setup and never
	// played.
	setup bool
}

// NewSetup is the race of sc before its first step, made from the
// scenario alone: the objects as the scenario creates them and what each
// controller is set to do. No step has been taken, so nothing of how the
// race goes is in it — no turns, no answer, no verdict — and a view holds
// it at its setup (SetRun, Reveal). A question's setup is drawn from one,
// so that it cannot show the outcome the question asks about.
func NewSetup(sc *scenario.Scenario) (*Run, error) {
	w, err := race.New(sc)
	if err != nil {
		return nil, err
	}
	return &Run{Outcome: termsafe.Deep(w.Outcome()), setup: true}, nil
}

// Setup reports whether r is a race before its first step (NewSetup).
func (r *Run) Setup() bool { return r != nil && r.setup }

// NewRun is the race view's run of an outcome, its text (a pack's
// scenario values, labels, the server's messages about them) escaped so
// that it is shown, never obeyed by the terminal. The outcome is not
// changed: it may be shared.
func NewRun(o *race.Outcome) *Run {
	return &Run{Outcome: termsafe.Deep(o)}
}

// Speed is one playback speed.
type Speed struct {
	Label string
	Every time.Duration
}

// Speeds are the playback speeds, slowest first.
var Speeds = []Speed{{"0.5x", 1400 * time.Millisecond}, {"1x", 700 * time.Millisecond},
	{"2x", 350 * time.Millisecond}, {"4x", 175 * time.Millisecond}, {"8x", 90 * time.Millisecond}}

// DefaultSpeed indexes Speeds.
const DefaultSpeed = 1

// longestPlay is how long a race may take to play before it starts at a
// faster speed than DefaultSpeed: at 1x a 106-step race (lesson 5's
// "contended") would take 74 s. A speed the learner chose is kept.
const longestPlay = 30 * time.Second

// autoSpeed is the speed a race of n steps starts at: DefaultSpeed, or
// the slowest that plays it within longestPlay.
func autoSpeed(n int) int {
	s := DefaultSpeed
	for s < len(Speeds)-1 && time.Duration(n)*Speeds[s].Every > longestPlay {
		s++
	}
	return s
}

// Ticker schedules the next frame of playback; it is tea.Tick outside
// tests, which substitute a clock they control.
type Ticker func(d time.Duration, fn func(time.Time) tea.Msg) tea.Cmd

// TickMsg advances playback by one step. It names the view and the
// playback generation it belongs to, so a tick scheduled before a pause,
// a restart or a different race is ignored rather than skipping a step.
type TickMsg struct{ id, gen int }

// PlaybackTick marks the message as a playback tick (test drivers hold
// these to control time).
func (TickMsg) PlaybackTick() {}

// KeyMap is the race view's keys.
type KeyMap struct {
	Play, Step, Back, Restart, Faster, Slower, Object, ScrollUp, ScrollDown key.Binding
	// Inspect opens the selected row's details; Up and Down scroll them,
	// Close (besides Inspect again) shuts them.
	Inspect, Up, Down, Close key.Binding
}

// DefaultKeys are the race view's bindings.
func DefaultKeys() KeyMap {
	return KeyMap{
		Play:       key.NewBinding(key.WithKeys("space"), key.WithHelp("space", "play/pause")),
		Step:       key.NewBinding(key.WithKeys("right", "."), key.WithHelp("→/.", "step")),
		Back:       key.NewBinding(key.WithKeys("left", ","), key.WithHelp("←/,", "step back")),
		Restart:    key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "restart race")),
		Faster:     key.NewBinding(key.WithKeys("+", "="), key.WithHelp("+/-", "speed")),
		Slower:     key.NewBinding(key.WithKeys("-", "_"), key.WithHelp("-", "slower")),
		Object:     key.NewBinding(key.WithKeys("o"), key.WithHelp("o", "object/timeline")),
		ScrollUp:   key.NewBinding(key.WithKeys("K", "shift+up"), key.WithHelp("K/J", "scroll pane")),
		ScrollDown: key.NewBinding(key.WithKeys("J", "shift+down"), key.WithHelp("J", "scroll pane down")),
		Inspect:    key.NewBinding(key.WithKeys("i"), key.WithHelp("i", "inspect row")),
		Up:         key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑", "scroll details")),
		Down:       key.NewBinding(key.WithKeys("down", "j"), key.WithHelp("↓", "scroll details down")),
		Close:      key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "close details")),
	}
}

// Bindings lists the keys for help screens.
func (k KeyMap) Bindings() []key.Binding {
	return []key.Binding{k.Play, k.Step, k.Back, k.Restart, k.Faster, k.Object, k.ScrollUp, k.Inspect}
}

var lastID atomic.Int64

// Model is the race view.
type Model struct {
	id      int
	run     *Run
	idx     int // the last step shown; -1 shows none (the setup)
	hidden  bool
	playing bool
	speed   int
	// speedChosen: the learner set the speed (+/-); it is kept from race
	// to race instead of autoSpeed's.
	speedChosen bool
	gen         int
	objOnly     bool
	scroll      int
	// inspect: the selected row's details fill the view; iscroll is
	// their scroll offset.
	inspect bool
	iscroll int
	// tour: the one-screen tour of the view is on show; toured: it has
	// been shown once (it is not shown twice).
	tour, toured bool
	// setupNote says why the race is held at its setup.
	setupNote string
	// focus is the step whose row stays in the timeline's window once
	// the race has played past it (-1: none; see Focus).
	focus int
	// open: the run may go on (the sandbox plays it a step at a time), so
	// the status says what happened so far, not how the race ended.
	open bool
	w, h int
	st   *styles.Styles
	// fc keeps what frames draw again and again (cache.go).
	fc   *frameCache
	Keys KeyMap
	Tick Ticker
}

// New returns an empty race view.
func New(st *styles.Styles) Model {
	return Model{id: int(lastID.Add(1)), idx: -1, focus: -1, speed: DefaultSpeed, st: st, fc: &frameCache{}, Keys: DefaultKeys(), Tick: tea.Tick}
}

// SetStyles replaces the styles (the terminal's background was learnt).
func (m *Model) SetStyles(st *styles.Styles) { m.st = st }

// SetSize sets the rectangle the view fills.
func (m *Model) SetSize(w, h int) { m.w, m.h = w, h }

// SetRun shows a new race at its start, paused. Hidden keeps it at the
// setup (nothing of the outcome shows) until Reveal: a predict step must
// not give the answer away.
func (m *Model) SetRun(r *Run, hidden bool) {
	m.setupNote = "paused at step 0 until you answer"
	hidden = hidden || r.Setup()
	m.run, m.hidden, m.idx, m.playing, m.scroll, m.focus = r, hidden, -1, false, 0, -1
	m.inspect, m.iscroll, m.tour = false, 0, false
	m.gen++
	if r != nil && !m.speedChosen {
		m.speed = autoSpeed(len(r.Outcome.Steps))
	}
}

// SetOpen marks the run as open-ended: the outcome is the race so far and
// more steps may follow. The playback line is left out (the screen around
// the view plays the race) and an unfinished race is not called finished.
func (m *Model) SetOpen(open bool) { m.open = open }

// Focus keeps the row of step i in the timeline's window once the race
// has played to its end: the row the text names ("Row 6 decides it") is
// on screen, however short the pane. A race that plays follows its last
// step, and stepping through it shows the step selected, as ever.
func (m *Model) Focus(i int) { m.focus = i }

// SetSetupNote replaces the note beside "Before the race".
func (m *Model) SetSetupNote(n string) { m.setupNote = n }

// Run is the race on show.
func (m Model) Run() *Run { return m.run }

// Hidden reports whether only the setup is shown.
func (m Model) Hidden() bool { return m.hidden }

// Playing reports whether playback is running.
func (m Model) Playing() bool { return m.playing }

// Index is the last step shown (-1: none).
func (m Model) Index() int { return m.idx }

// Speed is the playback speed's label.
func (m Model) Speed() string { return Speeds[m.speed].Label }

// Finished reports whether every step is shown.
func (m Model) Finished() bool { return m.run != nil && !m.hidden && m.idx >= m.last() }

// ObjectOnly reports whether the object fills the view.
func (m Model) ObjectOnly() bool { return m.objOnly }

func (m Model) last() int {
	if m.run == nil {
		return -1
	}
	return len(m.run.Outcome.Steps) - 1
}

// SetIndex shows steps[0..i], paused.
func (m *Model) SetIndex(i int) {
	m.idx = max(-1, min(i, m.last()))
	m.pause()
}

// Reveal ends the setup-only view and plays the race from the start (a
// setup made from a scenario alone has no race to reveal).
func (m *Model) Reveal() tea.Cmd {
	if m.run.Setup() {
		return nil
	}
	m.hidden = false
	m.idx = -1
	return m.Play()
}

// Play starts playback (from the start again when the race is over).
func (m *Model) Play() tea.Cmd {
	if m.run == nil || m.hidden {
		return nil
	}
	if m.idx >= m.last() {
		m.idx = -1
	}
	m.playing = true
	m.gen++
	return m.tick()
}

func (m *Model) pause() {
	m.playing = false
	m.gen++
}

func (m Model) tick() tea.Cmd {
	id, gen := m.id, m.gen
	return m.Tick(Speeds[m.speed].Every, func(time.Time) tea.Msg { return TickMsg{id: id, gen: gen} })
}

// Update handles playback ticks and the race keys. Keys do nothing while
// the race is hidden: the outcome is not the learner's to see yet.
func (m Model) Update(msg tea.Msg) (Model, tea.Cmd) {
	switch msg := msg.(type) {
	case TickMsg:
		if msg.id != m.id || msg.gen != m.gen || !m.playing || m.tour {
			return m, nil
		}
		if m.idx < m.last() {
			m.idx++
		}
		if m.idx >= m.last() {
			m.playing = false
			return m, nil
		}
		return m, m.tick()
	case tea.KeyPressMsg:
		if m.tour {
			// J/K scroll a tour taller than the view; any other of the
			// view's keys ends it, and the race starts then.
			switch {
			case key.Matches(msg, m.Keys.ScrollDown):
				m.scroll++
				return m, nil
			case key.Matches(msg, m.Keys.ScrollUp):
				m.scroll = max(0, m.scroll-1)
				return m, nil
			}
			m.tour, m.scroll = false, 0
			if m.run != nil && !m.hidden {
				m.idx = -1
				return m, m.Play()
			}
			return m, nil
		}
		switch {
		case key.Matches(msg, m.Keys.Faster):
			// The speed is the learner's whatever is on show: one asked for
			// while the race is still computing plays it.
			m.speedChosen = true
			m.speed = min(m.speed+1, len(Speeds)-1)
			return m, nil
		case key.Matches(msg, m.Keys.Slower):
			m.speedChosen = true
			m.speed = max(m.speed-1, 0)
			return m, nil
		}
		if m.run == nil {
			return m, nil
		}
		if m.hidden {
			// Before the answer the pane is the setup (setupLines), which
			// can be taller than the pane: J and K scroll it, as its
			// "↓ more (J)" says; nothing else plays yet.
			switch {
			case key.Matches(msg, m.Keys.ScrollDown):
				m.scroll++
			case key.Matches(msg, m.Keys.ScrollUp):
				m.scroll = max(0, m.scroll-1)
			}
			return m, nil
		}
		if m.inspect {
			return m.inspectKey(msg)
		}
		switch {
		case key.Matches(msg, m.Keys.Inspect):
			m.inspect, m.iscroll = true, 0
			m.idx = max(0, m.idx)
			m.pause()
		case key.Matches(msg, m.Keys.Play):
			if m.playing {
				m.pause()
				return m, nil
			}
			return m, m.Play()
		case key.Matches(msg, m.Keys.Step):
			m.SetIndex(m.idx + 1)
		case key.Matches(msg, m.Keys.Back):
			m.SetIndex(m.idx - 1)
		case key.Matches(msg, m.Keys.Restart):
			m.idx = -1
			return m, m.Play()
		case key.Matches(msg, m.Keys.Object):
			m.objOnly = !m.objOnly
			m.scroll = 0
		case key.Matches(msg, m.Keys.ScrollDown):
			m.scroll++
		case key.Matches(msg, m.Keys.ScrollUp):
			m.scroll = max(0, m.scroll-1)
		}
	}
	return m, nil
}

// inspectKey handles a key while the inspect panel is open: the row
// arrows move the selection (the panel follows it), the others scroll.
func (m Model) inspectKey(msg tea.KeyPressMsg) (Model, tea.Cmd) {
	k := m.Keys
	switch {
	case key.Matches(msg, k.Inspect, k.Close):
		m.inspect = false
	case key.Matches(msg, k.Step):
		m.SetIndex(m.idx + 1)
		m.iscroll = 0
	case key.Matches(msg, k.Back):
		m.SetIndex(max(0, m.idx-1))
		m.iscroll = 0
	case key.Matches(msg, k.Down, k.ScrollDown):
		m.iscroll = min(m.iscroll+1, max(0, len(m.inspectLines(m.w))-(m.h-1)))
	case key.Matches(msg, k.Up, k.ScrollUp):
		m.iscroll = max(0, m.iscroll-1)
	}
	return m, nil
}

// HandlesKey reports whether the race view has a binding for the key, so
// the screen around it can route keys without knowing them. While the
// inspect panel is open it also takes ↑/↓ and esc (they scroll and close
// it); while the tour shows, it takes its keys to end the tour.
func (m Model) HandlesKey(msg tea.KeyPressMsg) bool {
	k := m.Keys
	if m.inspect && key.Matches(msg, k.Up, k.Down, k.Close) {
		return true
	}
	return key.Matches(msg, k.Play, k.Step, k.Back, k.Restart, k.Faster, k.Slower, k.Object, k.ScrollUp, k.ScrollDown, k.Inspect)
}

// View draws the race into exactly the view's size.
func (m Model) View() string {
	if m.w <= 0 || m.h <= 0 {
		return ""
	}
	if m.run == nil {
		return layout.Fit(m.st.Faint.Render("loading the race…"), m.w, m.h)
	}
	if m.tour {
		return m.viewTour()
	}
	if m.hidden {
		return m.viewSetup()
	}
	if m.inspect {
		return m.viewInspect()
	}
	if m.objOnly {
		obj := m.objectLines(m.w, true)
		return layout.FitLines(scrollLines(obj, m.scroll, m.h), m.w, m.h)
	}
	header, blocks := m.timelineLines(m.w)
	tlLen := len(header) + countLines(blocks)
	status := m.statusLines(m.w)
	// In a race about field ownership the owners are on screen without a
	// key press, under the timeline.
	owners := m.ownershipLines(m.w)
	// The timeline comes first and keeps at least half the height (or all
	// it needs); the object gets the rest: as YAML when that fits, as its
	// changes alone when the window is short. The owners go before the
	// object: a lesson about them points at them once the race is over,
	// when the verdict's lines take room too; they give way when the
	// timeline would be left less than its header and two rows, or the
	// row the text names (Focus). The verdict's lines give way last, cut
	// short.
	focus := -1
	if !m.playing && m.idx >= m.last() {
		focus = m.focus
	}
	keep := len(header) + min(2, countLines(blocks))
	if at := slices.IndexFunc(blocks, func(b block) bool { return b.step == focus }); focus >= 0 && at >= 0 {
		keep = max(keep, len(header)+len(blocks[at].lines))
	}
	if len(status) > 1 && m.h-len(status) < keep {
		n := max(1, m.h-keep)
		status = append(append([]string(nil), status[:n-1]...), layout.Truncate(status[n-1], m.w-2)+m.st.Faint.Render(" …"))
	}
	avail := m.h - len(status)
	if len(owners) > 0 && avail-len(owners) >= keep {
		avail -= len(owners)
	} else {
		owners = nil
	}
	tlKeep := min(tlLen, max(4, avail/2))
	room := avail - tlKeep - 1
	obj := m.objectLines(m.w, true)
	if len(obj) > room {
		obj = m.objectLines(m.w, false)
	}
	objH := min(len(obj), room)
	if objH < 2 {
		objH = 0
	}
	tlH := avail
	if objH > 0 {
		tlH = avail - objH - 1
	}
	lines := windowAround(header, blocks, tlH, focus)
	lines = append(lines, status...)
	lines = append(lines, owners...)
	if objH > 0 {
		lines = append(lines, "")
		lines = append(lines, scrollLines(obj, m.scroll, objH)...)
	}
	return layout.FitLines(lines, m.w, m.h)
}

// scrollLines is the window of h lines from off; when more follows, the
// last line says so (J scrolls).
func scrollLines(lines []string, off, h int) []string {
	if h <= 0 {
		return nil
	}
	if off > len(lines)-h {
		off = max(0, len(lines)-h)
	}
	if off >= len(lines) {
		return nil
	}
	out := append([]string(nil), lines[off:min(len(lines), off+h)]...)
	if off+h < len(lines) && h > 1 {
		out[h-1] = "↓ more (J)"
	}
	return out
}

func (m Model) names() []string {
	out := make([]string, len(m.run.Outcome.Controllers))
	for i, c := range m.run.Outcome.Controllers {
		out[i] = c.Name
	}
	return out
}

// viewSetup is the race before its first step: who will do what, the
// caches and the server in sync, and the object as created. Nothing here
// depends on how the race goes.
func (m Model) viewSetup() string {
	st := m.st
	o := m.run.Outcome
	var lines []string
	lines = append(lines, st.Heading.Render("Before the race")+st.Faint.Render(" · "+m.setupNote))
	// Every cache is synced to the server before the first step, and the
	// server is at the newest revision the setup wrote.
	var start int64
	for _, v := range o.Versions {
		if v.Step < 0 {
			var n int64
			fmt.Sscan(v.RV, &n)
			start = max(start, n)
		}
	}
	startRV := fmt.Sprint(start)
	nameW := 12
	for _, c := range o.Controllers {
		nameW = max(nameW, layout.MaxWidth(c.Name)+2)
	}
	hangPad := strings.Repeat(" ", nameW)
	for i, c := range o.Controllers {
		// A plan longer than the line goes on under itself, after the
		// name column: its end (how it writes, how it retries) is what a
		// learner predicts from, so it is never cut.
		for j, pl := range wrapPlan(m.plan(c), m.w-nameW) {
			lead := hangPad
			if j == 0 {
				lead = layout.Pad(st.Lane(i).Render(c.Name), nameW)
			}
			lines = append(lines, lead+pl)
		}
		lines = append(lines, hangPad+st.Faint.Render("informer cache at RV "+startRV))
	}
	// No turns: the schedule a race takes (how many times each controller
	// moves) is how it went, and the setup says nothing of that.
	lines = append(lines, layout.Pad(st.Server.Render("API server"), nameW)+"RV "+startRV)
	lines = append(lines, "")
	lines = append(lines, m.objectLines(m.w, true)...)
	return layout.FitLines(scrollLines(lines, m.scroll, m.h), m.w, m.h)
}

// plan is c's plan in one line. A withheld choice comes first, so a long
// plan cut at the window's edge still says that the choice is unknown.
func (m Model) plan(c race.ControllerResult) string {
	if m.hidden && m.run.plansWithheld {
		return withheldPlan
	}
	if ch := m.run.choice; m.hidden && ch != nil && len(ch.parts) > 0 && (len(ch.controllers) == 0 || slices.Contains(ch.controllers, c.Name)) {
		return chosenPlan(c.Plan, ch.parts)
	}
	return c.Plan.String()
}

// statusLines is the playback state, or the outcome once it is over.
func (m Model) statusLines(w int) []string {
	st := m.st
	o := m.run.Outcome
	n := len(o.Steps)
	state := "‖ paused"
	if m.playing {
		state = styles.Current + " playing"
	}
	line := fmt.Sprintf("%s · step %d/%d · %s", state, m.idx+1, n, Speeds[m.speed].Label)
	legend := st.Faint.Render("  " + styles.Stale + " cache behind server")
	if lw := layout.MaxWidth(line + legend); lw <= w {
		line += legend
	}
	lines := []string{st.Faint.Render(line)}
	if m.open {
		lines = nil
	}
	if m.Finished() {
		lines = append(lines, m.verdictLines(w)...)
	}
	return lines
}

// verdictLines say how the race ended, in words and symbols (the frame
// cache's lines: callers copy before changing them).
func (m Model) verdictLines(w int) []string {
	return wrapWide(cachedLines(m, func(d *frameData) *map[bool][]string { return &d.verdict }, m.open, m.renderVerdict), w)
}

// renderVerdict is verdictLines, drawn.
func (m Model) renderVerdict() []string {
	st := m.st
	o := m.run.Outcome
	var out []string
	running := false
	for _, c := range o.Controllers {
		running = running || c.Status == controller.Running || c.Status == controller.Sleeping
	}
	switch {
	case !m.open || !running:
		out = append(out, m.endLine()...)
	case o.Verdict == race.VerdictLost:
		out = append(out, st.Bad.Render(styles.Bad+" so far: a change was lost"))
	}
	return append(out, m.lossLines()...)
}

// endLine says how a race that is over ended, in the report's words
// (the picture for slides says the same).
func (m Model) endLine() []string {
	st := m.st
	tone, text := report.Ending(m.run.Outcome)
	style := st.OK
	switch tone {
	case report.ToneBad:
		style = st.Bad
	case report.ToneWarn:
		style = st.Warn
	}
	out := []string{style.Render(text)}
	for _, l := range report.EndingInvariants(m.run.Outcome) {
		out = append(out, st.Warn.Render("  "+l))
	}
	return out
}

// lossLines name each lost field and each controller's conflicts.
func (m Model) lossLines() []string {
	st := m.st
	o := m.run.Outcome
	var out []string
	for _, l := range o.Lost {
		out = append(out, st.Bad.Render("  "+report.LossLine(l)))
	}
	out = append(out, m.staleLines()...)
	for _, c := range o.Controllers {
		if l := report.ConflictLine(c); l != "" {
			out = append(out, st.Conflict.Render("  "+l))
		}
	}
	if l := m.reconcileLine(); l != "" {
		out = append(out, l)
	}
	return out
}
