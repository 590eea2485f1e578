// Package sandbox is the sandbox screen: compose a race (the object and
// two to four controllers, every setting explained where it is chosen),
// play the scheduler one atomic step at a time as in The Deadlock Empire,
// run the explorer over every interleaving, take the "break it" and "fix
// it" challenges, and save, load and export races.
//
// The simulator is deterministic and goroutine-free: a step is World.Step,
// an undo replays the schedule minus its last token, and the only
// goroutine here is the one the explorer runs on, which talks to the UI
// through a channel read by successive commands.
package sandbox

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/conflictlab/conflictlab/progress"
	"github.com/conflictlab/conflictlab/sandbox/draft"
	"github.com/conflictlab/conflictlab/sim/scenario"
	"github.com/conflictlab/conflictlab/termsafe"
	"github.com/conflictlab/conflictlab/ui/keyhelp"
	"github.com/conflictlab/conflictlab/ui/layout"
	"github.com/conflictlab/conflictlab/ui/nav"
	"github.com/conflictlab/conflictlab/ui/raceview"
	"github.com/conflictlab/conflictlab/ui/styles"
)

// Msg is implemented by the sandbox's own messages (explorer progress,
// autoplay ticks) so the root can deliver them whichever screen is on
// show: an exploration keeps running while the learner reads a lesson.
type Msg interface{ sandboxMsg() }

type tab int

const (
	buildTab tab = iota
	raceTab
	exploreTab
	challengesTab
)

var tabNames = []string{"build", "race", "explore", "challenges"}

// KeyMap is the sandbox's keys. The scheduler's controller keys (1–4 and
// initials) are not here: they depend on the race.
type KeyMap struct {
	NextTab, PrevTab                       key.Binding
	Up, Down, Left, Right, Enter, Delete   key.Binding
	Undo, Restart, Auto, Mode, Seed        key.Binding
	Faster, Slower                         key.Binding
	Explore, Hint                          key.Binding
	Save, Load, Export, Share, Back        key.Binding
	Yes, No                                key.Binding
	StepKeys, CacheKeys, Commit, ObjectKey key.Binding
}

// DefaultKeys are the sandbox's bindings.
func DefaultKeys() KeyMap {
	b := func(keys []string, k, help string) key.Binding {
		return key.NewBinding(key.WithKeys(keys...), key.WithHelp(k, help))
	}
	return KeyMap{
		NextTab:  b([]string{"tab"}, "tab", "next tab"),
		PrevTab:  b([]string{"shift+tab"}, "shift+tab", "previous tab"),
		Up:       b([]string{"up", "k"}, "↑/k", "up"),
		Down:     b([]string{"down", "j"}, "↓/j", "down"),
		Left:     b([]string{"left"}, "←", "previous choice"),
		Right:    b([]string{"right"}, "→", "next choice"),
		Enter:    b([]string{"enter"}, "enter", "edit/choose"),
		Delete:   b([]string{"delete", "backspace", "d"}, "d", "delete row"),
		Undo:     b([]string{"u", "backspace"}, "u", "undo step"),
		Restart:  b([]string{"r"}, "r", "restart"),
		Auto:     b([]string{"space"}, "space", "run/stop"),
		Mode:     b([]string{"m"}, "m", "round-robin/random"),
		Seed:     b([]string{"n"}, "n", "new seed"),
		Faster:   b([]string{"+", "="}, "+/-", "speed"),
		Slower:   b([]string{"-", "_"}, "-", "slower"),
		Explore:  b([]string{"e"}, "e", "explore all"),
		Hint:     b([]string{"h"}, "h", "hint"),
		Save:     b([]string{"s"}, "s", "save"),
		Load:     b([]string{"l"}, "l", "load"),
		Export:   b([]string{"x"}, "x", "export"),
		Share:    b([]string{"t"}, "t", "share as text"),
		Back:     b([]string{"esc"}, "esc", "back"),
		Yes:      b([]string{"y"}, "y", "yes"),
		No:       b([]string{"n", "esc"}, "n", "no"),
		Commit:   b([]string{"ctrl+s"}, "ctrl+s", "done"),
		StepKeys: b([]string{"1", "2", "3", "4"}, "1-4/initial", "step controller"),
		CacheKeys: b([]string{"!", "@", "#", "$", "shift+1", "shift+2", "shift+3", "shift+4"},
			"⇧1-4/capital", "deliver watch event"),
		ObjectKey: b([]string{"o"}, "o", "object/timeline"),
	}
}

