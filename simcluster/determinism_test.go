package simcluster_test

import (
	"context"
	"encoding/json"
	"runtime"
	"testing"

	"github.com/conflictlab/conflictlab/sim/race"
	"github.com/conflictlab/conflictlab/simcluster"
)

// A run is a function of the code and the schedule: the same schedule
// gives the same outcome, byte for byte, however many threads the runtime
// has and however often it is played (go test -race runs this too).
func TestRunIsAFunctionOfTheSchedule(t *testing.T) {
	races := map[string]*simcluster.Race{
		"six calls":           twoCoderRace(t, sixCalls, nil, simcluster.Options{}),
		"retrying increments": twoCoderRace(t, retryingIncrements, counting, simcluster.Options{}),
	}
	for name, rc := range races {
		for _, procs := range []int{1, 4} {
			prev := runtime.GOMAXPROCS(procs)
			for seed := uint64(0); seed < 4; seed++ {
				var first []byte
				for i := 0; i < 5; i++ {
					s := seed
					run, err := rc.Run(context.Background(), race.Schedule{Seed: &s})
					if err != nil {
						t.Fatal(err)
					}
					b, err := json.Marshal(run.Outcome)
					if err != nil {
						t.Fatal(err)
					}
					if first == nil {
						first = b
						continue
					}
					if string(b) != string(first) {
						t.Fatalf("%s, GOMAXPROCS %d, seed %d: play %d differs from the first:\n%s\n%s", name, procs, seed, i+1, first, b)
					}
				}
			}
			runtime.GOMAXPROCS(prev)
		}
	}
}

// The exploration's tally and examples do not depend on how many runs go
// on at once, nor on which finished first.
func TestExplorationIsTheSameWithAnyWorkers(t *testing.T) {
	var want *simcluster.Exploration
	for _, workers := range []int{1, 3, 8} {
		x, err := twoCoderRace(t, retryingIncrements, counting, simcluster.Options{Workers: workers}).Explore(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		x.Replays = 0
		if want == nil {
			want = x
			continue
		}
		a, _ := json.Marshal(want)
		b, _ := json.Marshal(x)
		if string(a) != string(b) {
			t.Fatalf("workers %d:\n%s\nworkers 1:\n%s", workers, b, a)
		}
	}
}
