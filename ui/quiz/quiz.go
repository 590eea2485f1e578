// Package quiz is the quiz screen: a small form (topic, number of
// questions, seed), then the questions one at a time — multiple choice,
// the outcome of a race (shown at its setup until answered, then played),
// the bug in a snippet, the write method for a change — each followed by
// the verdict, the explanation and the lesson to review; at the end the
// score, the best score kept with the progress, and the missed questions
// to see again.
//
// It drives the engine of package quiz (NewSession, Current, Answer,
// Done, Score) exactly as `conflictlab quiz` does, so the same topic,
// count and seed ask the same questions in the same order in both.
package quiz

import (
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/conflictlab/conflictlab/lessons"
	"github.com/conflictlab/conflictlab/progress"
	qz "github.com/conflictlab/conflictlab/quiz"
	"github.com/conflictlab/conflictlab/sim/scenario"
	"github.com/conflictlab/conflictlab/ui/codepane"
	"github.com/conflictlab/conflictlab/ui/layout"
	"github.com/conflictlab/conflictlab/ui/nav"
	"github.com/conflictlab/conflictlab/ui/raceview"
	"github.com/conflictlab/conflictlab/ui/stage"
	"github.com/conflictlab/conflictlab/ui/styles"
	"github.com/conflictlab/conflictlab/ui/textpane"
)

// Races is what the quiz asks of the simulator (racecache.Races).
type Races = stage.Races

// scenarios is what a question before its answer asks of the races
// (racecache.Races has it): the scenario itself, to draw its setup.
type scenarios interface {
	Scenario(lessons.RaceSpec) (*scenario.Scenario, error)
}

// Data is what the quiz needs; it is loaded off the UI loop when the
// screen first opens.
type Data struct {
	Bank  *qz.Bank
	Races Races
	// Lessons are the course the bank is about: lesson numbers and titles.
	Lessons []*lessons.Lesson
}

// Config is what the screen needs from the app.
type Config struct {
	Load func() (Data, error)
	// Prog holds the best scores. The screen reads it and never writes
	// it: a quiz finished is sent as a progress.QuizTaken for the root
	// to apply.
	Prog *progress.Progress
	// CanOpen reports whether the tutorial has the lesson, so that l can
	// open it (a lesson pack given with --lessons may not).
	CanOpen func(id string) bool
	// Today gives the default seed: the date as YYYYMMDD, so everyone who
	// takes the quiz on the same day gets the same one.
	Today time.Time
	// Seed, when set, is the default seed instead (a workshop's).
	Seed string
	// Ticker and Snippets replace the race clock and the snippet source
	// (tests).
	Ticker   raceview.Ticker
	Snippets func(name string) (string, error)
}

// Msg is implemented by the screen's own messages (data loaded, a race
// computed): the app routes them here whatever screen is on show.
type Msg interface{ QuizMsg() }

type loadedMsg struct {
	data Data
	err  error
}

func (loadedMsg) QuizMsg() {}

type raceReady struct{ stage.Ready }

func (raceReady) QuizMsg() {}

type phase int

const (
	loading phase = iota
	setup
	questioning
	results
	reviewing
)

// Form fields.
const (
	fieldTopic = iota
	fieldCount
	fieldSeed
	fieldStart
	nFields
)

// Counts are the question counts offered; 0 is every matching question.
var Counts = []int{5, 10, 20, 0}

const defaultCount = 1 // 10

// maxSeedDigits keeps a typed seed inside uint64.
const maxSeedDigits = 19

// WideWidth is the width from which the question and its race or code sit
// side by side (as in the lesson player).
const WideWidth = 119

// topic is one choice of the form's topic field.
type topic struct {
	key   string // "" is every question
	label string
	about string
	n     int
}

// Model is the quiz screen.
type Model struct {
	cfg   Config
	data  *Data
	err   error
	phase phase

	topics    []topic
	field     int
	topicI    int
	countI    int
	seed      string
	seedFresh bool
	formErr   string

	sess      *qz.Session
	sessTopic topic
	items     []qz.Presented
	// ask is the question on show before its answer (nil once answered,
	// and while the score is on show): it holds no way to the outcome.
	// f is the question once answered; its panes go on to the next
	// question's ask. res is the answer.
	ask *asking
	f   frame
	res *qz.Result
	// setups are the races' setups made so far, for the questions'
	// asks.
	setups *stage.Setups

	// prev is the best before this quiz; newBest says this one beat it.
	prev    progress.QuizBest
	hadPrev bool
	newBest bool
	missI   int

	// req is which race the stage wants and shows once a question is
	// answered ("" for none); each is computed once, however often it is
	// asked for meanwhile, and a race question's is computed while the
	// question is read.
	req stage.Requests

	w, h int
	st   *styles.Styles
	Keys KeyMap
}

