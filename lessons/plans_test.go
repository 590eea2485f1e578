package lessons

import (
	"os"
	"strings"
	"testing"
	"testing/fstest"
)

// plansPack is a one-lesson pack whose second step (a predict step on the
// lost-update race) carries the given plans line, and whose first step is
// a read step that carries readPlans.
func plansPack(t *testing.T, readPlans, predictPlans string) (*Pack, error) {
	t.Helper()
	sc, err := os.ReadFile("course/scenarios/lost-update.yaml")
	if err != nil {
		t.Fatal(err)
	}
	lesson := "id: p\ntitle: P\nsummary: [one, two]\nsteps:\n" +
		"  - kind: read\n    title: R\n    text: x\n" + readPlans +
		"  - kind: predict\n    title: Q\n    question: q?\n    hint: h\n" +
		"    race: {scenario: scenarios/lost-update.yaml}\n" + predictPlans +
		"    solution: s\n" +
		"    options:\n" +
		"      - {id: a, label: A, correct: true, feedback: fa}\n" +
		"      - {id: b, label: B, feedback: fb}\n"
	return Load(fstest.MapFS{
		"01-p.yaml":                  {Data: []byte(lesson)},
		"scenarios/lost-update.yaml": {Data: sc},
	})
}

func TestPlansAfterAnswerParses(t *testing.T) {
	for _, c := range []struct {
		line string
		want bool
	}{{"", false}, {"    plans: shown\n", false}, {"    plans: after-answer\n", true}} {
		p, err := plansPack(t, "", c.line)
		if err != nil {
			t.Fatalf("%q: %v", c.line, err)
		}
		if got := p.Lessons[0].Steps[1].PlansAfterAnswer; got != c.want {
			t.Errorf("%q: PlansAfterAnswer = %v, want %v", c.line, got, c.want)
		}
		if p.Lessons[0].Steps[0].PlansAfterAnswer {
			t.Errorf("%q: the read step's plans are withheld too", c.line)
		}
	}
}

func TestPlansErrorsNameTheLine(t *testing.T) {
	for _, c := range []struct{ read, predict, want string }{
		// The predict step's plans line is line 13.
		{"", "    plans: later\n", `01-p.yaml:13: steps[1].plans: "later": want shown or after-answer`},
		{"", "    plans: [after-answer]\n", `01-p.yaml:13: steps[1]`},
		// A read step has no answer to wait for (its plans line is line 8).
		{"    plans: after-answer\n", "", "01-p.yaml:8: steps[0].plans: after-answer: only a predict or choose step"},
	} {
		_, err := plansPack(t, c.read, c.predict)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("read %q predict %q: got %v, want %q", c.read, c.predict, err, c.want)
		}
	}
}

// The built-in course withholds the plans where they would answer the
// question: every review of lesson 16, and lesson 12's expectations step.
func TestCourseWithholdsGivingAwayPlans(t *testing.T) {
	p, err := Course()
	if err != nil {
		t.Fatal(err)
	}
	anti := p.Lesson("anti-patterns")
	if anti == nil {
		t.Fatal("no lesson anti-patterns")
	}
	for i, s := range anti.Steps {
		if strings.HasPrefix(s.Question, "What is wrong") && !s.PlansAfterAnswer {
			t.Errorf("anti-patterns step %d (%s) shows its plans before the answer", i+1, s.Title)
		}
	}
	found := false
	for _, l := range p.Lessons {
		for _, s := range l.Steps {
			if s.Code == "ensure-child-expectations" && s.Kind == Predict {
				found = true
				if !s.PlansAfterAnswer {
					t.Errorf("%s step %q shows its plans before the answer", l.ID, s.Title)
				}
			}
		}
	}
	if !found {
		t.Error("no predict step shows ensure-child-expectations")
	}
}
