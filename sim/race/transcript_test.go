package race_test

import (
	"bytes"
	"context"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/cockroachdb/datadriven"

	"github.com/conflictlab/conflictlab/sim/explore"
	"github.com/conflictlab/conflictlab/sim/race"
	"github.com/conflictlab/conflictlab/sim/report"
	"github.com/conflictlab/conflictlab/sim/scenario"
)

// TestTranscripts runs the race transcripts in testdata/races, the way
// etcd's raft interaction tests do: a readable script in, the timeline out.
// Regenerate with: go test ./sim/race -run TestTranscripts -rewrite
//
// Commands:
//
//	scenario            the input is a scenario file (YAML)
//	run [schedule=a,b] [seed=N]    plays a race, prints the text timeline
//	explore             tallies every interleaving
//	lost                prints just the lost fields, one per line
func TestTranscripts(t *testing.T) {
	datadriven.Walk(t, "testdata/races", func(t *testing.T, path string) {
		var sc *scenario.Scenario
		datadriven.RunTest(t, path, func(t *testing.T, d *datadriven.TestData) string {
			switch d.Cmd {
			case "scenario":
				s, err := scenario.Parse(d.Pos, []byte(d.Input))
				if err != nil {
					return "error: " + err.Error() + "\n"
				}
				sc = s
				return "ok\n"
			case "run", "lost":
				if sc == nil {
					d.Fatalf(t, "no scenario yet")
				}
				var sched race.Schedule
				for _, arg := range d.CmdArgs {
					switch arg.Key {
					case "schedule":
						moves, err := scenario.ParseMoves(strings.Split(arg.Vals[0], ","))
						if err != nil {
							d.Fatalf(t, "schedule: %v", err)
						}
						sched.Moves = moves
					case "seed":
						n, err := strconv.ParseUint(arg.Vals[0], 10, 64)
						if err != nil {
							d.Fatalf(t, "seed: %v", err)
						}
						sched.Seed = &n
					}
				}
				o, err := race.Run(sc, sched)
				if err != nil {
					return "error: " + err.Error() + "\n"
				}
				var b bytes.Buffer
				if d.Cmd == "lost" {
					fmt.Fprintf(&b, "verdict: %s\n", o.Verdict)
					for _, l := range o.Lost {
						fmt.Fprintf(&b, "lost %s (%s) erased by %s at step %d\n", l.Field, l.Owner, l.ErasedBy, l.ErasedAtStep)
					}
					for _, l := range o.Overwritten {
						fmt.Fprintf(&b, "overwritten %s (%s) by %s\n", l.Field, l.Owner, l.ErasedBy)
					}
					return b.String()
				}
				if err := report.Text(&b, o); err != nil {
					d.Fatalf(t, "%v", err)
				}
				return b.String()
			case "explore":
				r, err := explore.Explore(context.Background(), sc, explore.Options{})
				if err != nil {
					return "error: " + err.Error() + "\n"
				}
				var b bytes.Buffer
				if err := report.ExploreText(&b, r); err != nil {
					d.Fatalf(t, "%v", err)
				}
				return b.String()
			}
			d.Fatalf(t, "unknown command %s", d.Cmd)
			return ""
		})
	})
}
