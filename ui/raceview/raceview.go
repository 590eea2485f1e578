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
	"strings"
	"sync/atomic"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/conflictlab/conflictlab/sim/race"
	"github.com/conflictlab/conflictlab/sim/report"
	"github.com/conflictlab/conflictlab/ui/layout"
	"github.com/conflictlab/conflictlab/ui/styles"
)

// Run is one race ready to show: the simulator's outcome, and each
// controller's plan in words (what it will read, change and write), which
// the setup view shows before anything has happened.
type Run struct {
	Outcome *race.Outcome
	// Plans maps a controller's name to its plan in one line.
	Plans map[string]string
	// Source says where the run came from when it is not the simulator
	// ("live on https://…").
	Source string
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
	}
}

// Bindings lists the keys for help screens.
func (k KeyMap) Bindings() []key.Binding {
	return []key.Binding{k.Play, k.Step, k.Back, k.Restart, k.Faster, k.Object, k.ScrollUp}
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
	gen     int
	objOnly bool
	scroll  int
	// setupNote says why the race is held at its setup.
	setupNote string
	// open: the run may go on (the sandbox plays it a step at a time), so
	// the status says what happened so far, not how the race ended.
	open bool
	w, h int
	st   *styles.Styles
	Keys KeyMap
	Tick Ticker
}

// New returns an empty race view.
func New(st *styles.Styles) Model {
	return Model{id: int(lastID.Add(1)), idx: -1, speed: DefaultSpeed, st: st, Keys: DefaultKeys(), Tick: tea.Tick}
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
	m.run, m.hidden, m.idx, m.playing, m.scroll = r, hidden, -1, false, 0
	m.gen++
}

// SetOpen marks the run as open-ended: the outcome is the race so far and
// more steps may follow. The playback line is left out (the screen around
// the view plays the race) and an unfinished race is not called finished.
func (m *Model) SetOpen(open bool) { m.open = open }

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

