package sandbox

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/conflictlab/conflictlab/lessons"
	"github.com/conflictlab/conflictlab/lessons/playgoal"
	"github.com/conflictlab/conflictlab/level"
	"github.com/conflictlab/conflictlab/sandbox/draft"
	"github.com/conflictlab/conflictlab/sim/race"
	"github.com/conflictlab/conflictlab/sim/scenario"
	"github.com/conflictlab/conflictlab/termsafe"
	"github.com/conflictlab/conflictlab/ui/layout"
	"github.com/conflictlab/conflictlab/ui/styles"
)

// Sharing turns the race on show into a level (package level) as one
// line of text, for a chat or a slide: the challenge being played, or the
// learner's own race — to play freely, or, with b, as a break-it level
// whose par the sandbox finds (the fewest moves that lose a field).
// The text is drawn hard-wrapped at the window's width, with nothing
// beside it, so that what a terminal copies is the line (a level's text
// ignores the line breaks); w writes it to a file as well. With f it is a
// fix-it level instead: the author marks the knobs the learner may change,
// and the sandbox finds the fewest changes that keep every order clear of
// a lost field and a given-up change — the level's settings and par.

// shareState is the share panel.
type shareState struct {
	lvl  *level.Level
	text string
	err  string
	// searching: the shortest break is being searched for.
	searching bool
	// room is a break-it level's room to search, once measured; fixRoom
	// a fix-it level's.
	room    *playgoal.BreakRoom
	fixRoom *playgoal.FixRoom
	// marks is the fix-it level's knobs being marked (nil when not).
	marks  *fixMarks
	cancel context.CancelFunc
	gen    int
}

// fixMarks are the knobs a fix-it level lets the learner change: every
// controller of the race has each knob marked.
type fixMarks struct {
	on     map[lessons.KnobName]bool
	cursor int
	// choices are the values of each knob the race can run with, once
	// found (off the UI loop: each is a race set up).
	choices map[lessons.KnobName][]string
}

// choicesFound carries the knobs' values the race can run with.
type choicesFound struct {
	gen     int
	choices map[lessons.KnobName][]string
}

func (choicesFound) sandboxMsg() {}

// findChoices is the command that finds each knob's values sc can run
// with.
func findChoices(gen int, sc *scenario.Scenario) tea.Cmd {
	return func() tea.Msg {
		out := map[lessons.KnobName][]string{}
		for _, n := range lessons.KnobNames {
			out[n] = playgoal.RunnableChoices(sc, n)
		}
		return choicesFound{gen: gen, choices: out}
	}
}

// fixVerdicts are what a fix-it level made in the sandbox forbids: a lost
// field, and a change given up (a 409 nobody retried fixes nothing).
var fixVerdicts = []race.Verdict{race.VerdictLost, race.VerdictGaveUp}

// fixFound is the search for a fix-it level's settings and par, done.
type fixFound struct {
	gen  int
	goal *lessons.PlayGoal
	room *playgoal.FixRoom
	err  error
}

func (fixFound) sandboxMsg() {}

// shortestFound is the search for a break-it level's par, done.
type shortestFound struct {
	gen      int
	schedule []string
	// room is how much the break-it level leaves to search.
	room *playgoal.BreakRoom
	err  error
}

func (shortestFound) sandboxMsg() {}

// breakSearchStates bounds the search for the shortest break.
const breakSearchStates = 200_000

// openShare opens the share panel on the race on show.
func (m *Model) openShare() {
	m.stopAuto()
	var l *level.Level
	if c := m.chal.active; c != nil {
		l = c.Level
	} else {
		sc := draft.Clone(m.sc)
		l = &level.Level{Title: sc.Name, Race: sc}
	}
	m.share = &shareState{}
	m.setShared(l)
}

// setShared encodes l for the panel.
func (m *Model) setShared(l *level.Level) {
	s := m.share
	s.lvl, s.err, s.room, s.fixRoom = l, "", nil, nil
	text, err := level.Encode(l)
	if err != nil {
		s.text, s.err = "", err.Error()
		return
	}
	s.text = text
}

