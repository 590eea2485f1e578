// Package challenges holds the sandbox's challenges: levels (package
// level) embedded in the binary, each a race with a "break it" goal (find
// an order of steps that meets it) or a "fix it" goal (change the fewest
// settings so that no order fails it), and its par, proven like a lesson's
// play step.
package challenges

import (
	"bytes"
	"embed"
	"fmt"
	"sync"

	yaml "go.yaml.in/yaml/v3"

	"github.com/conflictlab/conflictlab/level"
	"github.com/conflictlab/conflictlab/sandbox/draft"
)

//go:embed *.yaml
var files embed.FS

// Kind is what the learner has to do.
type Kind string

const (
	// Break: play an order of steps that meets the goal.
	Break Kind = "break"
	// Fix: change settings until no order fails the goal.
	Fix Kind = "fix"
)

// Challenge is one challenge: a level with an ID progress keeps its best
// under, and how hard it is.
type Challenge struct {
	ID string `yaml:"id"`
	// Difficulty is easy, medium or hard.
	Difficulty string `yaml:"level"`
	File       string `yaml:"file"`
	// The level: its title, question, hint, goal and race.
	*level.Level `yaml:"-"`
}

// Kind is the goal's kind.
func (c *Challenge) Kind() Kind {
	if c.Goal.IsBreak() {
		return Break
	}
	return Fix
}

// Par is the fewest moves (break) or changes (fix) that reach the goal.
func (c *Challenge) Par() int { return c.Goal.Par }

// Unit names what a score counts.
func (c *Challenge) Unit(n int) string { return Unit(c.Kind(), n) }

// Unit names what a score of a goal of kind k counts: "4 moves", "1 change".
func Unit(k Kind, n int) string {
	u := "move"
	if k == Fix {
		u = "change"
	}
	if n != 1 {
		u += "s"
	}
	return fmt.Sprintf("%d %s", n, u)
}

// Retired are the IDs of challenges the sandbox had and replaced with
// harder ones: progress that names them still imports (their bests are
// kept, and shown nowhere).
var Retired = []string{"break-lost-update", "fix-lost-update", "fix-shared-manager", "fix-status"}

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
		src, err := files.ReadFile(c.File)
		if err != nil {
			return nil, fmt.Errorf("challenges.yaml: %s: %w", c.ID, err)
		}
		if c.Level, err = level.Parse(c.File, src); err != nil {
			return nil, err
		}
		if c.Goal == nil {
			return nil, fmt.Errorf("%s: a challenge needs a goal", c.File)
		}
		if err := draft.Editable(c.Race); err != nil {
			return nil, fmt.Errorf("%s: %w", c.File, err)
		}
	}
	return out, nil
}
