package cli

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/conflictlab/conflictlab/sim/scenario"
	"github.com/conflictlab/conflictlab/ui"
	"github.com/conflictlab/conflictlab/ui/sandbox/draft"
)

// startSandbox runs the TUI on the sandbox, with a race from a file or
// (sc nil) its own; tests replace it to run without a terminal.
var startSandbox = func(env Env, sc *scenario.Scenario, file string) error {
	o := terminalOptions(env)
	o.OpenSandbox, o.Sandbox, o.SandboxFile = true, sc, file
	return tuiExit(ui.Run(o))
}

func newSandboxCmd(env Env) *cobra.Command {
	var src raceSource
	cmd := &cobra.Command{
		Use:   "sandbox [-f SCENARIO | --example NAME]",
		Short: "Open the sandbox: build a race, play the scheduler, explore it",
		Long: `Opens the tutorial on its sandbox, where you compose a race (the object and two
to four controllers), play the scheduler one atomic step at a time, explore
every interleaving and take the break-it and fix-it challenges.

With -f, the sandbox opens on that scenario file (one object, one to four
controllers): an instructor prepares races with it. A file that does not load
is reported as FILE:LINE: FIELD: problem, before the screen is taken.

Exit codes: 0 done, 1 the scenario is invalid or cannot be read (missing, not
a regular file, over 1 MiB), 2 usage error, 3 no terminal.`,
		Example: `  conflictlab sandbox
  conflictlab sandbox --example lost-update-unconditional`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			var sc *scenario.Scenario
			if src.given() {
				var err error
				if sc, err = src.load("sandbox"); err != nil {
					return err
				}
				if err := draft.Editable(sc); err != nil {
					return invalidErr(fmt.Errorf("%s: %w", src.name(), err))
				}
			}
			if env.IsTerminal == nil || !env.IsTerminal() {
				return &exitError{ExitNoTTY, errNoTTY}
			}
			return startSandbox(env, sc, src.file)
		},
	}
	src.addFlags(cmd, "scenario file (YAML) to open")
	return cmd
}
