// Package exercises is the code exercises' screen, as rustlings watches
// a learner's files: it polls the current exercise's files (tea.Tick,
// their modification times), re-checks on every save through package
// workspace (go test, offline, in a command off the UI loop), and shows
// the compile errors as FILE:LINE or the verdict — on a failure the
// losing interleaving in the race view, the hint one key away; once it
// passes, the reference solution. A pass goes into the progress (a
// progress.Change the root applies).
package exercises

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"github.com/conflictlab/conflictlab/exercises"
	"github.com/conflictlab/conflictlab/exercises/workspace"
	"github.com/conflictlab/conflictlab/progress"
	"github.com/conflictlab/conflictlab/termsafe"
	"github.com/conflictlab/conflictlab/ui/keyhelp"
	"github.com/conflictlab/conflictlab/ui/layout"
	"github.com/conflictlab/conflictlab/ui/nav"
	"github.com/conflictlab/conflictlab/ui/raceview"
	"github.com/conflictlab/conflictlab/ui/styles"
)

// CheckFunc checks one exercise (workspace.Check; tests give a fake).
type CheckFunc func(ctx context.Context, dir string, x *exercises.Exercise, opts workspace.CheckOptions) (*workspace.Result, error)

// Config is what the screen works on.
type Config struct {
	// Dir is the workspace ("": none found; the screen says how to make
	// one).
	Dir string
	// Remote: the tutorial runs on a server (conflictlab serve), which
	// never runs an attendee's code; the screen says how to run the
	// exercises on one's own machine.
	Remote bool
	// All are the exercises, in order.
	All []*exercises.Exercise
	// Progress is the learner's (read only: a pass is sent as a change).
	Progress *progress.Progress
	// Check runs a check (nil: workspace.Check).
	Check CheckFunc
	// Poll is how often the files are looked at (0: half a second).
	Poll time.Duration
	// Tick schedules the next look (nil: tea.Tick).
	Tick func(time.Duration, func(time.Time) tea.Msg) tea.Cmd
}

// KeyMap is the screen's keys.
type KeyMap struct {
	Hint, Solution, Next, Prev, Recheck, Up, Down key.Binding
}

// DefaultKeys are the screen's bindings (none the race view uses).
func DefaultKeys() KeyMap {
	return KeyMap{
		Hint:     key.NewBinding(key.WithKeys("h"), key.WithHelp("h", "hint")),
		Solution: key.NewBinding(key.WithKeys("s"), key.WithHelp("s", "solution")),
		Next:     key.NewBinding(key.WithKeys("n"), key.WithHelp("n/p", "next/prev exercise")),
		Prev:     key.NewBinding(key.WithKeys("p"), key.WithHelp("p", "previous exercise")),
		Recheck:  key.NewBinding(key.WithKeys("c"), key.WithHelp("c", "check now")),
		Up:       key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑/↓", "scroll the solution")),
		Down:     key.NewBinding(key.WithKeys("down", "j"), key.WithHelp("↓", "scroll the solution down")),
	}
}

// Model is the screen.
type Model struct {
	cfg Config
	cur int
	// seen are the modification times of the current exercise's files
	// at the last look; a change starts a check.
	seen map[string]time.Time
	// pollGen: a look scheduled for another exercise is dropped.
	pollGen int
	// checking: a check runs (its id is checkID); queued: a save came
	// in meanwhile, so another check follows.
	checking, queued bool
	checkID          int
	started          time.Time
	built, total     int
	progressCh       chan tea.Msg
	cancel           *context.CancelFunc
	res              *workspace.Result
	err              error
	hint, solution   bool
	scroll           int // the solution's first line shown
	rv               raceview.Model
	w, h             int
	st               *styles.Styles
	Keys             KeyMap
}

