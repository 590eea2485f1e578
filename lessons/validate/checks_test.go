package validate

import (
	"os"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/conflictlab/conflictlab/lessons"
	"github.com/conflictlab/conflictlab/lessons/internal/packtest"
	"github.com/conflictlab/conflictlab/lessons/lint"
)

// examplePack is examples/pack with its lesson file edited by edit (old,
// new pairs), so each test breaks exactly one rule.
func examplePack(t *testing.T, edit ...string) *lessons.Pack {
	t.Helper()
	lesson, err := os.ReadFile("../../examples/pack/01-counting.yaml")
	if err != nil {
		t.Fatal(err)
	}
	sc, err := os.ReadFile("../../examples/pack/scenarios/two-counters.yaml")
	if err != nil {
		t.Fatal(err)
	}
	text := string(lesson)
	for i := 0; i+1 < len(edit); i += 2 {
		if !strings.Contains(text, edit[i]) {
			t.Fatalf("the example pack no longer says %q", edit[i])
		}
		text = strings.Replace(text, edit[i], edit[i+1], 1)
	}
	p, err := lessons.Load(fstest.MapFS{
		"01-counting.yaml":            {Data: []byte(text)},
		"scenarios/two-counters.yaml": {Data: sc},
	})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestExamplePackValidates(t *testing.T) {
	if err := Check(examplePack(t)); err != nil {
		t.Fatal(err)
	}
}

// A race that reads the Lister first beside code that GETs on every
// attempt does not play the code shown.
func TestCheckStrategyMatchesSnippet(t *testing.T) {
	p := examplePack(t, "strategy: {write: update, read: live, retry: default}", "strategy: {write: update, retry: default}")
	packtest.WantProblem(t, Check(p), "01-counting.yaml:", "steps[1].options[1].code",
		"snippet counter-conditional is read=live retry=default write=update", "read=lister")
}

// A retrying snippet must declare its strategy; a declared one is checked
// whatever the step kind.
func TestCheckStrategyOnAStepsCode(t *testing.T) {
	p := examplePack(t, "code: counter-merge-patch\n    hint", "code: retry-on-conflict\n    hint")
	packtest.WantProblem(t, Check(p), "steps[0].code", "snippet retry-on-conflict is", "write=merge-patch")
}

func TestCheckHiddenRaceFeedback(t *testing.T) {
	p := examplePack(t, "feedback: Each patch sets the value it computed from 0. Nothing adds them up.",
		"feedback: Look at the RV column when b writes.")
	packtest.WantProblem(t, Check(p), "steps[0].options[0].feedback", `mentions the race ("column") while it is hidden`)

	p = examplePack(t, `hint: Does a merge patch say "add one" or "the count is now 1"?`,
		`hint: The timeline has the answer.`)
	packtest.WantProblem(t, Check(p), "steps[0].hint", `("timeline")`)

	// The right answer's feedback is read with the race on screen.
	p = examplePack(t, "feedback: Right. The race marks b's increment", "feedback: Right. The RV column marks b's increment")
	if err := Check(p); err != nil {
		t.Fatal(err)
	}
}

func TestCheckNamesOnlyScreenParts(t *testing.T) {
	p := examplePack(t, "feedback: The blind patch again;", "feedback: The versions pane shows the blind patch again;")
	packtest.WantProblem(t, Check(p), "steps[1].options[0].feedback", `names "The versions pane"`)
	p = examplePack(t, "feedback: The blind patch again;", "feedback: In b's column, the blind patch again;")
	if err := Check(p); err != nil {
		t.Fatal(err)
	}
}

func TestWarningsAnswerBias(t *testing.T) {
	// Two more questions in the example lesson: all four answered by option 2.
	q := `
  - kind: predict
    title: again %d
    question: What is data.count?
    race: {scenario: scenarios/two-counters.yaml}
    hint: Count the patches that change it.
    solution: One.
    options:
      - id: two
        label: "2, both counted"
        feedback: Nothing adds them up.
        claims:
          - final: {path: data.count, equals: "2"}
      - id: one
        label: "1, one is lost"
        correct: true
        feedback: Right.
        claims:
          - final: {path: data.count, equals: "1"}
`
	extra := strings.ReplaceAll(q, "%d", "1") + strings.ReplaceAll(q, "%d", "2")
	p := examplePack(t, "\n  - kind: choose", extra+"\n  - kind: choose")
	ws := lint.Bias(p)
	if len(ws) != 1 || !strings.Contains(ws[0].Error(), "01-counting.yaml: steps: warning: the right option is written b in all 4 questions of this lesson") {
		t.Fatalf("warnings: %v", ws)
	}
	// Moving one right answer first lifts it.
	p = examplePack(t, "\n  - kind: choose", strings.Replace(extra, `      - id: two
        label: "2, both counted"
        feedback: Nothing adds them up.
        claims:
          - final: {path: data.count, equals: "2"}
      - id: one
        label: "1, one is lost"
        correct: true
        feedback: Right.
        claims:
          - final: {path: data.count, equals: "1"}
`, `      - id: one
        label: "1, one is lost"
        correct: true
        feedback: Right.
        claims:
          - final: {path: data.count, equals: "1"}
      - id: two
        label: "2, both counted"
        feedback: Nothing adds them up.
        claims:
          - final: {path: data.count, equals: "2"}
`, 1)+"\n  - kind: choose")
	if ws := lint.Bias(p); len(ws) != 0 {
		t.Fatalf("warnings after the fix: %v", ws)
	}
}
