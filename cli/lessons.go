package cli

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/conflictlab/conflictlab/lessons"
	"github.com/conflictlab/conflictlab/lessons/answerbias"
	"github.com/conflictlab/conflictlab/lessons/earned"
	"github.com/conflictlab/conflictlab/lessons/snippets"
	"github.com/conflictlab/conflictlab/lessons/validate"
	"github.com/conflictlab/conflictlab/level"
	"github.com/conflictlab/conflictlab/sim/race"
	"github.com/conflictlab/conflictlab/sim/scenario"
	"github.com/conflictlab/conflictlab/userfile"
)

// lessonsFlag is the root flag that names a lesson pack folder.
const lessonsFlag = "lessons"

// LessonsDir returns the folder given with the root flag --lessons, or ""
// when the built-in course is to be used. Any command of the tree (the
// tutorial screen included) can ask.
func LessonsDir(cmd *cobra.Command) string {
	if cmd == nil {
		return ""
	}
	f := cmd.Root().PersistentFlags().Lookup(lessonsFlag)
	if f == nil {
		return ""
	}
	return f.Value.String()
}

// LoadPack loads the lesson pack named by --lessons, or the built-in course
// when the flag is not given. It does not run the races: see validate.Check.
func LoadPack(cmd *cobra.Command) (*lessons.Pack, error) {
	dir := LessonsDir(cmd)
	if dir == "" {
		return lessons.Course()
	}
	return loadPackDir(dir)
}

func loadPackDir(dir string) (*lessons.Pack, error) {
	st, err := os.Stat(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%s: no such folder", dir)
	}
	if err != nil {
		return nil, err
	}
	if !st.IsDir() {
		return nil, fmt.Errorf("%s: not a folder (a lesson pack is a folder of lesson files)", dir)
	}
	p, err := lessons.LoadDir(dir)
	if err != nil {
		return nil, placeErrors(dir, err)
	}
	return p, nil
}

// lessonCommands registers the root flag --lessons and returns the
// commands that work on lessons and on the quiz.
func lessonCommands(root *cobra.Command, env Env) []*cobra.Command {
	root.PersistentFlags().String(lessonsFlag, "", "use the lesson pack in this folder instead of the built-in course")
	return []*cobra.Command{newLessonsCmd(env), newQuizCmd(env)}
}

func newLessonsCmd(env Env) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "lessons",
		Short: "List or validate lesson packs",
		Long: `Lesson packs are folders of lesson files (YAML) and the scenarios they race;
the built-in course is one. See docs/lessons-format.md.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return cmd.Help()
		},
	}
	cmd.AddCommand(newLessonsValidateCmd(env), newLessonsListCmd(env), newLessonsReportCmd(env))
	return cmd
}

func newLessonsValidateCmd(env Env) *cobra.Command {
	var (
		verbose, enforce bool
		levelText        string
	)
	cmd := &cobra.Command{
		Use:   "validate [DIR | LEVEL-FILE] [--level TEXT]",
		Short: "Load a lesson pack, run every race and check every claim",
		Long: `Loads every lesson of the pack in DIR (default: the folder given with --lessons,
or the built-in course), runs every scenario each step points to and checks
every claim the way the course's own test does: step claims must hold, a
correct option's claims must hold and a wrong option's must not, a choose
step's goal must be met exactly by its correct strategies, and a play step's
par must be the true minimum.

It also runs the earned-answer checks (docs/lessons-format.md, "Earned
answers"): what on the screen gives an answer away, which surface cue beats
chance, and how much a play step leaves to search — printed for every play
step. They are problems, as every other (the built-in course passes them
all); --enforce=false reports them as warnings, for a pack being written.

A pack's exercises (its folder exercises/, in the built-in exercises'
format) are proven too: every reference solution passes its check, in a
workspace in a temporary folder (this needs a Go toolchain; the built-in
exercises: conflictlab exercises check --solutions).

Given a level file instead of a folder, or a level's text with --level, it
proves the level as a play step is proven: its race runs in the sandbox,
the author's order (break it) or settings (fix it) reach the goal in par
moves or changes, and no fewer do.

Problems are reported one a line as FILE:LINE: field: message.

