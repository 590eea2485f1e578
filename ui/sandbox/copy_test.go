package sandbox

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/conflictlab/conflictlab/sandbox/draft"
	"github.com/conflictlab/conflictlab/sim/controller"
	"github.com/conflictlab/conflictlab/sim/scenario"
)

// staleReport is a race whose controller copies fields of the copy it
// read into status, as the course's generation lessons do.
const staleReport = `name: stale-report
lag: manual
objects:
- apiVersion: oracle.example.com/v1
  kind: Widget
  metadata: {name: w1}
  spec: {size: 1}
controllers:
- name: user
  target: Widget/w1
  read: live
  mutations:
  - set: {path: spec.size, value: 3}
  write: update
- name: ctl
  target: Widget/w1
  read: lister
  mutations:
  - copy: {from: spec.size, path: status.readyReplicas}
  - copy: {from: metadata.generation, path: status.observedGeneration}
  write: merge-patch
  subresource: status
schedule: [user, user, ctl, ctl]
`

// TestCopyMutationsSurviveEditSaveAndLoad: a file's copy mutations are
// shown in the editor's syntax, can be retyped and added there, are
// written back as copy (with a when) by a save, and come back the same
// when the saved file is loaded into another sandbox.
func TestCopyMutationsSurviveEditSaveAndLoad(t *testing.T) {
	sc, err := scenario.Parse("stale-report.yaml", []byte(staleReport))
	if err != nil {
		t.Fatal(err)
	}
	d := newDriver(t, nil)
	open(t, d, sc)
	if schedule(d) != "user user ctl ctl" {
		t.Fatalf("the file's schedule did not replay: %q", schedule(d))
	}
	d.Press("shift+tab")
	rowOf(t, d, "ctl", "change 2")
	must(t, d.View(), "change 1      copy status.readyReplicas from spec.size",
		"change 2      copy status.observedGeneration from metadata.generation")
	// Retype change 2 with a condition, and add a third copy.
	d.Press("enter", "ctrl+u")
	typeText(d, "copy status.observedGeneration from spec.size")
	d.Press("enter")
	must(t, d.View(), "change 2      copy status.observedGeneration from spec.size")
	d.Press("enter", "end")
	typeText(d, " if status.phase = null")
	d.Press("enter")
	rowOf(t, d, "ctl", "+ change")
	d.Press("enter")
	typeText(d, "copy status.message from metadata.name")
	d.Press("enter")
	if d.View(); sb(d).CapturesKeys() {
		t.Fatalf("the new change was refused:\n%s", d.View())
	}
	want := []string{
		"copy status.readyReplicas from spec.size",
		"copy status.observedGeneration from spec.size if status.phase = null",
		"copy status.message from metadata.name",
	}
	shown := func(sc *scenario.Scenario) string {
		var got []string
		for _, mu := range sc.Controllers[1].Mutations {
			got = append(got, draft.FormatMutation(mu))
		}
		return strings.Join(got, "\n")
	}
	if got := shown(sb(d).Scenario()); got != strings.Join(want, "\n") {
		t.Fatalf("edited:\n%s\nwant\n%s", got, strings.Join(want, "\n"))
	}
	// Run it: ctl's cache has not seen the resize, so what it copies is
	// the old size.
	d.Press("tab", "1", "1", "2", "2")
	if schedule(d) != "user user ctl ctl" {
		t.Fatalf("schedule %q:\n%s", schedule(d), d.View())
	}
	ran := []string{"+ status.readyReplicas: 1", "+ status.observedGeneration: 1", `+ status.message: "w1"`,
		"decided on stale data"}
	must(t, d.View(), ran...)

	path := filepath.Join(t.TempDir(), "race.yaml")
	d.Press("s", "ctrl+u")
	typeText(d, path)
	d.Press("enter")
	must(t, d.View(), "saved to "+path)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range []string{
		"- copy: {from: spec.size, path: status.readyReplicas}",
		"- copy: {from: spec.size, path: status.observedGeneration}",
		"when: {path: status.phase, equals: null}",
		"- copy: {from: metadata.name, path: status.message}",
	} {
		if !strings.Contains(string(data), line) {
			t.Errorf("the saved file lacks %q:\n%s", line, data)
		}
	}
	back, err := scenario.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if got := shown(back); got != strings.Join(want, "\n") {
		t.Fatalf("loaded:\n%s\nwant\n%s", got, strings.Join(want, "\n"))
	}
	if mu := back.Controllers[1].Mutations[1]; mu.Op != controller.Copy || mu.From.String() != "spec.size" ||
		mu.When == nil || mu.When.Equals != nil {
		t.Fatalf("loaded change 2: %+v", mu)
	}

	// Loaded into a fresh sandbox, the race is the one saved.
	d2 := newDriver(t, nil)
	d2.Press("l")
	typeText(d2, path)
	d2.Press("enter")
	if schedule(d2) != "user user ctl ctl" {
		t.Fatalf("loaded schedule %q:\n%s", schedule(d2), d2.View())
	}
	must(t, d2.View(), ran...)
	if !draft.SameRace(sb(d).Scenario(), sb(d2).Scenario()) {
		t.Fatalf("the loaded race differs:\n%s", shown(sb(d2).Scenario()))
	}
}
