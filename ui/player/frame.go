package player

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/conflictlab/conflictlab/lessons"
	"github.com/conflictlab/conflictlab/lessons/snippets"
	"github.com/conflictlab/conflictlab/progress"
	"github.com/conflictlab/conflictlab/ui/codepane"
	"github.com/conflictlab/conflictlab/ui/layout"
	"github.com/conflictlab/conflictlab/ui/markdown"
	"github.com/conflictlab/conflictlab/ui/raceview"
	"github.com/conflictlab/conflictlab/ui/stage"
	"github.com/conflictlab/conflictlab/ui/styles"
	"github.com/conflictlab/conflictlab/ui/textpane"
)

// lessonEnv is what every step of a lesson shares, read-only: the lesson,
// the progress it reads, the keys, where snippets come from. It holds
// nothing that plays a race: the steps that show an outcome are given the
// races of their own (a question before its answer is not).
type lessonEnv struct {
	lesson  *lessons.Lesson
	prog    *progress.Progress
	keys    KeyMap
	snippet func(string) (string, error)
	// tick is the race views' clock (see ticker).
	tick raceview.Ticker
}

// rec is the lesson's record in the progress (an empty one before the
// learner's first visit is applied).
func (e *lessonEnv) rec() *progress.Lesson { return e.prog.Peek(e.lesson.ID) }

// frame is what every kind of step shows, and how: the step's text in the
// text pane, beside the stage in a wide window or above it, the stage
// showing the step's race or its code, and zoom giving the stage the
// whole screen. The race view, the code pane and the text pane go on from
// step to step (the race view keeps the speed the learner chose, and its
// tour shows once).
type frame struct {
	env *lessonEnv
	// i is the step's index and s the step; gen tells this visit of the
	// step from an earlier one (a late answer for it is dropped).
	i   int
	s   *lessons.Step
	gen int

	text textpane.Model
	race raceview.Model
	code codepane.Model
	// codeBefore: the code pane shows its snippet as before an answer
	// (without comments); showCode: the learner asked for the code.
	codeBefore, showCode bool
	zoom                 bool
	// reveal is what each layout scrolls into view, until the learner
	// scrolls: the stage taking more room when its race arrives must not
	// push the verdict just shown out of view.
	reveal reveal
	// textH is the text pane's height in a stacked layout.
	textH int
	w, h  int
	st    *styles.Styles
}

// carry is the frame of step i that follows f: the panes go on, the step
// opens unzoomed, at its top, with nothing on the stage yet.
func (f frame) carry(i, gen int) frame {
	f.i, f.gen = i, gen
	f.s = nil
	if i < len(f.env.lesson.Steps) {
		f.s = &f.env.lesson.Steps[i]
	}
	f.zoom, f.reveal = false, revealTop
	f.race.SetRun(nil, false)
	return f
}

// Keys are the lesson's keys.
func (f frame) keys() KeyMap { return f.env.keys }

// hasStage reports whether the step has something to show beside its
// text: a race, or code. A step without either gives the text the whole
// screen.
func (f frame) hasStage() bool { return f.s.Race != nil || f.code.Name() != "" }

// showsCode reports whether the stage shows the code: when the learner
// asked for it, and at once on a step with code and no race.
func (f frame) showsCode() bool { return f.code.Name() != "" && (f.showCode || f.s.Race == nil) }

// canToggleCode reports whether the code key does anything: the step
// has both a race and code to switch between.
func (f frame) canToggleCode() bool { return f.s.Race != nil && f.code.Name() != "" }

// zoomed reports whether the stage has the whole screen.
func (f frame) zoomed() bool { return f.zoom && f.hasStage() }

// unread reports whether the text goes on below the pane: enter reads on
// then (a read step's prose, an answer's feedback), rather than leave the
// step with it half read.
func (f frame) unread() bool { return !f.zoomed() && !f.text.AtBottom() }