Exit codes: 0 every claim holds, 1 the pack has problems or cannot be read
(missing, a file not regular, over 1 MiB or outside the pack), 2 usage error.`,
		Example: `  conflictlab lessons validate examples/pack
  conflictlab lessons validate -v lessons/course
  conflictlab lessons validate --enforce=false my-pack`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			dir := LessonsDir(cmd)
			if len(args) == 1 {
				dir = args[0]
			}
			switch {
			case levelText != "" && len(args) == 1:
				return usageErr(fmt.Errorf("--level and %s each name what to validate: give one", args[0]))
			case levelText != "":
				return validateLevel(env, "--level", func() (*level.Level, error) { return level.Decode(levelText) })
			case len(args) == 1 && isFile(args[0]):
				return validateLevel(env, args[0], func() (*level.Level, error) { return level.Load(args[0]) })
			}
			var (
				p    *lessons.Pack
				err  error
				name = dir
				opts = validate.Options{Enforce: enforce, Scope: "the pack"}
			)
			if dir == "" {
				name = "built-in course"
				p, err = lessons.Course()
				opts.Course, opts.Scope = true, "the course"
			} else {
				p, err = loadPackDir(dir)
			}
			if err != nil {
				printErrors(env.Stderr, err)
				return invalidErr(fmt.Errorf("%s: the pack does not load", name))
			}
			if verbose {
				explainPack(env.Stdout, p)
			}
			place := func(err error) error {
				if dir != "" && err != nil {
					return placeErrors(dir, err)
				}
				return err
			}
			r := validate.Run(p, opts)
			// Warnings are printed, and do not fail the pack.
			if ws := errors.Join(r.Warnings...); ws != nil {
				printErrors(env.Stderr, place(ws))
			}
			printPlays(env.Stdout, dir, r.Plays)
			open := len(answerbias.Open(r.Earned.Findings))
			how := "warnings (--enforce=false; without it they are problems)"
			if enforce {
				how = "enforced"
			}
			fmt.Fprintf(env.Stdout, "earned answers: %s over %s, %d excused by a reviewed exception: %s\n",
				countOf(open, "finding"), countOf(r.Earned.Questions, "question"), len(r.Earned.Findings)-open, how)
			err = errors.Join(checkCode(p), errors.Join(r.Problems...))
			if err != nil {
				n := printErrors(env.Stderr, place(err))
				return invalidErr(fmt.Errorf("%s: %d problem(s)", name, n))
			}
			if dir != "" {
				if err := proveExercises(cmd.Context(), env, filepath.Join(dir, "exercises")); err != nil {
					return err
				}
			}
			st := packStats(p)
			fmt.Fprintf(env.Stdout, "%s: %s, %s, %s, %s, %s: every claim holds\n", name,
				countOf(len(p.Lessons), "lesson"), countOf(st.steps, "step"), countOf(st.questions, "question"),
				countOf(st.races, "race"), countOf(st.claims, "claim"))
			return nil
		},
	}
	cmd.Flags().BoolVarP(&verbose, "verbose", "v", false, "print what every race and every option's race produced")
	cmd.Flags().BoolVar(&enforce, "enforce", answerbias.Enforce, "fail on the earned-answer findings too (giveaways, surface cues, play steps with too little to search)")
	cmd.Flags().StringVar(&levelText, "level", "", "prove the level this line of text holds (clab1:…)")
	return cmd
}

// isFile reports whether path names something that is not a folder (a
// level file; a missing path is left to the pack's message).
func isFile(path string) bool {
	st, err := os.Stat(path)
	return err == nil && !st.IsDir()
}

// validateLevel proves a level: its race opens in the sandbox, and its
// goal's par is the fewest moves or changes.
func validateLevel(env Env, name string, load func() (*level.Level, error)) error {
	l, err := load()
	if err != nil {
		printErrors(env.Stderr, err)
		return invalidErr(fmt.Errorf("%s: not a level", name))
	}
	if err := sandboxable(l); err != nil {
		return invalidErr(fmt.Errorf("%s: %w", name, err))
	}
	if l.Goal == nil {
		fmt.Fprintf(env.Stdout, "%s: %s: a race to play, no goal to prove\n", name, l.Title)
		return nil
	}
	probs := l.Prove()
	for _, p := range probs {
		fmt.Fprintf(env.Stderr, "%s: goal%s: %s\n", name, p.Field, p.Msg)
	}
	if len(probs) > 0 {
		return invalidErr(fmt.Errorf("%s: %d problem(s)", name, len(probs)))
	}
	what := fmt.Sprintf("break it in %d moves (%s)", l.Goal.Par, strings.Join(l.Goal.Schedule, " "))
	if !l.Goal.IsBreak() {
		what = fmt.Sprintf("fix it with %d changes (%s)", l.Goal.Par, diffOf(l))
	}
	fmt.Fprintf(env.Stdout, "%s: %s: par proven: %s, and no fewer do it\n", name, l.Title, what)
	return nil
}

// diffOf is a fix level's answer: what its settings change.
func diffOf(l *level.Level) string {
	start := l.Goal.StartSettings(l.Race)
	var parts []string
	for _, part := range strings.Fields(l.Goal.Answer(l.Race).String()) {
		c, rest, _ := strings.Cut(part, ".")
		k, v, _ := strings.Cut(rest, "=")
		if start[c][lessons.KnobName(k)] != v {
			parts = append(parts, part)
		}
	}
	return strings.Join(parts, " ")
}

func newLessonsReportCmd(env Env) *cobra.Command {
	var write string
	var sandbox bool
	cmd := &cobra.Command{
		Use:   "report",
		Short: "The earned-answers report over the built-in course, quiz and sandbox challenges",
		Long: `Runs the earned-answer checks over the built-in course and the quiz bank, and
