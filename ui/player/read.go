package player

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/conflictlab/conflictlab/progress"
	"github.com/conflictlab/conflictlab/ui/keyhelp"
	"github.com/conflictlab/conflictlab/ui/raceview"
	"github.com/conflictlab/conflictlab/ui/stage"
	"github.com/conflictlab/conflictlab/ui/styles"
)

// reading is a read step: prose, and a race that plays as soon as it is
// there.
type reading struct {
	f    frame
	show shown
}

func newReading(f frame, races Races, req stage.Requests, l Live) (step, tea.Cmd) {
	r := reading{f: f, show: shown{races: races, req: req, live: l}}
	var cmd tea.Cmd
	if f.s.Race != nil {
		cmd = r.show.ask(&r.f, nil, false, true)
	}
	r.f.setCode(r.f.stepCode(), false)
	r.relayout()
	return r, cmd
}

func (r reading) Update(msg tea.Msg) (step, tea.Cmd) {
	var cmd tea.Cmd
	switch msg := msg.(type) {
	case raceReady:
		var placed bool
		if cmd, placed = r.show.arrived(&r.f, msg); !placed {
			return r, nil
		}
		r.f.setCode(r.f.stepCode(), false)
	case liveReady:
		cmd = r.show.liveArrived(&r.f, msg, nil)
	case raceview.TickMsg:
		r.f.race, cmd = r.f.race.Update(msg)
		return r, cmd
	case tea.MouseWheelMsg:
		r.f.wheel(msg)
		return r, nil
	case tea.KeyPressMsg:
		r, cmd = r.key(msg)
	case progress.Change:
	default:
		return r, nil
	}
	r.relayout()
	return r, cmd
}

func (r reading) key(msg tea.KeyPressMsg) (reading, tea.Cmd) {
	k := r.f.keys()
	if cmd, took := r.show.liveKey(&r.f, msg, nil); took {
		return r, cmd
	}
	if r.f.inspecting() && r.f.race.HandlesKey(msg) {
		var cmd tea.Cmd
		r.f.race, cmd = r.f.race.Update(msg)
		return r, cmd
	}
	switch {
	case key.Matches(msg, k.Answer):
		// Owned only while text is left to read: enter reads on.
		r.f.text.ScrollBy(r.f.textH - 1)
		r.f.reveal = revealNone
	case key.Matches(msg, k.Decide):
		if d, ok := deciding(r.f); ok {
			r.f.race.SelectRow(d.Step)
		}
	default:
		cmd, _ := r.f.paneKey(msg)
		return r, cmd
	}
	return r, nil
}

func (r *reading) relayout() {
	f := &r.f
	if !f.ready() {
		return
	}
	tb := r.textBlock(f.textWidth())
	f.layout(tb, f.height(tb, f.share(false), false), false)
}

func (r reading) laidOut() step {
	r.relayout()
	return r
}

// textBlock is the prose, "enter: continue" and a replay.
func (r reading) textBlock(w int) textBlock {
	f := r.f
	lines := append(f.prose(w), "", f.st.Faint.Render("enter: continue"))
	n := len(lines)
	tb := textBlock{q: n, optEnd: n, feedback: n, hint: n, hintEnd: n, sol: n, solEnd: n, live: n}
	tb.lines = append(lines, r.show.liveLines(f, w)...)
	return tb
}

func (r reading) View() string {
	return r.f.view(func(w, h int) string { return r.f.raceStage(w, h, r.show.raceErr, "") })
}

func (r reading) SetSize(w, h int) step {
	r.f.setSize(w, h)
	return r.laidOut()
}

func (r reading) SetStyles(st *styles.Styles) step {
	r.f.setStyles(st)
	return r.laidOut()
}

func (r reading) Refresh(l Live) step {
	r.show.live = l
	r.f.code.Show("")
	r.f.setCode(r.f.stepCode(), false)
	return r.laidOut()
}

func (r reading) ShortHelp() []key.Binding {
	k := r.f.keys()
	var out []key.Binding
	switch {
	case r.f.inspecting():
		// The panel has ↑↓ and esc; the app's esc (back) is not listed.
		out = append(out, withHelp(k.Race.Down, "↑↓", "scroll details"), withHelp(k.Race.Close, "esc/i", "close details"))
	case r.f.unread():
		out = append(out, withHelp(k.Answer, "enter", "read on"))
	default:
		out = append(out, withHelp(k.Answer, "enter", "continue"))
	}
	if r.f.race.Run() != nil && !r.f.race.Hidden() {
		out = append(out, k.Race.Play, k.Race.Step, k.Race.Back)
	}
	return append(r.f.codeKey(out), k.Prev)
}

func (r reading) HelpGroups() []keyhelp.Group {
	f := r.f
	k := f.keys()
	lesson := f.lessonKeys(withHelp(k.Answer, "enter", "continue"))
	if f.s.Race != nil {
		lesson = append(lesson, k.Decide)
	}
	groups := []keyhelp.Group{{Title: "Lesson", Keys: lesson}, {Title: "Text", Keys: k.Text.Bindings()}}
	if f.s.Race != nil {
		groups = append(groups, keyhelp.Group{Title: "Race", Keys: k.Race.Bindings()})
	}
	if r.show.live != nil {
		groups = append(groups, keyhelp.Group{Title: "Live", Keys: []key.Binding{k.Live}})
	}
	return inspectFirst(f, groups)
}

// TakesKey: esc closes the race's inspect panel, as its help says.
func (r reading) TakesKey(msg tea.KeyPressMsg) bool {
	return msg.String() == "esc" && r.f.inspecting() && r.f.race.HandlesKey(msg)
}

// Owns: every key while a replay's prompt is open; enter while text is
// left to read (it reads on).
func (r reading) Owns(msg tea.KeyPressMsg) bool {
	return r.show.prompting() || key.Matches(msg, r.f.keys().Answer) && r.f.unread()
}

func (r reading) Frame() frame { return r.f }
func (r reading) Stop()        {}

// Answered: only a question before its answer takes one.
func (r reading) Answered() (answer, bool) { return answer{}, false }