// Model is the sandbox.
type Model struct {
	st   *styles.Styles
	env  Env
	w, h int
	Keys KeyMap
	tab  tab

	// sc is the race being built; play runs it.
	sc   *scenario.Scenario
	file string

	build buildState
	play  playState
	race  raceview.Model
	ex    exploreState
	chal  challengeState
	prog  *progress.Progress

	prompt *prompt
	// share is the share panel: the race as a level's text.
	share *shareState
	// question asks y/n before something that would lose work.
	question *question
	// clean is the race as a file holds it (see Unsaved).
	clean []byte
	// notice is the last thing the sandbox has to tell (saved, an error).
	notice string
	bad    bool
}

// New opens the sandbox on its starting race, in the terminal tutorial's
// environment (see NewIn).
func New(st *styles.Styles, prog *progress.Progress) Model { return NewIn(Env{}, st, prog) }

// NewIn opens the sandbox on its starting race in env. prog receives the
// challenges' best results: the sandbox reads it, and sends a challenge
// solved as a progress.ChallengeSolved for the root to apply.
func NewIn(env Env, st *styles.Styles, prog *progress.Progress) Model {
	if prog == nil {
		prog = progress.New()
	}
	m := Model{st: st, env: env, Keys: DefaultKeys(), prog: prog, race: raceview.New(st)}
	m.race.SetOpen(true)
	m.play.speed = raceview.DefaultSpeed
	m.play.seed = 1
	m.setRace(draft.New(), "")
	return m
}

// Open replaces the race with sc (a file's, say), replaying its schedule
// if it has one, and shows it in the race tab.
func (m *Model) Open(sc *scenario.Scenario, file string) error {
	if err := draft.Editable(sc); err != nil {
		return err
	}
	m.leaveChallenge()
	m.setRace(draft.Clone(sc), file)
	m.sc.Name = termsafe.Escape(m.sc.Name) // shown in titles: a file's name is shown, never obeyed
	if len(sc.Schedule) > 0 {
		if err := m.replay(sc.Schedule); err != nil {
			m.setNotice(true, "the file's schedule does not replay: %v", err)
		}
	}
	if sc.Seed != nil {
		m.play.seed = *sc.Seed
	}
	m.tab = raceTab
	return nil
}

// setRace makes sc the race being built and played.
func (m *Model) setRace(sc *scenario.Scenario, file string) {
	// The schedule lives in the player while the race is on screen; the
	// draft keeps only what the editor edits.
	sc.Schedule, sc.Seed = nil, nil
	m.sc, m.file = sc, file
	m.build.cursor, m.build.scroll = 0, 0
	m.ex = exploreState{}
	m.markClean()
	m.restart()
}

// SetStyles replaces the styles.
func (m *Model) SetStyles(st *styles.Styles) {
	m.st = st
	m.race.SetStyles(st)
}

// SetTicker replaces the autoplay clock (tests drive it).
func (m *Model) SetTicker(t raceview.Ticker) { m.play.tick = t }

// SetSize sets the sandbox's rectangle.
func (m *Model) SetSize(w, h int) { m.w, m.h = w, h }

// Scenario is the race being built (for tests).
func (m Model) Scenario() *scenario.Scenario { return m.sc }

// Taken is the schedule played so far (for tests).
func (m Model) Taken() []scenario.Move { return m.play.taken() }

// Tab names the tab on show (for tests).
func (m Model) Tab() string { return tabNames[m.tab] }

