package progress

import (
	"encoding/json"
	"testing"
)

// The first answer is the scored one: what is tried after it adds
// attempts, never changes FirstTry or the option kept.
func TestRecordFirstKeepsTheFirstAnswer(t *testing.T) {
	var l Lesson
	l.RecordFirst(2, "both", false)
	a := l.RecordFirst(2, "replicas", true)
	if a.Attempts != 2 || !a.Correct || a.FirstTry || a.Picked != "both" {
		t.Fatalf("after a wrong then a right answer: %+v", a)
	}
	if got := l.Tally([]bool{false, false, true}); got != (Tally{Questions: 1, Answered: 1, Right: 0}) || !got.Complete() {
		t.Fatalf("tally: %+v", got)
	}
}

// Skipped questions leave a lesson incomplete; answers to steps that ask
// no question (an older course) are not counted.
func TestTallyCountsOnlyQuestionSteps(t *testing.T) {
	var l Lesson
	l.RecordFirst(0, "x", true)
	l.RecordFirst(1, "y", true) // step 1 is a read step now
	got := l.Tally([]bool{true, false, true})
	if got != (Tally{Questions: 2, Answered: 1, Right: 1}) || got.Complete() {
		t.Fatalf("tally: %+v, complete %v", got, got.Complete())
	}
}

// Two sessions answer the same step: the answer saved first was given
// first, so its option stays with its FirstTry; and a file from a build
// without the field loads with the option unknown.
func TestMergeKeepsTheFirstSavedPick(t *testing.T) {
	disk, base, mine := New(), New(), New()
	disk.Lesson("l").RecordFirst(0, "right", true)
	mine.Lesson("l").RecordFirst(0, "wrong", false)
	got := Merge(disk, base, mine).Lessons["l"].Answers[0]
	if got.Picked != "right" || !got.FirstTry || got.Attempts != 2 {
		t.Fatalf("merged answer: %+v", got)
	}
	var p Progress
	if err := json.Unmarshal([]byte(`{"version":1,"lessons":{"l":{"step":0,"done":false,"answers":{"0":{"attempts":1,"correct":true,"firstTry":true}}}}}`), &p); err != nil {
		t.Fatal(err)
	}
	if a := p.Lessons["l"].Answers[0]; a.Picked != "" || !a.FirstTry {
		t.Fatalf("old file: %+v", a)
	}
}
