package challenges

import (
	"testing"

	"github.com/conflictlab/conflictlab/lessons/playgoal"
	"github.com/conflictlab/conflictlab/sim/race"
)

// TestEveryChallengeIsProven checks each shipped challenge as lessons
// validate checks a level: its par is the fewest moves or changes, the
// author's order or settings reach it, and the race does not already
// meet its goal.
func TestEveryChallengeIsProven(t *testing.T) {
	all, err := All()
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[Kind]int{}
	levels := map[string]int{}
	for _, c := range all {
		kinds[c.Kind()]++
		levels[c.Difficulty]++
		t.Run(c.ID, func(t *testing.T) {
			if c.Title == "" || c.Question == "" || c.Hint == "" {
				t.Fatalf("incomplete challenge: %+v", c.Level)
			}
			for _, p := range c.Prove() {
				t.Errorf("goal%s: %s", p.Field, p.Msg)
			}
			if c.Kind() == Break {
				w, err := race.New(c.Race)
				if err != nil {
					t.Fatal(err)
				}
				if playgoal.BreakMet(c.Goal, c.Race, w.Outcome()) {
					t.Fatal("the goal is met before any step")
				}
			}
		})
	}
	if kinds[Break] < 3 || kinds[Fix] < 3 {
		t.Fatalf("want at least three of each kind: %v", kinds)
	}
	if levels["easy"] == 0 || levels["hard"] < 2 {
		t.Fatalf("want easy ones and at least two hard ones: %v", levels)
	}
}

func TestRetiredAreNotShipped(t *testing.T) {
	all, err := All()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range all {
		for _, r := range Retired {
			if c.ID == r {
				t.Errorf("%s is shipped and retired", r)
			}
		}
	}
}