// Title is the header text for the root's top bar.
func (m Model) Title() string {
	t := "Sandbox · " + tabNames[m.tab]
	if c := m.chal.active; c != nil {
		t += " · challenge: " + termsafe.Escape(c.Title)
	}
	return t
}

// CapturesKeys reports whether every key should come here, even those the
// root binds (q, ?, esc): a text field is being typed in, or a question
// is waiting for its answer.
func (m Model) CapturesKeys() bool {
	return m.prompt != nil || m.question != nil || m.share != nil || m.build.editing()
}

// TakesKey reports whether a key comes here before the root's own
// bindings: all of them while a text field or a question is open (q and
// ? are letters then), and esc while it has something to close (the
// explorer running, autoplay, a challenge). ctrl+c always quits.
func (m Model) TakesKey(msg tea.KeyPressMsg) bool {
	if msg.String() == "ctrl+c" {
		return false
	}
	return m.CapturesKeys() || key.Matches(msg, m.Keys.Back) && m.canBack()
}

// Where is no lesson.
func (m Model) Where() nav.Place { return nav.Place{} }

// Exploring reports whether the explorer is running.
func (m Model) Exploring() bool { return m.ex.running != nil }

func (m *Model) setNotice(bad bool, format string, args ...any) {
	m.notice, m.bad = fmt.Sprintf(format, args...), bad
}

// Update handles the sandbox's keys and messages.
func (m Model) Update(msg tea.Msg) (Model, tea.Cmd) {
	switch msg := msg.(type) {
	case autoTick:
		return m.onAutoTick(msg)
	case exploreProgress, exploreDone, exploreTick:
		return m.onExplore(msg)
	case fileLoaded:
		return m.onLoaded(msg), nil
	case fileWritten:
		return m.onWritten(msg), nil
	case choicesFound:
		return m.onChoices(msg), nil
	case fixFound:
		return m.onFixFound(msg), nil
	case shortestFound:
		return m.onShortest(msg), nil
	case playMsg:
		if !m.playing() {
			return m, nil
		}
		return m.playKey(msg.msg)
	case playTick:
		if !m.playing() {
			return m, nil
		}
		return m.playKey(msg.msg)
	case solvedMsg:
		return m.solved(msg.Solved)
	case draftRead:
		return m.onDraftRead(msg)
	case tea.KeyPressMsg:
		return m.key(msg)
	}
	return m, nil
}

func (m Model) key(msg tea.KeyPressMsg) (Model, tea.Cmd) {
	k := m.Keys
	if m.question != nil {
		return m.questionKey(msg)
	}
	if m.prompt != nil {
		return m.promptKey(msg)
	}
	if m.share != nil {
		return m.shareKey(msg)
	}
	if m.build.editing() {
		return m.editKey(msg)
	}
	if m.tab == raceTab && m.playing() && m.chal.play.HandlesKey(msg) {
		// The challenge on the stage has its keys first: the scheduler's,
		// or the settings' and the proof's.
		return m.playKey(msg)
	}
	if m.tab == raceTab && !m.playing() && m.race.Inspecting() && m.race.HandlesKey(msg) {
		// The inspect panel has the keys while it is open: ←/→ choose
		// the row, ↑/↓ scroll it, esc or i close it.
		return m.inspectKey(msg)
	}
	switch {
	case key.Matches(msg, k.Back):
		return m.back()
	case key.Matches(msg, k.NextTab):
		return m.switchTab((m.tab + 1) % 4)
	case key.Matches(msg, k.PrevTab):
		return m.switchTab((m.tab + 3) % 4)
	case key.Matches(msg, k.Share):
		m.openShare()
		return m, nil
	case m.env.NoFiles && (key.Matches(msg, k.Save) || key.Matches(msg, k.Load) || key.Matches(msg, k.Export)):
		m.setNotice(false, "no files here: this sandbox runs on a server, and its files would be the server's")
		return m, nil
	case key.Matches(msg, k.Save):
		m.openPrompt(savePrompt)
		return m, nil
	case key.Matches(msg, k.Load):
		return m.openLoad()
	case key.Matches(msg, k.Export):
		m.openPrompt(exportPrompt)
		return m, nil
	case key.Matches(msg, k.Explore) && m.tab != exploreTab:
		return m.startExplore()
	case m.chal.active != nil && key.Matches(msg, k.Hint):
		m.chal.hint = !m.chal.hint
		return m, nil
	case key.Matches(msg, k.Hint) && m.tab != challengesTab:
		m.setNotice(false, "h shows a hint: it works in a challenge (pick one in the challenges tab)%s", m.stepsWith("h"))
		return m, nil
	}
	switch m.tab {
	case buildTab:
		return m.buildKey(msg)
	case raceTab:
		return m.raceKey(msg)
	case exploreTab:
		return m.exploreKey(msg)
	case challengesTab:
		return m.challengesKey(msg)
	}
	return m, nil
}

