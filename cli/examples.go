package cli

import (
	"fmt"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/conflictlab/conflictlab/examples"
)

func newExamplesCmd(env Env) *cobra.Command {
	var out string
	var force bool
	cmd := &cobra.Command{
		Use:   "examples [NAME [-o FILE]]",
		Short: "List the example races shipped in the binary, or write one out",
		Long: `With no name, lists the example races (they are in the binary, so they work
anywhere). With a name, prints that example's YAML, or writes it to -o FILE (an
existing file is kept unless --force): a starting point for your own race.
Run one directly with 'conflictlab sim --example NAME'.

Exit codes: 0 done, 1 the file could not be written, 2 usage (unknown name).`,
		Example: `  conflictlab examples
  conflictlab sim --example lost-update-unconditional
  conflictlab examples stale-lister-retry -o my-race.yaml`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				if out != "" {
					return usageErr(fmt.Errorf("-o needs an example name"))
				}
				for _, n := range examples.Names() {
					sc, err := examples.Load(n)
					desc := ""
					if err == nil {
						desc = strings.TrimSpace(strings.SplitN(sc.Description, "\n", 2)[0])
					}
					fmt.Fprintf(env.Stdout, "%-28s %s\n", n, desc)
				}
				fmt.Fprintln(env.Stdout, "\nrun one: conflictlab sim --example NAME · write one out: conflictlab examples NAME -o FILE")
				return nil
			}
			data, err := examples.Source(args[0])
			if err != nil {
				return usageErr(err)
			}
			if out == "" {
				_, err := env.Stdout.Write(data)
				return err
			}
			flags := os.O_WRONLY | os.O_CREATE | os.O_EXCL
			if force {
				flags = os.O_WRONLY | os.O_CREATE | os.O_TRUNC
			}
			f, err := os.OpenFile(out, flags, 0o644)
			if err != nil {
				if os.IsExist(err) {
					return invalidErr(fmt.Errorf("%s exists: not overwritten (--force replaces it)", out))
				}
				return invalidErr(err)
			}
			if _, err := f.Write(data); err != nil {
				f.Close()
				return invalidErr(err)
			}
			if err := f.Close(); err != nil {
				return invalidErr(err)
			}
			fmt.Fprintf(env.Stderr, "wrote %s\n", out)
			return nil
		},
	}
	cmd.Flags().StringVarP(&out, "output", "o", "", "write the example to this file")
	cmd.Flags().BoolVar(&force, "force", false, "with -o: replace an existing file")
	return cmd
}
