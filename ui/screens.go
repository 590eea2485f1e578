package ui

import (
	"fmt"
	"path/filepath"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/conflictlab/conflictlab/exercises"
	"github.com/conflictlab/conflictlab/lessons"
	"github.com/conflictlab/conflictlab/lessons/racecache"
	"github.com/conflictlab/conflictlab/progress"
	"github.com/conflictlab/conflictlab/quiz"
	"github.com/conflictlab/conflictlab/termsafe"
	exercisesui "github.com/conflictlab/conflictlab/ui/exercises"
	"github.com/conflictlab/conflictlab/ui/home"
	"github.com/conflictlab/conflictlab/ui/keyhelp"
	"github.com/conflictlab/conflictlab/ui/layout"
	"github.com/conflictlab/conflictlab/ui/nav"
	"github.com/conflictlab/conflictlab/ui/player"
	quizui "github.com/conflictlab/conflictlab/ui/quiz"
	"github.com/conflictlab/conflictlab/ui/sandbox"
	"github.com/conflictlab/conflictlab/ui/styles"
)

// The screens the root opens, and the navigation between them. The stack
// starts with the loading screen, which the home screen (or the failed
// one) replaces once the course has loaded; the home screen's other modes
// each push their screen, and nav.Open pushes the lesson player. A new
// screen is a package of its own and one push: an entry in modes, or a
// nav.Push sent by the screen that opens it.

// modes are the home screen's other modes, after the lessons.
func (m Model) modes() []home.Mode {
	return []home.Mode{
		{Label: "Quiz — test what you have learnt", Open: m.quizPush(), Note: quizNote,
			About: "Questions on the course: choices, races, bugs, write methods. Pick a topic, a length and a seed; the best per topic is kept."},
		{Label: "Sandbox — build a race of your own", Open: m.sandboxPush(), Note: sandboxNote,
			About: "Build a race of two to four controllers, step the scheduler, explore every interleaving, and take the break-it and fix-it challenges."},
		{Label: "Exercises — write the code yourself", Open: m.exercisesPush(), Note: m.exercisesNote,
			About: m.exercisesAbout()},
	}
}

// exercisesPush opens the code exercises, kept like the quiz (a check
// that runs goes on).
func (m Model) exercisesPush() nav.Push {
	return nav.Push{Name: "exercises", Keep: true, New: m.newExercises}
}

func (m Model) newExercises(st *styles.Styles) (nav.Screen, tea.Cmd) {
	all, err := exercises.Course()
	if err != nil {
		return failedScreen{err: err}, nil
	}
	s := exercisesui.New(exercisesui.Config{Dir: m.o.ExercisesDir, Remote: m.o.ExercisesRemote, All: all, Progress: m.prog}, st)
	return nav.Margin(nav.Of(s), 1), s.Init() // the column of margin every screen has
}

func (m Model) exercisesNote(p *progress.Progress) string {
	n := 0
	for _, e := range p.Exercises {
		if e != nil && e.Passed {
			n++
		}
	}
	if n == 0 {
		return "none passed yet"
	}
	return fmt.Sprintf("%d passed", n)
}

func (m Model) exercisesAbout() string {
	if m.o.ExercisesRemote {
		return "Exercises run on your own machine, never on this server: with a Go toolchain, run conflictlab exercises init DIR, then conflictlab exercises in DIR."
	}
	return "Complete real client-go and controller-runtime code in your editor; every save is proven over every interleaving of its race. Start with conflictlab exercises init DIR."
}

// quizPush opens the quiz: kept when it is left, it comes back as it was.
func (m Model) quizPush() nav.Push { return nav.Push{Name: "quiz", Keep: true, New: m.newQuiz} }

// sandboxPush opens the sandbox, kept like the quiz (the race, the tab, a
// running explorer).
func (m Model) sandboxPush() nav.Push {
	return nav.Push{Name: "sandbox", Keep: true, New: m.newSandbox}
}

func sandboxNote(p *progress.Progress) string {
	if n := len(p.Challenges); n > 0 {
		return fmt.Sprintf("%d challenges solved", n)
	}
	return "challenges: none solved yet"
}

func quizNote(p *progress.Progress) string {
	if b, ok := p.QuizBestOf(""); ok {
		return fmt.Sprintf("best %d/%d on all topics", b.Right, b.Total)
	}
	if len(p.Quiz) > 0 {
		return "best scores kept per topic"
	}
	return "not taken yet"
}

