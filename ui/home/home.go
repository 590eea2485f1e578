// Package home is the home screen: the course's lessons in order with
// each one's state and score, "continue where you left off", and the
// modes still to come.
package home

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/conflictlab/conflictlab/lessons"
	"github.com/conflictlab/conflictlab/progress"
	"github.com/conflictlab/conflictlab/ui/keyhelp"
	"github.com/conflictlab/conflictlab/ui/layout"
	"github.com/conflictlab/conflictlab/ui/nav"
	"github.com/conflictlab/conflictlab/ui/styles"
)

// KeyMap is the home screen's keys.
type KeyMap struct {
	Up, Down, Open, Continue key.Binding
}

// DefaultKeys are the home screen's bindings.
func DefaultKeys() KeyMap {
	return KeyMap{
		Up:       key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑/k", "up")),
		Down:     key.NewBinding(key.WithKeys("down", "j"), key.WithHelp("↓/j", "down")),
		Open:     key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "open")),
		Continue: key.NewBinding(key.WithKeys("c"), key.WithHelp("c", "continue")),
	}
}

// Mode is a selectable entry under "Other modes", after the lessons.
type Mode struct {
	Label string
	// Open is the message enter sends (a nav.Push of the mode's screen).
	Open tea.Msg
	// About says what the mode is, under the list while it is selected.
	About string
	// Note, when set, is shown beside the label (a best score, say).
	Note func(*progress.Progress) string
}

// Model is the home screen.
type Model struct {
	lessons []*lessons.Lesson
	modes   []Mode
	// prog is the learner's progress, read here and never written (the
	// root applies what changes).
	prog   *progress.Progress
	notice string
	cursor int // 0 is "continue" when there is one; then the lessons
	w, h   int
	st     *styles.Styles
	Keys   KeyMap
}

// New builds the home screen: the lessons, then the other modes. notice
// is shown until the learner opens something (a problem with the
// progress file, say).
func New(ls []*lessons.Lesson, modes []Mode, prog *progress.Progress, notice string, st *styles.Styles) Model {
	return Model{lessons: ls, modes: modes, prog: prog, notice: notice, st: st, Keys: DefaultKeys()}
}

// Title is the header's text.
func (m Model) Title() string { return "lessons" }

// TakesKey: the home screen takes none of the root's keys (esc does
// nothing here: it is the bottom of the stack).
func (m Model) TakesKey(tea.KeyPressMsg) bool { return false }

// Where is no lesson.
func (m Model) Where() nav.Place { return nav.Place{} }

// Leave keeps nothing.
func (m Model) Leave() tea.Cmd { return nil }

// SetStyles replaces the styles.
func (m *Model) SetStyles(st *styles.Styles) { m.st = st }

// SetSize sets the screen's rectangle.
func (m *Model) SetSize(w, h int) { m.w, m.h = w, h }

// SetNotice replaces the notice line ("" clears it).
func (m *Model) SetNotice(n string) { m.notice = n }

// Cursor is the selected entry (0 = continue, when shown).
func (m Model) Cursor() int { return m.cursor }

// ContinueTarget is where "continue" goes: the lesson last opened if it
// is not done, else the first lesson not done after it (wrapping round
// to the start). ok is false when every
// lesson is done.
func (m Model) ContinueTarget() (id string, step int, ok bool) { return Continue(m.lessons, m.prog) }

// Continue is where "continue" goes in ls for prog (see ContinueTarget).
func Continue(ls []*lessons.Lesson, prog *progress.Progress) (id string, step int, ok bool) {
	if l := find(ls, prog.Last); l != nil && prog.StateOf(l.ID) != progress.Done {
		step := 0
		if r, ok := prog.Lessons[l.ID]; ok {
			step = min(r.Step, len(l.Steps)-1)
		}
		return l.ID, step, true
	}
	// The last lesson is done: the first one not done after it, then
	// (wrapping) before it — a learner who finished lesson 12 goes on to
	// 13, not back to a lesson 1 left with a play step unsolved.
	from := 0
	for i, l := range ls {
		if l.ID == prog.Last {
			from = i + 1
		}
	}
	for k := range ls {
		l := ls[(from+k)%len(ls)]
		if prog.StateOf(l.ID) != progress.Done {
			step := 0
			if r, ok := prog.Lessons[l.ID]; ok {
				step = min(r.Step, len(l.Steps)-1)
			}
			return l.ID, step, true
		}
	}
	return "", 0, false
}

func (m Model) find(id string) *lessons.Lesson { return find(m.lessons, id) }

func find(ls []*lessons.Lesson, id string) *lessons.Lesson {
	for _, l := range ls {
		if l.ID == id {
			return l
		}
	}
	return nil
}