func (m Model) shareKey(msg tea.KeyPressMsg) (Model, tea.Cmd) {
	s := m.share
	k := m.Keys
	if s.marks != nil && !s.searching {
		return m.marksKey(msg)
	}
	switch {
	case key.Matches(msg, k.Back):
		if s.cancel != nil {
			s.cancel()
		}
		m.share = nil
	case msg.String() == "f" && m.chal.active == nil && !s.searching:
		s.err = ""
		s.marks = &fixMarks{on: map[lessons.KnobName]bool{lessons.KnobWrite: true, lessons.KnobRetry: true}}
		s.gen++
		return m, findChoices(s.gen, draft.Clone(m.sc))
	case msg.String() == "b" && m.chal.active == nil && !s.searching:
		// A break-it level of the learner's race: par is the fewest moves
		// that lose a field, searched off the UI loop.
		s.searching, s.err = true, ""
		s.gen++
		ctx, cancel := context.WithCancel(context.Background())
		s.cancel = cancel
		gen, sc := s.gen, draft.Clone(m.sc)
		goal := &lessons.PlayGoal{Break: []lessons.Claim{{Verdict: race.VerdictLost}}}
		return m, func() tea.Msg {
			defer cancel()
			best, err := playgoal.ShortestBreak(ctx, goal, sc, breakSearchStates)
			if err != nil || len(best) == 0 {
				return shortestFound{gen: gen, schedule: best, err: err}
			}
			// How much the level leaves to search, by the play steps'
			// rules: what a learner pressing keys at random would find.
			goal.Par, goal.Schedule = len(best), best
			r, err := playgoal.MeasureGoal(ctx, goal, sc)
			return shortestFound{gen: gen, schedule: best, room: r.Break, err: err}
		}
	case msg.String() == "w" && s.text != "":
		if m.env.NoFiles {
			s.err = "no files here: copy the text from the screen"
			return m, nil
		}
		name := strings.NewReplacer("/", "-", " ", "-").Replace(m.sc.Name) + ".level.txt"
		m.share = nil
		m.openPrompt(savePrompt)
		m.prompt.shareText = s.text + "\n"
		m.prompt.input.SetValue(name)
		m.prompt.input.CursorEnd()
	}
	return m, nil
}

// marksKey: ↑↓ choose a knob, space marks it, enter searches for the
// fewest changes of the knobs marked that fix the race, esc goes back.
func (m Model) marksKey(msg tea.KeyPressMsg) (Model, tea.Cmd) {
	s := m.share
	mk := s.marks
	switch msg.String() {
	case "esc":
		s.marks = nil
	case "up", "k":
		mk.cursor = max(0, mk.cursor-1)
	case "down", "j":
		mk.cursor = min(len(lessons.KnobNames)-1, mk.cursor+1)
	case "space", " ", "x":
		n := lessons.KnobNames[mk.cursor]
		mk.on[n] = !mk.on[n]
	case "enter":
		if mk.choices == nil {
			return m, nil // still finding the values
		}
		var knobs []lessons.Knob
		for _, n := range lessons.KnobNames {
			if vs := mk.choices[n]; mk.on[n] && len(vs) >= 2 {
				knobs = append(knobs, lessons.Knob{Name: n, Values: vs})
			}
		}
		if len(knobs) == 0 {
			s.err = "mark at least one knob with two values to choose from (space)"
			return m, nil
		}
		s.searching, s.err = true, ""
		s.gen++
		ctx, cancel := context.WithCancel(context.Background())
		s.cancel = cancel
		gen, sc := s.gen, draft.Clone(m.sc)
		return m, func() tea.Msg {
			defer cancel()
			g, err := playgoal.FixGoal(ctx, sc, knobs, fixVerdicts)
			if err != nil || g == nil {
				return fixFound{gen: gen, err: err}
			}
			r, err := playgoal.MeasureGoal(ctx, g, sc)
			return fixFound{gen: gen, goal: g, room: r.Fix, err: err}
		}
	}
	return m, nil
}

func (m Model) onChoices(msg choicesFound) Model {
	if s := m.share; s != nil && s.marks != nil && msg.gen == s.gen {
		s.marks.choices = msg.choices
	}
	return m
}

// searched is the share panel a search of generation gen answers, its
// search over; nil when the panel was closed or asked again since.
func (m Model) searched(gen int) *shareState {
	s := m.share
	if s == nil || gen != s.gen {
		return nil
	}
	s.searching, s.cancel = false, nil
	return s
}

func (m Model) onFixFound(msg fixFound) Model {
	s := m.searched(msg.gen)
	if s == nil {
		return m
	}
	if why := msg.failure(); why != "" {
		s.err = why
		return m
	}
	l := *s.lvl
	l.Question = "With the fewest changes, make every order land every change."
	l.Goal = msg.goal
	m.setShared(&l)
	s.marks = nil
	s.fixRoom = msg.room
	return m
}

// failure says why the search found no fix-it level ("" when it found
// one).
func (msg fixFound) failure() string {
	switch {
	case errors.Is(msg.err, playgoal.ErrNothingToFix):
		return "nothing to fix: no order of this race loses a field or gives a change up"
	case msg.err != nil:
		return "no par found: " + msg.err.Error()
	case msg.goal == nil:
		return fmt.Sprintf("no change of at most %d of the knobs marked fixes every order: mark more knobs", playgoal.MaxFixChanges)
	}
	return ""
}

func (m Model) onShortest(msg shortestFound) Model {
	s := m.searched(msg.gen)
	if s == nil {
		return m
	}
	switch {
	case msg.err != nil:
		s.err = "no par found: " + msg.err.Error()
	case msg.schedule == nil:
		s.err = "no order of steps loses a field in this race: there is nothing to break"
	case len(msg.schedule) == 0:
		s.err = "the race has lost a field before any step"
	default:
		l := *s.lvl
		l.Question = "Find an order of steps that loses a field."
		l.Goal = &lessons.PlayGoal{Break: []lessons.Claim{{Verdict: race.VerdictLost}}, Par: len(msg.schedule), Schedule: msg.schedule}
		m.setShared(&l)
		s.room = msg.room
	}
	return m
}