// New is the screen on the first exercise not yet passed.
func New(cfg Config, st *styles.Styles) Model {
	if cfg.Check == nil {
		cfg.Check = workspace.Check
	}
	if cfg.Poll == 0 {
		cfg.Poll = 500 * time.Millisecond
	}
	if cfg.Tick == nil {
		cfg.Tick = tea.Tick
	}
	m := Model{cfg: cfg, st: st, rv: raceview.New(st), Keys: DefaultKeys(), cancel: new(context.CancelFunc)}
	for i, x := range cfg.All {
		if cfg.Progress == nil || !cfg.Progress.ExercisePassed(x.Dir) {
			m.cur = i
			break
		}
	}
	return m
}

// pollMsg is a look at the files.
type pollMsg struct{ gen int }

// progressMsg is the cold build's progress.
type progressMsg struct{ id, built, total int }

// doneMsg is a check's result.
type doneMsg struct {
	id  int
	res *workspace.Result
	err error
}

// Init looks at the files at once: the first look checks the exercise.
func (m Model) Init() tea.Cmd {
	if m.cfg.Dir == "" || m.cfg.Remote || len(m.cfg.All) == 0 {
		return nil
	}
	gen := m.pollGen
	return func() tea.Msg { return pollMsg{gen: gen} }
}

// Current is the exercise on show.
func (m Model) Current() *exercises.Exercise {
	if len(m.cfg.All) == 0 {
		return nil
	}
	return m.cfg.All[m.cur]
}

// Result is the last check's result (nil before the first).
func (m Model) Result() *workspace.Result { return m.res }

// Checking reports whether a check runs.
func (m Model) Checking() bool { return m.checking }

// Title is the header's text.
func (m Model) Title() string { return "exercises" }

// Where is no lesson.
func (m Model) Where() nav.Place { return nav.Place{} }

// Leave stops a check that runs.
func (m Model) Leave() tea.Cmd {
	if c := *m.cancel; c != nil {
		c()
	}
	return nil
}

// TakesKey: esc closes the inspect panel before it leaves the screen.
func (m Model) TakesKey(k tea.KeyPressMsg) bool {
	return m.failing() && m.rv.Inspecting() && m.rv.HandlesKey(k)
}

// SetStyles replaces the styles.
func (m *Model) SetStyles(st *styles.Styles) { m.st = st; m.rv.SetStyles(st) }

// SetSize sets the screen's rectangle.
func (m *Model) SetSize(w, h int) { m.w, m.h = w, h }

// failing: the last check ran and lost, with a run to show.
func (m Model) failing() bool {
	return m.res != nil && m.res.Verdict != nil && !m.res.Pass && m.res.Verdict.Outcome != nil
}

// Update handles the looks, the check's messages and the keys.
func (m Model) Update(msg tea.Msg) (Model, tea.Cmd) {
	switch msg := msg.(type) {
	case pollMsg:
		if msg.gen != m.pollGen {
			return m, nil
		}
		var cmd tea.Cmd
		if m.changed() {
			m, cmd = m.check()
		}
		return m, tea.Batch(cmd, m.nextPoll())
	case progressMsg:
		if msg.id != m.checkID {
			return m, nil
		}
		m.built, m.total = msg.built, msg.total
		return m, m.waitCheck()
	case doneMsg:
		if msg.id != m.checkID {
			return m, nil
		}
		return m.done(msg)
	case tea.KeyPressMsg:
		return m.key(msg)
	}
	if m.failing() {
		var cmd tea.Cmd
		m.rv, cmd = m.rv.Update(msg)
		return m, cmd
	}
	return m, nil
}

func (m Model) key(msg tea.KeyPressMsg) (Model, tea.Cmd) {
	k := m.Keys
	switch {
	case key.Matches(msg, k.Hint) && m.Current() != nil:
		m.hint = !m.hint
		return m, nil
	case key.Matches(msg, k.Solution) && m.passed():
		m.solution, m.scroll = !m.solution, 0
		return m, nil
	case key.Matches(msg, k.Down) && m.solution:
		m.scroll++
		return m, nil
	case key.Matches(msg, k.Up) && m.solution:
		m.scroll = max(0, m.scroll-1)
		return m, nil
	case key.Matches(msg, k.Next) && m.cur+1 < len(m.cfg.All):
		return m.open(m.cur + 1)
	case key.Matches(msg, k.Prev) && m.cur > 0:
		return m.open(m.cur - 1)
	case key.Matches(msg, k.Recheck) && m.cfg.Dir != "" && !m.cfg.Remote:
		return m.check()
	}
	if m.failing() && m.rv.HandlesKey(msg) {
		var cmd tea.Cmd
		m.rv, cmd = m.rv.Update(msg)
		return m, cmd
	}
	return m, nil
}

