package cli

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/conflictlab/conflictlab/level"
	"github.com/conflictlab/conflictlab/sandbox/draft"
)

func newLevelCmd(env Env) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "level",
		Short: "Share a sandbox race as one line of text",
		Long: `A level is a race and, if you want, what the learner must do with it: a
break-it goal (find an order of steps that loses a field) or a fix-it goal
(change the fewest settings so that no order does), with its par. A level
file is a scenario file, or a level (docs/levels.md): title, question, hint,
goal and the race. As text a level is one line, which you can paste into a
chat or onto a slide; conflictlab sandbox --level TEXT opens it.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error { return cmd.Help() },
	}
	cmd.AddCommand(newLevelEncodeCmd(env), newLevelDecodeCmd(env))
	return cmd
}

func newLevelEncodeCmd(env Env) *cobra.Command {
	return &cobra.Command{
		Use:   "encode FILE",
		Short: "Print a level file (or a scenario file) as one line of text",
		Long: `Prints the level in FILE as one line of text (clab1:…) on stdout, and on
stderr how long it is and how to open it. FILE is a level file or a scenario
file; the race must be one the sandbox opens (one object, one to four
controllers). The same level always gives the same line. lessons validate
FILE proves a level's par.

Exit codes: 0 printed, 1 the file is not a level the sandbox opens, or cannot
be read (missing, not a regular file, over 1 MiB), or is too big for a line
(16,384 characters), 2 usage error.`,
		Example: `  conflictlab level encode examples/lost-update-unconditional.yaml
  conflictlab sandbox --level "$(conflictlab level encode my-level.yaml)"`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			l, err := level.Load(args[0])
			if err != nil {
				printErrors(env.Stderr, err)
				return invalidErr(fmt.Errorf("%s: not a level", args[0]))
			}
			if err := sandboxable(l); err != nil {
				return invalidErr(fmt.Errorf("%s: %w", args[0], err))
			}
			text, err := level.Encode(l)
			if err != nil {
				return invalidErr(fmt.Errorf("%s: %w", args[0], err))
			}
			fmt.Fprintln(env.Stdout, text)
			what := "a race to play"
			if g := l.Goal; g != nil {
				what = fmt.Sprintf("break it, par %d", g.Par)
				if !g.IsBreak() {
					what = fmt.Sprintf("fix it, par %d", g.Par)
				}
			}
			fmt.Fprintf(env.Stderr, "%s (%s): %d characters · conflictlab sandbox --level TEXT opens it\n", l.Title, what, len(text))
			return nil
		},
	}
}

func newLevelDecodeCmd(env Env) *cobra.Command {
	return &cobra.Command{
		Use:   "decode TEXT",
		Short: "Print a level's text as a level file",
		Long: `Prints the level file a level's text (clab1:…) holds, to edit it or to run
its race with conflictlab sim. Whitespace in TEXT is ignored.

Exit codes: 0 printed, 1 TEXT is not a level (the message says why), 2 usage
error.`,
		Example: `  conflictlab level decode clab1:… > level.yaml`,
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			l, err := level.Decode(args[0])
			if err != nil {
				return invalidErr(err)
			}
			data, err := level.Marshal(l)
			if err != nil {
				return invalidErr(err)
			}
			_, err = env.Stdout.Write(data)
			return err
		},
	}
}

// sandboxable reports whether the sandbox can open a level's race.
func sandboxable(l *level.Level) error {
	if err := draft.Editable(l.Race); err != nil {
		return err
	}
	if err := draft.Check(l.Race); err != nil {
		return fmt.Errorf("the race does not run: %w", err)
	}
	return nil
}

// decodeLevel reads --level's text for a command.
func decodeLevel(text string) (*level.Level, error) {
	l, err := level.Decode(strings.TrimSpace(text))
	if err != nil {
		return nil, invalidErr(fmt.Errorf("--level: %w", err))
	}
	if err := sandboxable(l); err != nil {
		return nil, invalidErr(fmt.Errorf("--level: %w", err))
	}
	return l, nil
}