// stepsWith says, after a key's own meaning, which key steps a controller
// whose initial the key is: " · controller c steps with 3".
func (m Model) stepsWith(letter string) string {
	for i, c := range m.sc.Controllers {
		if i < 4 && strings.HasPrefix(strings.ToLower(c.Name), letter) {
			return fmt.Sprintf(" · controller %s steps with %s", c.Name, m.keysOf(scenario.Step(c.Name)))
		}
	}
	return ""
}

// canBack reports whether esc has something to close here; when it
// has not, esc is the root's and leaves the sandbox.
func (m Model) canBack() bool { return m.ex.running != nil || m.play.auto || m.chal.active != nil }

// back closes what is open, innermost first: the explorer, autoplay, a
// challenge.
func (m Model) back() (Model, tea.Cmd) {
	switch {
	case m.ex.running != nil:
		m.ex.running.cancel()
	case m.play.auto:
		m.stopAuto()
	case m.chal.active != nil:
		m.leaveChallenge()
		m.tab = challengesTab
	}
	return m, nil
}

func (m Model) switchTab(t tab) (Model, tea.Cmd) {
	m.tab = t
	m.notice = ""
	return m, nil
}

// ShortHelp is the key bar for the tab on show.
func (m Model) ShortHelp() []key.Binding {
	k := m.Keys
	if m.question != nil {
		return []key.Binding{k.Yes, k.No}
	}
	if m.share != nil {
		return []key.Binding{relabel(k.Back, "esc", "close")}
	}
	if m.prompt != nil {
		if m.prompt.confirm {
			return []key.Binding{k.Yes, k.No}
		}
		return []key.Binding{relabel(k.Enter, "enter", m.prompt.verb()), relabel(k.Back, "esc", "cancel")}
	}
	if m.build.editing() {
		if m.build.area != nil {
			return []key.Binding{k.Commit, relabel(k.Back, "esc", "cancel")}
		}
		return []key.Binding{relabel(k.Enter, "enter", "done"), relabel(k.Back, "esc", "cancel")}
	}
	var out []key.Binding
	if m.tab == raceTab && m.playing() {
		return append(m.chal.play.ShortHelp(), k.Hint, relabel(k.Back, "esc", "leave"), k.NextTab)
	}
	switch m.tab {
	case buildTab:
		// Deleting a row comes after the way to the other tabs.
		return []key.Binding{relabel(k.Down, "↑↓", "select"), relabel(k.Right, "←→", "change"), k.Enter, k.NextTab, k.Delete, k.Save}
	case raceTab:
		if m.race.Inspecting() {
			rk := m.race.Keys
			return []key.Binding{relabel(rk.Back, "←→", "row"), relabel(rk.Down, "↑↓", "scroll"), relabel(rk.Close, "esc/i", "close")}
		}
		out = []key.Binding{k.StepKeys}
		if m.play.hasManualLag() {
			out = append(out, k.CacheKeys)
		}
		out = append(out, k.Undo, m.race.Keys.Inspect, k.Restart, k.Auto)
	case exploreTab:
		if m.ex.running != nil {
			return []key.Binding{relabel(k.Back, "esc", "cancel")}
		}
		out = []key.Binding{k.Explore, relabel(k.Enter, "enter", "replay example")}
	case challengesTab:
		out = []key.Binding{relabel(k.Down, "↑↓", "select"), relabel(k.Enter, "enter", "start"), k.Hint}
	}
	return append(out, k.NextTab, k.Save)
}

