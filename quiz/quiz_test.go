package quiz

import (
	"errors"
	"fmt"
	"reflect"
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
  topic: versions
  difficulty: basic
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
  topic: versions
  difficulty: basic
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
		"bad.yaml:11: wrong: option a is marked correct, but the simulator refutes it",
		"bad.yaml:15: wrong: option b is marked wrong, but every claim it makes holds",
		`bad.yaml:18: bad-lesson: lesson "nope": no such lesson`,
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("missing %q in:\n%v", want, err)
		}
	}
}

func TestParseErrors(t *testing.T) {
	cases := map[string]string{
		"- id: x\n  kind: choice\n  lesson: versions\n  concepts: [resource-version]\n  topic: versions\n  difficulty: basic\n  question: q\n  explanation: e\n  colour: red\n  options:\n    - text: a\n      correct: true\n    - text: b\n":                                                 `f.yaml:9: unknown field "colour"`,
		"- id: x\n  kind: choice\n  lesson: versions\n  concepts: [resource-version]\n  topic: versions\n  difficulty: basic\n  question: q\n  explanation: e\n  options:\n    - text: a\n    - text: b\n":                                                                                     "want exactly one correct option, got 0",
		"- id: x\n  kind: race\n  lesson: versions\n  concepts: [resource-version]\n  topic: versions\n  difficulty: basic\n  question: q\n  explanation: e\n  scenario: s.yaml\n  options:\n    - text: a\n      correct: true\n    - text: b\n":                                              "a race option needs claims",
		"- id: x\n  kind: essay\n  lesson: versions\n  concepts: [resource-version]\n  topic: versions\n  difficulty: basic\n  question: q\n  explanation: e\n  options:\n    - text: a\n      correct: true\n    - text: b\n":                                                                 `kind "essay"`,
		"- id: x\n  kind: choice\n  lesson: versions\n  concepts: [resource-version]\n  question: q\n  explanation: e\n  plans: after-answer\n  options:\n    - text: a\n      correct: true\n    - text: b\n":                                                                                 `f.yaml:7: x: plans: after-answer: only a race or method question`,
		"- id: x\n  kind: race\n  lesson: versions\n  concepts: [resource-version]\n  question: q\n  explanation: e\n  scenario: s.yaml\n  plans: later\n  options:\n    - text: a\n      correct: true\n      claims: [{verdict: lost}]\n    - text: b\n      claims: [{verdict: no-loss}]\n": `f.yaml:8: x: plans: "later": want shown or after-answer`,
		"- id: x\n  kind: choice\n  lesson: versions\n  concepts: [telepathy]\n  topic: versions\n  difficulty: basic\n  question: q\n  explanation: e\n  options:\n    - text: a\n      correct: true\n    - text: b\n":                                                                       `unknown concept "telepathy"`,
	}
	for src, want := range cases {
		_, err := Parse("f.yaml", []byte(src))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("want %q, got %v", want, err)
		}
	}
	dup := "- id: x\n  kind: choice\n  lesson: versions\n  concepts: [resource-version]\n  topic: versions\n  difficulty: basic\n  question: q\n  explanation: e\n  options:\n    - text: a\n      correct: true\n    - text: b\n"
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

// TestOptionOrderStableForSeed: a room given one seed sees every question's
// options in one order, however each person filtered or counted.
func TestOptionOrderStableForSeed(t *testing.T) {
	b := defaultBank(t)
	order := func(s *Session) map[string]string {
		out := map[string]string{}
		for _, p := range s.Questions() {
			var texts []string
			for _, o := range p.Options {
				texts = append(texts, o.Text)
			}
			out[p.Question.ID] = strings.Join(texts, "|")
		}
		return out
	}
	all, _ := NewSession(b, Filter{}, 0, 42)
	few, _ := NewSession(b, Filter{}, 7, 42)
	topic, _ := NewSession(b, Filter{Topic: "patches"}, 0, 42)
	want := order(all)
	for name, s := range map[string]*Session{"count 7": few, "topic patches": topic} {
		for id, got := range order(s) {
			if got != want[id] {
				t.Errorf("%s: %s shows its options as %q, the whole bank as %q", name, id, got, want[id])
			}
		}
	}
	other, _ := NewSession(b, Filter{}, 0, 43)
	if maps := order(other); len(maps) == len(want) {
		same := 0
		for id, o := range maps {
			if o == want[id] {
				same++
			}
		}
		if same == len(want) {
			t.Error("seeds 42 and 43 show every question's options in the same order")
		}
	}
}

