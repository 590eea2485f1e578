package cli

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/conflictlab/conflictlab/level"
	"github.com/conflictlab/conflictlab/sandbox/draft"
	"github.com/conflictlab/conflictlab/sim/scenario"
)

func newSandboxCmd(env Env) *cobra.Command {
	var (
		src         raceSource
		levelText   string
		budgetFlags *exploreFlags
	)
	cmd := &cobra.Command{
		Use:   "sandbox [-f FILE | --example NAME | --level TEXT]",
		Short: "Open the sandbox: build a race, play the scheduler, explore it",
		Long: `Opens the tutorial on its sandbox, where you compose a race (the object and two
to four controllers), play the scheduler one atomic step at a time, explore
every interleaving and take the break-it and fix-it challenges.

With -f, the sandbox opens on that scenario or level file (one object, one to
four controllers): an instructor prepares races with it. With --level, it
opens the level a line of text holds (conflictlab level encode FILE prints
one). A file or a text that does not load is reported (FILE:LINE: FIELD:
problem, or why the text is not a level) before the screen is taken.

The explorer (e) stops after --explore-timeout or once it has taken
--explore-memory (defaults 2m and 1GiB), and says so.

Exit codes: 0 done, 1 the scenario or level is invalid or cannot be read
(missing, not a regular file, over 1 MiB), 2 usage error, 3 no terminal.`,
		Example: `  conflictlab sandbox
  conflictlab sandbox --example lost-update-unconditional
  conflictlab sandbox --level clab1:…`,
		Args:        cobra.NoArgs,
		Annotations: drawsScreen,
		RunE: func(cmd *cobra.Command, args []string) error {
			var sc *scenario.Scenario
			var lvl *level.Level
			switch {
			case levelText != "" && src.given():
				return usageErr(fmt.Errorf("--level and -f/--example each name a race: give one"))
			case levelText != "":
				l, err := decodeLevel(levelText)
				if err != nil {
					return err
				}
				sc, lvl = l.Race, l
			case src.file != "" && src.example == "":
				l, err := level.Load(src.file)
				if err != nil {
					return invalidErr(err)
				}
				if err := draft.Editable(l.Race); err != nil {
					return invalidErr(fmt.Errorf("%s: %w", src.name(), err))
				}
				sc, lvl = l.Race, l
			case src.given():
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
			if err := budgetFlags.apply(&o, "conflictlab sandbox"); err != nil {
				return err
			}
			o.OpenSandbox, o.Sandbox, o.SandboxFile, o.SandboxLevel = true, sc, src.file, lvl
			return tuiExit(env.screen()(o))
		},
	}
	src.addFlags(cmd, "scenario or level file (YAML) to open")
	cmd.Flags().StringVar(&levelText, "level", "", "a level as one line of text (clab1:…), as conflictlab level encode prints it")
	budgetFlags = addExploreFlags(cmd)
	return cmd
}