func (m Model) hasContinue() bool {
	_, _, ok := m.ContinueTarget()
	return ok
}

func (m Model) entries() int {
	n := len(m.lessons) + len(m.modes)
	if m.hasContinue() {
		n++
	}
	return n
}

// selected returns the lesson under the cursor (nil on "continue").
func (m Model) selected() *lessons.Lesson {
	i := m.cursor
	if m.hasContinue() {
		i--
	}
	if i < 0 || i >= len(m.lessons) {
		return nil
	}
	return m.lessons[i]
}

// selectedMode returns the mode under the cursor, or nil.
func (m Model) selectedMode() *Mode {
	i := m.cursor - len(m.lessons)
	if m.hasContinue() {
		i--
	}
	if i < 0 || i >= len(m.modes) {
		return nil
	}
	return &m.modes[i]
}

// Update moves the cursor and opens lessons.
func (m Model) Update(msg tea.Msg) (Model, tea.Cmd) {
	kp, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return m, nil
	}
	switch {
	case key.Matches(kp, m.Keys.Up):
		if m.cursor > 0 {
			m.cursor--
		}
	case key.Matches(kp, m.Keys.Down):
		if m.cursor < m.entries()-1 {
			m.cursor++
		}
	case key.Matches(kp, m.Keys.Continue):
		m.notice = ""
		return m, m.openContinue()
	case key.Matches(kp, m.Keys.Open):
		m.notice = ""
		if mode := m.selectedMode(); mode != nil {
			open := mode.Open
			return m, func() tea.Msg { return open }
		}
		l := m.selected()
		if l == nil {
			return m, m.openContinue()
		}
		step := 0
		if r, ok := m.prog.Lessons[l.ID]; ok && !r.Done {
			step = r.Step
		}
		id := l.ID
		return m, func() tea.Msg { return nav.Open{LessonID: id, Step: step} }
	}
	return m, nil
}

func (m Model) openContinue() tea.Cmd {
	id, step, ok := m.ContinueTarget()
	if !ok {
		return nil
	}
	return func() tea.Msg { return nav.Open{LessonID: id, Step: step} }
}

// ShortHelp is the key bar.
func (m Model) ShortHelp() []key.Binding {
	return []key.Binding{withHelp(m.Keys.Down, "↑↓", "select"), m.Keys.Open, m.Keys.Continue}
}

// HelpGroups is every key, in named groups (the root's key list).
func (m Model) HelpGroups() []keyhelp.Group {
	return []keyhelp.Group{{Title: "Lessons", Keys: []key.Binding{m.Keys.Up, m.Keys.Down, m.Keys.Open, m.Keys.Continue}}}
}

// FullHelp is the full key list.
func (m Model) FullHelp() [][]key.Binding {
	return [][]key.Binding{m.HelpGroups()[0].Keys}
}

func withHelp(b key.Binding, keys, desc string) key.Binding {
	b.SetHelp(keys, desc)
	return b
}

