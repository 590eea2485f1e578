package sandbox

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"time"
	"unicode"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/conflictlab/conflictlab/sim/race"
	"github.com/conflictlab/conflictlab/sim/report"
	"github.com/conflictlab/conflictlab/sim/scenario"
	"github.com/conflictlab/conflictlab/termsafe"
	"github.com/conflictlab/conflictlab/ui/layout"
	"github.com/conflictlab/conflictlab/ui/preview"
	"github.com/conflictlab/conflictlab/ui/raceview"
	"github.com/conflictlab/conflictlab/ui/styles"
)

// playState is the scheduler: the world as the learner has stepped it.
type playState struct {
	world *race.World
	out   *race.Outcome
	// err says why the race cannot run (the draft is not a valid race).
	err error
	// next is what each schedulable move would do now.
	next map[scenario.Move]string

	auto   bool
	random bool
	seed   uint64
	rng    *rand.Rand
	speed  int
	gen    int
	tick   raceview.Ticker
}

// autoTick advances autoplay by one step; gen drops ticks scheduled
// before a stop or a restart.
type autoTick struct{ gen int }

func (autoTick) sandboxMsg() {}

// PlaybackTick marks autoplay ticks for the test driver, which holds them.
func (autoTick) PlaybackTick() {}

// seedStream is the second word of race.Play's PCG seed: with it, a
// random run from the start takes the steps `conflictlab sim --seed N`
// takes, so a race found here can be replayed there.
const seedStream = 0x636f6e666c696374

func (p playState) taken() []scenario.Move {
	if p.world == nil {
		return nil
	}
	return p.world.Taken()
}

func (p playState) scenario() *scenario.Scenario {
	if p.world == nil {
		return nil
	}
	return p.world.Scenario()
}

func (p playState) hasManualLag() bool {
	sc := p.scenario()
	if sc == nil {
		return false
	}
	for i := range sc.Controllers {
		if sc.LagOf(i).Manual {
			return true
		}
	}
	return false
}

// over reports whether nothing can be scheduled any more.
func (p playState) over() bool {
	if p.world == nil {
		return true
	}
	max := p.world.Scenario().StepBudget()
	return p.world.Done() || len(p.world.Enabled()) == 0 || len(p.world.Taken()) >= max
}

// restart puts the race back at its first step.
func (m *Model) restart() {
	m.stopAuto()
	m.play.world, m.play.err = race.New(m.sc)
	m.refresh()
}

// replay plays moves from the start: undo, and the explorer's examples.
func (m *Model) replay(tokens []scenario.Move) error {
	m.restart()
	if m.play.err != nil {
		return m.play.err
	}
	for i, tok := range tokens {
		if err := m.play.world.Step(tok); err != nil {
			m.refresh()
			return fmt.Errorf("step %d (%s): %w", i+1, tok, err)
		}
	}
	m.refresh()
	return nil
}

// step takes one move and tells the challenge.
func (m *Model) step(tok scenario.Move) tea.Cmd {
	if m.play.world == nil {
		return nil
	}
	if err := m.play.world.Step(tok); err != nil {
		m.setNotice(true, "%v", err)
		return nil
	}
	m.notice = ""
	m.refresh()
	return nil
}

// refresh recomputes the outcome so far, hands it to the race view, and
// previews what each schedulable move would do.
func (m *Model) refresh() {
	p := &m.play
	p.next = map[scenario.Move]string{}
	if p.world == nil {
		p.out = nil
		m.race.SetRun(nil, false)
		return
	}
	p.out = p.world.Outcome()
	m.race.SetRun(termsafe.Deep(&raceview.Run{Outcome: p.out}), false)
	m.race.SetIndex(len(p.out.Steps) - 1)
	p.next = preview.Next(p.world)
}

// moveKeys maps key names to the scheduler's moves (preview.MoveKeys) around
// the race tab's own bindings.
func (m Model) moveKeys() map[string]scenario.Move {
	k := m.Keys
	taken := []key.Binding{k.Undo, k.Restart, k.Auto, k.Mode, k.Seed, k.Faster, k.Slower, k.Explore,
		k.Hint, k.Save, k.Load, k.Export, k.Share, k.ObjectKey, m.race.Keys.ScrollUp, m.race.Keys.ScrollDown,
		m.race.Keys.Inspect, m.race.Keys.Step, m.race.Keys.Back}
	names := make([]string, len(m.sc.Controllers))
	for i, c := range m.sc.Controllers {
		names[i] = c.Name
	}
	return preview.MoveKeys(names, taken)
}

// keysOf lists the keys that schedule a move, for the panel.
func (m Model) keysOf(move scenario.Move) string { return preview.KeysOf(m.moveKeys(), move) }

