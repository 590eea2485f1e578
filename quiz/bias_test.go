package quiz

import (
	"strings"
	"testing"
	"testing/fstest"

	"github.com/conflictlab/conflictlab/lessons/answerbias"
)

// TestBankHasNoGiveaways: the built-in bank cannot be passed by picking the
// longest option, the option in the author's favourite place, or the only
// one that gives a reason.
func TestBankHasNoGiveaways(t *testing.T) {
	b := defaultBank(t)
	bias, _ := MeasureBias(b.Questions)
	t.Logf("%d questions: right option longest in %d, written at a–d %v", bias.Items, bias.RightLongest, bias.Position)
	if p := BiasProblems(b.Questions); len(p) > 0 {
		t.Fatalf("%d problems:\n%s", len(p), strings.Join(p, "\n"))
	}
}

// TestMeasureBiasFlags: a bank whose right answers are always the long,
// reasoned, second option is reported on every count.
func TestMeasureBiasFlags(t *testing.T) {
	var src strings.Builder
	for _, id := range []string{"q1", "q2", "q3", "q4", "q5", "q6"} {
		src.WriteString("- id: " + id + `
  kind: choice
  lesson: versions
  concepts: [resource-version]
  topic: versions
  difficulty: basic
  question: q
  explanation: e
  options:
    - text: No.
    - text: Yes, because the resourceVersion is a precondition the server checks.
      correct: true
    - text: Maybe.
`)
	}
	b, err := Load(fstest.MapFS{"biased.yaml": {Data: []byte(src.String())}})
	if err != nil {
		t.Fatal(err)
	}
	bias, _ := MeasureBias(b.Questions)
	if bias.Items != 6 || bias.RightLongest != 6 || bias.Position[1] != 6 || len(bias.Giveaways) != 6 || len(bias.Stubs) != 6 || len(bias.SamePlace) != 1 {
		t.Fatalf("measured %+v", bias)
	}
	all := strings.Join(BiasProblems(b.Questions), "\n")
	for _, want := range []string{"longest in 6 of 6", "written b in 6 of 6", "lesson versions: the right option is written b in all 6 questions of this lesson", "biased.yaml:1: q1: the right option is more than", "biased.yaml:14: q2: a wrong option is under half"} {
		if !strings.Contains(all, want) {
			t.Errorf("problems lack %q:\n%s", want, all)
		}
	}
}

// TestMeasureBiasNeverLongest: a bank that avoids making the right option
// the longest so carefully that it never is has a tell of its own.
func TestMeasureBiasNeverLongest(t *testing.T) {
	var src strings.Builder
	for i, id := range []string{"q1", "q2", "q3", "q4", "q5", "q6"} {
		right := "    - text: Short but right, with its reason.\n      correct: true\n"
		wrong := "    - text: A longer wrong option, with a reason of its own.\n"
		opts := []string{right + wrong + wrong, wrong + right + wrong, wrong + wrong + right}[i%3]
		src.WriteString("- id: " + id + "\n  kind: choice\n  lesson: versions\n  concepts: [resource-version]\n  topic: versions\n  difficulty: basic\n  question: q\n  explanation: e\n  options:\n" + opts)
	}
	b, err := Load(fstest.MapFS{"careful.yaml": {Data: []byte(src.String())}})
	if err != nil {
		t.Fatal(err)
	}
	all := strings.Join(BiasProblems(b.Questions), "\n")
	if !strings.Contains(all, "the right option is the longest in only 0 of 6") {
		t.Errorf("problems:\n%s", all)
	}
	if strings.Contains(all, "written") || strings.Contains(all, "careful.yaml:") {
		t.Errorf("flagged more than the length tell:\n%s", all)
	}
}

// TestSessionPositionsSpread: as shown to a learner, the right answer is
// not in one place — over the whole bank, for several seeds.
func TestSessionPositionsSpread(t *testing.T) {
	b := defaultBank(t)
	for seed := uint64(1); seed <= 3; seed++ {
		s, err := NewSession(b, Filter{}, 0, seed)
		if err != nil {
			t.Fatal(err)
		}
		var at [MaxOptions]int
		for _, p := range s.Questions() {
			at[p.Correct()]++
		}
		for i, n := range at {
			if n*100 > answerbias.MaxPositionShare*s.Len() {
				t.Errorf("seed %d: the right answer is shown %s in %d of %d questions", seed, Letter(i), n, s.Len())
			}
		}
	}
}
