package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/conflictlab/conflictlab/exercises"
	"github.com/conflictlab/conflictlab/exercises/workspace"
	"github.com/conflictlab/conflictlab/progress"
)

// DefaultExercisesDir is where `exercises init` writes without a DIR.
const DefaultExercisesDir = "conflictlab-exercises"

func newExercisesCmd(env Env) *cobra.Command {
	var dir string
	cmd := &cobra.Command{
		Use:   "exercises [init [DIR] | check [N]]",
		Short: "Write the controller code yourself: exercises proven over every interleaving",
		Long: `Code exercises, as rustlings does them: 'exercises init DIR' writes them as a
Go module you open in your editor; each is a Go file with a function to
complete, the races it must survive and what its check proves. Your code
uses the real controller-runtime and client-go clients, which talk to the
simulator; the check races it over every interleaving.

With no subcommand, in a workspace (the folder, or --dir), it opens the
exercises screen: it watches your files, re-checks on every save and shows
compile errors as FILE:LINE or the verdict, the losing interleaving in the
race view, a hint one key away and the solution once you pass.

It needs a Go toolchain (the one that ran 'go run .' will do). init
resolves the modules the exercises build with once, through the Go module
proxy; every check after that builds offline, from Go's module cache.`,
		Example: `  conflictlab exercises init ~/clab-exercises
  cd ~/clab-exercises && conflictlab exercises
  conflictlab exercises check 1
  conflictlab exercises check --solutions`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			ws, err := workspace.Find(dir)
			if err != nil {
				return invalidErr(err)
			}
			if !env.IsTerminal() {
				return &exitError{ExitNoTTY, fmt.Errorf("the exercises screen needs a terminal: use 'conflictlab exercises check' in scripts")}
			}
			return exercisesScreen(cmd, env, ws)
		},
	}
	cmd.Flags().StringVar(&dir, "dir", ".", "the workspace (or a folder inside it)")
	cmd.AddCommand(newExercisesInitCmd(env), newExercisesCheckCmd(env))
	return cmd
}

func newExercisesInitCmd(env Env) *cobra.Command {
	return &cobra.Command{
		Use:   "init [DIR]",
		Short: "Write the exercises as a Go module in DIR (default " + DefaultExercisesDir + ")",
		Long: `Writes the exercises into DIR (created; it must be empty, or a workspace
already: then conflictlab's part of it is brought up to date and missing
exercises are added, your files are left as they are), with a README, and
runs 'go mod tidy' there once: it may fetch modules through the Go module
proxy. Every check after that builds offline.

Exit codes: 0 written, 1 DIR is not empty or go failed, 2 usage.`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			dir := DefaultExercisesDir
			if len(args) == 1 {
				dir = args[0]
			}
			all, err := exercises.Course()
			if err != nil {
				return &exitError{ExitInternal, err}
			}
			src, err := sourceFS(env)
			if err != nil {
				return &exitError{ExitInternal, err}
			}
			err = workspace.Init(cmd.Context(), dir, all, workspace.Options{
				Source: src,
				Log:    func(s string) { fmt.Fprintln(env.Stderr, s) },
			})
			if err != nil {
				return invalidErr(err)
			}
			fmt.Fprintf(env.Stdout, "wrote %d exercises in %s\nnext: cd %s, open it in your editor, and run conflictlab exercises (or conflictlab exercises check 1)\n", len(all), dir, dir)
			return nil
		},
	}
}

func newExercisesCheckCmd(env Env) *cobra.Command {
	var (
		dir, output string
		solutions   bool
	)
	cmd := &cobra.Command{
		Use:   "check [N]",
		Short: "Check exercise N (a number or a name; default every one, in order)",
		Long: `Runs the check of exercise N in the workspace (the folder, or --dir) with
go test, offline (GOPROXY=off): compile errors as FILE:LINE, or the verdict
over every interleaving and the losing run's timeline. With no N, checks
every exercise in order and stops at the first that fails. A pass is kept
in your progress.

--solutions proves every reference solution instead, in a workspace of its
own in a temporary folder (an instructor's check).

The first check of a workspace builds the exercises' dependencies (minutes
on a cold build cache); it says how far it is.

Exit codes: 0 it passes, 1 it fails (or does not compile), 2 usage.`,
		Example: `  conflictlab exercises check 1
  conflictlab exercises check add-finalizer -o json
  conflictlab exercises check --solutions`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := checkFormat(output, "text", "json"); err != nil {
				return err
			}
			all, err := exercises.Course()
			if err != nil {
				return &exitError{ExitInternal, err}
			}
			todo := all
			if len(args) == 1 {
				x, err := exercises.Find(all, args[0])
				if err != nil {
					return usageErr(err)
				}
				todo = []*exercises.Exercise{x}
			}
			ctx := cmd.Context()
			if solutions {
				return proveSolutions(ctx, env, todo, output == "json")
			}
			ws, err := workspace.Find(dir)
			if err != nil {
				return invalidErr(err)
			}
			return runChecks(ctx, env, ws, todo, output == "json", true)
		},
	}
	cmd.Flags().StringVar(&dir, "dir", ".", "the workspace (or a folder inside it)")
	cmd.Flags().StringVarP(&output, "output", "o", "text", "text or json")
	cmd.Flags().BoolVar(&solutions, "solutions", false, "prove every reference solution (in a temporary workspace)")
	return cmd
}

