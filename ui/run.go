package ui

import (
	"context"
	"errors"
	"fmt"
	"github.com/conflictlab/conflictlab/level"
	"io"
	"os"
	"os/signal"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/term"

	"github.com/conflictlab/conflictlab/lessons"
	"github.com/conflictlab/conflictlab/lessons/racecache"
	"github.com/conflictlab/conflictlab/quiz"
	"github.com/conflictlab/conflictlab/sim/scenario"
	"github.com/conflictlab/conflictlab/termsafe"
	"github.com/conflictlab/conflictlab/ui/chrome"
	"github.com/conflictlab/conflictlab/ui/player"
	"github.com/conflictlab/conflictlab/ui/raceview"
	"github.com/conflictlab/conflictlab/ui/sandbox"
)

// Options start the program. They are the whole of what one run of the
// tutorial takes from outside: the CLI fills them from the process (its
// terminal, environment and XDG paths), conflictlab serve from an SSH
// session and the server's flags, so that many programs in one process
// share no mutable state. The program reads no environment variable and
// no path of its own: everything it needs is here.
type Options struct {
	In  io.Reader
	Out io.Writer
	// NoColor draws without colour (NO_COLOR is set, with any value).
	NoColor bool
	// Start is when the process started (for the startup trace).
	Start time.Time
	// Pack is the lesson pack to teach (--lessons), already loaded so that
	// a broken one is reported before the screen is taken; nil is the
	// built-in course. The program never changes it: one pack can serve
	// many sessions.
	Pack *lessons.Pack
	// OpenSandbox starts on the sandbox (conflictlab sandbox), on Sandbox
	// when set (-f FILE), already loaded so that a broken file is reported
	// before the screen is taken; SandboxFile is its path.
	OpenSandbox bool
	Sandbox     *scenario.Scenario
	SandboxFile string
	// SandboxLevel, when set, is a level to play there (a goal to break
	// or fix), from a level file or text; Sandbox is its race.
	SandboxLevel *level.Level
	// OpenExercises starts on the code exercises' screen (conflictlab
	// exercises); ExercisesDir is the workspace it works in ("": none was
	// found, and the screen says how to make one). ExercisesRemote says
	// the program runs on a server (conflictlab serve), which never runs
	// an attendee's code: the screen says how to run them at home.
	OpenExercises   bool
	ExercisesDir    string
	ExercisesRemote bool

	// Context ends the program when it is cancelled (nil: never).
	Context context.Context
	// Environ is the terminal's environment when it is not this process's
	// (an SSH session's): NO_COLOR is read from it too, and Bubble Tea
	// reads TERM and COLORTERM. It is never used for paths or settings: a
	// client chooses it.
	Environ []string
	// Width and Height are the window's size when it is known before the
	// first frame (an SSH pty request); 0 asks the terminal. Whatever the
	// terminal offers, the screens are drawn at most chrome.MaxWidth ×
	// chrome.MaxHeight (chrome.Bound), the first size and every resize.
	Width, Height int
	// Profile forces the colour profile (colorprofile.Unknown: detect it
	// from Out and the environment).
	Profile colorprofile.Profile
	// FPS caps how many frames a second are drawn (0: Bubble Tea's 60; at
	// most 120). Bubble Tea writes a frame only on its frame clock, so the
	// first frame waits up to one interval after the program starts: the
	// terminal's tutorial draws at 120 to halve that wait (BENCHMARKS.md,
	// "Startup and frame"); an SSH session keeps 60.
	FPS int
	// ProgressPath is the progress file ("": progress is not saved, and
	// Notice should say why). The sandbox's kept race sits beside it.
	ProgressPath string
	// Notice is shown on the home screen (why progress is not saved, that
	// replays go to a workshop's cluster).
	Notice string
	// QuizSeed is the quiz's default seed ("": today's date), so that a
	// room gets the same questions in the same order.
	QuizSeed string
	// SandboxEnv is the sandbox's clock, explorer budget and files.
	SandboxEnv sandbox.Env
	// Replays, when set, makes the player offer to replay races on a real
	// cluster (live/replay makes them); the program stops them when it
	// ends and prints what their cleanup did.
	Replays Replays
	// Trace, when set, is told how long the first frame and the first
	// frame with the course took from Start.
	Trace func(event string, d time.Duration)
	// Started, when set, is called once the first screen has been drawn
	// (two frame intervals after the course loaded), before the first
	// race is warmed: the process gives the garbage collector back then
	// (package boot).
	Started func()
	// HandOver, when set, is called just before the program takes the
	// terminal: the process drew a first frame before the program
	// started (package boot), and from then on the program gives the
	// terminal back. It returns the channel on which the process has
	// caught the end signals since (nil: none), which the program's own
	// handling then reads, so that no signal falls between the two.
	HandOver func() chan os.Signal
	// NoSignals leaves the process's signals alone: a server's sessions
	// end with their connection, not with SIGINT.
	NoSignals bool
	// Observe, when set, is told where the learner is and, after each
	// change, the progress (see Activity). It is called on the program's
	// loop: it must return at once.
	Observe func(Activity)

	// What the tests replace. LoadCourse loads the course instead of Pack
	// (a course that fails to load); Ticker replaces tea.Tick for
	// playback; Snippets replaces lessons/snippets as the code's source;
	// LoadQuiz replaces LoadBuiltinQuiz; Today sets the quiz's default
	// seed (the date; time.Now by default).
	LoadCourse func() (*lessons.Pack, error)
	Ticker     raceview.Ticker
	Snippets   func(name string) (string, error)
	LoadQuiz   func() (*quiz.Bank, *racecache.Races, error)
	Today      func() time.Time
}