// HelpGroups is every key, in named groups: the root's key list flows
// them into as many columns as the window has room for.
func (m Model) HelpGroups() []keyhelp.Group {
	k := m.Keys
	groups := []keyhelp.Group{
		{Title: "Build", Keys: []key.Binding{k.NextTab, k.PrevTab, k.Up, k.Down, k.Left, k.Right, k.Enter, k.Delete}},
		{Title: "Race", Keys: []key.Binding{k.StepKeys, k.CacheKeys, k.Undo, m.race.Keys.Inspect, k.Restart, k.Auto, k.Mode, k.Seed, k.Faster, k.ObjectKey}},
		{Title: "Explore and challenges", Keys: []key.Binding{k.Explore, k.Hint}},
		{Title: "Files and sharing", Keys: []key.Binding{k.Save, k.Load, k.Export, k.Share}},
	}
	if m.playing() {
		// The challenge's keys first: on the stage they win.
		ch := keyhelp.Group{Title: "Challenge (race tab)", Keys: append(m.chal.play.FullHelp(), k.Hint, relabel(k.Back, "esc", "leave the challenge"))}
		groups = keyhelp.OneMeaning(append([]keyhelp.Group{ch}, groups[0], groups[2], groups[3]))
	}
	return groups
}

// FullHelp is every key, one column per group.
func (m Model) FullHelp() [][]key.Binding {
	var out [][]key.Binding
	for _, g := range m.HelpGroups() {
		out = append(out, g.Keys)
	}
	return out
}

// relabel is b shown in the key bar under other words.
func relabel(b key.Binding, keys, desc string) key.Binding {
	return key.NewBinding(key.WithKeys(b.Keys()...), key.WithHelp(keys, desc))
}

// View draws the sandbox into exactly its size: the tabs, the challenge
// on, the tab's body, and a line for notices.
func (m Model) View() string {
	if m.w <= 0 || m.h <= 0 {
		return ""
	}
	st := m.st
	var top []string
	var tabs []string
	for i, n := range tabNames {
		if tab(i) == m.tab {
			tabs = append(tabs, st.Selected.Render(" "+n+" "))
		} else {
			tabs = append(tabs, st.Faint.Render(" "+n+" "))
		}
	}
	top = append(top, strings.Join(tabs, st.Faint.Render("│")))
	top = append(top, m.challengeBanner()...)
	var bottom []string
	switch {
	case m.question != nil:
		for _, l := range hang(styles.Warn+" "+m.question.text, m.w, 2) {
			bottom = append(bottom, st.Warn.Render(l))
		}
	case m.prompt != nil:
		bottom = m.promptLines()
	case m.notice != "":
		style := st.OK
		if m.bad {
			style = st.Bad
		}
		for _, l := range hang(m.notice, m.w, 2) {
			bottom = append(bottom, style.Render(l))
		}
	}
	bodyH := max(0, m.h-len(top)-len(bottom))
	var body string
	switch {
	case m.share != nil:
		body = m.viewShare(m.w, bodyH)
	case m.tab == buildTab:
		body = m.viewBuild(m.w, bodyH)
	case m.tab == raceTab:
		if m.playing() {
			body = m.viewLevel(m.w, bodyH)
		} else {
			body = m.viewRace(m.w, bodyH)
		}
	case m.tab == exploreTab:
		body = m.viewExplore(m.w, bodyH)
	case m.tab == challengesTab:
		body = m.viewChallenges(m.w, bodyH)
	}
	out := strings.Join(top, "\n") + "\n" + layout.Fit(body, m.w, bodyH)
	if len(bottom) > 0 {
		out += "\n" + strings.Join(bottom, "\n")
	}
	return layout.Fit(out, m.w, m.h)
}