// onLoaded puts the home screen (or the failed one) in place of the
// loading screen, opens the sandbox when the program was started on it,
// and replays the keys pressed meanwhile.
func (m Model) onLoaded(msg loaded) (tea.Model, tea.Cmd) {
	if msg.err != nil {
		m.failed = true
		err := msg.err
		m.stack, _ = m.stack.Replace(nav.Push{Name: "failed", New: func(*styles.Styles) (nav.Screen, tea.Cmd) {
			return failedScreen{err: err}, nil
		}})
		return m, m.started(nil)
	}
	pack := displayPack(msg.pack)
	m.pack, m.prog, m.races = pack, msg.prog, racecache.New(msg.pack)
	if m.o.Replays != nil {
		m.live = m.o.Replays.For(msg.pack)
	}
	notice, modes, prog := termsafe.Escape(msg.notice), m.modes(), m.prog
	m.stack, _ = m.stack.Replace(nav.Push{Name: "home", New: func(st *styles.Styles) (nav.Screen, tea.Cmd) {
		return nav.Of(home.New(pack.Lessons, modes, prog, notice, st)), nil
	}})
	if !m.o.OpenSandbox && !m.o.OpenExercises {
		return m.replayPending(m.afterFirstFrame(true))
	}
	first := m.sandboxPush()
	if m.o.OpenExercises {
		first = m.exercisesPush()
	}
	var open tea.Cmd
	m.stack, open = m.stack.Push(first)
	return m.replayPending(tea.Batch(open, m.afterFirstFrame(false)))
}

// navigate carries out a screen's navigation message.
func (m Model) navigate(msg tea.Msg) (tea.Model, tea.Cmd) {
	var cmd tea.Cmd
	switch msg := msg.(type) {
	case nav.Note:
		m.note = msg.Text
		return m, nil
	case nav.Open:
		p, ok := m.lesson(msg.LessonID, msg.Step)
		if !ok {
			return m, nil // the course has not loaded yet, or has no such lesson
		}
		m.stack, cmd = m.stack.Push(p)
	case nav.Push:
		m.stack, cmd = m.stack.Push(msg)
	case nav.Replace:
		m.stack, cmd = m.stack.Replace(msg.Push)
	case nav.Pop:
		m.stack, cmd = m.stack.Pop()
	case nav.Home:
		m.stack, cmd = m.stack.Home()
	}
	m.showHelp = false
	return m, cmd
}

// announce carries out an instructor's message: its text in the key bar,
// and the lesson or the quiz it opens. One that arrives while the course
// loads waits for it.
func (m Model) announce(msg Announce) (tea.Model, tea.Cmd) {
	if m.pack == nil && !m.failed {
		return m, func() tea.Msg { return msg }
	}
	var cmd tea.Cmd
	if m.pack != nil {
		switch {
		case msg.Lesson != "" && m.pack.Lesson(msg.Lesson) != nil:
			var next tea.Model
			next, cmd = m.navigate(nav.Open{LessonID: msg.Lesson, Step: m.prog.Peek(msg.Lesson).Step})
			m = next.(Model)
		case msg.Quiz:
			var next tea.Model
			next, cmd = m.navigate(m.quizPush())
			m = next.(Model)
		}
	}
	m.note = msg.Text
	return m, cmd
}

