package answerbias

import (
	"reflect"
	"strings"
	"testing"
)

func TestWords(t *testing.T) {
	for _, c := range []struct {
		text string
		want []string
	}{
		{"c's copy carries RV 101", []string{"c", "copy", "carry", "rv", "101"}},
		{"`RetryOnConflict` retries", []string{"retry", "conflict", "retry"}},
		{"erase, erased, erasing, erases", []string{"eras", "eras", "eras", "eras"}},
		{"deletes w1 and cm1 in 20ms", []string{"delet", "w1", "cm1", "20ms"}},
		{"**data.owner** is LOST", []string{"data", "owner", "lost"}},
	} {
		if got := Words(c.text); !reflect.DeepEqual(got, c.want) {
			t.Errorf("Words(%q) = %q, want %q", c.text, got, c.want)
		}
	}
}

// question is a three-option question whose option right is right.
func question(stem string, right int, labels ...string) Question {
	q := Question{File: "l.yaml", Line: 10, Field: "steps[1]", Stem: stem, Shown: []Shown{{Where: "the text", Text: stem}}}
	for i, l := range labels {
		q.Options = append(q.Options, Option{Text: l, Right: i == right, Line: 20 + i, Field: "steps[1].options"})
	}
	return q
}

func only(t *testing.T, fs []Finding, check CheckName) []Finding {
	t.Helper()
	var out []Finding
	for _, f := range fs {
		if f.Check == check {
			out = append(out, f)
		}
	}
	return out
}

func TestEcho(t *testing.T) {
	stem := "c takes the copy its Lister holds and sends an update carrying that copy's resourceVersion."
	q := question(stem, 1,
		"200: the cache is only a moment old",
		"409: the update carrying that copy's resourceVersion is refused",
		"200, and w's change is lost")
	fs := only(t, Check(q), Echo)
	if len(fs) != 1 || fs[0].Line != 21 || !strings.Contains(fs[0].Msg, `"update carrying that copy's resourceVersion" echoes the text, and only the right option says it`) {
		t.Fatalf("findings %v", fs)
	}
	// A wrong option that echoes as well: the echo tells nothing.
	q.Options[2].Text = "200: an update carrying that copy's resourceVersion is taken"
	if fs := only(t, Check(q), Echo); len(fs) != 0 {
		t.Errorf("an echo in a right and a wrong option is reported: %v", fs)
	}
	// Two words in a row are no phrase.
	q = question(stem, 0, "409: a stale copy", "200: the Lister holds", "422")
	if fs := only(t, Check(q), Echo); len(fs) != 0 {
		t.Errorf("a two-word echo is reported: %v", fs)
	}
	// Only a wrong option echoes: avoiding the echo picks the right one.
	q = question(stem, 0, "409 Conflict", "200: it sends an update carrying that copy's resourceVersion", "422 Invalid")
	if fs := only(t, Check(q), Echo); len(fs) != 1 || !strings.Contains(fs[0].Msg, "only a wrong option says it") {
		t.Errorf("findings %v", fs)
	}
}

func TestReason(t *testing.T) {
	q := question("What does c's update get?", 0, "409: c's copy is older than the server's", "200", "422 Invalid")
	if fs := only(t, Check(q), Reason); len(fs) != 1 || fs[0].Line != 10 || !strings.Contains(fs[0].Msg, "the right option gives a reason and no wrong one does") {
		t.Fatalf("findings %v", fs)
	}
	q = question("What does c's update get?", 0, "409 Conflict", "200, because the cache is fresh enough", "422: the RV is malformed")
	if fs := only(t, Check(q), Reason); len(fs) != 1 || !strings.Contains(fs[0].Msg, "every wrong option gives a reason") {
		t.Fatalf("findings %v", fs)
	}
	q = question("What does c's update get?", 0, "409: c's copy is old", "200, because the cache is fresh enough", "422 Invalid")
	if fs := only(t, Check(q), Reason); len(fs) != 0 {
		t.Errorf("a mixed question is reported: %v", fs)
	}
}

