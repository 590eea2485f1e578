package lessons

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/conflictlab/conflictlab/lessons/answerbias"
)

// examplePack is examples/pack with its lesson file edited by edit (old,
// new pairs), so each test breaks exactly one rule.
func examplePack(t *testing.T, edit ...string) *Pack {
	t.Helper()
	lesson, err := os.ReadFile("../examples/pack/01-counting.yaml")
	if err != nil {
		t.Fatal(err)
	}
	sc, err := os.ReadFile("../examples/pack/scenarios/two-counters.yaml")
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
	p, err := Load(fstest.MapFS{
		"01-counting.yaml":            {Data: []byte(text)},
		"scenarios/two-counters.yaml": {Data: sc},
	})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func wantProblem(t *testing.T, err error, parts ...string) {
	t.Helper()
	if err == nil {
		t.Fatalf("no problem reported; want one with %q", parts)
	}
	for _, p := range parts {
		if !strings.Contains(err.Error(), p) {
			t.Fatalf("want %q in:\n%v", p, err)
		}
	}
}

func TestExamplePackValidates(t *testing.T) {
	if err := examplePack(t).Check(); err != nil {
		t.Fatal(err)
	}
}

// A race that reads the Lister first beside code that GETs on every
// attempt does not play the code shown.
func TestCheckStrategyMatchesSnippet(t *testing.T) {
	p := examplePack(t, "strategy: {write: update, read: live, retry: default}", "strategy: {write: update, retry: default}")
	wantProblem(t, p.Check(), "01-counting.yaml:", "steps[1].options[1].code",
		"snippet counter-conditional is read=live retry=default write=update", "read=lister")
}

// A retrying snippet must declare its strategy; a declared one is checked
// whatever the step kind.
func TestCheckStrategyOnAStepsCode(t *testing.T) {
	p := examplePack(t, "code: counter-merge-patch\n    hint", "code: retry-on-conflict\n    hint")
	wantProblem(t, p.Check(), "steps[0].code", "snippet retry-on-conflict is", "write=merge-patch")
}

func TestCheckHiddenRaceFeedback(t *testing.T) {
	p := examplePack(t, "feedback: Each patch sets the value it computed from 0. Nothing adds them up.",
		"feedback: Look at the RV column when b writes.")
	wantProblem(t, p.Check(), "steps[0].options[0].feedback", `mentions the race ("column") while it is hidden`)

	p = examplePack(t, `hint: Does a merge patch say "add one" or "the count is now 1"?`,
		`hint: The timeline has the answer.`)
	wantProblem(t, p.Check(), "steps[0].hint", `("timeline")`)

	// The right answer's feedback is read with the race on screen.
	p = examplePack(t, "feedback: Right. The race marks b's increment", "feedback: Right. The RV column marks b's increment")
	if err := p.Check(); err != nil {
		t.Fatal(err)
	}
}

func TestCheckNamesOnlyScreenParts(t *testing.T) {
	p := examplePack(t, "feedback: The blind patch again;", "feedback: The versions pane shows the blind patch again;")
	wantProblem(t, p.Check(), "steps[1].options[0].feedback", `names "The versions pane"`)
	p = examplePack(t, "feedback: The blind patch again;", "feedback: In b's column, the blind patch again;")
	if err := p.Check(); err != nil {
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
	ws := p.Warnings()
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
	if ws := p.Warnings(); len(ws) != 0 {
		t.Fatalf("warnings after the fix: %v", ws)
	}
}

// The pack-wide rules: right answers longest, or at one position, in too
// many of at least answerbias.MinItems questions; and per question, a right
// option far longer than every wrong one, or a wrong one that is a stub.
func TestWarningsPackWide(t *testing.T) {
	var l []*Lesson
	for i := 0; i < answerbias.MinItems; i++ {
		l = append(l, &Lesson{ID: fmt.Sprint("l", i), File: "x.yaml", Steps: []Step{{Kind: Predict, Line: 10 + i, Options: []Option{
			{Label: "short"}, {Label: "the long, reasoned right answer", Correct: true}, {Label: "short too"}}}}})
	}
	ws := (&Pack{Lessons: l}).Warnings()
	var all []string
	for _, w := range ws {
		all = append(all, w.Error())
	}
	joined := strings.Join(all, "\n")
	for _, want := range []string{"longest in 6 of 6 questions", "written b in 6 of 6 questions",
		"x.yaml:10: warning: the right option is more than 1.25 times as long", "x.yaml:15: warning: a wrong option is under half"} {
		if !strings.Contains(joined, want) {
			t.Errorf("want %q in:\n%s", want, joined)
		}
	}
	// Right answers at a, b and c, longest in two of six, every wrong option
	// with its reason: nothing to spot.
	for i := range l {
		right := "the right answer, with its reason"
		wrong := []string{"a wrong answer, with a reason too", "another wrong one, reasoned as well"}
		if i < 2 {
			wrong = []string{"wrong, short", "also wrong, short"}
			right = "right, a bit longer"
		}
		opts := []Option{{Label: wrong[0]}, {Label: wrong[1]}}
		opts = append(opts[:i%3], append([]Option{{Label: right, Correct: true}}, opts[i%3:]...)...)
		l[i].Steps[0].Options = opts
	}
	if ws := (&Pack{Lessons: l}).Warnings(); len(ws) != 0 {
		t.Fatalf("warnings for a balanced pack: %v", ws)
	}
}