// reservedNames are the one-letter names a new controller does not get:
// every letter the sandbox binds somewhere, so that a controller's
// initial always steps it.
func (m Model) reservedNames() []string {
	k := m.Keys
	var out []string
	for _, b := range []key.Binding{k.Up, k.Down, k.Delete, k.Undo, k.Restart, k.Mode, k.Seed, k.Explore, k.Hint,
		k.Save, k.Load, k.Export, k.Share, k.ObjectKey, k.Yes, m.race.Keys.Inspect, m.race.Keys.Object} {
		for _, s := range b.Keys() {
			if len(s) == 1 {
				out = append(out, strings.ToLower(s))
			}
		}
	}
	return append(out, "q")
}

// stepKeysText says which keys step controller i in the race tab.
func (m Model) stepKeysText(i int) string {
	if note := m.initialNote(i); note != "" {
		return note
	}
	return m.keysOf(scenario.Step(m.sc.Controllers[i].Name)) + " steps it"
}

// initialNote says why controller i's initial does not step it, when it
// does not: it is one of the sandbox's keys, or another controller's
// initial too. "" when it does (or it is no letter).
func (m Model) initialNote(i int) string {
	name := m.sc.Controllers[i].Name
	r := []rune(strings.ToLower(name))[0]
	keys := m.keysOf(scenario.Step(name))
	if i >= 4 || !unicode.IsLetter(r) || strings.Contains("/"+keys+"/", "/"+string(r)+"/") {
		return ""
	}
	for j, c := range m.sc.Controllers {
		if j != i && strings.HasPrefix(strings.ToLower(c.Name), string(r)) {
			return fmt.Sprintf("%s steps with %s: %s and %s both start with %c", name, keys, name, c.Name, r)
		}
	}
	return fmt.Sprintf("%s steps with %s: %c is the sandbox's key to %s", name, keys, r, m.keyMeaning(string(r)))
}

// keyMeaning is what a letter key does in the sandbox, for initialNote.
func (m Model) keyMeaning(s string) string {
	k := m.Keys
	for _, b := range []key.Binding{k.Undo, k.Restart, k.Mode, k.Seed, k.Explore, k.Hint, k.Save, k.Load,
		k.Export, k.Share, k.ObjectKey, m.race.Keys.Inspect} {
		for _, x := range b.Keys() {
			if x == s {
				return b.Help().Desc
			}
		}
	}
	return "quit"
}

func (m Model) raceKey(msg tea.KeyPressMsg) (Model, tea.Cmd) {
	k := m.Keys
	if tok, ok := m.moveKeys()[msg.String()]; ok {
		return m.stepKey(tok)
	}
	switch {
	case key.Matches(msg, k.Undo):
		m.stopAuto()
		t := m.play.taken()
		if len(t) == 0 {
			m.setNotice(false, "nothing to undo: this is the start of the race")
			return m, nil
		}
		if err := m.replay(append([]scenario.Move(nil), t[:len(t)-1]...)); err != nil {
			m.setNotice(true, "%v", err)
		}
	case key.Matches(msg, k.Restart):
		m.restart()
	case key.Matches(msg, k.Auto):
		if m.play.auto {
			m.stopAuto()
			return m, nil
		}
		return m, m.startAuto()
	case key.Matches(msg, k.Mode):
		m.play.random = !m.play.random
		m.play.rng = nil
	case key.Matches(msg, k.Seed):
		m.play.seed++
		m.play.rng = nil
		m.play.random = true
	case key.Matches(msg, k.Faster):
		m.play.speed = min(m.play.speed+1, len(raceview.Speeds)-1)
	case key.Matches(msg, k.Slower):
		m.play.speed = max(m.play.speed-1, 0)
	case m.race.HandlesKey(msg) && key.Matches(msg, m.race.Keys.Inspect):
		if m.play.out == nil || len(m.play.out.Steps) == 0 {
			m.setNotice(false, "nothing to inspect yet: step a controller first")
			return m, nil
		}
		m.stopAuto()
		return m.inspectKey(msg)
	case m.race.HandlesKey(msg) && (key.Matches(msg, m.race.Keys.Object, m.race.Keys.ScrollUp, m.race.Keys.ScrollDown)):
		var cmd tea.Cmd
		m.race, cmd = m.race.Update(msg)
		return m, cmd
	}
	return m, nil
}

// inspectKey hands a key to the race view's inspect panel (the request as
// sent, the answer, the version it made, as in a lesson); when the panel
// closes, the timeline shows every step taken again.
func (m Model) inspectKey(msg tea.KeyPressMsg) (Model, tea.Cmd) {
	var cmd tea.Cmd
	m.race, cmd = m.race.Update(msg)
	if !m.race.Inspecting() && m.play.out != nil {
		m.race.SetIndex(len(m.play.out.Steps) - 1)
	}
	return m, cmd
}

