package cli

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"sort"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/conflictlab/conflictlab/live"
	"github.com/conflictlab/conflictlab/progress"
	"github.com/conflictlab/conflictlab/sim/api"
)

// ExitLive: a live run could not be carried out (no cluster, 403, timeout).
const ExitLive = 5

type liveFlags struct {
	on                      bool
	kubeconfig, kubeContext string
	namespace               string
	keep, installCRD        bool
	timeout                 time.Duration
}

// wireLive adds --live and its flags to the sim command: with --live the
// same race runs against a real API server.
func wireLive(cmd *cobra.Command, env Env, src *raceSource) {
	var f liveFlags
	fl := cmd.Flags()
	fl.BoolVar(&f.on, "live", false, "run the race against a real API server (your kubeconfig's cluster) instead of the simulator")
	fl.StringVar(&f.kubeconfig, "kubeconfig", "", "with --live: kubeconfig file (default: $KUBECONFIG, ~/.kube/config)")
	fl.StringVar(&f.kubeContext, "context", "", "with --live: kubeconfig context (default: the current one)")
	fl.StringVar(&f.namespace, "namespace", "", "with --live: work in this existing namespace (default: create a fresh one, deleted afterwards)")
	fl.BoolVar(&f.keep, "keep", false, "with --live: keep the namespace and objects afterwards")
	fl.BoolVar(&f.installCRD, "install-crd", false, "with --live: create the Widget CRD if a scenario needs it (removed afterwards)")
	fl.DurationVar(&f.timeout, "request-timeout", 10*time.Second, "with --live: timeout of every request")
	cmd.Example += `
  conflictlab sim --example lost-update-unconditional --live
  conflictlab sim --example status-subresource --live --context kind-kind --install-crd`
	cmd.Long += `

With --live the same controllers run the same schedule against a real API server
(client-go); their informers read a cache fed by a real watch, delivered on the
scenario's lag. The run prints the server and context first, works in a fresh
namespace labelled conflictlab.dev/run=<id> (or --namespace), writes only the
objects it creates and labels, and deletes them afterwards (--keep keeps them).
Every request names exactly one of the scenario's objects: a write whose body
renames its object or moves it to another namespace is refused before it is
sent. --namespace refuses default, kube-system, kube-public and kube-node-lease.
The Widget CRD is deleted afterwards only if this run created it. Ctrl+C,
SIGTERM, SIGHUP and SIGQUIT clean up too; what a killed run left behind,
'conflictlab cleanup' finds and deletes.
Exit code 5: the live run could not be carried out.`
	simRun := cmd.RunE
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		if !f.on {
			for _, name := range []string{"kubeconfig", "context", "namespace", "keep", "install-crd", "request-timeout"} {
				if cmd.Flags().Changed(name) {
					return usageErr(fmt.Errorf("--%s only applies with --live", name))
				}
			}
			return simRun(cmd, args)
		}
		if f.namespace != "" {
			if err := live.CheckNamespace(f.namespace); err != nil {
				return usageErr(err)
			}
		}
		if f.timeout <= 0 {
			// client-go reads 0 as "no timeout": a hung server would hang the run.
			return usageErr(fmt.Errorf("--request-timeout %s: want a positive duration, as 10s", f.timeout))
		}
		return runLive(cmd, env, f, *src)
	}
}

// journal is where live runs record what they create, beside the progress
// file: $XDG_STATE_HOME/conflictlab/live-runs (or ~/.local/state/…).
// "" when there is no state directory (the runs then keep no record).
func journal(env Env) live.Journal {
	p, err := progress.DefaultPath(env.Getenv)
	if err != nil {
		return ""
	}
	return live.JournalIn(filepath.Dir(p))
}

// exitSignals are the ways a terminal session ends a process that must
// still clean up: Ctrl+C, kill, a closed SSH connection, Ctrl+\.
var exitSignals = []os.Signal{os.Interrupt, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGQUIT}

func runLive(cmd *cobra.Command, env Env, f liveFlags, src raceSource) error {
	schedule, _ := cmd.Flags().GetString("schedule")
	seed, _ := cmd.Flags().GetString("seed")
	output, _ := cmd.Flags().GetString("output")
	sc, sched, err := loadRace(src, schedule, seed, output)
	if err != nil {
		return err
	}
	cluster, err := live.Connect(live.Options{Kubeconfig: f.kubeconfig, Context: f.kubeContext,
		Namespace: f.namespace, Keep: f.keep, InstallCRD: f.installCRD, RequestTimeout: f.timeout,
		Journal: journal(env), Log: env.Stderr})
	if err != nil {
		return &exitError{ExitLive, err}
	}
	// Say where before touching anything.
	fmt.Fprintf(env.Stderr, "live: server %s, context %q\n", cluster.Host, cluster.Context)
	for _, c := range sc.Controllers {
		if c.Target.Kind == api.Deployment {
			fmt.Fprintln(env.Stderr, "live: note: this scenario races on a Deployment; on a cluster with a controller manager the deployment controller writes it too (status, pods), so the race may differ from the simulator's")
			break
		}
	}
	ctx := cmd.Context()
	if ctx == nil {
		ctx = context.Background()
	}
	ctx, stop := signal.NotifyContext(ctx, exitSignals...)
	defer stop()
	res, err := cluster.Run(ctx, sc, sched)
	if err != nil {
		return &exitError{ExitLive, err}
	}
	o := res.Outcome
	lat := append([]time.Duration(nil), res.Latency...)
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	if len(lat) > 0 {
		fmt.Fprintf(env.Stderr, "live: %d requests, latency median %s, max %s\n",
			len(lat), lat[len(lat)/2].Round(10*time.Microsecond), lat[len(lat)-1].Round(10*time.Microsecond))
	}
	return writeOutcome(env.Stdout, o, output)
}
