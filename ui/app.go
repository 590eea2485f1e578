// Package ui is the tutorial's terminal interface: the root model that
// routes between the home screen and the lesson player, draws the header
// and the key bar, checks the window is large enough, learns the
// terminal's background to pick the styles, and saves progress.
package ui

import (
	"errors"
	"fmt"
	"github.com/conflictlab/conflictlab/level"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/conflictlab/conflictlab/lessons"
	"github.com/conflictlab/conflictlab/lessons/racecache"
	"github.com/conflictlab/conflictlab/progress"
	"github.com/conflictlab/conflictlab/quiz"
	"github.com/conflictlab/conflictlab/sim/scenario"
	"github.com/conflictlab/conflictlab/termsafe"
	"github.com/conflictlab/conflictlab/ui/chrome"
	"github.com/conflictlab/conflictlab/ui/home"
	"github.com/conflictlab/conflictlab/ui/layout"
	"github.com/conflictlab/conflictlab/ui/nav"
	"github.com/conflictlab/conflictlab/ui/player"
	quizui "github.com/conflictlab/conflictlab/ui/quiz"
	"github.com/conflictlab/conflictlab/ui/raceview"
	"github.com/conflictlab/conflictlab/ui/sandbox"
	"github.com/conflictlab/conflictlab/ui/styles"
)

// MinWidth and MinHeight are the smallest window the screens are drawn
// for; below it the app says how large it needs to be.
const (
	MinWidth  = chrome.MinWidth
	MinHeight = chrome.MinHeight
)

// Config is what the app needs from outside.
type Config struct {
	// LoadCourse loads the lessons (lessons.Course by default).
	LoadCourse func() (*lessons.Pack, error)
	// Store holds the progress; nil keeps progress in memory only.
	Store *progress.Store
	// StoreNotice is shown on the home screen (a store that could not be
	// opened, for example).
	StoreNotice string
	NoColor     bool
	// Start is when the process started, for the first-frame trace.
	Start time.Time
	// Trace, when set, is told how long the first frame and the first
	// frame with the course took from Start.
	Trace func(event string, d time.Duration)
	// Started, when set, is called once the first screen has been drawn
	// (two frame intervals after the course loaded), before the first
	// race is warmed: the process gives the garbage collector back then
	// (package boot).
	Started func()
	// Ticker replaces tea.Tick for playback (tests).
	Ticker raceview.Ticker
	// Snippets replaces lessons/snippets as the code pane's source (tests).
	Snippets func(name string) (string, error)
	// LoadQuiz loads the question bank and the races of the course it is
	// about (the built-in ones by default; see quizscreen.go).
	LoadQuiz func() (*quiz.Bank, *racecache.Races, error)
	// Today sets the quiz's default seed (the date; time.Now by default).
	Today func() time.Time
	// OpenSandbox starts on the sandbox instead of the home screen, on
	// Sandbox's race when set; SandboxFile is where that came from.
	OpenSandbox  bool
	Sandbox      *scenario.Scenario
	SandboxFile  string
	SandboxLevel *level.Level
	// Live, when set, makes the player offer to replay a race on a real
	// cluster (set when a kubeconfig is found).
	Live func(*lessons.Pack) player.Live
	// QuizSeed is the quiz's default seed ("": Today's date).
	QuizSeed string
	// SandboxEnv is the sandbox's clock, explorer budget and files.
	SandboxEnv sandbox.Env
	// Observe, when set, is told where the learner is and the progress
	// after each change (see Activity); it must return at once.
	Observe func(Activity)
}

type screen int

const (
	loading screen = iota
	homeScreen
	playerScreen
	failed
	quizScreen
	sandboxScreen
)

// loaded is the course and progress, read off the UI loop.
type loaded struct {
	pack   *lessons.Pack
	prog   *progress.Progress
	notice string
	err    error
}

// saved reports a progress write.
type saved struct{ err error }

// warmed is the first race computed ahead of need (its result is cached).
type warmed struct{}

// GlobalKeys work on every screen.
type GlobalKeys struct {
	Quit, Help, Back key.Binding
}

// DefaultGlobalKeys are the bindings that work everywhere.
func DefaultGlobalKeys() GlobalKeys {
	return GlobalKeys{
		Quit: key.NewBinding(key.WithKeys("q", "ctrl+c"), key.WithHelp("q", "quit")),
		Help: key.NewBinding(key.WithKeys("?"), key.WithHelp("?", "all keys")),
		Back: key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "back")),
	}
}