func TestStemExcludes(t *testing.T) {
	for _, c := range []struct {
		name, stem string
		wrong      Option
		want       string // "" when nothing is excluded
	}{
		{"no RV, a 409 in words", "It sends a merge patch with no resourceVersion. What does b get?", Option{Text: "409: b's patch is stale"}, "carries no resourceVersion"},
		{"no RV, a 409 in claims", "It sends a merge patch without the `resourceVersion`.", Option{Text: "b's patch is refused", Codes: []int{409}}, "carries no resourceVersion"},
		{"no RV, no conflict claimed", "It sends a merge patch with no resourceVersion.", Option{Text: "200, without a conflict"}, ""},
		{"no RV, but an apply", "c applies with no resourceVersion.", Option{Text: "409 naming w"}, ""},
		{"a read asked", "What does status's read get?", Option{Text: "409: the patch changed w1"}, "a read is never answered"},
		{"a write asked", "What does b get?", Option{Text: "409: b's copy is stale"}, ""},
		{"nobody else", "It runs against a ConfigMap nobody else touches.", Option{Text: "a conflict is retried with the same copy"}, "nobody else writes"},
		{"one attempt", "c updates once, with one attempt.", Option{Text: "c retries and lands"}, "one attempt"},
	} {
		q := question(c.stem, 0, "right", "other")
		c.wrong.Line, c.wrong.Field = 30, "steps[1].options[2]"
		q.Options = append(q.Options, c.wrong)
		fs := only(t, Check(q), StemExcludes)
		switch {
		case c.want == "" && len(fs) > 0:
			t.Errorf("%s: %v", c.name, fs)
		case c.want != "" && (len(fs) != 1 || fs[0].Line != 30 || !strings.Contains(fs[0].Msg, c.want)):
			t.Errorf("%s: findings %v, want one at line 30 with %q", c.name, fs, c.want)
		}
	}
}

func TestTwoRight(t *testing.T) {
	q := question("What should c do?", 0, "retry", "requeue", "log")
	q.Options[1].Right = true
	if fs := only(t, Check(q), TwoRight); len(fs) != 1 || !strings.Contains(fs[0].Msg, "options a, b are all right") {
		t.Fatalf("findings %v", fs)
	}
	q.Options[1].Right = false
	if fs := only(t, Check(q), TwoRight); len(fs) != 0 {
		t.Errorf("one right option reported: %v", fs)
	}
}

func TestTitle(t *testing.T) {
	q := question("ops deletes w1, which carries a finalizer. What is w1 now?", 1, "Gone", "Still there, marked for deletion", "Refused with 409")
	q.Title = "Delete, and it stays"
	if fs := only(t, Check(q), Title); len(fs) != 1 || !strings.Contains(fs[0].Msg, `says "stays"`) {
		t.Fatalf("findings %v", fs)
	}
	q.Title = "Delete an object with a finalizer"
	if fs := only(t, Check(q), Title); len(fs) != 0 {
		t.Errorf("a title naming the situation is reported: %v", fs)
	}
	q.Title = "Marked, not removed"
	if fs := only(t, Check(q), Title); len(fs) != 1 || !strings.Contains(fs[0].Msg, `"mark", which only the right option shares`) {
		t.Errorf("findings %v", fs)
	}
	q = question("What is wrong with SetOwnerUntilItWorks?", 0, "no bound", "nothing", "it gives up")
	if fs := only(t, Check(q), Title); len(fs) != 1 || !strings.Contains(fs[0].Msg, "SetOwnerUntilItWorks") {
		t.Errorf("findings %v", fs)
	}
}

// A reviewed exception excuses its check where it is marked, and only
// that check.
func TestReviewedExcuses(t *testing.T) {
	q := question("It sends a merge patch with no resourceVersion. What is data.count?", 0, "1: one increment lost", "2: both counted", "409: b's patch is stale")
	q.Options[2].Reviewed = map[CheckName]string{StemExcludes: "a learner who believes every stale write conflicts picks it"}
	var fs []Finding
	for _, f := range Check(q) {
		if f.Check == StemExcludes {
			fs = append(fs, f)
		}
	}
	if len(fs) != 1 || fs[0].Excused == "" {
		t.Fatalf("findings %v: want one, excused", fs)
	}
	q.Options[2].Reviewed = map[CheckName]string{Echo: "why"}
	if fs := only(t, Check(q), StemExcludes); len(fs) != 1 || fs[0].Excused != "" {
		t.Errorf("another check's exception excused it: %v", fs)
	}
	q.Options[2].Reviewed = nil
	q.Reviewed = map[CheckName]string{StemExcludes: "why"}
	if fs := only(t, Check(q), StemExcludes); len(fs) != 1 || fs[0].Excused == "" {
		t.Errorf("the question's exception did not excuse it: %v", fs)
	}
}
