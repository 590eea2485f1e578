// Package challenges holds the sandbox's challenges: "break it" (find a
// schedule that loses a field) and "fix it" (change the fewest settings so
// that no schedule loses anything), each an ordinary scenario file plus a
// line of goal, a hint and the par score, embedded in the binary.
package challenges

import (
	"bytes"
	"embed"
	"fmt"
	"sync"

	yaml "go.yaml.in/yaml/v3"

	"github.com/conflictlab/conflictlab/sandbox/draft"
	"github.com/conflictlab/conflictlab/sim/explore"
	"github.com/conflictlab/conflictlab/sim/race"
	"github.com/conflictlab/conflictlab/sim/scenario"
)

//go:embed *.yaml
var files embed.FS

// Kind is what the learner has to do.
type Kind string

const (
	// Break: play a schedule whose outcome loses a field.
	Break Kind = "break"
	// Fix: change settings until no schedule loses or gives up.
	Fix Kind = "fix"
)

// Challenge is one challenge.
type Challenge struct {
	ID    string `yaml:"id"`
	Title string `yaml:"title"`
	Kind  Kind   `yaml:"kind"`
	// Level is easy, medium or hard.
	Level string `yaml:"level"`
	File  string `yaml:"file"`
	Goal  string `yaml:"goal"`
	Hint  string `yaml:"hint"`
	// Par is the best possible score: the fewest steps that lose a field
	// (break), the fewest settings changed (fix).
	Par int `yaml:"par"`
	// Solution is a schedule (break) or CONTROLLER.SETTING=VALUE changes
	// (fix) that wins with the par score; the tests check it.
	Solution []string `yaml:"solution"`
	// Scenario is the starting race.
	Scenario *scenario.Scenario `yaml:"-"`
}

// Unit names what a score counts.
func (c *Challenge) Unit(n int) string {
	u := "turn"
	if c.Kind == Fix {
		u = "change"
	}
	if n != 1 {
		u += "s"
	}
	return fmt.Sprintf("%d %s", n, u)
}

var (
	once sync.Once
	all  []*Challenge
	err  error
)

// All returns the challenges in order, parsed once.
func All() ([]*Challenge, error) {
	once.Do(func() { all, err = load() })
	return all, err
}

func load() ([]*Challenge, error) {
	data, err := files.ReadFile("challenges.yaml")
	if err != nil {
		return nil, err
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	var out []*Challenge
	if err := dec.Decode(&out); err != nil {
		return nil, fmt.Errorf("challenges.yaml: %w", err)
	}
	seen := map[string]bool{}
	for _, c := range out {
		if seen[c.ID] {
			return nil, fmt.Errorf("challenges.yaml: two challenges are called %s", c.ID)
		}
		seen[c.ID] = true
		if c.Kind != Break && c.Kind != Fix {
			return nil, fmt.Errorf("challenges.yaml: %s: kind %q (want break or fix)", c.ID, c.Kind)
		}
		src, err := files.ReadFile(c.File)
		if err != nil {
			return nil, fmt.Errorf("challenges.yaml: %s: %w", c.ID, err)
		}
		if c.Scenario, err = scenario.Parse(c.File, src); err != nil {
			return nil, err
		}
		if err := draft.Editable(c.Scenario); err != nil {
			return nil, fmt.Errorf("%s: %w", c.File, err)
		}
	}
	return out, nil
}

// Broken reports whether a run so far wins a break challenge.
func Broken(o *race.Outcome) bool { return o.Verdict == race.VerdictLost }

// Fixed judges a fix attempt from the explorer's tally: every interleaving
// must end with every change landed (requeued is fine), and the search
// must have covered them all. why says what is still wrong.
func Fixed(r *explore.Result) (ok bool, why string) {
	switch {
	case r.Cancelled:
		return false, "the check was cancelled before it saw every interleaving"
	case r.Truncated:
		return false, fmt.Sprintf("the race has more than %d interleavings: make it smaller", r.Schedules)
	}
	for _, v := range []race.Verdict{race.VerdictLost, race.VerdictGaveUp, race.VerdictUnfinished} {
		if n := r.Tally[v]; n > 0 {
			return false, fmt.Sprintf("%d of %d interleavings end %s", n, r.Schedules, v)
		}
	}
	return true, ""
}