// inspecting reports whether the race's inspect panel is open on the
// stage: the keys it claims (↑/↓ scroll it, esc closes it) are its.
func (f frame) inspecting() bool {
	return f.s.Race != nil && f.s.Kind != lessons.Play && !f.showsCode() && f.race.Inspecting()
}

// setCode shows snippet name in the code pane, as before an answer
// (without its comments, which name the defect) or whole.
func (f *frame) setCode(name string, before bool) {
	if before != f.codeBefore {
		// The pane keeps a snippet by name: the same name must load again.
		f.codeBefore = before
		f.code.Show("")
	}
	env := f.env
	f.code.Source = func(n string) (string, error) {
		code, err := env.snippet(n)
		if err != nil || !before {
			return code, err
		}
		return lessons.SnippetBeforeAnswer(code), nil
	}
	f.code.Show(name)
}

// reloadCode shows the snippet on show again, from the snippet source
// as it is now (SetSnippets).
func (f *frame) reloadCode(before bool) {
	name := f.code.Name()
	f.code.Show("")
	f.setCode(name, before)
}

// stepCode is the snippet a step shows: its own, or the one of the
// write of the race on its stage.
func (f frame) stepCode() string {
	if f.s.Code != "" {
		return f.s.Code
	}
	if r := f.race.Run(); r != nil && len(r.Outcome.Controllers) > 0 {
		return snippets.ForWrite(r.Outcome.Controllers[0].Write)
	}
	return ""
}

func (f *frame) setSize(w, h int) { f.w, f.h = w, h }

func (f *frame) setStyles(st *styles.Styles) {
	f.st = st
	f.race.SetStyles(st)
	f.code.SetStyles(st)
	f.text.SetStyles(st)
}

// paneKey handles the keys every step has for its panes: the code and
// the zoom, scrolling the text and the code, and the race view's own. It
// reports whether it took the key.
func (f *frame) paneKey(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	k := f.keys()
	switch {
	case key.Matches(msg, k.Code):
		if f.canToggleCode() {
			f.showCode = !f.showCode
		}
	case key.Matches(msg, k.Zoom):
		if f.hasStage() {
			f.zoom = !f.zoom
		}
	default:
		panes := stage.Panes{Text: &f.text, Code: &f.code, Race: &f.race, TextOn: !f.zoomed(), CodeOn: f.showsCode()}
		cmd, scrolled, ok := panes.Key(msg, k.Text, k.Race)
		if scrolled {
			f.reveal = revealNone
		}
		return cmd, ok
	}
	return nil, true
}

// wheel scrolls the text (not while the stage has the screen).
func (f *frame) wheel(msg tea.MouseWheelMsg) {
	if !f.zoomed() {
		f.text, _ = f.text.Update(msg)
		f.reveal = revealNone
	}
}

// textBlock is the whole text column — the step's prose, then the
// question, its options, feedback, hint and solution — and where each
// part starts.
type textBlock struct {
	lines []string
	// question: the step asks one (its options, or a play step's goal).
	question bool
	// q and optEnd bound the question and its options, opt is the first
	// option's line; optTop is the first option in view; feedback is the
	// verdict's line; hint, sol and live start those parts and hintEnd
	// and solEnd end them (all len(lines) when absent).
	q, opt, optEnd, optTop, feedback, hint, hintEnd, sol, solEnd, live int
}

// prose is the step's title and text, w wide: where every text block
// starts.
func (f frame) prose(w int) []string {
	st := f.st
	lines := []string{st.Title.Render(layout.Truncate(f.s.Title, w))}
	if strings.TrimSpace(f.s.Text) != "" {
		lines = append(lines, layout.Lines(markdown.Render(f.s.Text, st.Markdown, w))...)
	}
	return lines
}

// maxProse is the widest the text runs when it has the screen to itself:
// longer lines are hard to follow.
const maxProse = 100

// stageMin is the fewest rows a stacked stage keeps (its title and seven
// rows of the race) when the window allows it.
const stageMin = 8