// passed: the exercise on show has passed, now or before (its solution
// may be shown).
func (m Model) passed() bool {
	x := m.Current()
	if x == nil {
		return false
	}
	return (m.res != nil && m.res.Pass) || (m.cfg.Progress != nil && m.cfg.Progress.ExercisePassed(x.Dir))
}

// open shows exercise i and checks it at the next look.
func (m Model) open(i int) (Model, tea.Cmd) {
	m.Leave()
	m.cur, m.res, m.err, m.hint, m.solution, m.seen = i, nil, nil, false, false, nil
	m.checking, m.queued = false, false
	m.checkID++
	m.pollGen++
	if m.cfg.Dir == "" || m.cfg.Remote {
		return m, nil
	}
	gen := m.pollGen
	return m, func() tea.Msg { return pollMsg{gen: gen} }
}

func (m Model) nextPoll() tea.Cmd {
	gen := m.pollGen
	return m.cfg.Tick(m.cfg.Poll, func(time.Time) tea.Msg { return pollMsg{gen: gen} })
}

// changed looks at the exercise's files and reports whether any changed
// since the last look (the first look counts as a change).
func (m *Model) changed() bool {
	x := m.Current()
	dir := filepath.Join(m.cfg.Dir, x.Dir)
	entries, err := os.ReadDir(dir)
	now := map[string]time.Time{}
	if err == nil {
		for _, e := range entries {
			if e.IsDir() || !(strings.HasSuffix(e.Name(), ".go") || strings.HasSuffix(e.Name(), ".yaml")) {
				continue
			}
			if info, err := e.Info(); err == nil {
				now[e.Name()] = info.ModTime()
			}
		}
	}
	first := m.seen == nil
	differs := len(now) != len(m.seen)
	for n, t := range now {
		if !m.seen[n].Equal(t) {
			differs = true
		}
	}
	m.seen = now
	return first || differs
}

// check starts a check (or queues one behind the check that runs).
func (m Model) check() (Model, tea.Cmd) {
	if m.checking {
		m.queued = true
		return m, nil
	}
	m.checkID++
	m.checking, m.queued, m.started, m.built, m.total = true, false, time.Now(), 0, 0
	id, dir, x, run := m.checkID, m.cfg.Dir, m.Current(), m.cfg.Check
	ctx, cancel := context.WithCancel(context.Background())
	*m.cancel = cancel
	ch := make(chan tea.Msg, 8)
	m.progressCh = ch
	go func() {
		defer cancel()
		res, err := run(ctx, dir, x, workspace.CheckOptions{Progress: func(built, total int) {
			select {
			case ch <- progressMsg{id: id, built: built, total: total}:
			default: // the screen is behind: the next one will do
			}
		}})
		ch <- doneMsg{id: id, res: res, err: err}
	}()
	return m, m.waitCheck()
}

// waitCheck hears the next message of the check that runs.
func (m Model) waitCheck() tea.Cmd {
	ch := m.progressCh
	return func() tea.Msg { return <-ch }
}

func (m Model) done(msg doneMsg) (Model, tea.Cmd) {
	m.checking = false
	m.res, m.err = msg.res, msg.err
	var cmds []tea.Cmd
	if m.failing() {
		m.rv.SetRun(raceview.NewRun(m.res.Verdict.Outcome), false)
		m.rv.SetIndex(len(m.res.Verdict.Outcome.Steps) - 1)
	}
	if m.res != nil && m.res.Pass {
		id := m.Current().Dir
		cmds = append(cmds, nav.Send(progress.ExercisePassed{ID: id}))
	}
	if m.queued {
		var cmd tea.Cmd
		m, cmd = m.check()
		cmds = append(cmds, cmd)
	}
	return m, tea.Batch(cmds...)
}

