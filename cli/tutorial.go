package cli

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/term"
	"github.com/spf13/cobra"

	"github.com/conflictlab/conflictlab/boot"
	"github.com/conflictlab/conflictlab/exercises/workspace"
	"github.com/conflictlab/conflictlab/lessons"
	"github.com/conflictlab/conflictlab/live"
	"github.com/conflictlab/conflictlab/live/replay"
	"github.com/conflictlab/conflictlab/progress"
	"github.com/conflictlab/conflictlab/ui"
)

// processStart is taken when the cli package is initialised, just before
// main runs: the startup trace measures the first frame from here.
var processStart = time.Now()

func stdioIsTerminal() bool {
	return term.IsTerminal(os.Stdin.Fd()) && term.IsTerminal(os.Stdout.Fd())
}

// errNoTTY explains what to do instead of drawing into a pipe.
var errNoTTY = fmt.Errorf(`the tutorial needs a terminal (stdin and stdout must be a TTY).
Without one, use the headless commands:
  conflictlab sim --example lost-update-unconditional      one race, as a timeline
  conflictlab explore --example lost-update-unconditional  every interleaving, tallied
  conflictlab examples                                     the example races (write one out to edit it)
  conflictlab progress export                              your progress, as JSON
  conflictlab --help                                       everything else`)

// terminalOptions is the composition root of the tutorial on this
// process's terminal: its stdin and stdout, its environment (NO_COLOR,
// the XDG state folder for the progress file, a kubeconfig for live
// replays, the startup trace) and its signals. conflictlab serve builds
// the same ui.Options from an SSH session instead (package serve).
func terminalOptions(env Env) ui.Options {
	getenv := env.Getenv
	if getenv == nil {
		getenv = func(string) string { return "" }
	}
	// NO_COLOR with any value, as no-color.org says (colorprofile honours
	// it only when it parses as a boolean).
	o := ui.Options{In: env.Stdin, Out: env.terminal(), Start: processStart, NoColor: getenv("NO_COLOR") != "", FPS: terminalFPS}
	var journal live.Journal
	if path, err := progress.DefaultPath(getenv); err == nil {
		o.ProgressPath = path
		// Live replays journal what they create beside the progress, for
		// `conflictlab cleanup`.
		journal = live.JournalIn(filepath.Dir(path))
	} else {
		o.Notice = err.Error() + "; progress will not be saved."
	}
	// Replays on the learner's cluster are offered when client-go would
	// find a kubeconfig.
	if replay.KubeconfigFound(getenv) {
		o.Replays = replay.New(journal, "")
	}
	if f := getenv(TraceEnv); f != "" {
		o.Trace = traceTo(f)
	}
	// The home screen's exercises work in the workspace the tutorial was
	// started in, if it was.
	if ws, err := workspace.Find("."); err == nil {
		o.ExercisesDir = ws
	}
	o.Started = boot.Resume
	// The first frame may already be up, drawn before main (boot): the
	// program takes the terminal from it.
	o.HandOver = boot.HandOver
	if o.Out == os.Stdout && !o.NoColor {
		// lipgloss detected this terminal's colours when it was
		// initialised, from the same stdout and environment Bubble Tea
		// would look at again; inside tmux each look runs `tmux info`.
		o.Profile = lipgloss.Writer.Profile
	}
	return o
}

// terminalFPS is the frame cap of the tutorial on a terminal: Bubble Tea
// writes frames only on its frame clock, and its first tick comes one
// interval after the program starts, so the default 60 keeps the first
// frame waiting up to 16.7 ms, 120 (Bubble Tea's most) up to 8.3 ms.
// Frames are still written only when the screen changed: an idle
// tutorial's clock costs a wake-up per interval (BENCHMARKS.md, "Startup
// and frame").
const terminalFPS = 120

// TraceEnv names a file to which the tutorial appends its startup
// timings ("first-frame 12.3ms"); BENCHMARKS.md reads it.
const TraceEnv = "CONFLICTLAB_TRACE_STARTUP"

// traceTo appends each startup event to the file at path, opened for
// each event (a handful per run): nothing is held open while the
// tutorial runs.
func traceTo(path string) func(string, time.Duration) {
	var mu sync.Mutex
	return func(event string, d time.Duration) {
		mu.Lock()
		defer mu.Unlock()
		out, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
		if err != nil {
			return
		}
		fmt.Fprintf(out, "%s %.1fms\n", event, float64(d.Microseconds())/1000)
		out.Close()
	}
}

// tuiExit gives the exit code of a TUI that ended: 128 + the signal's
// number when a signal ended it (130 for SIGINT, 129 SIGHUP, 131 SIGQUIT,
// 143 SIGTERM; the terminal restored and progress saved first), and
// ExitInternal for any other failure of the screen (never a usage error:
// the command line was fine).
func tuiExit(err error) error {
	var sig *ui.SignalError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &sig):
		return &exitError{sig.ExitCode(), err}
	}
	var ee *exitError
	if errors.As(err, &ee) {
		return err
	}
	return &exitError{ExitInternal, err}
}

func runTutorial(cmd *cobra.Command, env Env, budgetFlags *exploreFlags) error {
	// A pack given with --lessons is loaded first: if it is broken, the
	// problems are printed as FILE:LINE: … on a normal terminal, before
	// the screen is taken over.
	var pack *lessons.Pack
	if dir := LessonsDir(cmd); dir != "" {
		p, err := loadPackDir(dir)
		if err != nil {
			printErrors(env.Stderr, err)
			return invalidErr(fmt.Errorf("%s: the lesson pack does not load (conflictlab lessons validate %s checks it)", dir, dir))
		}
		pack = p
	}
	if env.IsTerminal == nil || !env.IsTerminal() {
		return &exitError{ExitNoTTY, errNoTTY}
	}
	o := terminalOptions(env)
	if err := budgetFlags.apply(&o, "conflictlab"); err != nil {
		return err
	}
	o.Pack = pack // nil: the built-in course
	return tuiExit(env.screen()(o))
}
