package explore

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/conflictlab/conflictlab/sim/scenario"
)

// benchFiles are the explorer's benchmark races as files, for timing the
// whole process (`conflictlab explore -f sim/explore/testdata/race3x4.yaml`,
// BENCHMARKS.md "Explorer"): n controllers × 2·loops steps.
var benchFiles = []struct{ n, loops int }{{2, 3}, {3, 2}, {4, 2}}

func benchFile(n, loops int) string {
	return filepath.Join("testdata", fmt.Sprintf("race%dx%d.yaml", n, 2*loops))
}

// Each file is benchScenario(n, loops), so that the whole-process figures
// and the in-process benchmarks time the same race.
func TestBenchRaceFilesAreTheBenchmarksRaces(t *testing.T) {
	for _, c := range benchFiles {
		want, err := scenario.Marshal(benchScenario(c.n, c.loops).Scenario())
		if err != nil {
			t.Fatal(err)
		}
		path := benchFile(c.n, c.loops)
		got, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != string(want) {
			t.Errorf("%s is not benchScenario(%d, %d), which is:\n%s", path, c.n, c.loops, want)
			continue
		}
		sc, err := scenario.Load(path)
		if err != nil {
			t.Fatal(err)
		}
		again, err := scenario.Marshal(sc)
		if err != nil {
			t.Fatal(err)
		}
		if string(again) != string(got) {
			t.Errorf("%s does not read back as written:\n%s", path, again)
		}
	}
}
