package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/conflictlab/conflictlab/budget"
	"github.com/conflictlab/conflictlab/sim/explore"
	"github.com/conflictlab/conflictlab/sim/race"
	"github.com/conflictlab/conflictlab/sim/report"
	"github.com/conflictlab/conflictlab/sim/scenario"
)

func newSimCmd(env Env) *cobra.Command {
	var (
		src                    raceSource
		schedule, output, seed string
		backend                string
	)
	cmd := &cobra.Command{
		Use:   "sim (-f SCENARIO | --example NAME) [--schedule a,b,b,a | --seed N] [--backend NAME|all] [-o text|json|markdown|svg]",
		Short: "Run one race and print its timeline",
		Long: `Runs one race of a scenario file and prints the timeline: every request with
the resourceVersion it sent and the answer, each informer's cache RV next to the
server's, every object version, and the fields that were lost and who erased them.

The schedule lists which controller takes its next atomic step (a request or a
Lister read); NAME.cache delivers the next watch event to NAME's informer. After
the listed steps the race is finished round-robin. --seed picks steps at random.

--backend runs the race on a fake client that controller unit tests use instead
of the simulator: client-go-fake (client-go's fake.NewSimpleClientset),
client-go-clientset (fake.NewClientset, with server-side apply) or
controller-runtime-fake (controller-runtime's fake client); the Widget custom
resource goes through client-go's dynamic fake. A schedule step a fake cannot
take (its controller finished sooner, because a write the server refuses was
accepted) is skipped and said on stderr. --backend all runs the race on the
simulator and every fake and prints where they diverge: the answers step by
step, the verdicts, the lost fields and the final object (-o text or json).
The fakes are linked only into a binary built with -tags fakes
(go run -tags fakes . sim --backend all …).

Exit codes: 0 the race ran (whatever its outcome), 1 the scenario is invalid
or cannot be read (missing, not a regular file, over 1 MiB), 2 usage error.`,
		Example: `  conflictlab sim --example lost-update-unconditional
  conflictlab sim -f race.yaml --schedule a,b,a,b -o markdown > race.md
  conflictlab sim -f race.yaml -o svg > race.svg
  conflictlab sim -f race.yaml --seed 7 -o json | jq .verdict
  conflictlab sim --example lost-update-conditional --backend client-go-fake
  conflictlab sim --example retry-live-get --backend all`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if backend != "sim" {
				return runOnFakes(env, src, schedule, seed, output, backend)
			}
			sc, sched, err := loadRace(src, schedule, seed, output)
			if err != nil {
				return err
			}
			o, err := race.Run(sc, sched)
			if err != nil {
				if sched.Moves != nil {
					return usageErr(fmt.Errorf("--schedule: %w", err))
				}
				return invalidErr(fmt.Errorf("%s: %w", src.name(), err))
			}
			return writeOutcome(env.Stdout, o, output)
		},
	}
	src.addFlags(cmd, "scenario file (YAML), or a level file (its race)")
	cmd.Flags().StringVar(&schedule, "schedule", "", "comma-separated steps: controller names or NAME.cache")
	cmd.Flags().StringVar(&seed, "seed", "", "pick steps at random with this seed (a number)")
	cmd.Flags().StringVarP(&output, "output", "o", "text", "text, json, markdown, or svg (a picture of the race view, for slides)")
	cmd.Flags().StringVar(&backend, "backend", "sim", "run on: sim, client-go-fake, client-go-clientset, controller-runtime-fake, or all (a table of where they diverge; the fakes need a build with -tags fakes)")
	wireLive(cmd, env, &src) // --live: the same race on a real API server (cli/live.go)
	liveOrSim := cmd.RunE
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		if live, _ := cmd.Flags().GetBool("live"); live && cmd.Flags().Changed("backend") {
			return usageErr(fmt.Errorf("--backend and --live choose two different servers: give one"))
		}
		return liveOrSim(cmd, args)
	}
	return cmd
}

// fakeBackends is what sim --backend needs of package fakes (fakes.Runner).
// It is linked in only with -tags fakes (cli/fakes_linked.go): the fake
// client libraries add ≈25 MB to the binary and more than double a cold
// build. Without them linkedFakes is nil and --backend says how to get them.
type fakeBackends interface {
	Check(backend string) error
	Run(backend string, sc *scenario.Scenario, sched race.Schedule) (o *race.Outcome, skipped []string, err error)
	Compare(w io.Writer, sc *scenario.Scenario, sched race.Schedule, output string) error
}