// Model is the root model.
type Model struct {
	cfg      Config
	st       *styles.Styles
	w, h     int
	screen   screen
	err      error
	pack     *lessons.Pack
	races    *racecache.Races
	live     player.Live
	prog     *progress.Progress
	saveSeq  uint64
	status   string
	home     home.Model
	player   player.Model
	help     help.Model
	showHelp bool
	keys     GlobalKeys
	frames   *frameTrace
	// quiz is the quiz screen, kept while the learner visits lessons.
	quiz   quizui.Model
	quizOn bool
	// sandbox is kept, like the quiz, while the learner visits lessons.
	sandbox   sandbox.Model
	sandboxOn bool
	// pending are the keys pressed while the course loads, replayed in
	// order once it has.
	pending []tea.KeyPressMsg
	// lessonFrom is the screen the lesson on show was opened from: esc
	// goes back there (the quiz, or home).
	lessonFrom screen
	// note says why the last key did nothing; the next key clears it.
	note string
	// helpScroll is the first line of a key list taller than the window.
	helpScroll int
	// observed is the place last told to cfg.Observe (behind a pointer:
	// Update has a value receiver).
	observed *Activity
}

// frameTrace remembers which startup events were reported (View has a
// value receiver, so the flags live behind a pointer).
type frameTrace struct{ first, ready bool }

// New builds the app. Nothing heavy happens here: the course is loaded
// and the first race computed in commands after the first frame.
func New(cfg Config) Model {
	if cfg.LoadCourse == nil {
		cfg.LoadCourse = lessons.Course
	}
	st := styles.New(true, cfg.NoColor)
	h := help.New()
	h.Styles = st.Help
	return Model{cfg: cfg, st: st, help: h, keys: DefaultGlobalKeys(), frames: &frameTrace{}, observed: &Activity{}}
}

// Init asks the terminal for its background and loads the course.
func (m Model) Init() tea.Cmd {
	cfg := m.cfg
	return tea.Batch(tea.RequestBackgroundColor, func() tea.Msg {
		pack, err := cfg.LoadCourse()
		if err != nil {
			return loaded{err: err}
		}
		prog, notice := progress.New(), cfg.StoreNotice
		if cfg.Store != nil {
			var n string
			prog, n = cfg.Store.Load()
			notice = strings.TrimSpace(notice + " " + n)
		}
		return loaded{pack: pack, prog: prog, notice: notice}
	})
}

// Screen names the screen on show (for tests): loading, home, player, failed.
func (m Model) Screen() string {
	return [...]string{"loading", "home", "player", "failed", "quiz", "sandbox"}[m.screen]
}

// Player is the lesson player (for tests).
func (m Model) Player() player.Model { return m.player }

// Home is the home screen (for tests).
func (m Model) Home() home.Model { return m.home }

// Progress is the progress in memory (for tests).
func (m Model) Progress() *progress.Progress { return m.prog }

// Update routes messages: global keys first, then the screen on show.
func (m Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	next, cmd := m.update(msg)
	if nm, ok := next.(Model); ok && nm.cfg.Observe != nil {
		nm.observe(nil)
	}
	return next, cmd
}

// observe tells cfg.Observe where the learner is, when that changed or
// data (the progress just encoded) is given.
func (m Model) observe(data []byte) {
	a := Activity{Screen: m.Screen(), Progress: data}
	if m.screen == playerScreen && m.player.Lesson() != nil {
		a.Lesson, a.Step = m.player.Lesson().ID, m.player.Step()
	}
	last := m.observed
	if data == nil && a.Screen == last.Screen && a.Lesson == last.Lesson && a.Step == last.Step {
		return
	}
	*m.observed = Activity{Screen: a.Screen, Lesson: a.Lesson, Step: a.Step}
	m.cfg.Observe(a)
}

// announce carries out an instructor's message.
func (m Model) announce(msg Announce) (tea.Model, tea.Cmd) {
	var cmd tea.Cmd
	if m.pack != nil {
		switch {
		case msg.Lesson != "" && m.pack.Lesson(msg.Lesson) != nil:
			m.showHelp = false
			step := 0
			if l, ok := m.prog.Lessons[msg.Lesson]; ok {
				step = l.Step
			}
			var next tea.Model
			next, cmd = m.update(nav.Open{LessonID: msg.Lesson, Step: step})
			m = next.(Model)
		case msg.Quiz:
			m.showHelp = false
			cmd = m.openQuiz()
		}
	}
	m.note = msg.Text
	return m, cmd
}

