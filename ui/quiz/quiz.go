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
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/conflictlab/conflictlab/lessons"
	"github.com/conflictlab/conflictlab/lessons/snippets"
	"github.com/conflictlab/conflictlab/progress"
	qz "github.com/conflictlab/conflictlab/quiz"
	"github.com/conflictlab/conflictlab/sim/race"
	"github.com/conflictlab/conflictlab/ui/codepane"
	"github.com/conflictlab/conflictlab/ui/keyhelp"
	"github.com/conflictlab/conflictlab/ui/layout"
	"github.com/conflictlab/conflictlab/ui/markdown"
	"github.com/conflictlab/conflictlab/ui/nav"
	"github.com/conflictlab/conflictlab/ui/raceview"
	"github.com/conflictlab/conflictlab/ui/styles"
	"github.com/conflictlab/conflictlab/ui/textpane"
)

// Races is what the screen asks of the simulator (lessons.Races): the
// whole run of a question's race (Question.Spec), with a method option's
// strategy, and whether it has been computed already.
type Races interface {
	Race(lessons.RaceSpec) (*race.Outcome, error)
	Cached(lessons.RaceSpec) (*race.Outcome, bool)
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
	// Prog holds the best scores; it is shared with the app and updated
	// in place (the screen then sends nav.ProgressChanged).
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

type raceReady struct {
	key string
	out *race.Outcome
	err error
}

func (raceReady) QuizMsg() {}

type phase int

const (
	loading phase = iota
	setup
	asking
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
	item      qz.Presented
	res       *qz.Result
	cursor    int
	// text is the question column; reveal is what each layout scrolls
	// into view, until the learner scrolls.
	text   textpane.Model
	reveal reveal

	// prev is the best before this quiz; newBest says this one beat it.
	prev    progress.QuizBest
	hadPrev bool
	newBest bool
	missI   int

	race raceview.Model
	code codepane.Model
	// computing holds the races asked for and not yet arrived: a race is
	// computed once, however often it is asked for meanwhile.
	computing map[string]bool
	want      string
	shown     string // the race on the stage ("" for none)
	wantHid   bool
	wantRev   bool
	raceErr   error

	w, h int
	st   *styles.Styles
	Keys KeyMap
}

// New builds the screen; Load (a command) fetches its data.
func New(cfg Config, st *styles.Styles) Model {
	m := Model{cfg: cfg, st: st, countI: defaultCount, race: raceview.New(st), code: codepane.New(st),
		text: textpane.New(st), computing: map[string]bool{}, Keys: DefaultKeys()}
	m.text.Keys = m.Keys.Text
	if cfg.Ticker != nil {
		m.race.Tick = cfg.Ticker
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
	m.race.SetStyles(st)
	m.code.SetStyles(st)
	m.text.SetStyles(st)
	m.relayout()
}

// SetSize sets the screen's rectangle.
func (m *Model) SetSize(w, h int) {
	m.w, m.h = w, h
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
func (m Model) Shown() (qz.Presented, *qz.Result) { return m.item, m.res }

// Race is the race view (for tests).
func (m Model) Race() raceview.Model { return m.race }

// Seed is the seed the form holds.
func (m Model) Seed() string { return m.seed }

// Title is the header text.
func (m Model) Title() string {
	switch m.phase {
	case setup:
		return "quiz · new quiz"
	case asking:
		return fmt.Sprintf("quiz · question %d/%d · seed %d", m.item.Number, m.item.Total, m.sess.Seed())
	case results:
		return fmt.Sprintf("quiz · score · seed %d", m.sess.Seed())
	case reviewing:
		return fmt.Sprintf("quiz · review question %d/%d · seed %d", m.item.Number, m.item.Total, m.sess.Seed())
	}
	return "quiz"
}

// Back is esc: from a reviewed question back to the score; anywhere else
// back to the lessons (the quiz stays as it is, and the home screen's
// Quiz entry comes back to it).
func (m Model) Back() (Model, tea.Cmd) {
	if m.phase == reviewing {
		m.phase = results
		m.stage("", nil, false)
		return m, nil
	}
	return m, func() tea.Msg { return nav.Home{} }
}

// Update handles the screen's keys, its data and its races.
func (m Model) Update(msg tea.Msg) (Model, tea.Cmd) {
	switch msg := msg.(type) {
	case raceview.TickMsg:
		// Playback changes the stage, never the text.
		var cmd tea.Cmd
		m.race, cmd = m.race.Update(msg)
		return m, cmd
	case tea.MouseWheelMsg:
		if m.phase == asking || m.phase == reviewing {
			m.text, _ = m.text.Update(msg)
			m.reveal = revealNone
		}
		return m, nil
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
		delete(m.computing, msg.key)
		if msg.err != nil {
			if msg.key == m.want {
				m.raceErr = msg.err
			}
			return m, nil
		}
		if msg.key == m.shown {
			// A late duplicate must not reset a stage that may be playing.
			return m, nil
		}
		return m, m.apply(msg.key, msg.out)
	case tea.KeyPressMsg:
		switch m.phase {
		case setup:
			return m.setupKey(msg)
		case asking, reviewing:
			return m.questionKey(msg)
		case results:
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

// --- the form ---

func (m Model) setupKey(msg tea.KeyPressMsg) (Model, tea.Cmd) {
	k := m.Keys
	m.formErr = ""
	switch {
	case key.Matches(msg, k.Enter):
		return m.start()
	case key.Matches(msg, k.Up):
		m.focus(m.field - 1)
	case key.Matches(msg, k.Down):
		m.focus(m.field + 1)
	case key.Matches(msg, k.Left, k.Right):
		d := 1
		if key.Matches(msg, k.Left) {
			d = -1
		}
		switch m.field {
		case fieldTopic:
			m.topicI = (m.topicI + d + len(m.topics)) % len(m.topics)
		case fieldCount:
			m.countI = (m.countI + d + len(Counts)) % len(Counts)
		}
	case m.field == fieldSeed && key.Matches(msg, k.Digit):
		if m.seedFresh {
			m.seed, m.seedFresh = "", false
		}
		if len(m.seed) < maxSeedDigits {
			m.seed += msg.Text
		}
	case m.field == fieldSeed && key.Matches(msg, k.Erase):
		m.seedFresh = false
		if m.seed != "" {
			m.seed = m.seed[:len(m.seed)-1]
		}
	}
	return m, nil
}

func (m *Model) focus(f int) {
	f = max(0, min(f, nFields-1))
	if f == fieldSeed && m.field != fieldSeed {
		m.seedFresh = true
	}
	m.field = f
}

// seedValue is the seed the form would start with.
func (m Model) seedValue() (uint64, error) {
	s := m.seed
	if s == "" {
		s = m.defaultSeed()
	}
	return strconv.ParseUint(s, 10, 64)
}

func (m Model) start() (Model, tea.Cmd) {
	seed, err := m.seedValue()
	if err != nil {
		m.formErr = fmt.Sprintf("seed %q: want a number of up to %d digits", m.seed, maxSeedDigits)
		return m, nil
	}
	t := m.topics[m.topicI]
	sess, err := qz.NewSession(m.data.Bank, qz.Filter{Topic: t.key}, Counts[m.countI], seed)
	if err != nil {
		m.formErr = err.Error()
		return m, nil
	}
	if m.seed == "" {
		m.seed = strconv.FormatUint(seed, 10)
	}
	m.sess, m.sessTopic, m.items = sess, t, sess.Questions()
	m.newBest, m.missI = false, 0
	m.prev, m.hadPrev = progress.QuizBest{}, false
	if m.cfg.Prog != nil {
		m.prev, m.hadPrev = m.cfg.Prog.QuizBestOf(t.key)
	}
	m.phase = asking
	p, _ := sess.Current()
	return m, m.showItem(p, nil)
}

// --- questions ---

// showItem puts a question on show, unanswered (res nil) or answered.
func (m *Model) showItem(p qz.Presented, res *qz.Result) tea.Cmd {
	m.item, m.res, m.raceErr = p, res, nil
	// A question opens at its top, a reviewed one too.
	m.reveal = revealTop
	m.cursor = 0
	if res != nil {
		m.cursor = res.Chosen
	}
	m.want = ""
	m.stage("", nil, false)
	m.showCode()
	return m.stageRace()
}

// defectRemark is the course's marker of a snippet's defect.
var defectRemark = regexp.MustCompile(`[ \t]*// DEFECT\b.*$`)

// HideDefects is a snippet as a spot-the-bug question shows it: without
// the "// DEFECT" remarks and without the comment at its top. The course
// writes both for the lessons, where they explain the bug; in a question
// they would be the answer. They are shown once the question is answered.
func HideDefects(src string) string {
	lines := strings.Split(src, "\n")
	top := 0
	for top < len(lines) && strings.HasPrefix(strings.TrimSpace(lines[top]), "//") {
		top++
	}
	lines = lines[top:]
	for i, l := range lines {
		lines[i] = defectRemark.ReplaceAllString(l, "")
	}
	return strings.Join(lines, "\n")
}

// showCode puts the question's snippet on the stage: without its defect
// remarks until the question is answered, with them afterwards.
func (m *Model) showCode() {
	m.code.Show("")
	q := m.item.Question
	if q == nil || q.Snippet == "" {
		return
	}
	src := m.cfg.Snippets
	if src == nil {
		src = snippets.Get
	}
	m.code.Source = src
	if m.res == nil {
		m.code.Source = func(name string) (string, error) {
			s, err := src(name)
			return lessons.SnippetBeforeAnswer(s), err // every comment: a doc comment or a remark can name the defect too
		}
	}
	m.code.Show(q.Snippet)
}

// stageRace shows the race that goes with the question as it stands: at
// its setup before the answer; afterwards played, for a method question
// with the strategy of the option under the cursor.
func (m *Model) stageRace() tea.Cmd {
	q := m.item.Question
	switch {
	case q.Kind == qz.Race:
		return m.show(-1, m.res == nil, m.res != nil)
	case q.Kind == qz.Method && m.res == nil:
		return m.show(-1, true, false)
	case q.Kind == qz.Method:
		return m.show(m.cursor, false, true)
	}
	return nil
}

func (m Model) raceKey(opt int) string {
	k := m.item.Question.ID
	if opt >= 0 {
		k += "/" + m.item.Options[opt].Text
	}
	return k
}

func (m *Model) show(opt int, hidden, play bool) tea.Cmd {
	k := m.raceKey(opt)
	if k == m.want && m.race.Run() != nil && m.race.Hidden() == hidden {
		return nil
	}
	m.want, m.wantHid, m.wantRev, m.raceErr = k, hidden, play, nil
	var strategy *lessons.Strategy
	if opt >= 0 {
		strategy = m.item.Options[opt].Strategy
	}
	spec := m.item.Question.Spec(strategy)
	if m.data == nil || m.data.Races == nil {
		m.stage("", nil, false)
		return nil
	}
	if o, ok := m.data.Races.Cached(spec); ok {
		return m.apply(k, o)
	}
	m.stage("", nil, false)
	if m.computing[k] {
		return nil // asked again before the first answer came: that answer will do
	}
	m.computing[k] = true
	races := m.data.Races
	return func() tea.Msg {
		o, err := races.Race(spec)
		return raceReady{key: k, out: o, err: err}
	}
}

// apply puts the race of key k on the stage if it is the one wanted,
// leaving the race already there as it is (maybe playing) unless it is
// to be revealed or hidden.
func (m *Model) apply(k string, o *race.Outcome) tea.Cmd {
	if k != m.want {
		return nil
	}
	if m.shown == k && m.race.Hidden() == m.wantHid && !m.wantRev {
		return nil
	}
	r := raceview.NewRun(o)
	if m.wantHid && m.item.Question.Kind == qz.Method {
		r.Withheld = m.withheld(o)
	}
	m.stage(k, r, m.wantHid)
	if m.item.Question.Kind == qz.Method && m.wantHid {
		m.race.SetSetupNote("answer to run it with that write")
	}
	if m.wantRev {
		m.wantRev = false
		return m.race.Reveal()
	}
	return nil
}

// withheld names the controllers of a method question whose write is
// the answer: its setup says what they read and change, not how they
// write — the scenario's own write method would give the answer away.
func (m *Model) withheld(o *race.Outcome) []string {
	q := m.item.Question
	var names []string
	for _, c := range o.Controllers {
		if len(q.Apply) == 0 || slices.Contains(q.Apply, c.Name) {
			names = append(names, c.Name)
		}
	}
	return names
}

// stage puts r on the race view; k is the race's key ("" for none),
// which tells a late duplicate from a race still to show.
func (m *Model) stage(k string, r *raceview.Run, hidden bool) {
	m.shown = k
	m.race.SetRun(r, hidden)
}

func (m Model) questionKey(msg tea.KeyPressMsg) (Model, tea.Cmd) {
	k := m.Keys
	p := m.item
	answered := m.res != nil
	switch {
	case !answered && key.Matches(msg, k.Pick):
		n := int(msg.Code - '1')
		if n < 0 || n >= len(p.Options) {
			return m, nil
		}
		m.cursor = n
		return m.answer(n)
	case key.Matches(msg, k.Up):
		if m.cursor > 0 {
			m.cursor--
			return m, m.cursorMoved()
		}
	case key.Matches(msg, k.Down):
		if m.cursor < len(p.Options)-1 {
			m.cursor++
			return m, m.cursorMoved()
		}
	case key.Matches(msg, k.Enter):
		switch {
		case !answered:
			return m.answer(m.cursor)
		case m.phase == reviewing:
			m.phase = results
			m.stage("", nil, false)
			return m, nil
		case m.sess.Done():
			m.phase = results
			m.stage("", nil, false)
			return m, nil
		}
		next, _ := m.sess.Current()
		return m, m.showItem(next, nil)
	case m.phase == reviewing && key.Matches(msg, k.NextMissed):
		return m, m.review(m.missI + 1)
	case m.phase == reviewing && key.Matches(msg, k.PrevMissed):
		return m, m.review(m.missI - 1)
	case answered && key.Matches(msg, k.Lesson) && m.canOpen(p.Question.Lesson):
		id := p.Question.Lesson
		return m, func() tea.Msg { return nav.Open{LessonID: id, Step: 0} }
	case k.Text.Matches(msg):
		m.text, _ = m.text.Update(msg)
		m.reveal = revealNone
	case p.Question.Snippet != "" && key.Matches(msg, k.Race.ScrollDown):
		m.code.Scroll(1)
	case p.Question.Snippet != "" && key.Matches(msg, k.Race.ScrollUp):
		m.code.Scroll(-1)
	case m.race.HandlesKey(msg):
		var cmd tea.Cmd
		m.race, cmd = m.race.Update(msg)
		return m, cmd
	}
	return m, nil
}

// cursorMoved: after the answer, a method question's stage runs the
// option under the cursor.
func (m *Model) cursorMoved() tea.Cmd {
	if m.res != nil && m.item.Question.Kind == qz.Method {
		return m.show(m.cursor, false, true)
	}
	return nil
}

func (m Model) answer(i int) (Model, tea.Cmd) {
	r, err := m.sess.Answer(i)
	if err != nil {
		return m, nil
	}
	m.res = &r
	m.reveal = revealAnswer
	m.showCode()
	var cmds []tea.Cmd
	cmds = append(cmds, m.stageRace())
	if m.sess.Done() {
		sc := m.sess.Score()
		if m.cfg.Prog != nil {
			m.newBest = m.cfg.Prog.RecordQuiz(m.sessTopic.key, sc.Right, sc.Total)
			cmds = append(cmds, func() tea.Msg { return nav.ProgressChanged{} })
		}
	}
	return m, tea.Batch(cmds...)
}

// review shows the i-th missed question again, answered.
func (m *Model) review(i int) tea.Cmd {
	missed := m.sess.Score().Missed
	if len(missed) == 0 {
		return nil
	}
	i = max(0, min(i, len(missed)-1))
	m.missI = i
	m.phase = reviewing
	r := missed[i]
	return m.showItem(m.items[r.Number-1], &r)
}

// --- the score ---

func (m Model) resultsKey(msg tea.KeyPressMsg) (Model, tea.Cmd) {
	k := m.Keys
	missed := m.sess.Score().Missed
	switch {
	case key.Matches(msg, k.Up):
		m.missI = max(0, m.missI-1)
	case key.Matches(msg, k.Down):
		m.missI = max(0, min(m.missI+1, len(missed)-1))
	case key.Matches(msg, k.Enter):
		return m, m.review(m.missI)
	case key.Matches(msg, k.New):
		m.phase = setup
		m.field = fieldStart
		m.stage("", nil, false)
	}
	return m, nil
}

// --- keys for the bar ---

func withHelp(b key.Binding, keys, desc string) key.Binding {
	b.SetHelp(keys, desc)
	return b
}

// ShortHelp is the key bar.
func (m Model) ShortHelp() []key.Binding {
	k := m.Keys
	switch m.phase {
	case setup:
		out := []key.Binding{withHelp(k.Enter, "enter", "start"), withHelp(k.Down, "↑↓", "field")}
		switch m.field {
		case fieldTopic, fieldCount:
			out = append(out, withHelp(k.Right, "←→", "change"))
		case fieldSeed:
			out = append(out, withHelp(k.Digit, "0-9", "type seed"), withHelp(k.Erase, "⌫", "erase"))
		}
		return out
	case asking, reviewing:
		var out []key.Binding
		switch {
		case m.res == nil:
			out = append(out, withHelp(k.Pick, fmt.Sprintf("1-%d", len(m.item.Options)), "answer"),
				withHelp(k.Down, "↑↓", "choose"), withHelp(k.Enter, "enter", "answer"))
		case m.phase == reviewing:
			out = append(out, withHelp(k.Enter, "enter", "back to score"), k.NextMissed, k.PrevMissed)
		case m.sess.Done():
			out = append(out, withHelp(k.Enter, "enter", "see the score"))
		default:
			out = append(out, withHelp(k.Enter, "enter", "next question"))
		}
		if m.res != nil && m.item.Question.Kind == qz.Method {
			out = append(out, withHelp(k.Down, "↑↓", "race another"))
		}
		if m.race.Run() != nil && !m.race.Hidden() {
			out = append(out, k.Race.Play, k.Race.Step, k.Race.Back)
		}
		if m.res != nil && m.canOpen(m.item.Question.Lesson) {
			out = append(out, withHelp(k.Lesson, "l", "lesson"))
		}
		return out
	case results:
		out := []key.Binding{}
		if len(m.sess.Score().Missed) > 0 {
			out = append(out, withHelp(k.Enter, "enter", "see again"), withHelp(k.Down, "↑↓", "select"))
		}
		return append(out, k.New)
	}
	return nil
}

// HelpGroups is every key, in named groups: the root's key list flows
// them into as many columns as the window has room for.
func (m Model) HelpGroups() []keyhelp.Group {
	k := m.Keys
	return []keyhelp.Group{
		{Title: "Answer", Keys: []key.Binding{withHelp(k.Down, "↑↓/jk", "option/field"), withHelp(k.Pick, "1-4", "answer"),
			withHelp(k.Enter, "enter", "start/answer/next"), withHelp(k.Lesson, "l", "open its lesson"),
			withHelp(k.NextMissed, "n/p", "next/prev missed"), k.New}},
		{Title: "Set up", Keys: []key.Binding{withHelp(k.Right, "←/→", "topic/count"), withHelp(k.Digit, "0-9", "type seed"), withHelp(k.Erase, "⌫", "erase digit")}},
		{Title: "Text", Keys: k.Text.Bindings()},
		{Title: "Race", Keys: k.Race.Bindings()},
	}
}

// FullHelp is every key, one column per group.
func (m Model) FullHelp() [][]key.Binding {
	var out [][]key.Binding
	for _, g := range m.HelpGroups() {
		out = append(out, g.Keys)
	}
	return out
}

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
	}
	return m.viewQuestion()
}

func (m Model) viewSetup() string {
	st := m.st
	w := min(m.w, 100)
	var lines []string
	lines = append(lines, st.Title.Render("New quiz"))
	lines = append(lines, layout.Lines(layout.Wrap(st.Faint.Render(
		"Questions from the course's bank, one at a time: multiple choice, the outcome of a race, the bug in a snippet, the write method for a change."), w))...)
	lines = append(lines, "")
	t := m.topics[m.topicI]
	count := Counts[m.countI]
	n := count
	if count == 0 || count > t.n {
		n = t.n
	}
	countText := "all"
	if count > 0 {
		countText = strconv.Itoa(count)
	}
	countNote := ""
	switch {
	case count == 0:
		countNote = fmt.Sprintf("%d questions", t.n)
	case count > t.n:
		countNote = fmt.Sprintf("only %d match: all of them", t.n)
	}
	seedText, seedNote := m.seed, ""
	switch {
	case m.seed == "":
		seedNote = "empty: today's date, " + m.defaultSeed()
	case m.seed == m.defaultSeed():
		seedNote = "today's date"
	}
	labelW := 12
	row := func(f int, label, value, note string) {
		cursor := "  "
		if f == m.field {
			cursor = st.Accent.Render(styles.Cursor) + " "
			value = st.Selected.Render(value)
		}
		line := cursor + layout.Pad(label, labelW) + value
		if note != "" {
			line += "  " + st.Faint.Render(note)
		}
		lines = append(lines, layout.Truncate(line, w))
	}
	row(fieldTopic, "Topic", "‹ "+t.label+" ›", fmt.Sprintf("%d questions", t.n))
	row(fieldCount, "Questions", "‹ "+countText+" ›", countNote)
	if m.field == fieldSeed {
		seedText += "▏"
	}
	row(fieldSeed, "Seed", seedText, seedNote)
	start := fmt.Sprintf("%s Start: %d questions", styles.Current, n)
	if m.field == fieldStart {
		lines = append(lines, "", st.Accent.Render(styles.Cursor)+" "+st.Selected.Render(start)+st.Faint.Render("  (enter)"))
	} else {
		lines = append(lines, "", "  "+start+st.Faint.Render("  (enter, from any field)"))
	}
	if m.formErr != "" {
		lines = append(lines, "", st.Bad.Render(layout.Truncate(styles.Bad+" "+m.formErr, w)))
	}
	lines = append(lines, "")
	var help string
	switch m.field {
	case fieldTopic:
		help = "←/→ changes the topic: every question, one lesson's, or one concept's. " + t.about
	case fieldCount:
		help = "←/→ changes how many questions are drawn from the topic."
	case fieldSeed:
		help = "Type digits to replace the seed; backspace erases one. The same topic, number and seed give the same questions in the same order: give a room one seed and everyone takes the same quiz."
	default:
		help = "Enter starts the quiz; ↑ goes back to the settings."
	}
	for _, l := range layout.Lines(layout.Wrap(help, w-4)) {
		lines = append(lines, "  "+l)
	}
	lines = append(lines, "")
	cmd := fmt.Sprintf("conflictlab quiz --count %d --seed %s", count, m.seed)
	if m.seed == "" {
		cmd = fmt.Sprintf("conflictlab quiz --count %d --seed %s", count, m.defaultSeed())
	}
	if t.key != "" {
		cmd += " --topic " + t.key
	}
	lines = append(lines, layout.Lines(layout.Wrap(st.Faint.Render("The same quiz on the command line: ")+cmd, w))...)
	if m.cfg.Prog != nil {
		if b, ok := m.cfg.Prog.QuizBestOf(t.key); ok {
			lines = append(lines, st.Faint.Render(layout.Truncate(fmt.Sprintf("Your best on %s: %d/%d (%d%%), %s taken.",
				t.label, b.Right, b.Total, percent(b.Right, b.Total), plural(b.Taken, "quiz", "quizzes")), w)))
		}
	}
	return layout.Fit(strings.Join(lines, "\n"), m.w, m.h)
}

func percent(right, total int) int {
	if total == 0 {
		return 0
	}
	return right * 100 / total
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// kindLabel is the kind's label as a heading.
func kindLabel(k qz.Kind) string {
	l := k.Label()
	return strings.ToUpper(l[:1]) + l[1:]
}

func (m Model) hasStage() bool {
	q := m.item.Question
	return q != nil && (q.Snippet != "" || q.Kind == qz.Race || q.Kind == qz.Method)
}

func (m Model) wide() bool { return m.w >= WideWidth }

// textWidth is the width of the question column.
func (m Model) textWidth() int {
	switch {
	case !m.hasStage():
		return min(m.w, 100)
	case m.wide():
		return max(40, min(56, m.w*9/25))
	}
	return m.w
}

// textPaneHeight is the height of the question column.
func (m Model) textPaneHeight() int {
	if !m.hasStage() || m.wide() {
		return m.h
	}
	lines, opts, optEnd, _ := m.textBlock(m.w)
	need := len(lines)
	share := 50
	switch {
	case m.res == nil && m.item.Question.Snippet != "":
		// The code is what the question is about.
		share = 45
	case m.phase == reviewing:
		// Seen again: the question and the verdict, before the race.
		share = 55
	case m.res != nil && !m.race.Hidden() && m.race.Run() != nil:
		share = 40
	case m.res != nil:
		share = 55
	}
	h := max(6, min(need, m.h*share/100))
	if m.res == nil {
		// The whole question if the stage keeps ten lines, and at least
		// every option, pinned under a line of the question and the marks
		// around it, if it keeps eight.
		h = max(h, min(need, m.h-10), min(need, optEnd-opts+3, m.h-8))
	}
	return h
}

// textBlock is the question column, the lines its options start and end
// at, and the line the verdict is on (len(lines) before the answer).
func (m Model) textBlock(w int) (lines []string, opts, optEnd, verdictAt int) {
	st := m.st
	p := m.item
	q := p.Question
	head := st.Heading.Render(kindLabel(q.Kind))
	if m.phase == reviewing {
		head = st.Bad.Render(styles.Bad+" Missed · ") + head
	}
	// The number is in the header too: it goes when the column is narrow.
	if num := st.Faint.Render(fmt.Sprintf(" · question %d of %d", p.Number, p.Total)); layout.MaxWidth(head+num) <= w {
		head += num
	}
	lines = append(lines, layout.Truncate(head, w))
	lines = append(lines, layout.Lines(markdown.Render(q.Text, st.Markdown, w))...)
	if m.res == nil {
		note := ""
		switch q.Kind {
		case qz.Race:
			note = "The race waits at its start until you answer."
		case qz.Method:
			note = "Once you answer, the race runs with that write."
		case qz.Bug:
			note = "The code's own comments show once you answer."
		}
		for _, l := range layout.Lines(layout.Wrap(note, w)) {
			lines = append(lines, st.Faint.Render(l))
		}
	}
	lines = append(lines, "")
	opts = len(lines)
	for i, o := range p.Options {
		mark := ""
		if m.res != nil {
			switch {
			case i == m.res.Correct:
				mark = st.OK.Render(styles.OK) + " "
			case i == m.res.Chosen:
				mark = st.Bad.Render(styles.Bad) + " "
			default:
				mark = "  "
			}
		}
		cursor := "  "
		if i == m.cursor {
			cursor = st.Accent.Render(styles.Cursor) + " "
		}
		// Continuation lines line up under the text, after "N. ".
		lead := 2 + layout.MaxWidth(mark) + 3
		for j, l := range layout.Lines(layout.Wrap(o.Text, max(8, w-lead))) {
			if j == 0 {
				l = fmt.Sprintf("%d. %s", i+1, l)
			}
			if i == m.cursor {
				l = st.Selected.Render(l)
			}
			if j == 0 {
				lines = append(lines, cursor+mark+l)
			} else {
				lines = append(lines, strings.Repeat(" ", lead)+l)
			}
		}
	}
	optEnd = len(lines)
	verdictAt = len(lines)
	if m.res != nil {
		r := m.res
		lines = append(lines, "")
		verdictAt = len(lines)
		verdict := st.OK.Render(styles.OK + " Right.")
		if !r.Right {
			// The answer in words too: the options may be scrolled away.
			answer := fmt.Sprintf(" The answer is %d: %s", r.Correct+1, p.Options[r.Correct].Text)
			verdict = st.Bad.Render(styles.Bad+" Not quite.") + answer
			if m.phase == reviewing {
				verdict = st.Bad.Render(styles.Bad+fmt.Sprintf(" You answered %d.", r.Chosen+1)) + answer
			}
		}
		lines = append(lines, layout.Lines(layout.Wrap(verdict, w))...)
		lines = append(lines, layout.Lines(markdown.Render(r.Explanation, st.Markdown, w))...)
		review := "Lesson to review: " + m.lessonLabel(r.Lesson)
		if m.canOpen(r.Lesson) {
			review += st.Faint.Render(" (l opens it)")
		}
		lines = append(lines, layout.Lines(layout.Wrap(review, w))...)
		if q.Kind == qz.Method {
			for _, l := range layout.Lines(layout.Wrap("↑/↓ runs the race with another answer.", w)) {
				lines = append(lines, st.Faint.Render(l))
			}
		}
		next := "enter: next question"
		switch {
		case m.phase == reviewing:
			next = "enter: back to the score · n/p: next/previous missed"
		case m.sess.Done():
			next = "enter: see your score"
		}
		for _, l := range layout.Lines(layout.Wrap(next, w)) {
			lines = append(lines, st.Faint.Render(l))
		}
	}
	return lines, opts, optEnd, verdictAt
}

// relayout sizes the question column and gives it its lines, then
// scrolls what the last action asked for into view: before the answer
// the options are pinned under the question, so it opens at its top with
// every option in view; after it, the options and the verdict.
func (m *Model) relayout() {
	if m.w <= 0 || m.h <= 0 || (m.phase != asking && m.phase != reviewing) || m.item.Question == nil {
		return
	}
	tw, th := m.textWidth(), m.textPaneHeight()
	lines, opts, optEnd, verdictAt := m.textBlock(tw)
	m.text.SetSize(tw, th)
	if m.res == nil {
		m.text.SetContent(lines, opts, optEnd)
	} else {
		m.text.SetContent(lines, 0, 0)
	}
	n := len(lines)
	switch m.reveal {
	case revealTop:
		m.text.GotoTop()
	case revealAnswer:
		m.text.EnsureVisible(opts, n)
		if !m.text.Visible(verdictAt) || !m.text.Visible(n-1) {
			m.text.EnsureVisible(verdictAt, n)
		}
	}
}

// reveal is what a layout brings into view.
type reveal int

const (
	revealNone reveal = iota
	revealTop
	revealAnswer
)

func (m Model) viewQuestion() string {
	if !m.hasStage() {
		return layout.Fit(m.text.View(), m.w, m.h)
	}
	if m.wide() {
		lw := m.textWidth()
		rw := m.w - lw - 3
		sep := layout.Fit(strings.TrimSuffix(strings.Repeat(m.st.Border.Render("│")+"\n", m.h), "\n"), 1, m.h)
		return layout.Fit(layout.Beside(m.text.View(), " ", sep, " ", m.viewStage(rw, m.h)), m.w, m.h)
	}
	topH := m.textPaneHeight()
	stageH := m.h - topH - 1
	return layout.Fit(m.text.View()+"\n"+m.st.Border.Render(strings.Repeat("─", m.w))+"\n"+m.viewStage(m.w, stageH), m.w, m.h)
}

func (m Model) viewStage(w, h int) string {
	if h < 2 {
		return layout.Fit("", w, h)
	}
	q := m.item.Question
	var title, body string
	switch {
	case q.Snippet != "":
		title = "code"
		if m.res != nil { // snippets are named for their defect
			title = "code: " + q.Snippet
		}
		m.code.SetSize(w, h-1)
		body = m.code.View()
	case m.raceErr != nil:
		title = "race"
		body = layout.Fit(m.st.Bad.Render(styles.Bad+" the race could not run: "+m.raceErr.Error()), w, h-1)
	default:
		title = "race " + q.Scenario
		if m.res != nil && q.Kind == qz.Method {
			who := ", a wrong answer " + styles.Bad
			switch {
			case m.cursor == m.res.Chosen && m.res.Right:
				who = ", your answer " + styles.OK
			case m.cursor == m.res.Chosen:
				who = ", your answer " + styles.Bad
			case m.cursor == m.res.Correct:
				who = ", the answer " + styles.OK
			}
			title += fmt.Sprintf(" · with %d%s", m.cursor+1, who)
		}
		m.race.SetSize(w, h-1)
		body = m.race.View()
	}
	return layout.Fit(layout.Rule(title, w, m.st.Border)+"\n"+body, w, h)
}

func (m Model) viewResults() string {
	st := m.st
	w := min(m.w, 100)
	sc := m.sess.Score()
	var lines []string
	lines = append(lines, st.Title.Render("Quiz complete"))
	lines = append(lines, st.Faint.Render(layout.Truncate(fmt.Sprintf("%s · %s · seed %d", m.sessTopic.label, plural(sc.Total, "question", "questions"), m.sess.Seed()), w)))
	lines = append(lines, "")
	score := fmt.Sprintf("Score: %d of %d right (%d%%)", sc.Right, sc.Total, percent(sc.Right, sc.Total))
	if sc.Right == sc.Total {
		score = st.OK.Render(styles.OK+" ") + score
	}
	lines = append(lines, st.Bold.Render(score))
	switch {
	case m.newBest && m.hadPrev:
		lines = append(lines, st.OK.Render(layout.Truncate(fmt.Sprintf("New best on %s (was %d/%d).", m.sessTopic.label, m.prev.Right, m.prev.Total), w)))
	case m.newBest:
		lines = append(lines, st.Faint.Render(layout.Truncate("Your first score on "+m.sessTopic.label+": kept as your best.", w)))
	case m.cfg.Prog != nil:
		if b, ok := m.cfg.Prog.QuizBestOf(m.sessTopic.key); ok {
			lines = append(lines, st.Faint.Render(layout.Truncate(fmt.Sprintf("Your best on %s: %d/%d (%d%%).", m.sessTopic.label, b.Right, b.Total, percent(b.Right, b.Total)), w)))
		}
	}
	lines = append(lines, "")
	if len(sc.Missed) == 0 {
		lines = append(lines, st.OK.Render(styles.OK+" Nothing missed."))
	} else {
		lines = append(lines, st.Heading.Render(fmt.Sprintf("Missed: %d to review", len(sc.Missed)))+st.Faint.Render(" · enter shows one again"))
	}
	top := len(lines)
	var list []string
	for i, r := range sc.Missed {
		cursor := "  "
		text := fmt.Sprintf("%s %d. %s", styles.Bad, r.Number, oneLine(r.Question.Text))
		text = layout.Truncate(text, w-4)
		if i == m.missI {
			cursor = st.Accent.Render(styles.Cursor) + " "
			text = st.Selected.Render(text)
		}
		list = append(list, cursor+text)
		list = append(list, "    "+st.Faint.Render(layout.Truncate(kindLabel(r.Question.Kind)+" · "+m.lessonLabel(r.Lesson), w-4)))
	}
	foot := []string{"", st.Faint.Render(layout.Truncate("n: new quiz · esc: lessons", w))}
	avail := m.h - top - len(foot)
	if len(list) > avail && avail > 0 {
		// Keep the selected entry (two lines) in view.
		sel := m.missI * 2
		start := max(0, min(sel-avail+2, len(list)-avail))
		list = list[start : start+avail]
		if start > 0 {
			list[0] = st.Faint.Render("  ↑ more above")
		}
		if start+avail < len(sc.Missed)*2 {
			list[len(list)-1] = st.Faint.Render("  ↓ more below")
		}
	}
	lines = append(lines, list...)
	lines = append(lines, foot...)
	return layout.Fit(strings.Join(lines, "\n"), m.w, m.h)
}

// oneLine is the question's text on one line, without the Markdown marks
// that would read oddly in a list (the list cuts it to fit).
func oneLine(s string) string {
	return strings.NewReplacer("**", "", "`", "").Replace(strings.Join(strings.Fields(s), " "))
}