// SandboxEnv is the sandbox's environment (sandbox.Env), named here so
// that a program's owner configures it without importing the screen.
type SandboxEnv = sandbox.Env

// Replays are the replays of races on a real cluster during one run of
// the program (live/replay.Replays).
type Replays interface {
	// For is the player's Live for a pack; nil when no cluster answers.
	For(*lessons.Pack) player.Live
	// Stop cancels the replays still running, waits for their cleanup and
	// says what it did ("" when nothing ran).
	Stop() string
}

// Announce is a message from outside the program (a workshop's
// instructor, through Session.Send): Text is shown in the key bar; Lesson,
// when set, opens that lesson where the learner left it; Quiz opens the
// quiz.
type Announce struct {
	Text   string
	Lesson string
	Quiz   bool
}

// Run runs the tutorial until the learner quits.
func Run(o Options) error { return NewSession(o).Run() }

// Session is one run of the tutorial: its program, and what happens when
// it ends (progress saved, the sandbox's race kept, replays stopped).
type Session struct {
	o    Options
	prog *tea.Program
	// tty is the terminal whose size the session reads itself (nil: an
	// SSH session's, sent as messages, or Bubble Tea's own).
	tty            term.File
	startW, startH int
}

// NewSession builds the program for o; Run runs it.
func NewSession(o Options) *Session {
	app := New(o)
	s := &Session{o: o, startW: o.Width, startH: o.Height}
	opts := []tea.ProgramOption{}
	if o.In != nil {
		opts = append(opts, tea.WithInput(o.In))
	}
	out := o.Out
	if f, ok := out.(term.File); ok && o.Width == 0 && o.Height == 0 && readsOwnSize && term.IsTerminal(f.Fd()) {
		// Bubble Tea sizes its renderer from the terminal before any
		// message could bound it: the session reads the size itself and
		// hands the program only writes (watchResize sends the resizes).
		if w, h, err := term.GetSize(f.Fd()); err == nil {
			s.startW, s.startH = w, h
		}
		s.tty, out = f, writeOnly{f}
		if o.Profile == colorprofile.Unknown && !app.noColor {
			env := o.Environ
			if env == nil {
				env = os.Environ() // what Bubble Tea reads when it detects
			}
			opts = append(opts, tea.WithColorProfile(colorprofile.Detect(f, env)))
		}
	}
	if out != nil {
		opts = append(opts, tea.WithOutput(out))
	}
	if o.Context != nil {
		opts = append(opts, tea.WithContext(o.Context))
	}
	if o.Environ != nil {
		opts = append(opts, tea.WithEnvironment(o.Environ))
	}
	switch {
	case app.noColor:
		// colorprofile honours NO_COLOR only when it parses as a boolean;
		// no-color.org says any non-empty value counts.
		opts = append(opts, tea.WithColorProfile(colorprofile.Ascii))
	case o.Profile != colorprofile.Unknown:
		opts = append(opts, tea.WithColorProfile(o.Profile))
	}
	if o.FPS > 0 {
		opts = append(opts, tea.WithFPS(o.FPS))
	}
	// Every signal that ends a terminal session ends the program as q
	// does, the terminal given back and the progress saved (signals.go);
	// a server's sessions leave the signals to the server.
	opts = append(opts, tea.WithoutSignalHandler())
	model, bound := chrome.Bound(app, s.startW, s.startH)
	s.prog = tea.NewProgram(model, append(opts, bound...)...)
	return s
}

