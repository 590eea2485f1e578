package quiz

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/conflictlab/conflictlab/lessons"
)

func defaultBank(t *testing.T) *Bank {
	t.Helper()
	b, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func coursePack(t *testing.T) *lessons.Pack {
	t.Helper()
	p, err := lessons.Course()
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestBankSize(t *testing.T) {
	b := defaultBank(t)
	if n := len(b.Questions); n < 40 {
		t.Fatalf("%d questions, want at least 40", n)
	}
	kinds := map[Kind]int{}
	for _, q := range b.Questions {
		kinds[q.Kind]++
	}
	for _, k := range Kinds {
		if kinds[k] < 4 {
			t.Errorf("only %d %s questions", kinds[k], k)
		}
	}
}

// TestBankVerifies is the simulator's word on every race and method
// question, and the check that every question points to a lesson.
func TestBankVerifies(t *testing.T) {
	if err := Verify(defaultBank(t), coursePack(t)); err != nil {
		t.Fatal(err)
	}
}

func TestEveryLessonHasQuestions(t *testing.T) {
	b := defaultBank(t)
	for _, l := range coursePack(t).Lessons {
		if len(b.Select(Filter{Topic: l.ID})) < 3 {
			t.Errorf("lesson %s has fewer than 3 questions", l.ID)
		}
	}
}

func ids(s *Session) []string {
	var out []string
	for _, p := range s.Questions() {
		opts := make([]string, len(p.Options))
		for i, o := range p.Options {
			opts[i] = o.Text
		}
		out = append(out, p.Question.ID+"|"+strings.Join(opts, "|"))
	}
	return out
}

func TestSeedDeterminism(t *testing.T) {
	b := defaultBank(t)
	s1, err := NewSession(b, Filter{}, 12, 42)
	if err != nil {
		t.Fatal(err)
	}
	s2, _ := NewSession(b, Filter{}, 12, 42)
	if !slices.Equal(ids(s1), ids(s2)) {
		t.Fatal("the same seed drew different questions or option orders")
	}
	if s1.Len() != 12 {
		t.Fatalf("%d questions, want 12", s1.Len())
	}
	differ := false
	for seed := uint64(1); seed < 5 && !differ; seed++ {
		s3, _ := NewSession(b, Filter{}, 12, seed)
		differ = !slices.Equal(ids(s1), ids(s3))
	}
	if !differ {
		t.Fatal("different seeds always draw the same quiz")
	}
	// Options are shuffled: over the bank, the correct answer is not always first.
	all, _ := NewSession(b, Filter{}, 0, 7)
	firsts := 0
	for _, p := range all.Questions() {
		if p.Correct() == 0 {
			firsts++
		}
	}
	if firsts == all.Len() {
		t.Fatal("the correct option is always first")
	}
}

func TestFilter(t *testing.T) {
	b := defaultBank(t)
	for _, topic := range []string{"patches", "json-merge-patch", "stale-cache"} {
		s, err := NewSession(b, Filter{Topic: topic}, 0, 1)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range s.Questions() {
			if !p.Question.HasTopic(topic) {
				t.Errorf("topic %s drew %s", topic, p.Question.ID)
			}
		}
		if s.Len() != len(b.Select(Filter{Topic: topic})) {
			t.Errorf("topic %s: count 0 should draw all %d", topic, len(b.Select(Filter{Topic: topic})))
		}
	}
	s, err := NewSession(b, Filter{Topic: "versions", Kinds: []Kind{Race}}, 0, 1)
	if err != nil || s.Len() == 0 {
		t.Fatalf("versions race questions: %v", err)
	}
	if _, err := NewSession(b, Filter{Topic: "no-such-topic"}, 5, 1); !errors.Is(err, ErrNoQuestions) {
		t.Fatalf("unknown topic: %v", err)
	}
}

func TestScoring(t *testing.T) {
	b := defaultBank(t)
	s, err := NewSession(b, Filter{}, 5, 3)
	if err != nil {
		t.Fatal(err)
	}
	var wrong []string
	for i := 0; !s.Done(); i++ {
		p, ok := s.Current()
		if !ok || p.Number != i+1 || p.Total != 5 {
			t.Fatalf("current %+v %v", p, ok)
		}
		ans := p.Correct()
		if i%2 == 1 { // answer every other one wrong
			ans = (ans + 1) % len(p.Options)
			wrong = append(wrong, p.Question.ID)
		}
		r, err := s.Answer(ans)
		if err != nil {
			t.Fatal(err)
		}
		if r.Right != (i%2 == 0) || r.Explanation == "" || r.Lesson != p.Question.Lesson {
			t.Fatalf("result %+v", r)
		}
	}
	sc := s.Score()
	if sc.Right != 3 || sc.Answered != 5 || sc.Total != 5 || sc.Percent() != 60 {
		t.Fatalf("score %+v", sc)
	}
	var missed []string
	for _, m := range sc.Missed {
		missed = append(missed, m.Question.ID)
	}
	if !slices.Equal(missed, wrong) {
		t.Fatalf("missed %v, want %v", missed, wrong)
	}
	if _, err := s.Answer(0); err == nil {
		t.Fatal("answering after the end worked")
	}
}

func TestAnswerOutOfRange(t *testing.T) {
	s, _ := NewSession(defaultBank(t), Filter{}, 1, 1)
	if _, err := s.Answer(9); err == nil {
		t.Fatal("answer 9 accepted")
	}
	if s.Score().Answered != 0 {
		t.Fatal("a rejected answer was counted")
	}
}

// A race question whose stated answer the simulator refutes is reported
// with its file and line.
func TestVerifyRefutesWrongAnswer(t *testing.T) {
	bad := `- id: wrong
  kind: race
  lesson: lost-update
  concepts: [lost-update]
  question: Which key survives?
  scenario: scenarios/lost-update.yaml
  explanation: The author got it backwards.
  options:
    - text: data.owner survives
      correct: true
      claims:
        - kept: data.owner
    - text: data.owner is lost
      claims:
        - lost: data.owner
- id: bad-lesson
  kind: choice
  lesson: nope
  concepts: [lost-update]
  question: q
  explanation: e
  options:
    - text: a
      correct: true
    - text: b
`
	b, err := Load(fstest.MapFS{"bad.yaml": {Data: []byte(bad)}})
	if err != nil {
		t.Fatal(err)
	}
	err = Verify(b, coursePack(t))
	if err == nil {
		t.Fatal("no error")
	}
	for _, want := range []string{
		"bad.yaml:9: wrong: option a is marked correct, but the simulator refutes it",
		"bad.yaml:13: wrong: option b is marked wrong, but every claim it makes holds",
		`bad.yaml:16: bad-lesson: lesson "nope": no such lesson`,
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("missing %q in:\n%v", want, err)
		}
	}
}

func TestParseErrors(t *testing.T) {
	cases := map[string]string{
		"- id: x\n  kind: choice\n  lesson: versions\n  concepts: [resource-version]\n  question: q\n  explanation: e\n  colour: red\n  options:\n    - text: a\n      correct: true\n    - text: b\n":    `f.yaml:7: unknown field "colour"`,
		"- id: x\n  kind: choice\n  lesson: versions\n  concepts: [resource-version]\n  question: q\n  explanation: e\n  options:\n    - text: a\n    - text: b\n":                                        "want exactly one correct option, got 0",
		"- id: x\n  kind: race\n  lesson: versions\n  concepts: [resource-version]\n  question: q\n  explanation: e\n  scenario: s.yaml\n  options:\n    - text: a\n      correct: true\n    - text: b\n": "a race option needs claims",
		"- id: x\n  kind: essay\n  lesson: versions\n  concepts: [resource-version]\n  question: q\n  explanation: e\n  options:\n    - text: a\n      correct: true\n    - text: b\n":                    `kind "essay"`,
		"- id: x\n  kind: choice\n  lesson: versions\n  concepts: [telepathy]\n  question: q\n  explanation: e\n  options:\n    - text: a\n      correct: true\n    - text: b\n":                          `unknown concept "telepathy"`,
	}
	for src, want := range cases {
		_, err := Parse("f.yaml", []byte(src))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("want %q, got %v", want, err)
		}
	}
	dup := "- id: x\n  kind: choice\n  lesson: versions\n  concepts: [resource-version]\n  question: q\n  explanation: e\n  options:\n    - text: a\n      correct: true\n    - text: b\n"
	if _, err := Load(fstest.MapFS{"a.yaml": {Data: []byte(dup)}, "b.yaml": {Data: []byte(dup)}}); err == nil || !strings.Contains(err.Error(), "also used at a.yaml:1") {
		t.Errorf("duplicate id: %v", err)
	}
}

func ExampleNewSession() {
	bank, _ := Default()
	s, _ := NewSession(bank, Filter{Topic: "versions"}, 2, 1)
	for !s.Done() {
		p, _ := s.Current()
		r, _ := s.Answer(p.Correct())
		fmt.Println(r.Number, r.Right)
	}
	sc := s.Score()
	fmt.Printf("%d/%d\n", sc.Right, sc.Answered)
	// Output:
	// 1 true
	// 2 true
	// 2/2
}