// lesson is the push that opens lesson id at step in the player.
func (m Model) lesson(id string, step int) (nav.Push, bool) {
	if m.pack == nil {
		return nav.Push{}, false
	}
	l := m.pack.Lesson(id)
	if l == nil {
		return nav.Push{}, false
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
	prog, races, o, live := m.prog, m.races, m.o, m.live
	return nav.Push{Name: "player", New: func(st *styles.Styles) (nav.Screen, tea.Cmd) {
		p, cmd := player.New(l, next, prog, races, st, step)
		if o.Ticker != nil {
			p.SetTicker(o.Ticker)
		}
		if o.Snippets != nil {
			p.SetSnippets(o.Snippets)
		}
		if live != nil {
			p.SetLive(live)
		}
		return nav.Margin(nav.Of(p), 1), cmd
	}}, true
}

// LoadBuiltinQuiz loads the built-in question bank and the races of the
// built-in course: the bank is about that course whatever pack the
// lessons come from.
func LoadBuiltinQuiz() (*quiz.Bank, *racecache.Races, error) {
	bank, err := quiz.Default()
	if err != nil {
		return nil, nil, err
	}
	pack, err := lessons.Course()
	if err != nil {
		return nil, nil, err
	}
	races := racecache.New(pack)
	if err := quiz.Prepare(bank, races); err != nil {
		return nil, nil, err
	}
	return bank, races, nil
}

// newQuiz is the quiz screen, its bank loaded in the command.
func (m Model) newQuiz(st *styles.Styles) (nav.Screen, tea.Cmd) {
	load := m.o.LoadQuiz
	if load == nil {
		load = LoadBuiltinQuiz
	}
	today := time.Now()
	if m.o.Today != nil {
		today = m.o.Today()
	}
	pack := m.pack
	q := quizui.New(quizui.Config{
		Load: func() (quizui.Data, error) {
			bank, races, err := load()
			if err != nil {
				return quizui.Data{}, err
			}
			return quizui.Data{Bank: bank, Races: races, Lessons: races.Pack().Lessons}, nil
		},
		Prog:     m.prog,
		CanOpen:  func(id string) bool { return pack != nil && pack.Lesson(id) != nil },
		Today:    today,
		Seed:     m.o.QuizSeed,
		Ticker:   m.o.Ticker,
		Snippets: m.o.Snippets,
	}, st)
	return nav.Margin(nav.Of(q), 1), q.Load()
}

// draftName is the file that keeps the sandbox's race between runs, in
// the progress file's folder.
const draftName = "sandbox-draft.yaml"

// newSandbox is the sandbox, on the race from a file when the program was
// started with one (`conflictlab sandbox -f race.yaml`), else on the race
// kept from last time (read in the command).
func (m Model) newSandbox(st *styles.Styles) (nav.Screen, tea.Cmd) {
	env := m.o.SandboxEnv
	if m.store != nil {
		env.Draft = filepath.Join(filepath.Dir(m.store.Path()), draftName)
	}
	s := sandbox.NewIn(env, st, m.prog)
	if m.o.Ticker != nil {
		s.SetTicker(m.o.Ticker)
	}
	if m.o.Sandbox == nil {
		return nav.Margin(nav.Of(s), 1), s.ReadDraft()
	}
	// A race from a file (-f) is what was asked for, not the draft; a
	// level (--level, or -f LEVEL) is that race with its goal to play.
	var cmd tea.Cmd
	open := func() error { return s.Open(m.o.Sandbox, m.o.SandboxFile) }
	if l := m.o.SandboxLevel; l != nil {
		open = func() error { return s.OpenLevel(l, m.o.SandboxFile) }
	}
	if err := open(); err != nil {
		// The CLI checked the file; this is a race the editor cannot show.
		cmd = nav.Say(err.Error())
	}
	return nav.Margin(nav.Of(s), 1), cmd
}

// still is what the loading and failed screens share: a screen with no
// keys of its own, no title, no place in the course, nothing to keep.
type still struct {
	w, h int
	st   *styles.Styles
}

func (still) Title() string                 { return "" }
func (still) ShortHelp() []key.Binding      { return nil }
func (still) HelpGroups() []keyhelp.Group   { return nil }
func (still) TakesKey(tea.KeyPressMsg) bool { return false }
func (still) Where() nav.Place              { return nav.Place{} }
func (still) Leave() tea.Cmd                { return nil }

// loadingScreen is the stack's bottom until the course has loaded (the
// keys pressed meanwhile wait in Model.pending).
type loadingScreen struct{ still }

func (s loadingScreen) Update(tea.Msg) (nav.Screen, tea.Cmd)   { return s, nil }
func (s loadingScreen) SetSize(w, h int) nav.Screen            { s.w, s.h = w, h; return s }
func (s loadingScreen) SetStyles(st *styles.Styles) nav.Screen { s.st = st; return s }
func (s loadingScreen) View() string {
	return layout.Fit("\n "+s.st.Faint.Render("loading the course…"), s.w, s.h)
}

// failedScreen says why the course could not be loaded.
type failedScreen struct {
	still
	err error
}

func (s failedScreen) Update(tea.Msg) (nav.Screen, tea.Cmd)   { return s, nil }
func (s failedScreen) SetSize(w, h int) nav.Screen            { s.w, s.h = w, h; return s }
func (s failedScreen) SetStyles(st *styles.Styles) nav.Screen { s.st = st; return s }
func (s failedScreen) View() string {
	return layout.Fit(" "+s.st.Bad.Render(styles.Bad+" the course could not be loaded:")+"\n\n"+
		indent(layout.Wrap(s.err.Error(), s.w-2), " "), s.w, s.h)
}