// TestScoringFollowsTheShuffle: the displayed option the learner picks is
// scored by what it says, not by where the bank wrote it.
func TestScoringFollowsTheShuffle(t *testing.T) {
	b := defaultBank(t)
	s, err := NewSession(b, Filter{}, 0, 5)
	if err != nil {
		t.Fatal(err)
	}
	moved := 0
	for !s.Done() {
		p, _ := s.Current()
		right := p.Question.Options[p.Question.Answer()].Text
		if p.Correct() != p.Question.Answer() {
			moved++
		}
		if p.Options[p.Correct()].Text != right {
			t.Fatalf("%s: displayed answer %q, the bank's is %q", p.Question.ID, p.Options[p.Correct()].Text, right)
		}
		wrong := (p.Correct() + 1) % len(p.Options)
		r, err := s.Answer(wrong)
		if err != nil {
			t.Fatal(err)
		}
		if r.Right || r.Chosen != wrong || p.Options[r.Correct].Text != right {
			t.Fatalf("%s: result %+v", p.Question.ID, r)
		}
	}
	if moved == 0 {
		t.Fatal("no question's right answer moved from its bank place")
	}
}

func TestBankShape(t *testing.T) {
	b := defaultBank(t)
	p := coursePack(t)
	if n := len(b.Questions); n < 90 {
		t.Errorf("%d questions, want at least 90", n)
	}
	topics, levels := map[string]int{}, map[string]int{}
	repeats := 0
	for _, q := range b.Questions {
		if q.Topic == "" || q.Difficulty == "" {
			t.Errorf("%s:%d: %s: the built-in bank tags every question with a topic and a difficulty", q.File, q.Line, q.ID)
		}
		topics[q.Topic]++
		levels[q.Difficulty]++
		if q.Repeats != "" {
			repeats++
		}
		// A question that asks what a lesson step asks, about the same race,
		// repeats it and must say so: a race question playing a step's race
		// as the step plays it, a method question whose right strategy is the
		// one a choose step over the same race teaches.
		if step, ok := repeatedRace(q, p); ok && q.Repeats == "" {
			t.Errorf("%s:%d: %s asks again what %s asks, and does not say repeats", q.File, q.Line, q.ID, step)
		}
	}
	if repeats*3 > len(b.Questions) {
		t.Errorf("%d of %d questions repeat a lesson step, more than a third", repeats, len(b.Questions))
	}
	for _, name := range TopicNames() {
		if topics[name] < 3 {
			t.Errorf("topic %s has %d questions, want at least 3", name, topics[name])
		}
	}
	for _, d := range DifficultyOrder {
		if levels[d]*6 < len(b.Questions) {
			t.Errorf("difficulty %s has %d of %d questions, want at least a sixth", d, levels[d], len(b.Questions))
		}
	}
	t.Logf("%d questions; %d repeat a lesson step; topics %v; difficulties %v", len(b.Questions), repeats, topics, levels)
}

func TestTopicAndDifficultyErrors(t *testing.T) {
	head := "- id: x\n  kind: choice\n  lesson: versions\n  concepts: [resource-version]\n"
	tail := "  question: q\n  explanation: e\n  options:\n    - text: a\n      correct: true\n    - text: b\n"
	cases := map[string]string{
		head + "  topic: astrology\n  difficulty: basic\n" + tail:                     `f.yaml:5: x: topic: unknown topic "astrology": want one of apply, caches,`,
		head + "  topic: versions\n  difficulty: trivial\n" + tail:                    `f.yaml:6: x: difficulty: unknown difficulty "trivial": want one of basic, intermediate, advanced`,
		head + "  topic: versions\n  difficulty: basic\n  repeats: versions\n" + tail: `f.yaml:7: x: repeats: "versions": want LESSON/STEP`,
	}
	for src, want := range cases {
		_, err := Parse("f.yaml", []byte(src))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("want %q, got %v", want, err)
		}
	}
	if qs, err := Parse("f.yaml", []byte(head+tail)); err != nil || qs[0].Topic != "" || qs[0].Difficulty != "" {
		t.Errorf("a question without tags: %v", err)
	}
	ok := head + "  topic: versions\n  difficulty: advanced\n  repeats: versions/99\n" + tail
	b, err := Load(fstest.MapFS{"f.yaml": {Data: []byte(ok)}})
	if err != nil {
		t.Fatal(err)
	}
	if err := Verify(b, coursePack(t)); err == nil || !strings.Contains(err.Error(), `f.yaml:1: x: repeats: "versions/99": lesson versions has steps 1 to`) {
		t.Errorf("a step beyond the lesson: %v", err)
	}
}

