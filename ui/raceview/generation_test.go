package raceview

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/conflictlab/conflictlab/sim/race"
	"github.com/conflictlab/conflictlab/sim/scenario"
)

// inlineRace runs a scenario written in the test.
func inlineRace(t *testing.T, src string) *Run {
	t.Helper()
	sc, err := scenario.Parse("inline.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	o, err := race.Run(sc, race.Schedule{Moves: sc.Schedule})
	if err != nil {
		t.Fatal(err)
	}
	return &Run{Outcome: o}
}

// objectAt is the object pane (as YAML when full, else the changes) after
// steps[0..i], without styles.
func objectAt(m Model, i int, full bool) []string {
	m.SetIndex(i)
	lines := m.objectLines(120, full)
	out := make([]string, len(lines))
	for j, l := range lines {
		out[j] = strings.TrimRight(ansi.Strip(l), " ")
	}
	return out
}

// genLine is the object's generation line in lines, "" when there is none.
func genLine(lines []string) string {
	for _, l := range lines {
		if strings.Contains(l, "generation:") && !strings.Contains(l, "observedGeneration") {
			return l
		}
	}
	return ""
}

// genVersions is the generation line of each version of the target the
// race shows, oldest first: a mark says how a version differs from the one
// before it, so it stays on while steps that write nothing follow.
func genVersions(m Model) []string {
	var out []string
	last := -2
	for i := -1; i < len(m.Run().Outcome.Steps); i++ {
		if vi, _ := m.versionAt(i); vi != last {
			last = vi
			out = append(out, genLine(objectAt(m, i, true)))
		}
	}
	return out
}

// A race whose status carries observedGeneration shows the generation
// beside it, in the metadata right after the resourceVersion, and marks
// it changed at the write that moves it.
func TestGenerationShownBesideObservedGeneration(t *testing.T) {
	m := newView(scenarioRace(t, "../../lessons/course/scenarios/gen-stale-report.yaml"), false)
	before := objectAt(m, -1, true)
	follows := false
	for i, l := range before {
		if strings.Contains(l, "resourceVersion:") && i+1 < len(before) && before[i+1] == "    generation: 1" {
			follows = true
		}
	}
	if !follows {
		t.Fatalf("the generation does not follow the resourceVersion, unmarked:\n%s", strings.Join(before, "\n"))
	}
	// As created, user's resize, ctl's status patch.
	want := []string{"    generation: 1", "~   generation: 2", "    generation: 2"}
	if got := genVersions(m); strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("the generation line of each version is %q, want %q", got, want)
	}
	final := objectAt(m, len(m.Run().Outcome.Steps)-1, true)
	if !strings.Contains(strings.Join(final, "\n"), "observedGeneration: 1") {
		t.Fatalf("the final object lacks observedGeneration:\n%s", strings.Join(final, "\n"))
	}
	// The short form lists only the changes: the move is one of them.
	found := false
	for i := range m.Run().Outcome.Steps {
		for _, l := range objectAt(m, i, false) {
			if l == "~ metadata.generation: 1 → 2" {
				found = true
			}
		}
	}
	if !found {
		t.Fatal("the changes-only pane never lists metadata.generation: 1 → 2")
	}
}

// A race that moves the generation shows it even with no
// observedGeneration anywhere: from the object as created, unmarked while
// it stays put.
func TestGenerationShownWhenItMoves(t *testing.T) {
	m := newView(scenarioRace(t, "../../lessons/course/scenarios/gen-bumps.yaml"), false)
	for _, v := range m.Run().Outcome.Versions {
		st, _ := v.Object["status"].(map[string]any)
		if _, ok := st["observedGeneration"]; ok {
			t.Fatal("gen-bumps now writes observedGeneration: the test no longer checks the second case")
		}
	}
	// As created, then labeler's, reporter's and resizer's writes and
	// ops' DELETE (which a finalizer turns into a mark): the resize and the
	// DELETE move the generation.
	want := []string{"    generation: 1", "    generation: 1", "    generation: 1", "~   generation: 2", "~   generation: 3"}
	if got := genVersions(m); strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("the generation line of each version is %q, want %q", got, want)
	}
}

// A race in which the generation neither moves nor meets an
// observedGeneration keeps it hidden, with the server's other
// bookkeeping: here a label and a status on a Widget, and a ConfigMap
// race.
func TestGenerationHiddenWhenItDoesNotMatter(t *testing.T) {
	widget := inlineRace(t, `name: no-spec-change
objects:
- apiVersion: oracle.example.com/v1
  kind: Widget
  metadata: {name: w1}
  spec: {size: 1}
controllers:
- name: labeler
  target: Widget/w1
  read: live
  mutations:
  - addLabel: {team: a}
  write: update
- name: reporter
  target: Widget/w1
  read: live
  mutations:
  - set: {path: status.phase, value: Ready}
  write: update
  subresource: status
schedule: [labeler, labeler, reporter, reporter]
`)
	cm := fixtureRace(t, "lost-update", 0, "")
	for name, r := range map[string]*Run{"widget": widget, "configmap": cm} {
		m := newView(r, false)
		for i := -1; i < len(r.Outcome.Steps); i++ {
			for _, full := range []bool{true, false} {
				if l := genLine(objectAt(m, i, full)); l != "" {
					t.Fatalf("%s: step %d shows %q", name, i, l)
				}
			}
		}
	}
	// The widget does have a generation: it is the rule that hides it.
	last := widget.Outcome.Versions[len(widget.Outcome.Versions)-1].Object
	if g := last["metadata"].(map[string]any)["generation"]; g == nil {
		t.Fatal("the widget has no generation: the test checks nothing")
	}
	m := newView(widget, false)
	must(t, strings.Join(objectAt(m, len(widget.Outcome.Steps)-1, true), "\n"), "team: a", "phase: Ready")
}

// Before the learner answers, the setup shows the object as created, and
// whether it shows the generation must not depend on how the race ends:
// only the versions written before the race count. Once revealed, the
// whole race does.
func TestGenerationInSetupIgnoresTheOutcome(t *testing.T) {
	r := scenarioRace(t, "../../lessons/course/scenarios/gen-bumps.yaml")
	m := newView(r, true)
	v := view(m, 120, 40)
	must(t, v, "Before the race", "size: 1")
	mustNot(t, v, "generation:")
	m.Reveal()
	m.SetIndex(-1)
	must(t, view(m, 120, 40), "    generation: 1")
}

// observedGeneration alone is enough: a report on a spec that never
// changes still shows the generation it is compared with.
func TestGenerationShownForObservedGenerationAlone(t *testing.T) {
	r := inlineRace(t, `name: report-only
objects:
- apiVersion: oracle.example.com/v1
  kind: Widget
  metadata: {name: w1}
  spec: {size: 1}
controllers:
- name: ctl
  target: Widget/w1
  read: live
  mutations:
  - copy: {from: metadata.generation, path: status.observedGeneration}
  write: update
  subresource: status
schedule: [ctl, ctl]
`)
	m := newView(r, false)
	want := []string{"    generation: 1", "    generation: 1"}
	if got := genVersions(m); strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("the generation line of each version is %q, want %q", got, want)
	}
	must(t, strings.Join(objectAt(m, len(r.Outcome.Steps)-1, true), "\n"), "observedGeneration: 1")
}
