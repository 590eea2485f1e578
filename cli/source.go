package cli

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/conflictlab/conflictlab/examples"
	"github.com/conflictlab/conflictlab/level"
	"github.com/conflictlab/conflictlab/sim/scenario"
)

// raceSource is where a command's scenario comes from: a file (-f) or an
// example shipped in the binary (--example), so the commands work outside
// a checkout of the repository too.
type raceSource struct{ file, example string }

func (s *raceSource) addFlags(cmd *cobra.Command, what string) {
	cmd.Flags().StringVarP(&s.file, "file", "f", "", what)
	cmd.Flags().StringVar(&s.example, "example", "", "an example shipped in the binary instead of a file (conflictlab examples lists them)")
}

// given reports whether a source was named.
func (s raceSource) given() bool { return s.file != "" || s.example != "" }

// name is how messages name the source.
func (s raceSource) name() string {
	if s.example != "" {
		return "examples/" + s.example + ".yaml"
	}
	return s.file
}

// load reads the scenario; cmd names the command in the usage message.
func (s raceSource) load(cmd string) (*scenario.Scenario, error) {
	switch {
	case s.file != "" && s.example != "":
		return nil, usageErr(fmt.Errorf("-f and --example both name a scenario: give one"))
	case s.example != "":
		if _, err := examples.Source(s.example); err != nil {
			return nil, usageErr(fmt.Errorf("--example: %w", err))
		}
		sc, err := examples.Load(s.example)
		if err != nil {
			return nil, invalidErr(err)
		}
		return sc, nil
	case s.file == "":
		return nil, usageErr(fmt.Errorf("%s needs a scenario: -f FILE, or --example NAME (conflictlab examples lists them)", cmd))
	}
	// A level file holds a race too (its goal is the sandbox's).
	l, err := level.Load(s.file)
	if err != nil {
		return nil, invalidErr(err)
	}
	return l.Race, nil
}