func TestDifficultyFilter(t *testing.T) {
	b := defaultBank(t)
	for _, d := range DifficultyOrder {
		s, err := NewSession(b, Filter{Difficulty: d}, 0, 1)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range s.Questions() {
			if p.Question.Difficulty != d {
				t.Errorf("difficulty %s drew %s (%s)", d, p.Question.ID, p.Question.Difficulty)
			}
		}
	}
	if _, err := NewSession(b, Filter{Topic: "testing", Difficulty: "basic"}, 0, 1); err != nil && !errors.Is(err, ErrNoQuestions) {
		t.Fatal(err)
	}
	s, err := NewSession(b, Filter{Topic: "leader-election"}, 0, 1)
	if err != nil || s.Len() == 0 {
		t.Fatalf("topic tag leader-election: %v", err)
	}
}

// TestCodeShowsNoComments: a spot-the-bug snippet, as a question shows it,
// carries no comment — none can name the defect.
func TestCodeShowsNoComments(t *testing.T) {
	for _, q := range defaultBank(t).Questions {
		if q.Snippet == "" {
			continue
		}
		code, err := q.Code()
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(code, "//") || strings.Contains(code, "DEFECT") || strings.Contains(code, "/*") {
			t.Errorf("%s: the code shown before the answer has a comment:\n%s", q.ID, code)
		}
		if !strings.Contains(code, "func ") {
			t.Errorf("%s: the code lost its function:\n%s", q.ID, code)
		}
	}
	in := "// F forgets the RV.\nfunc F() {\n\ta := \"http://x\" // DEFECT: why\n\t/* block\n\tcomment */\n\tb := `//raw`\n\n}"
	want := "func F() {\n\ta := \"http://x\"\n\tb := `//raw`\n\n}"
	if got := lessons.SnippetBeforeAnswer(in); got != want {
		t.Errorf("SnippetBeforeAnswer:\n%q\nwant\n%q", got, want)
	}
}

// repeatedRace finds the lesson step whose race question q asks again.
func repeatedRace(q *Question, p *lessons.Pack) (string, bool) {
	if q.Kind != Race && q.Kind != Method {
		return "", false
	}
	var right *lessons.Strategy
	if q.Kind == Method {
		right = q.Options[q.Answer()].Strategy
	}
	for _, l := range p.Lessons {
		for i, st := range l.Steps {
			if st.Race == nil || st.Race.Scenario != q.Scenario || !slices.Equal(st.Race.Schedule, q.Schedule) || !slices.Equal(st.Race.Apply, q.Apply) {
				continue
			}
			switch {
			case q.Kind == Race && st.Kind != lessons.Choose:
				return fmt.Sprintf("%s/%d", l.ID, i+1), true
			case q.Kind == Method && st.Kind == lessons.Choose:
				for _, o := range st.Options {
					if o.Correct && o.Strategy != nil && reflect.DeepEqual(*o.Strategy, *right) {
						return fmt.Sprintf("%s/%d", l.ID, i+1), true
					}
				}
			}
		}
	}
	return "", false
}

// TestVerifyLeavesThePackAlone: the quiz races scenarios through the
// pack's race runtime, which reads those no lesson uses from the pack's
// folder; it never adds them to the pack (issue 16).
func TestVerifyLeavesThePackAlone(t *testing.T) {
	p := coursePack(t)
	const name = "scenarios/gen-deploy-annotate.yaml" // only the quiz races it
	if _, ok := p.Scenarios[name]; ok {
		t.Fatalf("a lesson races %s: pick another for this test", name)
	}
	n := len(p.Scenarios)
	if err := Verify(defaultBank(t), p); err != nil {
		t.Fatal(err)
	}
	if _, ok := p.Scenarios[name]; ok || len(p.Scenarios) != n {
		t.Errorf("Verify added %d scenarios to the pack", len(p.Scenarios)-n)
	}
}
