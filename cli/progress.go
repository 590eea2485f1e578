package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/conflictlab/conflictlab/exercises"
	"github.com/conflictlab/conflictlab/lessons"
	"github.com/conflictlab/conflictlab/progress"
	"github.com/conflictlab/conflictlab/quiz"
	"github.com/conflictlab/conflictlab/sandbox/challenges"
	"github.com/conflictlab/conflictlab/userfile"
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

import checks the file against the course in use (the built-in one, or the
pack given with --lessons): known lessons, steps and quiz topics, numbers in
range, at most 1 MiB. It replaces your progress and keeps what it replaced
as progress.json.bak-N beside it. A tutorial still running keeps the import
and adds only what you do in it afterwards; so does a reset.

Exit codes: 0 done, 1 the file cannot be read (missing, not a regular file,
over 1 MiB) or is not valid progress, 2 usage error, 4 the progress could not
be written.`,
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
				return &exitError{ExitInternal, fmt.Errorf("%s: not reset: %w", s.Path(), err)}
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
				// A regular file, at most MaxImportBytes: never /dev/zero
				// or a FIFO. Unreadable is exit 1, as in every command.
				data, err = userfile.Read(args[0], progress.MaxImportBytes)
			}
			if err != nil {
				return invalidErr(err)
			}
			p, err := checkImport(cmd, data)
			if err != nil {
				return invalidErr(fmt.Errorf("%s: %w", args[0], err))
			}
			backup, err := s.Import(p)
			if err != nil {
				return &exitError{ExitInternal, fmt.Errorf("%s: not imported: %w", s.Path(), err)}
			}
			fmt.Fprintf(env.Stdout, "imported %d lesson(s) into %s\n", len(p.Lessons), s.Path())
			if backup != "" {
				fmt.Fprintf(env.Stdout, "the progress it replaced is kept in %s\n", backup)
			}
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
	return userfile.ReadStream("standard input", env.Stdin, progress.MaxImportBytes)
}

// checkImport decodes an imported file and checks it against the course
// in use (--lessons, or the built-in course), its quiz bank and the
// sandbox's challenges.
func checkImport(cmd *cobra.Command, data []byte) (*progress.Progress, error) {
	if len(data) > progress.MaxImportBytes {
		return nil, fmt.Errorf("%d bytes; a progress file is at most %d MiB", len(data), progress.MaxImportBytes>>20)
	}
	p, err := progress.Decode(data)
	if err != nil {
		var syn *json.SyntaxError
		if errors.As(err, &syn) {
			return nil, fmt.Errorf("line %d: %w", 1+bytes.Count(data[:min(int(syn.Offset), len(data))], []byte("\n")), err)
		}
		return nil, err
	}
	// Keys given twice and fields the format does not have: decoding
	// lets both pass, and either would import something else than the
	// file seems to say.
	if err := progress.Strict(data); err != nil {
		return nil, err
	}
	course, err := importCourse(cmd)
	if err != nil {
		return nil, err
	}
	return p, p.Check(course)
}

// importCourse describes the course in use for progress.Check.
func importCourse(cmd *cobra.Command) (*progress.Course, error) {
	var pack *lessons.Pack
	var err error
	if dir := LessonsDir(cmd); dir != "" {
		pack, err = loadPackDir(dir)
	} else {
		pack, err = lessons.Course()
	}
	if err != nil {
		return nil, fmt.Errorf("loading the course to check against: %w", err)
	}
	bank, err := quiz.Default()
	if err != nil {
		return nil, fmt.Errorf("loading the quiz bank: %w", err)
	}
	all, err := challenges.All()
	if err != nil {
		return nil, fmt.Errorf("loading the sandbox challenges: %w", err)
	}
	c := &progress.Course{Lessons: map[string][]bool{}, QuizTopics: map[string]bool{progress.QuizAll: true},
		QuizQuestions: len(bank.Questions), Challenges: map[string]bool{}}
	for _, l := range pack.Lessons {
		steps := make([]bool, len(l.Steps))
		for i, s := range l.Steps {
			steps[i] = s.Kind == lessons.Predict || s.Kind == lessons.Choose || s.Kind == lessons.Play
		}
		c.Lessons[l.ID] = steps
		c.QuizTopics[l.ID] = true
	}
	for _, t := range bank.Topics() {
		c.QuizTopics[t] = true
	}
	for _, ch := range all {
		c.Challenges[ch.ID] = true
	}
	for _, id := range challenges.Retired {
		c.Challenges[id] = true // an export from before they were replaced
	}
	exs, err := exercises.Course()
	if err != nil {
		return nil, fmt.Errorf("loading the exercises: %w", err)
	}
	c.Exercises = map[string]bool{}
	for _, x := range exs {
		c.Exercises[x.Dir] = true
	}
	return c, nil
}