// runOnFakes runs sim's race on one fake client library, or (all) on the
// simulator and every fake, printing where they diverge.
func runOnFakes(env Env, src raceSource, schedule, seed, output, backend string) error {
	if linkedFakes == nil {
		return usageErr(fmt.Errorf("--backend %s: this conflictlab was built without the fake client libraries (they add ≈25 MB and more than double a cold build): build or run it with -tags fakes, as in: go run -tags fakes . sim --backend %s …", backend, backend))
	}
	if err := linkedFakes.Check(backend); err != nil {
		return usageErr(fmt.Errorf("--backend: %w, or all", err))
	}
	if backend == "all" {
		if err := checkFormat(output, "text", "json"); err != nil {
			return usageErr(fmt.Errorf("--backend all prints a comparison: %w", err))
		}
	}
	sc, sched, err := loadRace(src, schedule, seed, output)
	if err != nil {
		return err
	}
	fail := func(err error) error {
		if sched.Moves != nil {
			return usageErr(fmt.Errorf("--schedule: %w", err))
		}
		return invalidErr(fmt.Errorf("%s: %w", src.name(), err))
	}
	if backend == "all" {
		if err := linkedFakes.Compare(env.Stdout, sc, sched, output); err != nil {
			return fail(err)
		}
		return nil
	}
	o, skipped, err := linkedFakes.Run(backend, sc, sched)
	if err != nil {
		return fail(err)
	}
	for _, line := range skipped {
		fmt.Fprintln(env.Stderr, line)
	}
	return writeOutcome(env.Stdout, o, output)
}

func newExploreCmd(env Env) *cobra.Command {
	var (
		src     raceSource
		output  string
		limit   int
		timeout time.Duration
		memory  string
	)
	cmd := &cobra.Command{
		Use:   "explore (-f SCENARIO | --example NAME) [-o text|json] [--timeout D] [--max-memory SIZE]",
		Short: "Run every interleaving of a race and tally the outcomes",
		Long: `Runs every interleaving of the scenario's atomic steps and tallies the
outcomes (no-loss, lost, gave-up, requeued, unfinished), with one example
schedule for each that you can replay with 'conflictlab sim --schedule'.
When the scenario declares invariants, it also counts the interleavings
that end with one broken, with the first of them as an example.

An exploration is bounded: --max work (schedules played and states kept),
--timeout of time and --max-memory of heap growth, whichever comes first
(defaults: 1,000,000, 2m, 1GiB; 0 lifts the time or memory bound). A
race whose interleavings explode stops there, prints the tally of what it
reached (JSON: "truncated" or "cancelled"), and says on stderr which
bound stopped it and how to lift it.

Exit codes: 0 explored, 1 the scenario is invalid or cannot be read
(missing, not a regular file, over 1 MiB), 2 usage error.`,
		Example: `  conflictlab explore --example lost-update-unconditional
  conflictlab explore -f race.yaml -o json | jq .tally`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := checkFormat(output, "text", "json"); err != nil {
				return err
			}
			if limit < 0 {
				return usageErr(fmt.Errorf("--max must be positive"))
			}
			sc, err := src.load("explore")
			if err != nil {
				return err
			}
			if timeout < 0 {
				return usageErr(fmt.Errorf("--timeout must not be negative"))
			}
			maxMemory, err := budget.ParseBytes(memory)
			if err != nil {
				return usageErr(fmt.Errorf("--max-memory: %w", err))
			}
			ctx := cmd.Context()
			if ctx == nil {
				ctx = context.Background()
			}
			// The process does nothing else meanwhile: let the heap grow.
			restore := tuneGCForExplore()
			ctx, done := budget.Budget{Timeout: timeout, MaxMemory: maxMemory}.Start(ctx)
			r, err := explore.Explore(ctx, sc, explore.Options{MaxSchedules: limit})
			over := budget.Of(ctx)
			done()
			restore()
			if err != nil {
				return invalidErr(fmt.Errorf("%s: %w", src.name(), err))
			}
			if over != nil {
				lift := "--timeout 10m lifts it, --timeout 0 removes it"
				if over.Memory {
					lift = "--max-memory 4GiB lifts it, --max-memory 0 removes it"
				}
				fmt.Fprintf(env.Stderr, "conflictlab explore: stopped: %v, the bound of an exploration (%s); the tally covers only what it reached\n", over, lift)
			} else if r.Truncated {
				fmt.Fprintf(env.Stderr, "conflictlab explore: stopped after %d units of work, the bound of --max (--max %d lifts it); the tally covers only what it reached\n", limit, 10*limit)
			}
			if output == "json" {
				enc := json.NewEncoder(env.Stdout)
				enc.SetIndent("", "  ")
				return enc.Encode(r)
			}
			return report.ExploreText(env.Stdout, r)
		},
	}
	src.addFlags(cmd, "scenario file (YAML), or a level file (its race)")
	cmd.Flags().StringVarP(&output, "output", "o", "text", "text or json")
	cmd.Flags().IntVar(&limit, "max", explore.DefaultMaxSchedules, "stop after this much work: schedules played to their end and states explored")
	cmd.Flags().DurationVar(&timeout, "timeout", DefaultExploreTimeout, "stop after this long (0: no limit)")
	cmd.Flags().StringVar(&memory, "max-memory", budget.Bytes(DefaultExploreMemory), "stop once the heap has grown by this much: 512MiB, 2GiB (0: no limit)")
	return cmd
}