// checkReport is check's JSON: every exercise checked, in order.
type checkReport struct {
	Pass    bool                `json:"pass"`
	Results []*workspace.Result `json:"results"`
}

// runChecks checks each exercise in order, stopping at the first that
// fails; record keeps each pass in the learner's progress.
func runChecks(ctx context.Context, env Env, ws string, todo []*exercises.Exercise, asJSON, record bool) error {
	rep := checkReport{Pass: true}
	for _, x := range todo {
		res, err := workspace.Check(ctx, ws, x, workspace.CheckOptions{Progress: buildProgress(env.Stderr)})
		if err != nil {
			return invalidErr(err)
		}
		rep.Results = append(rep.Results, res)
		if !asJSON {
			printCheck(env.Stdout, x, res)
		}
		if !res.Pass {
			rep.Pass = false
			break
		}
		if record {
			recordPass(env, x.Dir)
		}
	}
	if asJSON {
		enc := json.NewEncoder(env.Stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(rep); err != nil {
			return err
		}
	}
	if !rep.Pass {
		return &exitError{ExitInvalid, errors.New("the check fails")}
	}
	return nil
}

// printCheck is one check in words.
func printCheck(w io.Writer, x *exercises.Exercise, res *workspace.Result) {
	head := fmt.Sprintf("%d %s — %s", x.Number, x.Dir, x.Title)
	switch {
	case len(res.Compile) > 0:
		fmt.Fprintf(w, "✗ %s: does not compile\n", head)
		for _, d := range res.Compile {
			fmt.Fprintf(w, "  %s\n", d)
		}
	case res.Verdict != nil:
		mark := "✓"
		if !res.Pass {
			mark = "✗"
		}
		fmt.Fprintf(w, "%s %s (%.1f s)\n", mark, head, float64(res.Millis)/1000)
		for _, l := range strings.Split(strings.TrimRight(res.Verdict.Report, "\n"), "\n") {
			fmt.Fprintf(w, "  %s\n", l)
		}
	default:
		fmt.Fprintf(w, "✗ %s: the check did not run\n%s\n", head, res.Output)
	}
}

// buildProgress prints the cold build's progress on one line of w.
func buildProgress(w io.Writer) func(built, total int) {
	last := -10
	return func(built, total int) {
		if total == 0 {
			return
		}
		pct := built * 100 / total
		if pct/10 == last/10 {
			return
		}
		last = pct
		fmt.Fprintf(w, "first check: building the exercises' dependencies, %d of %d packages (once per workspace)\n", built, total)
	}
}

// recordPass keeps a passed exercise in the learner's progress; a
// progress file that cannot be written costs only the record.
func recordPass(env Env, id string) {
	path, err := progress.DefaultPath(env.Getenv)
	if err != nil {
		return
	}
	s := progress.Open(path)
	p, _ := s.Load()
	if p.RecordExercise(id) {
		if err := s.Save(p); err != nil {
			fmt.Fprintf(env.Stderr, "conflictlab: progress not saved: %v\n", err)
		}
	}
}

// sourceFS is the source the workspace builds with: the binary's own, or
// the checkout above the working directory (tests).
func sourceFS(env Env) (fs.FS, error) {
	if env.Source != nil {
		return env.Source, nil
	}
	wd, err := os.Getwd()
	if err != nil {
		return nil, err
	}
	for d := wd; ; d = filepath.Dir(d) {
		if b, err := os.ReadFile(filepath.Join(d, "go.mod")); err == nil && strings.HasPrefix(string(b), "module github.com/conflictlab/conflictlab\n") {
			return os.DirFS(d), nil
		}
		if filepath.Dir(d) == d {
			return nil, errors.New("this build of conflictlab carries no source for the exercises (build it with go build or go install from the module's root)")
		}
	}
}

// proveExercises proves the exercises of a pack (dir holds them; none is
// fine): each reference solution passes its check, in a workspace of its
// own in a temporary folder.
func proveExercises(ctx context.Context, env Env, dir string) error {
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return nil
	}
	all, err := exercises.Load(os.DirFS(dir))
	if err != nil {
		return invalidErr(fmt.Errorf("%s: %w", dir, err))
	}
	if len(all) == 0 {
		return nil
	}
	fmt.Fprintf(env.Stdout, "%s: proving %d exercises' solutions\n", dir, len(all))
	return proveSolutions(ctx, env, all, false)
}

// proveSolutions writes the exercises' solutions into a workspace in a
// temporary folder and checks each.
func proveSolutions(ctx context.Context, env Env, all []*exercises.Exercise, asJSON bool) error {
	tmp, err := os.MkdirTemp("", "conflictlab-solutions-*")
	if err != nil {
		return &exitError{ExitInternal, err}
	}
	defer os.RemoveAll(tmp)
	src, err := sourceFS(env)
	if err != nil {
		return &exitError{ExitInternal, err}
	}
	ws := filepath.Join(tmp, "solutions")
	err = workspace.Init(ctx, ws, all, workspace.Options{Source: src, Solutions: true, Log: func(s string) { fmt.Fprintln(env.Stderr, s) }})
	if err != nil {
		return invalidErr(err)
	}
	return runChecks(ctx, env, ws, all, asJSON, false)
}