func (m Model) update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case Announce:
		if m.screen == loading {
			return m, func() tea.Msg { return msg } // after the course has loaded
		}
		return m.announce(msg)
	case tea.WindowSizeMsg:
		m.w, m.h = msg.Width, msg.Height
		m.resize()
		return m, nil
	case tea.BackgroundColorMsg:
		m.setStyles(styles.New(msg.IsDark(), m.cfg.NoColor))
		return m, nil
	case pendingAfter:
		return m.takePendingAfter(msg)
	case loaded:
		if msg.err != nil {
			m.screen, m.err = failed, msg.err
			return m, m.started(nil)
		}
		pack := displayPack(msg.pack)
		m.pack, m.prog, m.races = pack, msg.prog, racecache.New(msg.pack)
		if m.cfg.Live != nil {
			m.live = m.cfg.Live(msg.pack)
		}
		m.home = home.New(pack.Lessons, m.prog, termsafe.Escape(msg.notice), m.st)
		m.screen = homeScreen
		m.resize()
		var first tea.Cmd
		if m.cfg.OpenSandbox {
			first = tea.Batch(m.openSandboxWith(), m.afterFirstFrame(false))
		} else {
			first = m.afterFirstFrame(true)
		}
		return m.replayPending(first)
	case warmNow:
		var warm tea.Cmd
		if msg.race {
			warm = m.warm()
		}
		return m, m.started(warm)
	case warmed:
		return m, nil
	case saved:
		m.status = ""
		if msg.err != nil && !errors.Is(msg.err, progress.ErrReadOnly) {
			m.status = styles.Warn + " progress not saved: " + saveProblem(msg.err)
		}
		return m, nil
	case nav.ProgressChanged:
		return m, m.save()
	case nav.Open:
		if m.screen != playerScreen {
			m.lessonFrom = m.screen
		}
		return m, m.open(msg.LessonID, msg.Step)
	case nav.OpenQuiz:
		return m, m.openQuiz()
	case quizui.Msg:
		// The quiz's data and races arrive whatever screen is on show.
		var cmd tea.Cmd
		m.quiz, cmd = m.quiz.Update(msg)
		return m, cmd
	case nav.OpenSandbox:
		return m, m.openSandbox()
	case sandbox.Msg:
		// The explorer's reports arrive whatever screen is on show.
		var cmd tea.Cmd
		m.sandbox, cmd = m.sandbox.Update(msg)
		return m, cmd
	case nav.Home:
		var keep tea.Cmd
		if m.screen == sandboxScreen {
			keep = m.keepDraft()
		}
		m.screen = homeScreen
		m.showHelp = false
		return m, keep
	case draftRead:
		m.onDraftRead(msg)
		return m, nil
	case draftWritten:
		if msg.err != nil {
			m.note = "the sandbox's race was not kept: " + msg.err.Error()
		}
		return m, nil
	case tea.KeyPressMsg:
		m.note = ""
		if m.screen == loading && msg.String() != "ctrl+c" {
			m.pending = append(m.pending, msg)
			return m, nil
		}
		if m.sandboxTakesKey(msg) {
			var cmd tea.Cmd
			m.sandbox, cmd = m.sandbox.Update(msg)
			return m, cmd
		}
		if m.screen == playerScreen && !m.showHelp && m.player.TakesKey(msg) {
			// esc stops a play step's proof, not the lesson.
			var cmd tea.Cmd
			m.player, cmd = m.player.Update(msg)
			return m, cmd
		}
		switch {
		case key.Matches(msg, m.keys.Quit):
			return m, tea.Quit
		case key.Matches(msg, m.keys.Help):
			m.showHelp = !m.showHelp
			m.helpScroll = 0
			return m, nil
		case key.Matches(msg, m.keys.Back):
			switch {
			case m.showHelp:
				m.showHelp = false
			case m.screen == playerScreen && m.lessonFrom == quizScreen && m.quizOn:
				m.screen = quizScreen
				m.resize()
			case m.screen == playerScreen:
				m.screen = homeScreen
			case m.screen == quizScreen:
				var cmd tea.Cmd
				m.quiz, cmd = m.quiz.Back()
				return m, cmd
			}
			return m, nil
		}
		if m.showHelp {
			m.helpKey(msg)
			return m, nil
		}
		if why := m.idleKey(msg); why != "" {
			m.note = why
			return m, nil
		}
	}
	var cmd tea.Cmd
	if c := m.active(); c != nil {
		cmd = c.update(msg)
	}
	return m, cmd
}

