package sandbox

import (
	"context"
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/conflictlab/conflictlab/lessons"
	"github.com/conflictlab/conflictlab/lessons/playgoal"
	"github.com/conflictlab/conflictlab/level"
	"github.com/conflictlab/conflictlab/sandbox/draft"
	"github.com/conflictlab/conflictlab/sim/race"
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
// ignores the line breaks); w writes it to a file as well.

// shareState is the share panel.
type shareState struct {
	lvl  *level.Level
	text string
	err  string
	// searching: the shortest break is being searched for.
	searching bool
	// room is a break-it level's room to search, once measured.
	room   *playgoal.BreakRoom
	cancel context.CancelFunc
	gen    int
}

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
	s.lvl, s.err, s.room = l, "", nil
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
	switch {
	case key.Matches(msg, k.Back):
		if s.cancel != nil {
			s.cancel()
		}
		m.share = nil
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

func (m Model) onShortest(msg shortestFound) Model {
	s := m.share
	if s == nil || msg.gen != s.gen {
		return m
	}
	s.searching, s.cancel = false, nil
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
	lines = append(lines, "")
	if s.text != "" {
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
		lines = append(lines, st.Warn.Render("searching for the fewest moves that lose a field… (esc cancels)"))
	}
	var keys []string
	if m.chal.active == nil && !s.searching {
		keys = append(keys, "b makes it a break-it level (par: the fewest moves that lose a field)")
	}
	if s.text != "" && !m.env.NoFiles {
		keys = append(keys, "w writes it to a file")
	}
	keys = append(keys, "esc closes")
	lines = append(lines, hang(st.Faint.Render(strings.Join(keys, " · ")), w, 0)...)
	return layout.Fit(strings.Join(lines, "\n"), w, h)
}
