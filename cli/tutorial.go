package cli

import (
	"fmt"
	"os"
	"time"

	"github.com/charmbracelet/x/term"
	"github.com/spf13/cobra"

	"github.com/conflictlab/conflictlab/lessons"
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
  conflictlab sim -f examples/lost-update-unconditional.yaml     one race, as a timeline
  conflictlab explore -f examples/lost-update-unconditional.yaml every interleaving, tallied
  conflictlab progress export                                     your progress, as JSON
  conflictlab --help                                              everything else`)

// startTUI runs the tutorial on pack (nil: the built-in course); tests
// replace it to run without a terminal.
var startTUI = func(cmd *cobra.Command, env Env, pack *lessons.Pack) error {
	return ui.Run(ui.Options{In: env.Stdin, Out: env.Stdout, Getenv: env.Getenv, Start: processStart, Pack: pack})
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