func (m *Model) setStyles(st *styles.Styles) {
	m.st = st
	m.help.Styles = st.Help
	for _, c := range m.components() {
		c.setStyles(st)
	}
}

// resize gives each screen the room between the header and the key bar.
func (m *Model) resize() {
	h := max(0, m.h-2)
	// The screens but home keep a one-column margin on the left, like the
	// header.
	for _, c := range m.components() {
		c.setSize(m.w, h)
	}
	m.help.SetWidth(m.w)
}

// warm computes the race the learner will most likely open first, in a
// command, so that the API server's schema is built while they read the
// home screen rather than when they press enter.
func (m Model) warm() tea.Cmd {
	spec, ok := m.firstRace()
	if !ok {
		return nil
	}
	races := m.races
	return func() tea.Msg {
		races.Race(spec) //nolint:errcheck // the player reports errors when it asks again
		return warmed{}
	}
}

// firstRace is the race the learner will most likely see first: the next
// one in the lesson the home screen offers to continue.
func (m Model) firstRace() (lessons.RaceSpec, bool) {
	id, step, ok := m.home.ContinueTarget()
	if !ok {
		return lessons.RaceSpec{}, false
	}
	l := m.pack.Lesson(id)
	for i := step; i < len(l.Steps); i++ {
		if s := l.Steps[i]; s.Race != nil {
			return s.Spec(nil), true
		}
	}
	return lessons.RaceSpec{}, false
}

func (m *Model) open(id string, step int) tea.Cmd {
	if m.pack == nil {
		return nil // the course has not loaded yet
	}
	l := m.pack.Lesson(id)
	if l == nil {
		return nil
	}
	var next *lessons.Lesson
	if l.Next != "" {
		next = m.pack.Lesson(l.Next)
	} else {
		for i, x := range m.pack.Lessons {
			if x == l && i+1 < len(m.pack.Lessons) {
				next = m.pack.Lessons[i+1]
			}
		}
	}
	var cmd tea.Cmd
	m.player, cmd = player.New(l, next, m.prog, m.races, m.st, step)
	if m.cfg.Ticker != nil {
		m.player.SetTicker(m.cfg.Ticker)
	}
	if m.cfg.Snippets != nil {
		m.player.SetSnippets(m.cfg.Snippets)
	}
	if m.live != nil {
		m.player.SetLive(m.live)
	}
	m.home.SetNotice("")
	m.screen = playerScreen
	m.showHelp = false
	m.resize()
	return cmd
}

// save encodes the progress now, on the UI loop (so no other goroutine
// reads it while it changes), and writes it in a command.
func (m *Model) save() tea.Cmd {
	if m.prog == nil || m.cfg.Store == nil && m.cfg.Observe == nil {
		return nil
	}
	data, err := progress.Encode(m.prog)
	if err != nil {
		return func() tea.Msg { return saved{err: err} }
	}
	m.saveSeq++
	if m.cfg.Observe != nil {
		m.observe(data)
	}
	seq, store := m.saveSeq, m.cfg.Store
	if store == nil {
		return nil
	}
	return func() tea.Msg { return saved{err: store.WriteSnapshot(seq, data)} }
}

// View draws the whole window.
func (m Model) View() tea.View {
	v := tea.NewView(m.render())
	v.AltScreen = true
	// The wheel scrolls the lesson and quiz text (shift+drag still
	// selects text in most terminals).
	v.MouseMode = tea.MouseModeCellMotion
	v.WindowTitle = "Conflict Lab"
	if m.cfg.Trace != nil && m.w > 0 {
		if !m.frames.first {
			m.frames.first = true
			m.cfg.Trace("first-frame", time.Since(m.cfg.Start))
		}
		if !m.frames.ready && m.screen != loading {
			m.frames.ready = true
			m.cfg.Trace("course-frame", time.Since(m.cfg.Start))
		}
	}
	return v
}

