package cli

import (
	"bufio"
	"context"
	"fmt"
	"os/signal"
	"strings"

	"github.com/spf13/cobra"

	"github.com/conflictlab/conflictlab/live"
)

func newCleanupCmd(env Env) *cobra.Command {
	var (
		kubeconfig, kubeContext string
		yes                     bool
	)
	cmd := &cobra.Command{
		Use:   "cleanup [--kubeconfig FILE] [--context NAME] [--yes]",
		Short: "Find and delete what earlier live runs left on a cluster",
		Long: `Finds what earlier live runs (sim --live, the tutorial's L) left on the cluster:
namespaces, objects and the Widget CRD labelled conflictlab.dev/run, and the
runs recorded in $XDG_STATE_HOME/conflictlab/live-runs (a run that was killed
before its own cleanup). Lists them, asks, then deletes them. Each delete carries
the uid that was found as a precondition, so an object that replaced one of them
meanwhile is never touched; the Widget CRD is kept while Widgets that no run
created exist (deleting it would delete them).

Exit codes: 0 nothing left (or nothing to do), 2 usage (no terminal to ask and
no --yes), 5 the cluster could not be reached or something could not be deleted.`,
		Example: `  conflictlab cleanup
  conflictlab cleanup --context kind-kind --yes`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			c, err := live.Connect(live.Options{Kubeconfig: kubeconfig, Context: kubeContext, Log: env.Stderr})
			if err != nil {
				return &exitError{ExitLive, err}
			}
			fmt.Fprintf(env.Stderr, "cleanup: server %s, context %q\n", c.Host, c.Context)
			ctx := cmd.Context()
			if ctx == nil {
				ctx = context.Background()
			}
			ctx, stop := signal.NotifyContext(ctx, exitSignals...)
			defer stop()
			j := journal(env)
			found, elsewhere, err := c.Leftovers(ctx, j)
			if err != nil {
				return &exitError{ExitLive, err}
			}
			for _, f := range elsewhere {
				fmt.Fprintf(env.Stdout, "run %s was on another server (%s, context %q): not touched here\n", f.RunID, f.Server, f.Context)
			}
			var lines []string
			for _, f := range found {
				for _, l := range f.Describe() {
					lines = append(lines, fmt.Sprintf("run %s: %s", f.RunID, l))
				}
			}
			if len(lines) == 0 {
				for _, f := range found {
					_ = j.Forget(f.RunID) // empty records
				}
				fmt.Fprintln(env.Stdout, "nothing left by conflictlab on this cluster")
				return nil
			}
			fmt.Fprintf(env.Stdout, "left by earlier runs (%d):\n  %s\n", len(lines), strings.Join(lines, "\n  "))
			if !yes {
				if env.IsTerminal == nil || !env.IsTerminal() {
					return usageErr(fmt.Errorf("not deleting without confirmation: no terminal to ask on; rerun with --yes"))
				}
				fmt.Fprintf(env.Stdout, "delete them? [y/N] ")
				answer, _ := bufio.NewReader(env.Stdin).ReadString('\n')
				if a := strings.ToLower(strings.TrimSpace(answer)); a != "y" && a != "yes" {
					fmt.Fprintln(env.Stdout, "nothing deleted")
					return nil
				}
			}
			var failed []string
			failedRun := map[string]bool{}
			for _, f := range found {
				if left, err := c.Remove(ctx, f); !left.Empty() {
					failed = append(failed, fmt.Sprintf("run %s: %v", f.RunID, err))
					failedRun[f.RunID] = true
				}
			}
			// A run's record goes only when everything of that run is gone.
			for _, f := range found {
				if !failedRun[f.RunID] {
					if err := j.Forget(f.RunID); err != nil {
						fmt.Fprintf(env.Stderr, "cleanup: %v\n", err)
					}
				}
			}
			if len(failed) > 0 {
				return &exitError{ExitLive, fmt.Errorf("some things could not be deleted:\n  %s", strings.Join(failed, "\n  "))}
			}
			fmt.Fprintln(env.Stdout, "done: nothing left by conflictlab on this cluster")
			return nil
		},
	}
	cmd.Flags().StringVar(&kubeconfig, "kubeconfig", "", "kubeconfig file (default: $KUBECONFIG, ~/.kube/config)")
	cmd.Flags().StringVar(&kubeContext, "context", "", "kubeconfig context (default: the current one)")
	cmd.Flags().BoolVarP(&yes, "yes", "y", false, "delete without asking (for scripts)")
	return cmd
}