measures the room every play step and sandbox challenge leaves to search
(docs/lessons-format.md, "Earned answers"): the numbers per cue and per play
step, and every finding as FILE:LINE. Prints it as Markdown, or with -w
writes it into a page between its markers (docs/earned-answers.md, which a
test keeps current). Measuring the sandbox's fixes takes a minute or more;
--sandbox=false leaves the page's sandbox part as it is.`,
		Example: `  conflictlab lessons report -w docs/earned-answers.md
  conflictlab lessons report --sandbox=false`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			r, err := earned.Build(sandbox)
			if err != nil {
				printErrors(env.Stderr, err)
				return invalidErr(errors.New("the built-in content does not load"))
			}
			main := r.Markdown()
			var box string
			if sandbox {
				if box, err = r.SandboxMarkdown(); err != nil {
					return err
				}
			}
			if write == "" {
				fmt.Fprint(env.Stdout, main)
				if sandbox {
					fmt.Fprint(env.Stdout, "\n### Sandbox challenges\n\n"+box)
				}
				return nil
			}
			page, err := userfile.Read(write, lessons.MaxFileSize)
			if err != nil {
				return usageErr(err)
			}
			out, err := earned.Main.Replace(string(page), main)
			if err == nil && sandbox {
				out, err = earned.Sandbox.Replace(out, box)
			}
			if err != nil {
				return usageErr(fmt.Errorf("%s: %w", write, err))
			}
			if err := userfile.Overwrite(write, []byte(out)); err != nil {
				return usageErr(err)
			}
			fmt.Fprintf(env.Stdout, "%s: %s open over %s and %s\n", write, countOf(len(r.Open()), "finding"),
				countOf(r.Course.Earned.Questions, "course question"), countOf(r.Quiz.Questions, "quiz question"))
			return nil
		},
	}
	cmd.Flags().StringVarP(&write, "write", "w", "", "write the report into this page, between its markers")
	cmd.Flags().BoolVar(&sandbox, "sandbox", true, "measure the sandbox's challenges too")
	return cmd
}

// printPlays prints the room every play step leaves to search, one a line
// as FILE:LINE: field: numbers, and what rule it breaks.
func printPlays(w io.Writer, dir string, plays []validate.Play) {
	for _, pl := range plays {
		file := pl.File
		if dir != "" {
			file = filepath.Join(dir, file)
		}
		verdict := "ok"
		if probs := pl.Room.Problems(); len(probs) > 0 {
			verdict = "✗ " + strings.Join(probs, "; ")
		}
		fmt.Fprintf(w, "%s:%d: %s: %s — %s\n", file, pl.Line, pl.Field, pl.Room, verdict)
	}
}

func newLessonsListCmd(env Env) *cobra.Command {
	return &cobra.Command{
		Use:   "list [DIR]",
		Short: "List the lessons of a pack",
		Args:  cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			var (
				p   *lessons.Pack
				err error
			)
			if len(args) == 1 {
				p, err = loadPackDir(args[0])
			} else {
				p, err = LoadPack(cmd)
			}
			if err != nil {
				printErrors(env.Stderr, err)
				return invalidErr(errors.New("the pack does not load"))
			}
			for i, l := range p.Lessons {
				fmt.Fprintf(env.Stdout, "%2d  %-22s %-36s %2d steps  %s\n", i+1, l.ID, l.Title, len(l.Steps), strings.Join(l.Concepts, ", "))
			}
			return nil
		},
	}
}