// The bounds of an exploration a person starts on this machine (explore,
// and the sandbox's e in the tutorial): long and large enough for any race
// of the course or the examples (the longest explores in under a second),
// short enough that one that explodes gives the terminal back.
const (
	DefaultExploreTimeout = 2 * time.Minute
	DefaultExploreMemory  = 1 << 30
)

// writeOutcome prints a race in the chosen format: the simulated and the
// live run print alike.
func writeOutcome(w io.Writer, o *race.Outcome, output string) error {
	switch output {
	case "json":
		report.Word(o)
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(o)
	case "markdown":
		return report.Markdown(w, o)
	case "svg":
		return report.SVG(w, o)
	}
	return report.Text(w, o)
}

// loadRace checks sim's flags and loads its scenario; the simulated and
// the live run share it.
func loadRace(src raceSource, schedule, seed, output string) (*scenario.Scenario, race.Schedule, error) {
	if !src.given() {
		return nil, race.Schedule{}, usageErr(fmt.Errorf("sim needs a scenario: -f FILE, or --example NAME (conflictlab examples lists them)"))
	}
	if schedule != "" && seed != "" {
		return nil, race.Schedule{}, usageErr(fmt.Errorf("--schedule and --seed choose the steps in two different ways: give one"))
	}
	sched, err := parseSchedule(schedule, seed)
	if err != nil {
		return nil, sched, err
	}
	if err := checkFormat(output, "text", "json", "markdown", "svg"); err != nil {
		return nil, sched, err
	}
	sc, err := src.load("sim")
	if err != nil {
		return nil, sched, err
	}
	return sc, sched, nil
}

func parseSchedule(schedule, seed string) (race.Schedule, error) {
	var s race.Schedule
	if seed != "" {
		n, err := strconv.ParseUint(seed, 10, 64)
		if errors.Is(err, strconv.ErrRange) {
			return s, usageErr(fmt.Errorf("--seed %s: out of range: want a whole number from 0 to %d", seed, uint64(math.MaxUint64)))
		}
		if err != nil {
			return s, usageErr(fmt.Errorf("--seed %q: want a whole number from 0 to %d", seed, uint64(math.MaxUint64)))
		}
		s.Seed = &n
	}
	if schedule != "" {
		// Counted before it is split: steps past the cap could never run.
		if n := strings.Count(schedule, ",") + 1; n > scenario.LimitSteps {
			return s, usageErr(fmt.Errorf("--schedule: %d steps: a race takes at most %d", n, scenario.LimitSteps))
		}
		for _, t := range strings.Split(schedule, ",") {
			t = strings.TrimSpace(t)
			if t == "" {
				return s, usageErr(fmt.Errorf("--schedule %q: empty step", schedule))
			}
			m, err := scenario.ParseMove(t)
			if err != nil {
				return s, usageErr(fmt.Errorf("--schedule: %w", err))
			}
			s.Moves = append(s.Moves, m)
		}
	}
	return s, nil
}

func checkFormat(got string, allowed ...string) error {
	for _, a := range allowed {
		if got == a {
			return nil
		}
	}
	return usageErr(fmt.Errorf("-o %q: want one of %s", got, strings.Join(allowed, ", ")))
}