// proseMin is the fewest lines of a step's prose (its title and text)
// the text pane shows above the question and its options while they are
// pinned under it: options that do not fit under them scroll with the
// cursor.
const proseMin = 4

// textWidth is the text column's width.
func (f frame) textWidth() int {
	switch {
	case !f.hasStage():
		return min(f.w, maxProse)
	case f.w >= WideWidth:
		return max(40, min(56, f.w*9/25))
	}
	return f.w
}

// height is the text pane's height for tb: the whole frame beside the
// stage or without one; stacked, its share (textHeight).
func (f frame) height(tb textBlock, share int, pinned bool) int {
	if f.hasStage() && f.w < WideWidth {
		return f.textHeight(tb, share, pinned)
	}
	return f.h
}

// layout sizes the text pane th high and gives it tb's lines, then
// scrolls what the last action asked for into view (again, as the sizes
// change, until the learner scrolls). pinned keeps the question and its
// options under the prose (a question not answered yet). It runs after
// every change to what the text says and to the size, so View only
// draws.
func (f *frame) layout(tb textBlock, th int, pinned bool) {
	f.textH = th
	f.text.SetSize(f.textWidth(), th)
	pin, pinEnd := 0, 0
	if pinned {
		pin, pinEnd = tb.q, tb.optEnd
	}
	f.text.SetContent(tb.lines, pin, pinEnd)
	n := len(tb.lines)
	switch f.reveal {
	case revealTop:
		f.text.GotoTop()
	case revealAnswer:
		// The options and all that follows them; when that is too much,
		// the verdict and all that follows it.
		f.text.EnsureVisible(tb.q, n)
		if !f.text.Visible(tb.feedback) || !f.text.Visible(n-1) {
			f.text.EnsureVisible(tb.feedback, n)
		}
	case revealHint:
		f.text.EnsureVisible(tb.hint, tb.hintEnd)
	case revealSolution:
		f.text.EnsureVisible(tb.sol, tb.solEnd)
	case revealLive:
		f.text.EnsureVisible(tb.live, n)
	}
}

// ready reports whether the frame has a size to lay out for.
func (f frame) ready() bool { return f.w > 0 && f.h > 0 }

// reveal is what a layout brings into view.
type reveal int

const (
	revealNone reveal = iota
	revealTop
	revealAnswer
	revealHint
	revealSolution
	revealLive
)

// textHeight is the text pane's share of a stacked layout: what it needs,
// up to share percent of the height, but always room for the question and
// every option under a line of the prose while they are pinned, and never
// less than stageMin rows for the stage.
func (f frame) textHeight(tb textBlock, share int, pinned bool) int {
	need := len(tb.lines)
	h := min(need, f.h*share/100)
	if pinned {
		// The options pinned under the prose, with proseMin lines of prose
		// and the mark under them.
		h = max(h, min(need, tb.optEnd-tb.q+1+min(proseMin, tb.q)))
	}
	h = max(h, min(need, 6))
	h = min(h, f.h-1-min(stageMin, f.h/3))
	return max(1, h)
}

// share is the text's share of a stacked layout for a question step: a
// race playing is what to watch; feedback, a hint or a solution is what
// to read; else half.
func (f frame) share(reading bool) int {
	switch {
	case f.race.Run() != nil && !f.race.Hidden():
		return 40
	case reading:
		return 55
	}
	return 50
}

// view draws the text and the stage into exactly the frame's size;
// stage draws the stage w×h, its title rule over its body (a stage too
// short for both is left blank).
func (f frame) view(stage func(w, h int) string) string {
	if f.w <= 0 || f.h <= 0 {
		return ""
	}
	draw := stage
	stage = func(w, h int) string {
		if h < 2 {
			return layout.Fit("", w, h)
		}
		return draw(w, h)
	}
	if f.zoomed() {
		return stage(f.w, f.h)
	}
	switch {
	case !f.hasStage():
		return layout.Fit(f.text.View(), f.w, f.h)
	case f.w >= WideWidth:
		tw, _ := f.text.Size()
		rw := f.w - tw - 3
		sep := layout.Fit(strings.TrimSuffix(strings.Repeat(f.st.Border.Render("│")+"\n", f.h), "\n"), 1, f.h)
		return layout.Fit(layout.Beside(f.text.View(), " ", sep, " ", stage(rw, f.h)), f.w, f.h)
	}
	stageH := f.h - f.textH - 1
	return layout.Fit(f.text.View()+"\n"+f.st.Border.Render(strings.Repeat("─", f.w))+"\n"+stage(f.w, stageH), f.w, f.h)
}