// checkCode reports every code: name that is neither a built-in snippet
// nor a file of the pack.
func checkCode(p *lessons.Pack) error {
	var errs []error
	for _, l := range p.Lessons {
		for i, s := range l.Steps {
			field := fmt.Sprintf("steps[%d]", i)
			if s.Code != "" {
				if _, err := snippets.Resolve(s.Code, p); err != nil {
					errs = append(errs, &lessons.Error{File: l.File, Line: s.Line, Field: field + ".code", Msg: err.Error()})
				}
			}
			for k, o := range s.Options {
				if o.Code == "" {
					continue
				}
				if _, err := snippets.Resolve(o.Code, p); err != nil {
					errs = append(errs, &lessons.Error{File: l.File, Line: o.Line, Field: fmt.Sprintf("%s.options[%d].code", field, k), Msg: err.Error()})
				}
			}
		}
	}
	return errors.Join(errs...)
}

type packCounts struct{ steps, questions, races, claims int }

func packStats(p *lessons.Pack) packCounts {
	var s packCounts
	for _, l := range p.Lessons {
		for _, st := range l.Steps {
			s.steps++
			if st.Kind != lessons.Read {
				s.questions++
			}
			if st.Race != nil {
				s.races++
			}
			s.claims += len(st.Claims)
			for _, o := range st.Options {
				s.claims += len(o.Claims)
			}
		}
	}
	return s
}

// placeErrors puts dir in front of the file names of lesson and scenario
// errors, so that they read as paths from the working directory.
func placeErrors(dir string, err error) error {
	var out []error
	for _, e := range flattenErrors(err) {
		var le *lessons.Error
		var se *scenario.Error
		switch {
		case errors.As(e, &le):
			c := *le
			c.File = filepath.Join(dir, c.File)
			if c.Line == 0 {
				// YAML syntax errors carry their line in the message.
				if m := lessonYAMLLine.FindStringSubmatch(c.Msg); m != nil {
					c.Line, _ = strconv.Atoi(m[1])
					c.Msg = m[2]
				}
			}
			out = append(out, &c)
		case errors.As(e, &se):
			c := *se
			c.File = filepath.Join(dir, c.File)
			out = append(out, &c)
		default:
			out = append(out, e)
		}
	}
	return errors.Join(out...)
}

// lessonYAMLLine finds the line yaml.v3 puts in its messages ("line 12: …").
var lessonYAMLLine = regexp.MustCompile(`^line (\d+): (.*)$`)

// flatten undoes errors.Join and scenario.ErrorList, depth first.
func flattenErrors(err error) []error {
	if err == nil {
		return nil
	}
	if l, ok := err.(scenario.ErrorList); ok {
		out := make([]error, len(l))
		for i, e := range l {
			out[i] = e
		}
		return out
	}
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		var out []error
		for _, e := range j.Unwrap() {
			out = append(out, flattenErrors(e)...)
		}
		return out
	}
	return []error{err}
}

// printErrors writes one problem a line and returns how many there were.
func printErrors(w io.Writer, err error) int {
	errs := flattenErrors(err)
	for _, e := range errs {
		fmt.Fprintln(w, e)
	}
	return len(errs)
}

// explainPack prints, for every race of the pack, what it produced: the
// author's view of the solver's work.
func explainPack(w io.Writer, p *lessons.Pack) {
	for _, l := range p.Lessons {
		fmt.Fprintf(w, "%s (%s)\n", l.ID, l.File)
		for i, s := range l.Steps {
			if s.Race == nil {
				continue
			}
			fmt.Fprintf(w, "  steps[%d] %s %q · %s", i, s.Kind, s.Title, s.Race.Scenario)
			if len(s.Race.Schedule) > 0 {
				fmt.Fprintf(w, " · schedule %s", strings.Join(s.Race.Schedule, ","))
			}
			fmt.Fprintln(w)
			if s.Kind == lessons.Choose {
				for k := range s.Options {
					o := &s.Options[k]
					out, err := p.Run(s, o)
					fmt.Fprintf(w, "    %-3s %-14s %s\n", correctMark(o.Correct), o.ID, describeOutcome(out, err))
				}
				continue
			}
			out, err := p.Run(s, nil)
			fmt.Fprintf(w, "    race: %s\n", describeOutcome(out, err))
		}
	}
}

func countOf(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

func correctMark(correct bool) string {
	if correct {
		return "(+)"
	}
	return "(-)"
}

func describeOutcome(o *race.Outcome, err error) string {
	if err != nil {
		return "error: " + err.Error()
	}
	var parts []string
	parts = append(parts, string(o.Verdict))
	for _, l := range o.Lost {
		parts = append(parts, "lost "+l.Field+" ("+l.Owner+")")
	}
	for _, c := range o.Controllers {
		parts = append(parts, fmt.Sprintf("%s:%s req=%d 409=%d", c.Name, c.Status, c.Stats.Requests, c.Stats.Conflicts))
	}
	return strings.Join(parts, " · ")
}