// View draws the screen into exactly its size.
func (m Model) View() string {
	if m.w <= 0 || m.h <= 0 {
		return ""
	}
	st := m.st
	w := min(m.w-2, 100)
	var lines []string
	lines = append(lines, layout.Lines(layout.Wrap(st.Faint.Render("How Kubernetes controllers write safely under concurrency: resourceVersion, 409 Conflict, retries, patches and server-side apply."), w))...)
	// gaps are the blank lines between sections, given up first when the
	// window is short.
	var gaps []int
	gap := func() {
		gaps = append(gaps, len(lines))
		lines = append(lines, "")
	}
	gap()
	row := 0
	cursorLine := 0
	cursorAt := func(r int, text string) string {
		if r == m.cursor {
			cursorLine = len(lines)
			return st.Accent.Render(styles.Cursor) + " " + st.Selected.Render(text)
		}
		return "  " + text
	}
	if id, step, ok := m.ContinueTarget(); ok {
		l := m.find(id)
		verb := "Continue where you left off"
		switch {
		case len(m.prog.Lessons) == 0:
			verb = "Start the course"
		case m.prog.Last != "" && id != m.prog.Last:
			// The lesson last opened is done: this is the next one.
			verb = "Go on with"
		}
		text := fmt.Sprintf("%s %s: %s, step %d of %d", styles.Current, verb, l.Title, min(step+1, len(l.Steps)), len(l.Steps))
		// Wrapped, not cut: the step is the point of the line.
		for i, wl := range layout.Lines(layout.Wrap(text, w-4)) {
			if i == 0 {
				lines = append(lines, cursorAt(row, wl))
			} else if row == m.cursor {
				lines = append(lines, "    "+st.Selected.Render(wl))
			} else {
				lines = append(lines, "    "+wl)
			}
		}
		row++
	} else {
		lines = append(lines, "  "+st.OK.Render(styles.OK+" Course complete")+st.Faint.Render(" — open any lesson to replay it"))
	}
	gap()
	lines = append(lines, st.Heading.Render("Lessons"))
	listAt := len(lines) // where the lessons start
	// Numbers are right-aligned, so that the titles of lessons 9 and 10
	// start in one column.
	numW := len(fmt.Sprint(len(m.lessons)))
	titleW := 0
	for i, l := range m.lessons {
		titleW = max(titleW, len([]rune(fmt.Sprintf("%*d. %s", numW, i+1, l.Title))))
	}
	for _, md := range m.modes {
		titleW = max(titleW, len([]rune(md.Label))+2)
	}
	titleW = min(titleW+3, w*3/5)
	for i, l := range m.lessons {
		name := layout.Pad(fmt.Sprintf("%*d. %s", numW, i+1, l.Title), titleW)
		lines = append(lines, cursorAt(row, name+m.state(l, w-2-titleW)))
		row++
	}
	listEnd := len(lines)
	gap()
	lines = append(lines, st.Heading.Render("Other modes"))
	for _, md := range m.modes {
		note := ""
		if md.Note != nil {
			note = st.Faint.Render(md.Note(m.prog))
		}
		lines = append(lines, cursorAt(row, layout.Pad(styles.Bullet+" "+md.Label, titleW)+note))
		row++
	}
	l := m.selected()
	if id, _, ok := m.ContinueTarget(); l == nil && ok {
		l = m.find(id)
	}
	// panel says what the selected entry is about, under the list.
	var panel []string
	if md := m.selectedMode(); md != nil {
		l = nil
		panel = append(panel, "", layout.Rule(strings.SplitN(md.Label, " — ", 2)[0], w, st.Border))
		for _, wl := range layout.Lines(layout.Wrap(md.About, w-2)) {
			panel = append(panel, "  "+wl)
		}
	}
	if l != nil && len(l.Concepts) > 0 {
		panel = append(panel, "", layout.Rule(l.Title+" teaches", w, st.Border))
		for _, c := range l.Concepts {
			desc := lessons.Concepts[c]
			for j, wl := range layout.Lines(layout.Wrap(desc, w-4)) {
				lead := "  " + styles.Bullet + " "
				if j > 0 {
					lead = "    "
				}
				panel = append(panel, lead+wl)
			}
		}
	}
	if best := m.playBest(l); best != "" {
		for _, pl := range layout.Lines(layout.Wrap(best, w-2)) {
			panel = append(panel, "  "+st.Faint.Render(pl))
		}
	}
	var note []string
	if m.notice != "" {
		note = layout.Lines(layout.Wrap(styles.Warn+" "+m.notice, w))
	}
	// The notice takes its lines and a blank above them.
	room := m.h - len(note) - min(1, len(note))
	// A course longer than the window shows a window of its lessons
	// around the cursor; the introduction, the continue line and the
	// other modes stay (and the selected mode's description, when there
	// is room for it).
	if len(lines)+min(len(panel), 4) > room {
		keep := room - (len(lines) - (listEnd - listAt))
		if m.selectedMode() != nil {
			keep -= min(len(panel), 4)
		}
		lines, cursorLine = m.lessonWindow(lines, listAt, listEnd, cursorLine, max(keep, 5))
	}
	lines = m.fitPanel(lines, panel, gaps, room)
	// A course longer than the window scrolls so the cursor stays in view
	// (with a line of context below it).
	if avail := room; len(lines) > avail && cursorLine >= avail-1 {
		start := min(cursorLine-avail+2, len(lines)-avail)
		lines = append([]string{st.Faint.Render("↑ more above")}, lines[start+1:]...)
	}
	if m.notice != "" {
		// The notice must be seen: it goes at the bottom, above whatever
		// is cut when the window is short.
		keep := max(0, m.h-len(note)-1)
		if len(lines) > keep {
			lines = lines[:keep]
		}
		lines = append(lines, "")
		for _, l := range note {
			lines = append(lines, st.Warn.Render(l))
		}
	}
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = " " + l
	}
	return layout.Fit(strings.Join(out, "\n"), m.w, m.h)
}

