package explore

import (
	"testing"

	"github.com/conflictlab/conflictlab/sim/scenario"
)

// TestExpectationsMatchReference: controllers that wait for their own
// writes (expectations: a step that first fills its own cache, and moves
// the clock on a timed lag) explore to the same tallies and examples as
// the plain enumeration, each beside the other — with a manual lag and
// with a timed one.
func TestExpectationsMatchReference(t *testing.T) {
	for _, lag := range []string{"manual", "5ms"} {
		src := `name: expect-` + lag + `
lag: ` + lag + `
objects:
- apiVersion: v1
  kind: ConfigMap
  metadata: {name: cm1}
  data: {n: "0"}
controllers:
- name: a
  write: create
  object:
    apiVersion: v1
    kind: ConfigMap
    metadata: {generateName: child-, labels: {app: web}}
  when: absent
  reconciles: 2
  expectations: true
- name: b
  target: ConfigMap/cm1
  mutations:
  - increment: data.n
  write: update
  reconciles: 2
  expectations: true
`
		sc, err := scenario.Parse("expect.yaml", []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		got, finished := sameAsReference(t, sc.Name, sc, 20_000)
		if !finished {
			t.Fatalf("%s: the reference does not finish in 20,000 schedules", sc.Name)
		}
		if got.Schedules < 2 {
			t.Fatalf("%s: %d schedules", sc.Name, got.Schedules)
		}
		t.Logf("%s: %d schedules, tally %v", sc.Name, got.Schedules, got.Tally)
	}
}
