package validate

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/conflictlab/conflictlab/lessons"
	"github.com/conflictlab/conflictlab/lessons/answerbias"
)

// stemExcluded is the example pack with a wrong option the stem rules
// out: its text says the patches carry no resourceVersion, and the option
// says b gets a 409.
func stemExcluded(t *testing.T, reviewed string) *lessons.Pack {
	return examplePack(t,
		"adds one and sends a merge patch\n      of the result.",
		"adds one and sends a merge patch\n      of the result, with no resourceVersion.",
		`        label: "2 — both increments are counted"`,
		`        label: "2 — b's patch gets a 409 and is retried"`+reviewed)
}

// The earned-answer findings are warnings, until they are enforced.
func TestEarnedFindingsWarnUntilEnforced(t *testing.T) {
	p := stemExcluded(t, "")
	r := Run(p, Options{})
	if err := errors.Join(r.Problems...); err != nil {
		t.Fatalf("reported as problems: %v", err)
	}
	want := "01-counting.yaml:26: steps[0].options[0]: warning: stem-excludes: the stem says the write carries no resourceVersion"
	if !strings.Contains(errors.Join(r.Warnings...).Error(), want) {
		t.Fatalf("warnings lack %q:\n%v", want, errors.Join(r.Warnings...))
	}
	r = Run(p, Options{Enforce: true})
	if err := errors.Join(r.Problems...); err == nil || !strings.Contains(err.Error(), "01-counting.yaml:26: steps[0].options[0]: stem-excludes:") {
		t.Fatalf("enforced, the problems are %v", err)
	}
}

// A reviewed exception lets the finding stand, with its reason, and
// excuses nothing else.
func TestReviewedException(t *testing.T) {
	p := stemExcluded(t, "\n        reviewed: {stem-excludes: \"a learner who thinks every stale write is refused picks it\"}")
	if o := p.Lessons[0].Steps[0].Options[0]; o.Reviewed["stem-excludes"] == "" {
		t.Fatalf("the option's reviewed exception was not read: %+v", o)
	}
	r := Run(p, Options{Enforce: true})
	for _, e := range r.Problems {
		if strings.Contains(e.Error(), "stem-excludes") {
			t.Errorf("an excused finding is a problem: %v", e)
		}
	}
	excused := 0
	for _, f := range r.Earned.Findings {
		if f.Check == answerbias.StemExcludes && f.Excused != "" {
			excused++
		}
	}
	if excused != 1 {
		t.Errorf("%d excused findings, want 1: %+v", excused, r.Earned.Findings)
	}
}

// The course's play rules: which lessons need a break-it step, and how
// many break-it races need three controllers or decoy moves.
func TestCourseFindings(t *testing.T) {
	var ls []*lessons.Lesson
	for range 16 {
		ls = append(ls, &lessons.Lesson{ID: "l", File: "f.yaml"})
	}
	fs := CourseFindings(&lessons.Pack{Lessons: ls}, nil)
	var msgs []string
	for _, f := range fs {
		msgs = append(msgs, f.Error())
	}
	joined := strings.Join(msgs, "\n")
	for _, n := range BreakLessons {
		if !strings.Contains(joined, fmt.Sprintf("lesson %d (l) has no break-it step", n)) {
			t.Errorf("lesson %d not reported:\n%s", n, joined)
		}
	}
	if !strings.Contains(joined, "0 break-it steps have three controllers or decoy moves; the course needs at least 3") {
		t.Errorf("the rich-break rule not reported:\n%s", joined)
	}
	if len(fs) != len(BreakLessons)+1 {
		t.Errorf("%d findings:\n%s", len(fs), joined)
	}
}