// render is the window's content: exactly w×h cells, never wider.
func (m Model) render() string {
	if m.w <= 0 || m.h <= 0 {
		return ""
	}
	if m.w < MinWidth || m.h < MinHeight {
		msg := fmt.Sprintf("Conflict Lab needs a terminal of at least %d×%d; this one is %d×%d. Make the window larger (or the font smaller).",
			MinWidth, MinHeight, m.w, m.h)
		return layout.Fit(layout.Wrap(msg, m.w), m.w, m.h)
	}
	bodyH := m.h - 2
	var title, body string
	var keys help.KeyMap = barKeys{m.shortHelp(), m.fullHelp()}
	switch m.screen {
	case loading:
		body = layout.Fit("\n "+m.st.Faint.Render("loading the course…"), m.w, bodyH)
	case failed:
		body = layout.Fit(" "+m.st.Bad.Render(styles.Bad+" the course could not be loaded:")+"\n\n"+
			indent(layout.Wrap(m.err.Error(), m.w-2), " "), m.w, bodyH)
	default:
		c := m.active()
		title = c.title()
		body = indent(c.view(), strings.Repeat(" ", c.margin()))
	}
	if m.showHelp {
		body = m.helpScreen(bodyH)
	}
	// Untrusted text is escaped where it enters the screens (displayPack,
	// the race runs); this guard catches whatever was missed (an error
	// message, a file name), keeping only the styles' own SGR sequences.
	return termsafe.Styled(m.header(title) + "\n" + layout.Fit(body, m.w, bodyH) + "\n" + m.keyBar(keys))
}

func (m Model) header(title string) string {
	if m.status == "" {
		return chrome.Header(m.st, title, m.w)
	}
	left := chrome.Brand(m.st)
	if title != "" {
		left += m.st.Faint.Render(" › ") + title
	}
	return m.warningHeader(left)
}

// warningHeader puts the status warning beside the title. A warning is
// never hidden by a narrow window: the title gives way first (down to the
// program's name), then the warning's own detail is cut; its headline
// ("⚠ progress not saved") fits from 40 columns.
func (m Model) warningHeader(left string) string {
	brand := chrome.Brand(m.st)
	need := layout.MaxWidth(m.status) + 2 // a space before, one after
	if room := m.w - need; layout.MaxWidth(left) > room {
		if room > layout.MaxWidth(brand)+1 {
			left = layout.Truncate(left, room)
		} else {
			left = brand
		}
	}
	warn := layout.Truncate(m.status, m.w-layout.MaxWidth(left)-2)
	gap := m.w - layout.MaxWidth(left) - layout.MaxWidth(warn) - 1
	return layout.Pad(left+strings.Repeat(" ", max(1, gap))+m.st.Warn.Render(warn)+" ", m.w)
}

// saveProblem says why a save failed, the reason first: the header may
// have room only for the start ("permission denied in DIR" rather than
// "open DIR/.progress.json.tmp-123: permission denied").
func saveProblem(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error() + " in " + filepath.Dir(pe.Path)
	}
	return err.Error()
}

func (m Model) keyBar(k help.KeyMap) string {
	if m.note != "" {
		return layout.Pad(" "+m.st.Warn.Render(layout.Truncate(m.note, m.w-2)), m.w)
	}
	h := m.help
	h.ShowAll = false
	h.SetWidth(m.w - 1)
	return layout.Pad(" "+h.View(k), m.w)
}

func (m Model) shortHelp() []key.Binding {
	var out []key.Binding
	switch {
	case m.showHelp:
		return []key.Binding{m.keys.Back, m.keys.Quit}
	case m.screen == sandboxScreen && m.sandbox.CapturesKeys():
		return m.sandbox.ShortHelp()
	case m.screen == playerScreen || m.screen == quizScreen:
		out = m.active().shortHelp()
		if !hasKey(out, "esc") {
			// The screen's esc, when it lists one, is the one it means.
			out = append(out, m.keys.Back)
		}
	case m.active() != nil:
		out = m.active().shortHelp()
	}
	return append(out, m.keys.Help, m.keys.Quit)
}

// hasKey reports whether an enabled binding of keys has the key k.
func hasKey(keys []key.Binding, k string) bool {
	for _, b := range keys {
		if b.Enabled() && slices.Contains(b.Keys(), k) {
			return true
		}
	}
	return false
}

func (m Model) fullHelp() [][]key.Binding {
	var out [][]key.Binding
	for _, g := range m.helpGroups() {
		out = append(out, g.Keys)
	}
	return out
}

func indent(block, by string) string {
	lines := layout.Lines(block)
	for i, l := range lines {
		lines[i] = by + l
	}
	return strings.Join(lines, "\n")
}

// barKeys adapts binding lists to help.KeyMap.
type barKeys struct {
	short []key.Binding
	full  [][]key.Binding
}

func (b barKeys) ShortHelp() []key.Binding  { return b.short }
func (b barKeys) FullHelp() [][]key.Binding { return b.full }