// stageFrame is a stage's title rule over its body, w×h.
func (f frame) stageFrame(title, body string, w, h int) string {
	return layout.Fit(layout.Rule(title, w, f.st.Border)+"\n"+body, w, h)
}

// raceStage is a step's stage w×h: the code when it is on show, else the
// race view under a rule naming the race (and where it ran, and the
// strategy it runs: strategyLabel, on lines of its own when the rule has
// no room), or err when the race could not be had.
func (f *frame) raceStage(w, h int, err error, strategyLabel string) string {
	switch {
	case f.showsCode():
		return f.codeStage(w, h)
	case f.s.Race == nil:
		return f.stageFrame("race", f.faint("This step has no race.", w, h-1), w, h)
	case err != nil:
		return f.stageFrame("race", f.bad("the race could not run: "+err.Error(), w, h-1), w, h)
	}
	title := "race " + f.s.Race.Scenario
	if r := f.race.Run(); r != nil {
		title = "race " + r.Outcome.Scenario
		if r.Source != "" {
			title += " · " + r.Source
		}
	}
	var strategy []string
	if strategyLabel != "" {
		if full := title + " · strategy: " + strategyLabel; layout.MaxWidth("─ "+full+" ") <= w {
			title = full
		} else {
			strategy = layout.Lines(layout.Wrap(f.st.Faint.Render("strategy: ")+strategyLabel, w))
			strategy = strategy[:min(len(strategy), max(0, h-2))]
		}
	}
	f.race.SetSize(w, h-1-len(strategy))
	body := f.race.View()
	if len(strategy) > 0 {
		body = strings.Join(strategy, "\n") + "\n" + body
	}
	return f.stageFrame(title, body, w, h)
}

// codeStage is the stage showing the code, w×h.
func (f *frame) codeStage(w, h int) string {
	title := "code: " + f.code.Name()
	if f.code.Name() == "" {
		title = "code"
	}
	f.code.SetSize(w, h-1)
	return f.stageFrame(title, f.code.View(), w, h)
}

// faint is a stage's body that only says something (the race is being
// set up, could not run, or is not there).
func (f frame) faint(text string, w, h int) string {
	return layout.Fit(f.st.Faint.Render(text), w, h)
}

func (f frame) bad(text string, w, h int) string {
	return layout.Fit(f.st.Bad.Render(styles.Bad+" "+text), w, h)
}

// codeKey adds the code key to keys when it does something on this step.
func (f frame) codeKey(keys []key.Binding) []key.Binding {
	if f.canToggleCode() {
		keys = append(keys, f.keys().Code)
	}
	return keys
}

// lessonKeys is the "Lesson" group of the key list: next and previous
// step, the code key, the zoom.
func (f frame) lessonKeys(first ...key.Binding) []key.Binding {
	k := f.keys()
	keys := f.codeKey(append(first, k.Next, k.Prev))
	switch {
	case f.s.Race != nil:
		keys = append(keys, k.Zoom)
	case f.hasStage():
		// The code is the stage: it zooms and scrolls as a race would.
		keys = append(keys, withHelp(k.Zoom, "tab", "zoom code"), withHelp(k.Race.ScrollUp, "K/J", "scroll code"))
	}
	return keys
}

func withHelp(b key.Binding, keys, desc string) key.Binding {
	b.SetHelp(keys, desc)
	return b
}
