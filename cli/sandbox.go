package cli

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/conflictlab/conflictlab/sandbox/draft"
	"github.com/conflictlab/conflictlab/sim/scenario"
)

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
		Args:        cobra.NoArgs,
		Annotations: drawsScreen,
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
			// The TUI on the sandbox, with the race from the file or
			// (sc nil) its own.
			o := terminalOptions(env)
			o.OpenSandbox, o.Sandbox, o.SandboxFile = true, sc, src.file
			return tuiExit(env.screen()(o))
		},
	}
	src.addFlags(cmd, "scenario file (YAML) to open")
	return cmd
}
