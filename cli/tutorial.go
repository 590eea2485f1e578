package cli

import (
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/charmbracelet/x/term"
	"github.com/spf13/cobra"

	"github.com/conflictlab/conflictlab/lessons"
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

// startTUI runs the tutorial on pack (nil: the built-in course); tests
// replace it to run without a terminal.
var startTUI = func(cmd *cobra.Command, env Env, pack *lessons.Pack) error {
	o := terminalOptions(env)
	o.Pack = pack
	return tuiExit(ui.Run(o))
}

// terminalOptions is the composition root of the tutorial on this
// process's terminal: its stdin and stdout, its environment (NO_COLOR,
// the XDG state folder for the progress file, a kubeconfig for live
// replays, the startup trace) and its signals. conflictlab serve builds
// the same ui.Options from an SSH session instead (package serve).
func terminalOptions(env Env) ui.Options {
	o := ui.Options{In: env.Stdin, Out: env.terminal(), Getenv: env.Getenv, Start: processStart, Live: ui.LiveAuto}
	if path, err := progress.DefaultPath(env.Getenv); err == nil {
		o.ProgressPath = path
	} // else ui says on the home screen why progress is not saved
	return o
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

func runTutorial(cmd *cobra.Command, env Env) error {
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
	if startTUI == nil {
		return &exitError{ExitInternal, fmt.Errorf("this build has no tutorial screen")}
	}
	return startTUI(cmd, env, pack)
}