// New builds the screen; Load (a command) fetches its data.
func New(cfg Config, st *styles.Styles) Model {
	m := Model{cfg: cfg, st: st, countI: defaultCount, Keys: DefaultKeys(), setups: stage.NewSetups()}
	m.f = frame{race: raceview.New(st), code: codepane.New(st), text: textpane.New(st), st: st, keys: m.Keys}
	m.f.text.Keys = m.Keys.Text
	if cfg.Ticker != nil {
		m.f.race.Tick = cfg.Ticker
	}
	m.seed = m.defaultSeed()
	m.seedFresh = true
	return m
}

// Load is the command that loads the bank and the course.
func (m Model) Load() tea.Cmd {
	load := m.cfg.Load
	return func() tea.Msg {
		d, err := load()
		return loadedMsg{data: d, err: err}
	}
}

func (m Model) defaultSeed() string {
	if m.cfg.Seed != "" {
		return m.cfg.Seed
	}
	t := m.cfg.Today
	if t.IsZero() {
		t = time.Now()
	}
	return t.Format("20060102")
}

// SetStyles replaces the styles.
func (m *Model) SetStyles(st *styles.Styles) {
	m.st = st
	m.f.setStyles(st)
	if m.ask != nil {
		a := *m.ask
		a.f.setStyles(st)
		a.relayout()
		m.ask = &a
	}
	m.relayout()
}

// SetSize sets the screen's rectangle.
func (m *Model) SetSize(w, h int) {
	m.w, m.h = w, h
	m.f.w, m.f.h = w, h
	if m.ask != nil {
		a := *m.ask
		a.f.w, a.f.h = w, h
		a.relayout()
		m.ask = &a
	}
	m.relayout()
}

// Phase names what is on show (for tests): loading, setup, question,
// results, review.
func (m Model) Phase() string {
	return [...]string{"loading", "setup", "question", "results", "review"}[m.phase]
}

// Session is the quiz being taken (nil before the first).
func (m Model) Session() *qz.Session { return m.sess }

// Shown is the question on show and the answer given to it (nil before
// the answer).
func (m Model) Shown() (qz.Presented, *qz.Result) { return m.frame().item, m.res }

// Race is the race view (for tests).
func (m Model) Race() raceview.Model { return m.frame().race }

// frame is the question on show, asked or answered.
func (m Model) frame() frame {
	if m.ask != nil {
		return m.ask.f
	}
	return m.f
}

// Seed is the seed the form holds.
func (m Model) Seed() string { return m.seed }

// Title is the header text.
func (m Model) Title() string {
	switch m.phase {
	case setup:
		return "quiz · new quiz"
	case questioning:
		p := m.frame().item
		return fmt.Sprintf("quiz · question %d/%d · seed %d", p.Number, p.Total, m.sess.Seed())
	case results:
		return fmt.Sprintf("quiz · score · seed %d", m.sess.Seed())
	case reviewing:
		return fmt.Sprintf("quiz · review question %d/%d · seed %d", m.f.item.Number, m.f.item.Total, m.sess.Seed())
	}
	return "quiz"
}

// TakesKey: esc, from a reviewed question, goes back to the score;
// anywhere else esc is the root's (the quiz is popped, and kept as it is:
// the home screen's Quiz entry comes back to it).
func (m Model) TakesKey(msg tea.KeyPressMsg) bool {
	return m.phase == reviewing && key.Matches(msg, m.Keys.Back)
}

// Where is no lesson.
func (m Model) Where() nav.Place { return nav.Place{} }

// Leave keeps nothing between runs.
func (m Model) Leave() tea.Cmd { return nil }

// Update handles the screen's keys, its data and its races.
func (m Model) Update(msg tea.Msg) (Model, tea.Cmd) {
	switch msg := msg.(type) {
	case raceview.TickMsg:
		// Playback changes the stage, never the text.
		var cmd tea.Cmd
		if m.ask != nil {
			a := *m.ask
			a, _, cmd = a.Update(msg)
			m.ask = &a
			return m, cmd
		}
		m.f.race, cmd = m.f.race.Update(msg)
		return m, cmd
	case tea.MouseWheelMsg:
		if m.ask != nil {
			a, _, _ := m.ask.Update(msg)
			m.ask = &a
			return m, nil
		}
		if m.phase == questioning || m.phase == reviewing {
			m.f.text, _ = m.f.text.Update(msg)
			m.f.reveal = revealNone
		}
		return m, nil
	case setupReady:
		if m.ask != nil {
			a, _, _ := m.ask.Update(msg)
			m.ask = &a
		}
		return m, nil
	case tea.KeyPressMsg, Msg:
	default:
		return m, nil // another screen's
	}
	m, cmd := m.update(msg)
	m.relayout()
	return m, cmd
}

