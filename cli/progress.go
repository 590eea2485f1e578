package cli

import (
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"

	"github.com/conflictlab/conflictlab/progress"
)

func newProgressCmd(env Env) *cobra.Command {
	store := func() (*progress.Store, error) {
		path, err := progress.DefaultPath(env.Getenv)
		if err != nil {
			return nil, invalidErr(err)
		}
		return progress.Open(path), nil
	}
	cmd := &cobra.Command{
		Use:   "progress reset|export|import FILE",
		Short: "Reset, export or import your tutorial progress",
		Long: `The tutorial keeps your progress in $XDG_STATE_HOME/conflictlab/progress.json
(~/.local/state/conflictlab/progress.json when XDG_STATE_HOME is unset).

Exit codes: 0 done, 1 the file is not valid progress, 2 usage error.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return usageErr(fmt.Errorf("progress needs a subcommand: reset, export or import FILE"))
		},
	}
	cmd.AddCommand(&cobra.Command{
		Use:   "reset",
		Short: "Forget all progress",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			s, err := store()
			if err != nil {
				return err
			}
			had, err := s.Reset()
			if err != nil {
				return err
			}
			if had {
				fmt.Fprintf(env.Stdout, "progress reset (removed %s)\n", s.Path())
			} else {
				fmt.Fprintf(env.Stdout, "no progress to reset (%s does not exist)\n", s.Path())
			}
			return nil
		},
	}, &cobra.Command{
		Use:     "export",
		Short:   "Print the progress file (JSON) to standard output",
		Example: "  conflictlab progress export > progress-backup.json",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			s, err := store()
			if err != nil {
				return err
			}
			if err := s.Export(env.Stdout); err != nil {
				return invalidErr(err)
			}
			return nil
		},
	}, &cobra.Command{
		Use:     "import FILE",
		Short:   "Replace the progress with FILE (as written by export); - reads standard input",
		Example: "  conflictlab progress import progress-backup.json",
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			s, err := store()
			if err != nil {
				return err
			}
			var data []byte
			if args[0] == "-" {
				data, err = readAll(env)
			} else {
				data, err = os.ReadFile(args[0])
			}
			if err != nil {
				return usageErr(err)
			}
			p, err := s.Import(data)
			if err != nil {
				return invalidErr(fmt.Errorf("%s: %w", args[0], err))
			}
			fmt.Fprintf(env.Stdout, "imported %d lesson(s) into %s\n", len(p.Lessons), s.Path())
			for _, l := range p.Summary() {
				fmt.Fprintln(env.Stdout, "  "+l)
			}
			return nil
		},
	})
	return cmd
}

func readAll(env Env) ([]byte, error) {
	if env.Stdin == nil {
		return nil, fmt.Errorf("no standard input")
	}
	return io.ReadAll(env.Stdin)
}
