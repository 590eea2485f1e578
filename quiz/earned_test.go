package quiz

import (
	"strings"
	"testing"
	"testing/fstest"

	"github.com/conflictlab/conflictlab/lessons/answerbias"
	"github.com/conflictlab/conflictlab/lessons/racecache"
)

// TestBankEarnsItsAnswers runs the earned-answer checks over the built-in
// bank: each finding is printed as FILE:LINE; with answerbias.Enforce
// every finding no reviewed exception excuses fails the test.
// docs/earned-answers.md lists them with the course's.
func TestBankEarnsItsAnswers(t *testing.T) {
	b := defaultBank(t)
	r := Earned(b, racecache.New(coursePack(t)), "quiz/bank")
	if r.Questions != len(b.Questions) {
		t.Fatalf("%d questions checked of %d", r.Questions, len(b.Questions))
	}
	report := t.Log
	if answerbias.Enforce {
		report = t.Error
	}
	open := answerbias.Open(r.Findings)
	for _, f := range open {
		report(f.Error())
	}
	t.Logf("%d findings over %d questions (enforced: %v)", len(open), r.Questions, answerbias.Enforce)
}

// replayBank is two race questions on one race, the second asking what the
// first asks (the verdict), each with its own values.
const replayBank = `- id: first
  kind: race
  lesson: lost-update
  concepts: [lost-update]
  question: a and b race as in the lesson. Is anything lost?
  scenario: scenarios/lost-update.yaml
  schedule: [a, b, a, b]
  options:
    - text: "Yes: data.owner is erased by b's write"
      correct: true
      claims: [{verdict: lost}]
    - text: "No: both keys are kept"
      claims: [{verdict: no-loss}]
  explanation: e
- id: second
  kind: race
  lesson: lost-update
  concepts: [lost-update]
  question: The same order again. How does it end?
  scenario: scenarios/lost-update.yaml
  schedule: [a, b, a, b]
  options:
    - text: "Nothing lost: b wrote its own key"
      claims: [{verdict: no-loss}]
    - text: "Lost: a's key is gone"
      correct: true
      claims: [{verdict: lost}]
  explanation: e
%s`

func TestReplaysInTheBank(t *testing.T) {
	load := func(extra string) []answerbias.Finding {
		t.Helper()
		b, err := Load(fstest.MapFS{"q.yaml": {Data: []byte(strings.Replace(replayBank, "%s", extra, 1))}})
		if err != nil {
			t.Fatal(err)
		}
		return Replays(b, racecache.New(coursePack(t)), "bank")
	}
	fs := load("")
	var second []string
	for _, f := range fs {
		if f.Field == "second" {
			second = append(second, f.Error())
		}
	}
	if len(second) != 1 || !strings.Contains(second[0], "bank/q.yaml:15: second: replay: it asks the verdict of the race question first (bank/q.yaml:1) asks it of") {
		t.Fatalf("findings %v", fs)
	}
	// The lesson plays this race in its first step: a question that
	// repeats it says so, or is reported.
	var first []string
	for _, f := range fs {
		if f.Field == "first" {
			first = append(first, f.Msg)
		}
	}
	if len(first) != 1 || !strings.Contains(first[0], "does not say it repeats it") {
		t.Errorf("the undeclared repeat of the lesson: %v", first)
	}
}

func TestReviewedInTheBank(t *testing.T) {
	src := strings.Replace(replayBank, "%s", "", 1)
	src = strings.Replace(src, "  explanation: e\n- id: second", "  explanation: e\n  reviewed: {replay: \"the lesson's own race, asked as a warm-up\"}\n- id: second", 1)
	src = strings.Replace(src, "    - text: \"No: both keys are kept\"\n", "    - text: \"No: both keys are kept\"\n      reviewed: {stem-excludes: \"kept for review\"}\n", 1)
	b, err := Load(fstest.MapFS{"q.yaml": {Data: []byte(src)}})
	if err != nil {
		t.Fatal(err)
	}
	q := b.Questions[0]
	if q.Reviewed["replay"] == "" || q.Options[1].Reviewed["stem-excludes"] != "kept for review" {
		t.Fatalf("reviewed: %v, %v", q.Reviewed, q.Options[1].Reviewed)
	}
	for _, f := range Replays(b, racecache.New(coursePack(t)), "bank") {
		if f.Field == "first" && f.Excused == "" {
			t.Errorf("the reviewed replay is not excused: %v", f)
		}
	}
	_, err = Load(fstest.MapFS{"q.yaml": {Data: []byte(strings.Replace(src, "reviewed: {replay:", "reviewed: {cue:", 1))}})
	if err == nil || !strings.Contains(err.Error(), `q.yaml:16: first.reviewed.cue: "cue" is no check a file can excuse`) {
		t.Errorf("an unknown check: %v", err)
	}
}
