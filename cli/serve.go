package cli

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/conflictlab/conflictlab/budget"
	"github.com/conflictlab/conflictlab/lessons"
	"github.com/conflictlab/conflictlab/progress"
	"github.com/conflictlab/conflictlab/serve"
)

// defaultRoomState is the room's folder when --state is not given: beside
// the instructor's own progress, in the XDG state folder.
func defaultRoomState(getenv func(string) string) (string, error) {
	p, err := progress.DefaultPath(getenv)
	if err != nil {
		return "", err
	}
	return filepath.Join(filepath.Dir(p), "serve"), nil
}

func newServeCmd(env Env) *cobra.Command {
	var cfg serve.Config
	var seed int64
	var exploreMemory string
	cmd := &cobra.Command{
		Use:   "serve [--listen :2222] [--state DIR] [--seed N] [--instructor-keys FILE]",
		Short: "Run the tutorial over SSH for a workshop room",
		Long: `Runs an SSH server that gives each connection its own tutorial, at its own
terminal's size (at most 320×100: a larger terminal is told so) and colours;
attendees connect with the SSH client they have: ssh -p 2222 HOST.

An attendee is known by the public key they connect with; their progress
lives under --state and is kept across reconnects. Keys listed in
--instructor-keys (authorized_keys format) get the room view instead: who is
connected, where each is, scores, the steps most answered wrong, and keys to
send everyone to a lesson or open a room-wide quiz. --seed gives everyone the
same quiz.

--allow-names also lets in attendees without a key, asking a name at login.
A name is NOT authentication: anyone who types a name gets that name's
progress, to read and to change, whenever no session holds it (a name held
by a session open now is refused; Ada and ada are one name). To admit SSH
keys only, leave --allow-names out (the default): then each attendee's
progress belongs to their key.

There is no shell, command, file transfer, port or agent forwarding. The host
key is created in the state folder on the first start (0600) and kept.

Every limit is logged at start (kill -USR1 the server to log the room's state:
sessions open, refusals, goroutines, heap), and every refusal is told to the
person, in words their ssh prints:
  one tutorial per connection (ssh -o ControlMaster's second session is
    refused on its own stderr);
  --max-sessions attendee sessions in all, --max-per-key per key,
    --max-per-address per address: the defaults (120, 3, 90) suit a room of
    60 behind one NAT, where every attendee has the same address;
  --attempts-per-minute connections per address and per minute, and as many
    at once (the burst follows the flag): over it, the login banner says
    when to try again;
  --idle-timeout ends a session with no key pressed (progress saved);
  each exploration of the sandbox (e): --explore-max work, --explore-timeout,
    --explore-memory, and --explore-parallel at once in the server.
The instructor's keys are never refused by those limits (they have their own:
16 sessions). An address holding more connections open than twice its
sessions (handshakes never finished) has the next closed before the
handshake, when nothing can be said yet. Replays on a cluster (L) are off
unless --allow-live is given with --kubeconfig.

Exit codes: 0 stopped (SIGINT/SIGTERM: sessions end and save first), 1 a
file given is invalid, 2 usage error, 4 the server failed.`,
		Example: `  conflictlab serve --seed 42 --instructor-keys ~/.ssh/id_ed25519.pub
  ssh -p 2222 workshop-host        # each attendee
  conflictlab serve export -o csv > room.csv`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if cmd.Flags().Changed("seed") {
				cfg.Seed = strconv.FormatInt(seed, 10)
			}
			if cfg.State == "" {
				st, err := defaultRoomState(env.Getenv)
				if err != nil {
					return usageErr(fmt.Errorf("%v: give --state DIR", err))
				}
				cfg.State = st
			}
			mem, err := budget.ParseBytes(exploreMemory)
			if err != nil || mem == 0 {
				return usageErr(fmt.Errorf("--explore-memory %q: want a size such as 128MiB", exploreMemory))
			}
			cfg.Explore.MaxMemory = mem
			if cfg.Kubeconfig != "" && !cfg.AllowLive {
				return usageErr(errors.New("--kubeconfig is only for --allow-live (live mode is off otherwise)"))
			}
			if dir := LessonsDir(cmd); dir != "" {
				p, err := loadPackDir(dir)
				if err != nil {
					printErrors(env.Stderr, err)
					return invalidErr(fmt.Errorf("%s: the lesson pack does not load", dir))
				}
				cfg.Pack = p
			} else {
				p, err := lessons.Course()
				if err != nil {
					return &exitError{ExitInternal, err}
				}
				cfg.Pack = p
			}
			cfg.Log = slog.New(slog.NewTextHandler(env.Stderr, nil))
			srv, err := serve.New(cfg)
			if err != nil {
				return invalidErr(err)
			}
			srv.LogLimits()
			stop := make(chan os.Signal, 1)
			signal.Notify(stop, os.Interrupt, syscall.SIGTERM)
			defer signal.Stop(stop)
			// SIGUSR1 (where there is one) logs the room's state.
			ask := make(chan os.Signal, 1)
			if sigs := stateSignals(); len(sigs) > 0 {
				signal.Notify(ask, sigs...)
				defer signal.Stop(ask)
			}
			failed := make(chan error, 1)
			go func() { failed <- srv.ListenAndServe() }()
		wait:
			for {
				select {
				case err := <-failed:
					if err != nil {
						return &exitError{ExitInternal, err}
					}
					return nil
				case <-ask:
					srv.LogState()
				case sig := <-stop:
					cfg.Log.Info("stopping: sessions save and end", "signal", sig.String())
					break wait
				}
			}
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			if err := srv.Shutdown(ctx); err != nil {
				return &exitError{ExitInternal, fmt.Errorf("shutdown: %w", err)}
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&cfg.Listen, "listen", serve.DefaultListen, "address to listen on")
	f.StringVar(&cfg.HostKey, "host-key", "", "host private key file, created (0600) if missing (default STATE/host_ed25519)")
	f.StringVar(&cfg.State, "state", "", "the room's folder: host key and attendees' progress (default $XDG_STATE_HOME/conflictlab/serve)")
	f.Int64Var(&seed, "seed", 0, "the room's quiz seed: everyone gets the same questions in the same order")
	f.StringVar(&cfg.InstructorKeys, "instructor-keys", "", "authorized_keys file of the keys that get the room view")
	f.BoolVar(&cfg.AllowNames, "allow-names", false, "let attendees without a key in, asking a name at login (a name is not authentication)")
	f.IntVar(&cfg.MaxSessions, "max-sessions", serve.DefaultMaxSessions, "attendee sessions open at once, at most")
	f.IntVar(&cfg.MaxPerKey, "max-per-key", serve.DefaultMaxPerKey, "sessions one key may have open at once")
	f.IntVar(&cfg.MaxPerAddress, "max-per-address", serve.DefaultMaxPerAddress, "sessions one address may have open at once (a room behind one NAT is one address)")
	f.DurationVar(&cfg.IdleTimeout, "idle-timeout", serve.DefaultIdleTimeout, "end a session with no key pressed for this long (progress is saved)")
	f.IntVar(&cfg.AttemptsPerMinute, "attempts-per-minute", serve.DefaultAttemptsPerMinute, "connections one address may open per minute, and at once")
	f.IntVar(&cfg.Explore.MaxSchedules, "explore-max", serve.DefaultExploreSchedules, "work one exploration may do: schedules played and states explored")
	f.DurationVar(&cfg.Explore.Timeout, "explore-timeout", serve.DefaultExploreTimeout, "time one exploration may take")
	f.StringVar(&exploreMemory, "explore-memory", budget.Bytes(serve.DefaultExploreMemory), "heap one exploration may grow the server by")
	f.IntVar(&cfg.ParallelExplores, "explore-parallel", 0, "explorations running at once in the server (default half the CPUs, at least 1)")
	f.BoolVar(&cfg.AllowLive, "allow-live", false, "let attendees replay races on the cluster of --kubeconfig (L)")
	f.StringVar(&cfg.Kubeconfig, "kubeconfig", "", "kubeconfig of the cluster for --allow-live")
	cmd.AddCommand(newServeExportCmd(env))
	return cmd
}

func newServeExportCmd(env Env) *cobra.Command {
	var state, format string
	cmd := &cobra.Command{
		Use:   "export [--state DIR] [-o csv|json]",
		Short: "Write the room's progress as CSV or JSON",
		Long: `Reads every attendee's progress under the room's state folder (it may run
while the server does) and writes it to stdout: JSON, one record per
attendee, or CSV, one row per answer and per quiz topic.

Exit codes: 0 done, 1 the state folder holds no room, 2 usage error.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if format != "csv" && format != "json" {
				return usageErr(fmt.Errorf("-o %q: want csv or json", format))
			}
			if state == "" {
				st, err := defaultRoomState(env.Getenv)
				if err != nil {
					return usageErr(fmt.Errorf("%v: give --state DIR", err))
				}
				state = st
			}
			recs, err := serve.ReadRoom(state)
			if err != nil {
				return invalidErr(err)
			}
			if format == "csv" {
				return serve.WriteCSV(env.Stdout, recs)
			}
			return serve.WriteJSON(env.Stdout, recs)
		},
	}
	cmd.Flags().StringVar(&state, "state", "", "the room's folder (default $XDG_STATE_HOME/conflictlab/serve)")
	cmd.Flags().StringVarP(&format, "output", "o", "json", "csv or json")
	return cmd
}