func (m Model) stepKey(tok scenario.Move) (Model, tea.Cmd) {
	if m.play.err != nil {
		m.setNotice(true, "the race cannot run: fix it in the build tab")
		return m, nil
	}
	switch name, why := preview.Why(m.play.world, m.sc, tok); why {
	case preview.Enabled:
		return m, m.step(tok)
	case preview.FedOnItsOwn:
		m.setNotice(true, "%s's informer lag is not manual: its cache is fed on its own (set lag to manual in the build tab)", name)
	case preview.NothingPending:
		m.setNotice(false, "%s cache has seen every write: no watch event is waiting", report.Possessive(name))
	default:
		m.setNotice(false, "%s has finished: it takes no more steps", name)
	}
	return m, nil
}

func (m *Model) startAuto() tea.Cmd {
	if m.play.over() {
		m.setNotice(false, "the race is over: r restarts it")
		return nil
	}
	m.play.auto = true
	m.play.gen++
	return m.nextTick()
}

func (m *Model) stopAuto() {
	m.play.auto = false
	m.play.gen++
}

func (m Model) nextTick() tea.Cmd {
	gen := m.play.gen
	t := m.play.tick
	if t == nil {
		t = tea.Tick
	}
	return t(raceview.Speeds[m.play.speed].Every, func(time.Time) tea.Msg { return autoTick{gen: gen} })
}

func (m Model) onAutoTick(msg autoTick) (Model, tea.Cmd) {
	if msg.gen != m.play.gen || !m.play.auto {
		return m, nil
	}
	// Autoplay ends where race.Play does (over: every controller is
	// done), even if a manual-lag cache still has events to take.
	if m.play.over() {
		m.stopAuto()
		return m, nil
	}
	var tok scenario.Move
	if m.play.random {
		if m.play.rng == nil {
			m.play.rng = rand.New(rand.NewPCG(m.play.seed, seedStream))
		}
		en := m.play.world.Enabled()
		tok = en[m.play.rng.IntN(len(en))]
	} else {
		tok = m.nextRoundRobin()
	}
	cmd := m.step(tok)
	if m.play.over() {
		m.stopAuto()
		return m, cmd
	}
	return m, tea.Batch(cmd, m.nextTick())
}

// nextRoundRobin picks the controller after the one that moved last, as
// race.Play does; watch events are left to the learner.
func (m Model) nextRoundRobin() scenario.Move {
	names := make([]string, len(m.sc.Controllers))
	for i, c := range m.sc.Controllers {
		names[i] = c.Name
	}
	last := -1
	if t := m.play.taken(); len(t) > 0 {
		for i, n := range names {
			if prev := t[len(t)-1]; !prev.Deliver && n == prev.Controller {
				last = i
			}
		}
	}
	enabled := map[scenario.Move]bool{}
	for _, t := range m.play.world.Enabled() {
		enabled[t] = true
	}
	for k := 1; k <= len(names); k++ {
		if n := scenario.Step(names[(last+k)%len(names)]); enabled[n] {
			return n
		}
	}
	return m.play.world.Enabled()[0]
}

// viewRace is the scheduler: one line per controller with its keys and
// its next step, the autoplay state, and the race view below.
func (m Model) viewRace(w, h int) string {
	st := m.st
	p := m.play
	if p.err != nil {
		return layout.Fit(st.Bad.Render(styles.Bad+" this race cannot run:")+"\n"+layout.Wrap(p.err.Error(), w)+"\n\n"+
			st.Faint.Render("change it in the build tab (tab)"), w, h)
	}
	var lines []string
	names := make([]string, len(m.sc.Controllers))
	for i, c := range m.sc.Controllers {
		names[i] = c.Name
	}
	panel := preview.Panel{St: st, Keys: m.keysOf, Next: p.next, NameW: 6, CacheCol: 36, CacheGap: 34}
	nameW := 6
	for _, c := range m.sc.Controllers {
		nameW = max(nameW, len(c.Name)+2)
	}
	for _, line := range panel.Lines(m.sc, p.out, names, w) {
		// What a controller does next wraps under itself, after its keys
		// and its name.
		lines = append(lines, hang(line, w, 5+nameW)...)
	}
	for i := range m.sc.Controllers {
		if note := m.initialNote(i); note != "" {
			lines = append(lines, hang(st.Faint.Render(note), w, 2)...)
		}
	}
	mode := "round-robin"
	if p.random {
		mode = fmt.Sprintf("random, seed %d", p.seed)
	}
	state := "‖ you schedule"
	if p.auto {
		state = styles.Current + " running"
	}
	status := fmt.Sprintf("%s · %d turns taken · autoplay %s at %s", state, len(p.taken()), mode, raceview.Speeds[p.speed].Label)
	if p.over() {
		status = fmt.Sprintf("race over after %d turns · u undoes · r restarts", len(p.taken()))
	}
	for _, l := range hang(status, w, 2) {
		lines = append(lines, st.Faint.Render(l))
	}
	m.race.SetSize(w, max(0, h-len(lines)-1))
	return layout.Fit(strings.Join(lines, "\n")+"\n"+layout.Rule("", w, st.Border)+"\n"+m.race.View(), w, h)
}