// ShortHelp is the key bar.
func (m Model) ShortHelp() []key.Binding {
	k := m.Keys
	out := []key.Binding{k.Hint}
	if m.passed() {
		out = append(out, k.Solution)
	}
	out = append(out, k.Next, k.Recheck)
	if m.failing() {
		rk := m.rv.Keys
		out = append(out, rk.Step, rk.Back, rk.Inspect)
	}
	return out
}

// HelpGroups is every key.
func (m Model) HelpGroups() []keyhelp.Group {
	k := m.Keys
	return []keyhelp.Group{
		{Title: "Exercise", Keys: []key.Binding{k.Hint, k.Solution, k.Up, k.Next, k.Prev, k.Recheck}},
		{Title: "The losing run", Keys: m.rv.Keys.Bindings()},
	}
}

// View draws the screen into exactly its size.
func (m Model) View() string {
	if m.w <= 0 || m.h <= 0 {
		return ""
	}
	st, w := m.st, m.w
	var top []string
	wrap := func(s string) { top = append(top, layout.Lines(layout.Wrap(s, w))...) }
	if m.cfg.Remote {
		wrap(st.Heading.Render("Exercises run on your own machine"))
		wrap("This server never runs an attendee's code. On your laptop, with a Go toolchain:")
		top = append(top, "")
		for _, l := range howTo {
			top = append(top, "  "+st.Accent.Render(l))
		}
		top = append(top, "")
		wrap(st.Faint.Render("In the workspace you write real client-go and controller-runtime code in your editor; every save is proven over every interleaving of its race, and a loss is shown here as the lesson's race view shows it."))
		return layout.FitLines(top, w, m.h)
	}
	if m.cfg.Dir == "" {
		wrap(st.Heading.Render("No exercises workspace here"))
		wrap("Write the exercises into a folder, open it in your editor, and run the exercises there (a Go toolchain is all they need):")
		top = append(top, "")
		for _, l := range howTo {
			top = append(top, "  "+st.Accent.Render(l))
		}
		return layout.FitLines(top, w, m.h)
	}
	x := m.Current()
	if x == nil {
		return layout.Fit("no exercises", w, m.h)
	}
	status := m.status()
	title := fmt.Sprintf("Exercise %d of %d · %s", x.Number, len(m.cfg.All), x.Title)
	top = append(top, layout.Pad(layout.Truncate(st.Heading.Render(title), max(1, w-lenCells(status)-1)), max(1, w-lenCells(status)))+status)
	files := strings.Join(exercises.Files(x.Start), ", ")
	top = append(top, layout.Truncate(st.Faint.Render("edit "+x.Dir+"/"+files+" in your editor; each save re-checks"), w))
	if m.hint {
		top = append(top, st.Warn.Render("hint:"))
		for _, l := range layout.Lines(layout.Wrap(x.Hint, w-2)) {
			top = append(top, "  "+l)
		}
	}
	top = append(top, "")
	body := m.body(w, max(0, m.h-len(top)))
	return layout.FitLines(append(top, body...), w, m.h)
}

// howTo are the commands that start the exercises on one's machine.
var howTo = []string{
	"conflictlab exercises init ~/clab-exercises",
	"cd ~/clab-exercises && conflictlab exercises",
}

func lenCells(s string) int { return lipgloss.Width(s) }

// status is the header's right side: how the check stands.
func (m Model) status() string {
	st := m.st
	switch {
	case m.checking && m.total > 0 && m.built < m.total:
		return st.Warn.Render(fmt.Sprintf("first build %d/%d packages", m.built, m.total))
	case m.checking:
		return st.Warn.Render("checking…")
	case m.err != nil:
		return st.Bad.Render(styles.Bad + " check failed to run")
	case m.res == nil:
		return ""
	case m.res.Pass:
		return st.OK.Render(styles.OK + " passes")
	case len(m.res.Compile) > 0:
		return st.Bad.Render(styles.Bad + " does not compile")
	}
	return st.Bad.Render(styles.Bad + " fails")
}

