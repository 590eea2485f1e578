package cli

import (
	"fmt"
	"os"

	"github.com/charmbracelet/x/term"
	"github.com/spf13/cobra"
)

func stdioIsTerminal() bool {
	return term.IsTerminal(os.Stdin.Fd()) && term.IsTerminal(os.Stdout.Fd())
}

// errNoTTY explains what to do instead of drawing into a pipe.
var errNoTTY = fmt.Errorf(`the tutorial needs a terminal (stdin and stdout must be a TTY).
Without one, use the headless commands:
  conflictlab sim -f examples/lost-update-unconditional.yaml     one race, as a timeline
  conflictlab explore -f examples/lost-update-unconditional.yaml every interleaving, tallied
  conflictlab --help                                              everything else`)

// runTutorial starts the TUI; it is replaced by the ui package's program.
var startTUI func(cmd *cobra.Command, env Env) error

func runTutorial(cmd *cobra.Command, env Env) error {
	if env.IsTerminal == nil || !env.IsTerminal() {
		return &exitError{ExitNoTTY, errNoTTY}
	}
	if startTUI == nil {
		return &exitError{ExitInternal, fmt.Errorf("this build has no tutorial screen")}
	}
	return startTUI(cmd, env)
}