// Reveal ends the setup-only view and plays the race from the start.
func (m *Model) Reveal() tea.Cmd {
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
		if msg.id != m.id || msg.gen != m.gen || !m.playing {
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
		if m.run == nil || m.hidden {
			return m, nil
		}
		switch {
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
		case key.Matches(msg, m.Keys.Faster):
			if m.speed < len(Speeds)-1 {
				m.speed++
			}
		case key.Matches(msg, m.Keys.Slower):
			if m.speed > 0 {
				m.speed--
			}
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

// HandlesKey reports whether the race view has a binding for the key, so
// the screen around it can route keys without knowing them.
func (m Model) HandlesKey(msg tea.KeyPressMsg) bool {
	k := m.Keys
	return key.Matches(msg, k.Play, k.Step, k.Back, k.Restart, k.Faster, k.Slower, k.Object, k.ScrollUp, k.ScrollDown)
}

// View draws the race into exactly the view's size.
func (m Model) View() string {
	if m.w <= 0 || m.h <= 0 {
		return ""
	}
	if m.run == nil {
		return layout.Fit(m.st.Faint.Render("loading the race…"), m.w, m.h)
	}
	if m.hidden {
		return m.viewSetup()
	}
	if m.objOnly {
		obj := m.objectLines(m.w, true)
		return layout.Fit(strings.Join(scrollLines(obj, m.scroll, m.h), "\n"), m.w, m.h)
	}
	tl, cur := m.timelineLines(m.w)
	status := m.statusLines(m.w)
	// The timeline comes first and keeps at least half the height (or all
	// it needs); the object gets the rest: as YAML when that fits, as its
	// changes alone when the window is short.
	avail := m.h - len(status)
	tlKeep := min(len(tl), max(4, avail/2))
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
	lines := windowAround(tl, cur, tlH)
	lines = append(lines, status...)
	if objH > 0 {
		lines = append(lines, "")
		lines = append(lines, scrollLines(obj, m.scroll, objH)...)
	}
	return layout.Fit(strings.Join(lines, "\n"), m.w, m.h)
}

// windowAround keeps the header (the first line) and the rows up to the
// current one visible when there is no room for all.
func windowAround(lines []string, cur, h int) []string {
	if h <= 0 {
		return nil
	}
	if len(lines) <= h {
		return lines
	}
	if h == 1 {
		return lines[:1]
	}
	body := lines[1:]
	end := min(len(body), max(cur+1, h-1))
	start := max(0, end-(h-1))
	return append([]string{lines[0]}, body[start:end]...)
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
// depends on how the race ends.
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
	for i, n := range m.names() {
		nameW = max(nameW, len(n)+2)
		plan := m.run.Plans[n]
		lines = append(lines, layout.Pad(st.Lane(i).Render(n), nameW)+plan)
		lines = append(lines, layout.Pad("", nameW)+st.Faint.Render("informer cache at RV "+startRV))
	}
	lines = append(lines, layout.Pad(st.Server.Render("API server"), nameW)+"RV "+startRV)
	if len(o.Schedule) > 0 {
		lines = append(lines, st.Faint.Render("turns: "+strings.Join(o.Schedule, " → ")))
	}
	lines = append(lines, "")
	lines = append(lines, m.objectLines(m.w, true)...)
	return layout.Fit(strings.Join(scrollLines(lines, m.scroll, m.h), "\n"), m.w, m.h)
}

// columns is the timeline's geometry.
type columns struct {
	gutter, lane, server, rv, cache int
	clock                           bool
}

func (m Model) columns(w, n int) columns {
	c := columns{gutter: 5, server: 16, rv: 6, cache: max(5*n-1, len("cache "+strings.Join(m.names(), "/")))}
	c.clock = w >= 110
	fixed := c.gutter + c.server + c.rv + c.cache
	if c.clock {
		fixed += 6
	}
	c.lane = max(8, (w-fixed)/max(1, n))
	return c
}

// timelineLines renders the header and one row per shown step (plus a
// LOST annotation under each write that erased a field); cur is the index
// among the returned body rows of the current step.
func (m Model) timelineLines(w int) ([]string, int) {
	st := m.st
	o := m.run.Outcome
	names := m.names()
	c := m.columns(w, len(names))
	var hdr strings.Builder
	hdr.WriteString(layout.Pad(st.Faint.Render("  #"), c.gutter))
	if c.clock {
		hdr.WriteString(layout.Pad(st.Faint.Render("t"), 6))
	}
	for i, n := range names {
		hdr.WriteString(layout.Pad(st.Lane(i).Render(n), c.lane))
	}
	hdr.WriteString(layout.Pad(st.Server.Render("API server"), c.server))
	hdr.WriteString(layout.Pad(st.Faint.Render("RV"), c.rv))
	hdr.WriteString(st.Faint.Render("cache " + strings.Join(names, "/")))
	lines := []string{hdr.String()}
	cur := 0
	for i := 0; i <= m.idx && i < len(o.Steps); i++ {
		s := o.Steps[i]
		var b strings.Builder
		mark := " "
		if i == m.idx {
			mark = st.Accent.Render(styles.Current)
		}
		b.WriteString(layout.Pad(fmt.Sprintf("%s%3d", mark, s.Index), c.gutter))
		if c.clock {
			b.WriteString(layout.Pad(st.Faint.Render(fmt.Sprintf("%dms", s.AtMS)), 6))
		}
		for li, n := range names {
			cell := ""
			if n == s.Actor {
				cell = m.laneCell(s, c.lane-1, li)
			}
			b.WriteString(layout.Pad(cell, c.lane))
		}
		b.WriteString(layout.Pad(m.serverCell(s), c.server))
		b.WriteString(layout.Pad(fmt.Sprint(s.ServerRV), c.rv))
		caches := make([]string, len(names))
		for k, n := range names {
			rv := s.CacheRVs[n]
			caches[k] = fmt.Sprint(rv)
			if rv < s.ServerRV {
				caches[k] = st.Warn.Render(caches[k] + styles.Stale)
			}
		}
		b.WriteString(strings.Join(caches, "/"))
		row := b.String()
		if i == m.idx {
			row = st.Bold.Render(row)
		}
		lines = append(lines, row)
		cur = len(lines) - 2
		for _, l := range o.Lost {
			if l.ErasedAtStep == s.Index {
				note := fmt.Sprintf("%s └ %s LOST %s: %s's change erased by this write", strings.Repeat(" ", c.gutter-3), styles.Bad, l.Field, l.Owner)
				if l.ErasedBy == l.Owner {
					note = fmt.Sprintf("%s └ %s LOST %s: %s", strings.Repeat(" ", c.gutter-3), styles.Bad, l.Field, l.Reason)
				}
				lines = append(lines, st.Bad.Render(note))
				if i == m.idx {
					cur = len(lines) - 2
				}
			}
		}
	}
	return lines, cur
}

// laneCell is what a controller does at a step, shortened to fit.
func (m Model) laneCell(s race.Step, w, lane int) string {
	full, short := report.Call(s), ""
	switch s.Kind {
	case "watch":
		// ↓ rather than ⇣: it is in every terminal font.
		full = "↓ cache ← " + s.Event
		short = "↓ watch RV " + s.RV
	case "lister":
		short = "lister RV " + s.RV
		if s.Code != 200 {
			short = "lister: none"
		}
	default:
		short = string(s.Verb)
		if s.PatchType != "" {
			short += " " + s.PatchType
		}
		if s.Verb != "GET" {
			if s.SentRV != "" {
				short += " rv=" + s.SentRV
			} else {
				short += " no rv"
			}
		}
	}
	text := full
	if len([]rune(full)) > w && short != "" {
		text = short
	}
	if s.Kind == "request" {
		return m.st.Lane(lane).Render(layout.Truncate(text, w))
	}
	return m.st.Faint.Render(layout.Truncate(text, w))
}

// serverCell is the answer, with a symbol so it reads without colour.
func (m Model) serverCell(s race.Step) string {
	if s.Kind != "request" {
		return ""
	}
	sym := styles.OK
	if !s.OK() {
		sym = styles.Bad
	}
	return m.st.Code(s.Code).Render(sym + " " + report.Answer(s))
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

// verdictLines say how the race ended, in words and symbols.
func (m Model) verdictLines(w int) []string {
	st := m.st
	o := m.run.Outcome
	var out []string
	var gaveUp []string
	running := false
	for _, c := range o.Controllers {
		if c.Status == "gave-up" {
			gaveUp = append(gaveUp, c.Name)
		}
		running = running || c.Status == "running" || c.Status == "sleeping"
	}
	switch {
	case !m.open || !running:
		out = append(out, m.endLine(gaveUp)...)
	case o.Verdict == race.VerdictLost:
		out = append(out, st.Bad.Render(styles.Bad+" so far: a change was lost"))
	}
	return append(out, m.lossLines()...)
}

// endLine says how a race that is over ended.
func (m Model) endLine(gaveUp []string) []string {
	st := m.st
	o := m.run.Outcome
	var out []string
	switch o.Verdict {
	case race.VerdictNoLoss:
		out = append(out, st.OK.Render(styles.OK+" finished: every change landed, none was lost"))
	case race.VerdictRequeued:
		out = append(out, st.OK.Render(styles.OK+" finished: every change landed, after a requeue"))
	case race.VerdictLost:
		out = append(out, st.Bad.Render(styles.Bad+" finished: a change was lost"))
	case race.VerdictGaveUp:
		out = append(out, st.Warn.Render(fmt.Sprintf("%s finished: nothing was lost, but %s stopped with its change not made", styles.Warn, strings.Join(gaveUp, " and "))))
	case race.VerdictUnfinished:
		out = append(out, st.Warn.Render(styles.Warn+" stopped: the step budget ran out with a controller still retrying"))
	default:
		out = append(out, st.Warn.Render(styles.Warn+" finished: "+o.Verdict))
	}
	return out
}

// lossLines name each lost field and each controller's conflicts.
func (m Model) lossLines() []string {
	st := m.st
	o := m.run.Outcome
	var out []string
	for _, l := range o.Lost {
		by := fmt.Sprintf("erased by %s at step %d (RV %s)", l.ErasedBy, l.ErasedAtStep, l.ErasedRV)
		if l.ErasedBy == l.Owner {
			by = l.Reason
		}
		out = append(out, st.Bad.Render(fmt.Sprintf("  %s LOST %s — %s's change, %s", styles.Bad, l.Field, l.Owner, by)))
	}
	for _, c := range o.Controllers {
		if c.Stats.Conflicts > 0 {
			out = append(out, st.Conflict.Render(fmt.Sprintf("  %s %s got %d × 409 Conflict; nothing it sent then was written", styles.Warn, c.Name, c.Stats.Conflicts)))
		}
	}
	return out
}
