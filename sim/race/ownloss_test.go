package race_test

import (
	"strings"
	"testing"

	"github.com/conflictlab/conflictlab/sim/race"
	"github.com/conflictlab/conflictlab/sim/report"
	"github.com/conflictlab/conflictlab/sim/scenario"
)

// A write's own change that the server's object does not show is not
// always "the write succeeded but the server's object does not show it",
// nor a stale read (issue 12): the report says what happened. The same
// races are in conformance/testdata/measured, compared with v1.37.2.
func TestOwnLossExplained(t *testing.T) {
	for _, c := range []struct {
		name, yaml string
		verdict    race.Verdict
		lost       string // a substring of the one lost field's reason; "" for none
		overwrite  string // a substring of the one overwritten field's reason; "" for none
	}{
		{
			name: "a removed field the server defaults comes back: overwritten by the server, not lost",
			yaml: `
name: defaulted
schedule: [trim, trim]
objects:
- apiVersion: apps/v1
  kind: Deployment
  metadata: {name: web}
  spec:
    revisionHistoryLimit: 3
    selector: {matchLabels: {app: web}}
    template:
      metadata: {labels: {app: web}}
      spec: {containers: [{name: app, image: "nginx:1.27"}]}
controllers:
- name: trim
  target: Deployment/web
  mutations:
  - remove: spec.revisionHistoryLimit
  write: merge-patch
`,
			verdict:   race.VerdictNoLoss,
			overwrite: "the server defaulted it to 10",
		},
		{
			name: "an increment past 2^53 rounded by the request builder, after a live read: not a stale read",
			yaml: `
name: rounded
schedule: [a, a]
objects:
- apiVersion: oracle.example.com/v1
  kind: Widget
  metadata: {name: w1}
  spec: {size: 9007199254740992}
controllers:
- name: a
  target: Widget/w1
  read: live
  mutations:
  - increment: spec.size
  write: merge-patch
  withRV: true
`,
			verdict: race.VerdictLost,
			lost:    "a read the live version (RV 101: 9007199254740992) and computed 9007199254740993, but its request carried 9007199254740992",
		},
		{
			name: "managedFields: [] is a reset the server carries out, not a loss",
			yaml: `
name: reset
schedule: [reset, reset]
objects:
- apiVersion: v1
  kind: ConfigMap
  metadata: {name: cm1}
  data: {x: "1"}
controllers:
- name: reset
  target: ConfigMap/cm1
  mutations:
  - set: {path: metadata.managedFields, value: []}
  - set: {path: data.y, value: "2"}
  write: update
`,
			verdict:   race.VerdictNoLoss,
			overwrite: "the server reset them",
		},
	} {
		t.Run(c.name, func(t *testing.T) {
			sc, err := scenario.Parse("race.yaml", []byte(c.yaml))
			if err != nil {
				t.Fatal(err)
			}
			o, err := race.Run(sc, race.Schedule{})
			if err != nil {
				t.Fatal(err)
			}
			if o.Verdict != c.verdict {
				t.Errorf("verdict %s, want %s (lost %v)", o.Verdict, c.verdict, o.Lost)
			}
			check := func(what string, ls []race.Loss, want string) {
				if want == "" {
					if len(ls) != 0 {
						t.Errorf("%s: %v, want none", what, ls)
					}
					return
				}
				if len(ls) != 1 || !strings.Contains(report.Reason(ls[0]), want) {
					t.Errorf("%s: %v, want one whose reason says %q", what, ls, want)
				}
				for _, l := range ls {
					for _, wrong := range []string{"stale read", "does not show it"} {
						if strings.Contains(report.Reason(l), wrong) {
							t.Errorf("%s blames %q: %s", what, wrong, report.Reason(l))
						}
					}
				}
			}
			check("lost", o.Lost, c.lost)
			check("overwritten", o.Overwritten, c.overwrite)
		})
	}
}
