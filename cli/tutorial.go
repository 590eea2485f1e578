package cli

import (
	"fmt"
	"os"
	"time"

	"github.com/charmbracelet/x/term"
	"github.com/spf13/cobra"

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

// startTUI runs the tutorial; tests replace it to run without a terminal.
var startTUI = func(cmd *cobra.Command, env Env) error {
	return ui.Run(ui.Options{In: env.Stdin, Out: env.Stdout, Getenv: env.Getenv, Start: processStart})
}

func runTutorial(cmd *cobra.Command, env Env) error {
	if env.IsTerminal == nil || !env.IsTerminal() {
		return &exitError{ExitNoTTY, errNoTTY}
	}
	if startTUI == nil {
		return &exitError{ExitInternal, fmt.Errorf("this build has no tutorial screen")}
	}
	return startTUI(cmd, env)
}
