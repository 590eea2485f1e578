// Package ui is the tutorial's terminal interface. Its root model keeps
// the screens on a stack (nav.Stack: the home screen at the bottom, then
// a lesson, the quiz, the sandbox as the learner opens them) and talks to
// them through one interface, nav.Screen; around the screen on top it
// draws the header and the key bar and opens the list of every key. It
// also checks that the window is large enough, learns the terminal's
// background to pick the styles, applies what the screens report of the
// learner's progress and saves it, and holds the keys pressed before the
// course has loaded. Run and Session start it as a program (run.go).
//
// The root's Update is routing; each concern has its file: keys.go (the
// keys that work everywhere, the key list, keys pressed while loading with
// pendingkeys.go), screens.go (what the screens are, and which the
// navigation messages open), save.go (progress and its saving), view.go
// (the frame), warm.go (the work done after the first frame).
package ui

import (
	"strings"
	"time"

	"charm.land/bubbles/v2/help"
	tea "charm.land/bubbletea/v2"

	"github.com/conflictlab/conflictlab/lessons"
	"github.com/conflictlab/conflictlab/lessons/racecache"
	"github.com/conflictlab/conflictlab/progress"
	"github.com/conflictlab/conflictlab/ui/chrome"
	"github.com/conflictlab/conflictlab/ui/keyhelp"
	"github.com/conflictlab/conflictlab/ui/nav"
	"github.com/conflictlab/conflictlab/ui/player"
	"github.com/conflictlab/conflictlab/ui/styles"
)

// MinWidth and MinHeight are the smallest window the screens are drawn
// for; below it the app says how large it needs to be.
const (
	MinWidth  = chrome.MinWidth
	MinHeight = chrome.MinHeight
)

// Model is the root model.
type Model struct {
	o       Options
	noColor bool
	// store holds the progress (nil: kept in memory only).
	store *progress.Store
	st    *styles.Styles
	w, h  int
	stack nav.Stack

	// pack, races and prog are the course and the progress once loaded
	// (nil before); prog is the one Progress of the session, which the
	// screens read and only the root changes.
	pack  *lessons.Pack
	races *racecache.Races
	live  player.Live
	prog  *progress.Progress
	// failed: the course did not load (the failed screen says why).
	failed  bool
	saveSeq uint64
	// status is the header's warning (progress not saved).
	status string

	help     help.Model
	keys     GlobalKeys
	showHelp bool
	overlay  keyhelp.Overlay
	// note says why the last key did nothing (or what a screen has to
	// say); the next key clears it.
	note string
	// pending are the keys pressed while the course loads, replayed in
	// order once it has.
	pending []tea.KeyPressMsg

	frames *frameTrace
	// observed is the place last told to o.Observe (behind a pointer:
	// Update has a value receiver).
	observed *Activity
}

// loaded is the course and progress, read off the UI loop.
type loaded struct {
	pack   *lessons.Pack
	prog   *progress.Progress
	notice string
	err    error
}

// frameTrace remembers which startup events were reported (View has a
// value receiver, so the flags live behind a pointer).
type frameTrace struct{ first, ready bool }

// New builds the app. Nothing heavy happens here: the course is loaded
// and the first race computed in commands after the first frame.
func New(o Options) Model {
	noColor := o.NoColor || o.Environ != nil && environ(o.Environ)("NO_COLOR") != ""
	st := styles.New(true, noColor)
	h := help.New()
	h.Styles = st.Help
	m := Model{o: o, noColor: noColor, st: st, help: h, keys: DefaultGlobalKeys(), frames: &frameTrace{}, observed: &Activity{}}
	if o.ProgressPath != "" {
		m.store = progress.Open(o.ProgressPath)
	}
	m.stack = nav.NewStack("loading", loadingScreen{}, st)
	return m
}

// Init asks the terminal for its background and loads the course.
func (m Model) Init() tea.Cmd {
	load, store, notice := m.o.LoadCourse, m.store, m.o.Notice
	if load == nil {
		load = lessons.Course
		if pack := m.o.Pack; pack != nil {
			load = func() (*lessons.Pack, error) { return pack, nil }
		}
	}
	return tea.Batch(tea.RequestBackgroundColor, func() tea.Msg {
		pack, err := load()
		if err != nil {
			return loaded{err: err}
		}
		prog := progress.New()
		if store != nil {
			var n string
			prog, n = store.Load()
			notice = strings.TrimSpace(notice + " " + n)
		}
		return loaded{pack: pack, prog: prog, notice: notice}
	})
}

// Screen names the screen on top (for tests and Observe): loading,
// failed, home, player, quiz, sandbox.
func (m Model) Screen() string { return m.stack.Name() }

// Progress is the progress in memory (for tests).
func (m Model) Progress() *progress.Progress { return m.prog }

// Update routes messages: the window and the course to the root, the
// navigation and the progress the screens send to theirs, keys and the
// mouse to the screen on top (after the keys that work everywhere), and
// everything else to every screen the stack holds.
func (m Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	next, cmd := m.route(msg)
	if nm, ok := next.(Model); ok && nm.o.Observe != nil {
		nm.observe(nil)
	}
	return next, cmd
}

func (m Model) route(msg tea.Msg) (tea.Model, tea.Cmd) {
	var cmd tea.Cmd
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.w, m.h = msg.Width, msg.Height
		m.stack = m.stack.SetSize(m.w, max(0, m.h-2))
		m.help.SetWidth(m.w)
		return m, nil
	case tea.BackgroundColorMsg:
		m.st = styles.New(msg.IsDark(), m.noColor)
		m.help.Styles = m.st.Help
		m.stack = m.stack.SetStyles(m.st)
		return m, nil
	case loaded:
		return m.onLoaded(msg)
	case warmNow:
		var warm tea.Cmd
		if msg.race {
			warm = m.warm()
		}
		return m, m.started(warm)
	case warmed:
		return m, nil
	case pendingAfter:
		return m.takePendingAfter(msg)
	case Announce:
		return m.announce(msg)
	case progress.Change:
		return m.record(msg)
	case saved:
		return m.onSaved(msg), nil
	case nav.Push, nav.Replace, nav.Pop, nav.Home, nav.Open, nav.Note:
		return m.navigate(msg)
	case tea.KeyPressMsg:
		return m.key(msg)
	case tea.KeyMsg, tea.MouseMsg, tea.PasteMsg:
		m.stack, cmd = m.stack.UpdateTop(msg)
		return m, cmd
	}
	m.stack, cmd = m.stack.Update(msg)
	return m, cmd
}

// View draws the whole window.
func (m Model) View() tea.View {
	v := tea.NewView(m.render())
	v.AltScreen = true
	// The wheel scrolls the lesson and quiz text (shift+drag still
	// selects text in most terminals).
	v.MouseMode = tea.MouseModeCellMotion
	v.WindowTitle = "Conflict Lab"
	if m.o.Trace != nil && m.w > 0 {
		if !m.frames.first {
			m.frames.first = true
			m.o.Trace("first-frame", time.Since(m.o.Start))
		}
		if !m.frames.ready && m.pack != nil {
			m.frames.ready = true
			m.o.Trace("course-frame", time.Since(m.o.Start))
		}
	}
	return v
}