func (m Model) update(msg tea.Msg) (Model, tea.Cmd) {
	switch msg := msg.(type) {
	case loadedMsg:
		if msg.err != nil {
			m.err = msg.err
			return m, nil
		}
		d := msg.data
		m.data = &d
		m.topics = buildTopics(d)
		m.phase = setup
		return m, nil
	case raceReady:
		place, err := m.req.Arrived(msg.Ready)
		if m.ask != nil {
			// Computed while the question is read, for the answer to
			// play it at once: the question never sees it.
			return m, nil
		}
		if err != nil {
			m.f.stageErr = err
		}
		if !place {
			return m, nil
		}
		return m, m.apply(msg.Key, msg.Out)
	case tea.KeyPressMsg:
		if m.TakesKey(msg) {
			m.phase = results
			m.stage("", nil, false)
			return m, nil
		}
		switch {
		case m.phase == setup:
			return m.setupKey(msg)
		case m.ask != nil:
			a, answer, cmd := m.ask.Update(msg)
			m.ask = &a
			if answer < 0 {
				return m, cmd
			}
			m, shown := m.answer(answer)
			return m, tea.Batch(cmd, shown)
		case m.phase == questioning || m.phase == reviewing:
			return m.questionKey(msg)
		case m.phase == results:
			return m.resultsKey(msg)
		}
	}
	return m, nil
}

// buildTopics lists every question, then each lesson's questions in
// course order, then each concept's.
func buildTopics(d Data) []topic {
	b := d.Bank
	out := []topic{{key: "", label: "all topics", about: "Every question of the bank, on every lesson.", n: len(b.Questions)}}
	seen := map[string]bool{}
	for i, l := range d.Lessons {
		n := len(b.Select(qz.Filter{Topic: l.ID}))
		seen[l.ID] = true
		if n == 0 {
			continue
		}
		out = append(out, topic{key: l.ID, label: fmt.Sprintf("lesson %d · %s", i+1, l.Title),
			about: fmt.Sprintf("The questions about lesson %d, %s.", i+1, l.Title), n: n})
	}
	for _, t := range b.Topics() {
		if seen[t] {
			continue
		}
		about, concept := lessons.Concepts[t]
		if !concept {
			// A lesson of the bank the course does not have.
			out = append(out, topic{key: t, label: "lesson " + t, about: "The questions about lesson " + t + ".", n: len(b.Select(qz.Filter{Topic: t}))})
			continue
		}
		out = append(out, topic{key: t, label: "concept · " + t, about: "Concept: " + about + ".", n: len(b.Select(qz.Filter{Topic: t}))})
	}
	return out
}

func (m Model) lessonLabel(id string) string {
	if m.data != nil {
		for i, l := range m.data.Lessons {
			if l.ID == id {
				return fmt.Sprintf("lesson %d, %s", i+1, l.Title)
			}
		}
	}
	return "lesson " + id
}

func (m Model) canOpen(id string) bool { return m.cfg.CanOpen != nil && m.cfg.CanOpen(id) }

// --- drawing ---

// View draws the screen into exactly its size.
func (m Model) View() string {
	if m.w <= 0 || m.h <= 0 {
		return ""
	}
	switch {
	case m.err != nil:
		return layout.Fit(m.st.Bad.Render(styles.Bad+" the quiz could not be loaded:")+"\n\n"+
			layout.Wrap(m.err.Error(), m.w), m.w, m.h)
	case m.phase == loading:
		return layout.Fit("\n"+m.st.Faint.Render("loading the quiz…"), m.w, m.h)
	case m.phase == setup:
		return m.viewSetup()
	case m.phase == results:
		return m.viewResults()
	case m.ask != nil:
		return m.ask.View()
	}
	return m.f.view(m.verdict())
}

// oneLine is the question's text on one line, without the Markdown marks
// that would read oddly in a list (the list cuts it to fit).
func oneLine(s string) string {
	return strings.NewReplacer("**", "", "`", "").Replace(strings.Join(strings.Fields(s), " "))
}