// body is what the last check found.
func (m Model) body(w, h int) []string {
	st := m.st
	var out []string
	wrap := func(s string) { out = append(out, layout.Lines(layout.Wrap(s, w))...) }
	x := m.Current()
	switch {
	case m.err != nil:
		wrap(st.Bad.Render("the check could not run: ") + termsafe.Escape(m.err.Error()))
	case m.res == nil && m.checking && m.total > 0:
		wrap(fmt.Sprintf("The first check builds what the exercises import: %d of %d packages compiled so far (Go compiles only those not in its build cache; once per machine, minutes when cold).", m.built, m.total))
		out = append(out, bar(m.built, m.total, min(w, 60)))
	case m.res == nil && m.checking:
		wrap(st.Faint.Render("checking " + x.Dir + " …"))
	case m.res == nil:
		wrap(st.Faint.Render("waiting for the first look at your files"))
	case len(m.res.Compile) > 0:
		wrap(st.Bad.Render("does not compile:"))
		for _, d := range m.res.Compile {
			wrap("  " + termsafe.Escape(d.String()))
		}
	case m.res.Verdict == nil:
		wrap(st.Bad.Render("the check did not run to its end:"))
		for _, l := range strings.Split(termsafe.Escape(m.res.Output), "\n") {
			wrap("  " + l)
		}
	case m.res.Pass:
		wrap(st.OK.Render(styles.OK+" passes") + fmt.Sprintf(" (%.1f s)", float64(m.res.Millis)/1000))
		for _, l := range firstLines(m.res.Verdict.Report) {
			wrap("  " + termsafe.Escape(l))
		}
		if m.solution {
			out = append(out, "", st.Heading.Render("the reference solution")+st.Faint.Render(" (↑/↓ scroll)"))
			var code []string
			for _, name := range exercises.Files(x.Solution) {
				code = append(code, st.Faint.Render("// "+name))
				for _, l := range strings.Split(termsafe.Escape(string(x.Solution[name])), "\n") {
					code = append(code, strings.ReplaceAll(l, "\t", "    "))
				}
			}
			room := max(1, h-len(out))
			from := min(m.scroll, max(0, len(code)-room))
			out = append(out, code[from:]...)
		} else {
			wrap(st.Faint.Render("s shows the reference solution · n goes to the next exercise"))
		}
	default:
		v := m.res.Verdict
		switch {
		case v.Invalid != "":
			wrap(st.Bad.Render("the exercise does not load: ") + termsafe.Escape(v.Invalid))
		case v.Error != nil:
			wrap(st.Bad.Render("your code broke a bound: ") + termsafe.Escape(v.Error.Msg))
			if v.Error.Call != "" {
				wrap("  at " + termsafe.Escape(v.Error.Call))
			}
		}
		for _, l := range firstLines(v.Report) {
			wrap(termsafe.Escape(l))
		}
		if m.failing() {
			rest := h - len(out)
			if rest > 4 {
				rv := m.rv
				rv.SetSize(w, rest)
				out = append(out, layout.Lines(rv.View())...)
			}
		}
	}
	return out
}

// firstLines are a report's race lines (before the losing run's
// timeline, which the race view draws).
func firstLines(report string) []string {
	var out []string
	for _, l := range strings.Split(strings.TrimRight(report, "\n"), "\n") {
		if strings.TrimSpace(l) == "" {
			break
		}
		out = append(out, l)
	}
	return out
}

// bar is a progress bar of built of total, w cells wide.
func bar(built, total, w int) string {
	w = max(w-2, 1)
	n := 0
	if total > 0 {
		n = built * w / total
	}
	return "[" + strings.Repeat("█", n) + strings.Repeat("·", w-n) + "]"
}
