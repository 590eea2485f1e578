package lessons

import (
	"os"
	"strings"
	"testing"
	"testing/fstest"
)

// reviewedPack is a one-lesson pack whose predict step carries stepLine
// and whose first option carries optionLine (YAML, indented).
func reviewedPack(t *testing.T, stepLine, optionLine string) (*Pack, error) {
	t.Helper()
	sc, err := os.ReadFile("course/scenarios/lost-update.yaml")
	if err != nil {
		t.Fatal(err)
	}
	lesson := "id: p\ntitle: P\nsummary: [one, two]\nsteps:\n" +
		"  - kind: predict\n    title: Q\n    question: q?\n    hint: h\n" +
		"    race: {scenario: scenarios/lost-update.yaml}\n" + stepLine +
		"    solution: s\n" +
		"    options:\n" +
		"      - id: a\n        label: A\n        correct: true\n        feedback: fa\n" + optionLine +
		"      - {id: b, label: B, feedback: fb}\n"
	return Load(fstest.MapFS{
		"01-p.yaml":                  {Data: []byte(lesson)},
		"scenarios/lost-update.yaml": {Data: sc},
	})
}

func TestReviewedParses(t *testing.T) {
	p, err := reviewedPack(t, "    reviewed: {title: \"the title names the kind of write, not its outcome\"}\n",
		"        reviewed:\n          stem-excludes: \"a real misconception\"\n          echo: \"the phrase is the question's own term\"\n")
	if err != nil {
		t.Fatal(err)
	}
	s := p.Lessons[0].Steps[0]
	if s.Reviewed["title"] == "" || s.Options[0].Reviewed["stem-excludes"] != "a real misconception" || len(s.Options[0].Reviewed) != 2 || s.Options[1].Reviewed != nil {
		t.Fatalf("step %+v, options %+v", s.Reviewed, s.Options)
	}
}

func TestReviewedErrorsNameTheLine(t *testing.T) {
	for _, c := range []struct{ step, option, want string }{
		{"    reviewed: {cue: \"chance\"}\n", "", `01-p.yaml:10: steps[0].reviewed.cue: "cue" is no check a file can excuse: want one of echo, reason, stem-excludes, replay, title`},
		{"", "        reviewed: {echo: \"\"}\n", "01-p.yaml:16: steps[0].options[0].reviewed.echo: say why the finding is fair"},
		{"    reviewed: [title]\n", "", "01-p.yaml:10: steps[0].reviewed: want a mapping of check → why"},
	} {
		_, err := reviewedPack(t, c.step, c.option)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("step %q option %q: got %v, want %q", c.step, c.option, err, c.want)
		}
	}
}