// writeOnly is a terminal as a plain writer: Bubble Tea then takes the
// window's size from the session (tea.WithWindowSize and messages), not
// from the terminal.
type writeOnly struct{ w io.Writer }

func (w writeOnly) Write(p []byte) (int, error) { return w.w.Write(p) }

// Send gives the program a message (an Announce, a window size); it
// waits until the program takes it, or has ended.
func (s *Session) Send(msg tea.Msg) { s.prog.Send(msg) }

// Quit ends the program as q does: progress is saved on the way out.
func (s *Session) Quit() { s.prog.Quit() }

// Run runs the program until the learner quits (or Quit, or the context
// ends it), then saves what it holds.
func (s *Session) Run() error {
	o := s.o
	var caught chan os.Signal
	if o.HandOver != nil {
		caught = o.HandOver()
	}
	var ended *signalEnd
	if !o.NoSignals {
		ended = endOnSignals(s.prog, caught)
		defer ended.release()
	} else if caught != nil {
		signal.Stop(caught)
	}
	if s.tty != nil {
		defer watchResize(s.prog, s.tty, s.startW, s.startH)()
	}
	final, err := s.prog.Run()
	final = chrome.Inner(final)
	if errors.Is(err, tea.ErrProgramKilled) && o.Context != nil && o.Context.Err() != nil {
		// Ended from outside (the connection closed): what it holds is
		// still saved below.
		err = nil
	}
	serr := saveOnExit(final)
	if serr != nil && o.Out != nil {
		fmt.Fprintf(o.Out, "conflictlab: progress not saved: %s\r\n", termsafe.Escape(serr.Error()))
	}
	for _, said := range leaveOnExit(final) {
		if o.Out != nil {
			fmt.Fprintf(o.Out, "conflictlab: %s\r\n", termsafe.Escape(said))
		}
	}
	// Replays on a cluster end with the program, their cleanup done before
	// it returns, whatever ended it; what they did is said on the terminal
	// the program has just given back.
	if o.Replays != nil {
		if said := o.Replays.Stop(); said != "" && o.Out != nil {
			fmt.Fprint(o.Out, termsafe.Escape(said))
		}
	}
	if serr != nil {
		// Lost answers outrank the way the program ended: a script that
		// reads only the exit code learns they were not saved.
		return &NotSavedError{Err: serr}
	}
	if ended != nil {
		if sig := ended.signal(); sig != nil {
			return &SignalError{Signal: sig}
		}
	}
	return err
}

// NotSavedError is Run's answer when the progress could not be saved as
// the program ended (already said on the terminal).
type NotSavedError struct{ Err error }

func (e *NotSavedError) Error() string { return "progress not saved: " + e.Err.Error() }

func (e *NotSavedError) Unwrap() error { return e.Err }

// environ is Getenv over a KEY=VALUE list (the last one wins, as in a
// process's environment).
func environ(env []string) func(string) string {
	return func(k string) string {
		v := ""
		for _, kv := range env {
			if key, val, ok := strings.Cut(kv, "="); ok && key == k {
				v = val
			}
		}
		return v
	}
}