// lessonWindow keeps n of the lesson lines lines[from:to], the cursor's
// among them when it is on a lesson (else the window nearest to it), with
// "↑ k more" and "↓ k more" in place of the first and last kept lines when
// lessons are hidden there. It returns the lines and the cursor's new line.
func (m Model) lessonWindow(lines []string, from, to, cursorLine, n int) ([]string, int) {
	total := to - from
	if n >= total {
		return lines, cursorLine
	}
	at := cursorLine - from // the cursor's lesson, or out of range
	start := 0
	switch {
	case at >= total:
		start = total - n
	case at >= 0:
		// Keep the cursor off the indicator lines: one lesson of context
		// either side where there is one.
		start = min(max(0, at-n/2), total-n)
	}
	win := append([]string(nil), lines[from+start:from+start+n]...)
	if start > 0 {
		win[0] = "  " + m.st.Faint.Render(fmt.Sprintf("↑ %d more", start+1))
	}
	if below := total - (start + n); below > 0 {
		win[n-1] = "  " + m.st.Faint.Render(fmt.Sprintf("↓ %d more", below+1))
	}
	out := append(append(append([]string(nil), lines[:from]...), win...), lines[to:]...)
	if at >= 0 && at < total {
		cursorLine = from + at - start
	} else if at >= total {
		cursorLine -= total - n
	}
	return out, cursorLine
}

// state is a lesson's state in words and a symbol, with its score: the
// questions answered right on the first try once it is done, the
// questions answered so far while it is not. room is the width it has;
// a state too long for it drops its words before its numbers.
func (m Model) state(l *lessons.Lesson, room int) string {
	st := m.st
	r, ok := m.prog.Lessons[l.ID]
	if !ok {
		return st.Faint.Render("· not started")
	}
	t := r.Tally(questionSteps(l))
	if r.Done {
		s := st.OK.Render(styles.OK + " done")
		switch {
		case t.Questions == 0:
		case t.Complete():
			s += st.Faint.Render(fmt.Sprintf(" · %d/%d right first time", t.Right, t.Questions))
		default:
			// Marked done by a build that let a lesson be skipped through.
			s += st.Faint.Render(fmt.Sprintf(" · %d/%d answered", t.Answered, t.Questions))
		}
		return s
	}
	step := fmt.Sprintf("step %d/%d", min(r.Step+1, len(l.Steps)), len(l.Steps))
	answered := ""
	if t.Questions > 0 {
		answered = fmt.Sprintf(" · %d/%d answered", t.Answered, t.Questions)
	}
	s := "… in progress · " + step + answered
	if layout.MaxWidth(s) > room {
		s = "… " + step + answered
	}
	return st.Warn.Render(s)
}

// playBest is a lesson's play steps, each one's best against par: "Play:
// step 3 best 5 moves (par 4) · step 6 not solved yet" ("" without any).
func (m Model) playBest(l *lessons.Lesson) string {
	if l == nil {
		return ""
	}
	var parts []string
	r := m.prog.Lessons[l.ID]
	for i, s := range l.Steps {
		if s.Kind != lessons.Play || s.Goal == nil {
			continue
		}
		unit := "moves"
		if !s.Goal.IsBreak() {
			unit = "changes"
		}
		if r != nil && r.Answers[i].Correct {
			parts = append(parts, fmt.Sprintf("step %d best %d %s (par %d)", i+1, r.Answers[i].Best, unit, s.Goal.Par))
		} else {
			parts = append(parts, fmt.Sprintf("step %d not solved yet", i+1))
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return "Play: " + strings.Join(parts, " · ")
}

// questionSteps marks the lesson's question steps, the ones scored.
func questionSteps(l *lessons.Lesson) []bool {
	out := make([]bool, len(l.Steps))
	for i, s := range l.Steps {
		out[i] = s.Kind == lessons.Predict || s.Kind == lessons.Choose || s.Kind == lessons.Play
	}
	return out
}

// fitPanel puts the panel under the list in avail lines: the blank lines
// between sections go first, then the panel's last lines (the list and
// its title stay whole; a panel cut short ends after a whole item, with
// "…"). When the list alone is too long, or no item fits, the panel goes
// and the list scrolls if it must (View).
func (m Model) fitPanel(list, panel []string, gaps []int, avail int) []string {
	if len(list)+len(panel) <= avail || len(panel) == 0 {
		return append(list, panel...)
	}
	panel = panel[1:] // the blank above the rule
	drop := map[int]bool{}
	for i := len(gaps) - 1; i >= 0 && len(list)-len(drop)+len(panel) > avail; i-- {
		drop[gaps[i]] = true
	}
	var kept []string
	for i, l := range list {
		if !drop[i] {
			kept = append(kept, l)
		}
	}
	room := avail - len(kept)
	switch {
	case room >= len(panel):
		return append(kept, panel...)
	case room >= 3: // the rule, a whole item and the "…" line at least
		// Cut between two items, never inside one: a line that starts
		// with four spaces goes on the item above it.
		k := room - 1
		for k > 1 && strings.HasPrefix(panel[k], "    ") {
			k--
		}
		if k > 1 {
			return append(append(kept, panel[:k]...), "  "+m.st.Faint.Render("…"))
		}
	}
	return list
}
