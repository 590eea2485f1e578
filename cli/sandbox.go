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
	return ui.Run(ui.Options{In: env.Stdin, Out: env.Stdout, Getenv: env.Getenv, Start: processStart,
		OpenSandbox: true, Sandbox: sc, SandboxFile: file})
}

func newSandboxCmd(env Env) *cobra.Command {
	var file string
	cmd := &cobra.Command{
		Use:   "sandbox [-f SCENARIO]",
		Short: "Open the sandbox: build a race, play the scheduler, explore it",
		Long: `Opens the tutorial on its sandbox, where you compose a race (the object and two
to four controllers), play the scheduler one atomic step at a time, explore
every interleaving and take the break-it and fix-it challenges.

With -f, the sandbox opens on that scenario file (one object, one to four
controllers): an instructor prepares races with it. A file that does not load
is reported as FILE:LINE: FIELD: problem, before the screen is taken.

Exit codes: 0 done, 1 the scenario is invalid, 2 usage error, 3 no terminal.`,
		Example: `  conflictlab sandbox
  conflictlab sandbox -f examples/lost-update-unconditional.yaml`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			var sc *scenario.Scenario
			if file != "" {
				var err error
				if sc, err = scenario.Load(file); err != nil {
					return invalidErr(err)
				}
				if err := draft.Editable(sc); err != nil {
					return invalidErr(fmt.Errorf("%s: %w", file, err))
				}
			}
			if env.IsTerminal == nil || !env.IsTerminal() {
				return &exitError{ExitNoTTY, errNoTTY}
			}
			return startSandbox(env, sc, file)
		},
	}
	cmd.Flags().StringVarP(&file, "file", "f", "", "scenario file (YAML) to open")
	return cmd
}
