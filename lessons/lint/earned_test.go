package lint

import (
	"os"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/conflictlab/conflictlab/lessons"
)

func examplePack(t *testing.T) *lessons.Pack {
	t.Helper()
	p, err := lessons.LoadDir("../../examples/pack")
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// A question is read as the learner sees it before answering: its own
// texts, and the step before's solution and feedback.
func TestQuestionsShowTheStepBefore(t *testing.T) {
	p := examplePack(t)
	qs := Questions(p)
	if len(qs) != 2 {
		t.Fatalf("%d questions", len(qs))
	}
	q := qs[1]
	var where []string
	for _, sh := range q.Shown {
		where = append(where, sh.Where)
	}
	joined := strings.Join(where, "; ")
	if !strings.Contains(joined, "the title; the text; the question; the hint; the solution of steps[0]; the feedback of steps[0]'s option two") {
		t.Errorf("shown: %s", joined)
	}
	if q.Field != "steps[1]" || q.Options[0].Field != "steps[1].options[0]" || q.Options[1].Right != true || q.Options[0].Line == 0 {
		t.Errorf("question %+v", q)
	}
}

// The example's choose step asks, of its merge-patch option, what the
// predict step before it showed: the same race, played whole.
func TestReplays(t *testing.T) {
	fs := Replays(examplePack(t))
	if len(fs) != 1 || fs[0].Field != "steps[1].options[0]" || !strings.Contains(fs[0].Msg, "option merge: it asks data.count at the end of a race 01-counting.yaml steps[0] already played whole") {
		t.Fatalf("findings %v", fs)
	}
	// A copy of the scenario under another name is the same race.
	dir := t.TempDir()
	lesson, _ := os.ReadFile("../../examples/pack/01-counting.yaml")
	sc, _ := os.ReadFile("../../examples/pack/scenarios/two-counters.yaml")
	os.MkdirAll(dir+"/scenarios", 0o755)
	os.WriteFile(dir+"/scenarios/two-counters.yaml", sc, 0o644)
	os.WriteFile(dir+"/scenarios/copy.yaml", sc, 0o644)
	os.WriteFile(dir+"/01-counting.yaml", []byte(strings.Replace(string(lesson), "race: {scenario: scenarios/two-counters.yaml}\n    hint: The server", "race: {scenario: scenarios/copy.yaml}\n    hint: The server", 1)), 0o644)
	p, err := lessons.LoadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if p.Lessons[0].Steps[1].Race.Scenario != "scenarios/copy.yaml" {
		t.Fatal("the choose step does not race the copy")
	}
	if fs := Replays(p); len(fs) != 1 {
		t.Errorf("a copy of the race is another race: %v", fs)
	}
}

// A break goal whose answer is an order the lesson has just played is a
// replay, though the play step's race is another scenario (here: the
// same race with its ConfigMap starting blue instead of green).
func TestReplaysABreakOrderPlayedBefore(t *testing.T) {
	sc, err := os.ReadFile("../course/scenarios/lost-update.yaml")
	if err != nil {
		t.Fatal(err)
	}
	other := strings.Replace(string(sc), "data: {mode: blue}", "data: {mode: green}", 1)
	lesson := `id: l
title: L
summary: [one, two]
steps:
  - kind: read
    title: Watch
    text: a and b both write whole copies.
    race: {scenario: scenarios/lost-update.yaml, schedule: [a, b, a, b]}
  - kind: play
    title: Your turn
    text: Schedule them.
    question: Lose a's data.owner.
    hint: Let both read first.
    solution: Both read, then both write.
    race: {scenario: scenarios/other.yaml}
    goal:
      break: [{lost: data.owner}]
      par: 4
      schedule: [a, b, a, b]
`
	p, err := lessons.Load(fstest.MapFS{
		"01-l.yaml":                  {Data: []byte(lesson)},
		"scenarios/lost-update.yaml": {Data: sc},
		"scenarios/other.yaml":       {Data: []byte(other)},
	})
	if err != nil {
		t.Fatal(err)
	}
	fs := Replays(p)
	if len(fs) != 1 || fs[0].Field != "steps[1].goal" || !strings.Contains(fs[0].Msg, "the order 01-l.yaml steps[0] played (a b a b) already meets this goal") {
		t.Fatalf("findings %v", fs)
	}
	// Played in another lesson, a different race does not count.
	p.Lessons = append([]*lessons.Lesson{{ID: "first", File: "00.yaml", Steps: p.Lessons[0].Steps[:1]}}, &lessons.Lesson{ID: "l", File: "01-l.yaml", Steps: p.Lessons[0].Steps[1:]})
	if fs := Replays(p); len(fs) != 0 {
		t.Errorf("an order from another lesson, on another race: %v", fs)
	}
}

// The code pane is one key away before the answer: a snippet whose
// comment states the right option gives it away as the stem would. The
// comments are read, the snippet's markers are not.
func TestQuestionsReadTheCodePane(t *testing.T) {
	dir := t.TempDir()
	lesson, _ := os.ReadFile("../../examples/pack/01-counting.yaml")
	sc, _ := os.ReadFile("../../examples/pack/scenarios/two-counters.yaml")
	os.MkdirAll(dir+"/scenarios", 0o755)
	os.WriteFile(dir+"/scenarios/two-counters.yaml", sc, 0o644)
	os.WriteFile(dir+"/told.go", []byte("// snippet: told\n// Run beside another counter, the second patch overwrites the first increment.\nfunc Count() {}\n// end snippet\n"), 0o644)
	text := strings.Replace(string(lesson), "code: counter-merge-patch", "code: told.go", 1)
	text = strings.Replace(text, `label: "1 — one increment is lost"`, `label: "1 — the second patch overwrites the first increment"`, 1)
	os.WriteFile(dir+"/01-counting.yaml", []byte(text), 0o644)
	p, err := lessons.LoadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	q := Questions(p)[0]
	var pane string
	for _, sh := range q.Shown {
		if strings.HasPrefix(sh.Where, "the comments of the code pane") {
			pane = sh.Text
		}
	}
	if pane != "Run beside another counter, the second patch overwrites the first increment." {
		t.Fatalf("the code pane read as %q", pane)
	}
	r := Earned(p, "the pack")
	found := false
	for _, f := range r.Findings {
		found = found || strings.Contains(f.Msg, "echoes the comments of the code pane (told.go)")
	}
	if !found {
		t.Fatalf("no finding names the code pane: %v", r.Findings)
	}
}