// viewShare is the share panel.
func (m Model) viewShare(w, h int) string {
	st := m.st
	s := m.share
	l := s.lvl
	var lines []string
	lines = append(lines, hang(st.Heading.Render("Share "+termsafe.Escape(l.Title)+" as a level"), w, 2)...)
	what := "a race to play, no goal"
	if g := l.Goal; g != nil {
		kind := "break it"
		if !g.IsBreak() {
			kind = "fix it"
		}
		what = fmt.Sprintf("%s, par %d: %s", kind, g.Par, termsafe.Escape(l.Question))
	}
	lines = append(lines, hang(st.Faint.Render(what), w, 2)...)
	if r := s.room; r != nil {
		// What the level leaves to search, and whether that is enough.
		room := fmt.Sprintf("%.1f%% of random orders of at most %d moves lose a field; the longest race is %d moves", r.Share(), r.Par+playgoal.BreakSlack, r.Longest)
		if probs := r.Problems(); len(probs) > 0 {
			lines = append(lines, hang(st.Warn.Render(styles.Warn+" too easy to stumble on: "+strings.Join(probs, "; ")+" (add a decoy controller, or a narrower goal in a level file)"), w, 2)...)
		} else {
			lines = append(lines, hang(st.OK.Render(styles.OK+" room to search: "+room), w, 2)...)
		}
	}
	if r := s.fixRoom; r != nil {
		if probs := r.Problems(); len(probs) > 0 {
			lines = append(lines, hang(st.Warn.Render(styles.Warn+" too easy to fix by trying: "+strings.Join(probs, "; ")+" (mark more knobs, or add a controller)"), w, 2)...)
		} else {
			lines = append(lines, hang(st.OK.Render(styles.OK+" room to search: "+r.String()), w, 2)...)
		}
		if g := l.Goal; g != nil {
			lines = append(lines, hang(st.Faint.Render("the fewest changes: "+g.Settings.String()), w, 2)...)
		}
	}
	if s.marks != nil {
		lines = append(lines, "")
		lines = append(lines, m.marksLines(w)...)
	}
	lines = append(lines, "")
	if s.text != "" && s.marks == nil {
		for i := 0; i < len(s.text); i += w {
			lines = append(lines, st.Accent.Render(s.text[i:min(len(s.text), i+w)]))
		}
		lines = append(lines, "")
		lines = append(lines, hang(st.Faint.Render(fmt.Sprintf("%d characters: copy them whole (the line breaks do not matter). conflictlab sandbox --level TEXT opens it, and so does l here; conflictlab lessons validate --level TEXT proves its par.", len(s.text))), w, 0)...)
	}
	switch {
	case s.err != "":
		lines = append(lines, hang(st.Bad.Render(styles.Bad+" "+s.err), w, 2)...)
	case s.searching:
		what := "moves that lose a field"
		if s.marks != nil {
			what = "changes that fix every order"
		}
		lines = append(lines, hang(st.Warn.Render("searching for the fewest "+what+"… (esc cancels)"), w, 2)...)
	}
	var keys []string
	switch {
	case s.marks != nil && !s.searching:
		keys = append(keys, "↑↓ knob · space marks it · enter finds the fewest changes (par) · esc back")
		lines = append(lines, hang(st.Faint.Render(strings.Join(keys, " · ")), w, 0)...)
		return layout.Fit(strings.Join(lines, "\n"), w, h)
	case m.chal.active == nil && !s.searching:
		keys = append(keys, "b makes it a break-it level (par: the fewest moves that lose a field)",
			"f a fix-it level (mark the knobs; par: the fewest changes that fix it)")
	}
	if s.text != "" && !m.env.NoFiles {
		keys = append(keys, "w writes it to a file")
	}
	keys = append(keys, "esc closes")
	lines = append(lines, hang(st.Faint.Render(strings.Join(keys, " · ")), w, 0)...)
	return layout.Fit(strings.Join(lines, "\n"), w, h)
}

// marksLines list the knobs, the cursor on one, those marked checked,
// each with the values it offers on this race (only those the race can
// run with: a level offers nothing that means nothing on its race).
func (m Model) marksLines(w int) []string {
	st := m.st
	mk := m.share.marks
	lines := hang(st.Heading.Render("Fix it: the knobs the learner may change, on every controller"), w, 2)
	for i, n := range lessons.KnobNames {
		box := "[ ]"
		if mk.on[n] {
			box = "[x]"
		}
		cur := "  "
		if i == mk.cursor {
			cur = st.Accent.Render(styles.Cursor) + " "
		}
		values := "…"
		if mk.choices != nil {
			values = strings.Join(mk.choices[n], ", ")
			if len(mk.choices[n]) < 2 {
				values = "nothing to choose on this race"
			}
		}
		name := fmt.Sprintf("%s %s", box, n)
		if i == mk.cursor {
			name = st.Selected.Render(name)
		}
		lines = append(lines, hang(cur+name+" "+st.Faint.Render("· "+values), w, 6)...)
	}
	return lines
}
