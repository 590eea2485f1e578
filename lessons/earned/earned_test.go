package earned

import (
	"context"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/conflictlab/conflictlab/lessons"
	"github.com/conflictlab/conflictlab/lessons/answerbias"
	"github.com/conflictlab/conflictlab/lessons/lint"
	"github.com/conflictlab/conflictlab/lessons/playgoal"
)

var (
	once   sync.Once
	report *Report
	built  error
)

// course is the report without the sandbox (measured once for every test
// here: it runs every race of the course).
func course(t *testing.T) *Report {
	t.Helper()
	once.Do(func() { report, built = Build(false) })
	if built != nil {
		t.Fatal(built)
	}
	return report
}

// TestCourseClaimsHold is `lessons validate` over the built-in course:
// every claim of every step holds in the simulator, every correct answer
// is confirmed and every wrong one refuted, every par proven — and, with
// answerbias.Enforce, no earned-answer finding is left open.
func TestCourseClaimsHold(t *testing.T) {
	for _, e := range course(t).Course.Problems {
		t.Error(e)
	}
}

// TestCourseHasNoAnswerBias: the built-in course's right answers are
// neither systematically the longest nor in one position.
func TestCourseHasNoAnswerBias(t *testing.T) {
	p, err := lessons.Course()
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range lint.Bias(p) {
		t.Error(w)
	}
}

// TestCourseEarnsItsAnswers lists the course's earned-answer findings as
// FILE:LINE; they fail the course once answerbias.Enforce is set (then as
// problems of TestCourseClaimsHold too).
func TestCourseEarnsItsAnswers(t *testing.T) {
	r := course(t)
	report := t.Log
	if answerbias.Enforce {
		report = t.Error
	}
	open := answerbias.Open(r.Course.Earned.Findings)
	for _, f := range open {
		report(f.Error())
	}
	t.Logf("%d findings over %d questions and %d play steps (enforced: %v)", len(open), r.Course.Earned.Questions, len(r.Course.Plays), answerbias.Enforce)
}

// TestEarnedAnswersPage: docs/earned-answers.md says what the content is
// today — its course and quiz part is the report as generated now, and its
// sandbox part was measured from the challenges as they are.
func TestEarnedAnswersPage(t *testing.T) {
	data, err := os.ReadFile("../../docs/earned-answers.md")
	if err != nil {
		t.Fatal(err)
	}
	page := string(data)
	const fix = "run `go run . lessons report -w docs/earned-answers.md`"
	got, ok := Main.In(page)
	if !ok {
		t.Fatalf("docs/earned-answers.md lacks its markers %q … %q", Main.Begin, Main.End)
	}
	if want := course(t).Markdown(); got != want {
		t.Errorf("docs/earned-answers.md is stale: %s\n%s", fix, firstDifference(got, want))
	}
	box, ok := Sandbox.In(page)
	if !ok {
		t.Fatalf("docs/earned-answers.md lacks its markers %q … %q", Sandbox.Begin, Sandbox.End)
	}
	digest, err := ChallengesDigest()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(box, "`"+digest+"`") {
		t.Errorf("the sandbox's challenges changed since docs/earned-answers.md measured them (it has no %q): %s", digest, fix)
	}
	// The challenges, as measured, keep the play steps' rules: every row
	// of the table ends "ok".
	rows := 0
	for _, l := range strings.Split(box, "\n") {
		if !strings.HasPrefix(l, "| ") || strings.HasPrefix(l, "| challenge ") {
			continue
		}
		rows++
		if !strings.HasSuffix(l, "| ok |") {
			t.Errorf("a sandbox challenge leaves too little to search: %s", l)
		}
	}
	if rows == 0 {
		t.Error("docs/earned-answers.md measures no sandbox challenge")
	}
}

func firstDifference(got, want string) string {
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := range max(len(g), len(w)) {
		var a, b string
		if i < len(g) {
			a = g[i]
		}
		if i < len(w) {
			b = w[i]
		}
		if a != b {
			return fmt.Sprintf("line %d of the part", i+1) + ":\n  page: " + a + "\n  now:  " + b
		}
	}
	return ""
}

// Replace and In are each other's inverse, and leave the rest alone.
func TestBlocks(t *testing.T) {
	page := "# Page\n\n" + Main.Begin + "\nold\n" + Main.End + "\ntail\n"
	out, err := Main.Replace(page, "new\ntext\n")
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := Main.In(out); got != "new\ntext\n" {
		t.Errorf("In after Replace: %q", got)
	}
	if !strings.HasPrefix(out, "# Page\n\n") || !strings.HasSuffix(out, Main.End+"\ntail\n") {
		t.Errorf("page: %q", out)
	}
	if _, err := Sandbox.Replace(page, "x"); err == nil {
		t.Error("a page without the sandbox markers took the sandbox part")
	}
}

// BenchmarkRoom measures what the room of the course's play steps costs
// on top of proving their par: each sub-benchmark is one pass over every
// play step (run them in one go and compare: go test -bench Room).
func BenchmarkRoom(b *testing.B) {
	p, err := lessons.Course()
	if err != nil {
		b.Fatal(err)
	}
	each := func(b *testing.B, f func(l *lessons.Lesson, s lessons.Step)) {
		for b.Loop() {
			for _, l := range p.Lessons {
				for _, s := range l.Steps {
					if s.Kind == lessons.Play {
						f(l, s)
					}
				}
			}
		}
	}
	b.Run("prove", func(b *testing.B) {
		each(b, func(l *lessons.Lesson, s lessons.Step) { playgoal.Prove(p, l, s, "steps") })
	})
	b.Run("prove+room", func(b *testing.B) {
		each(b, func(l *lessons.Lesson, s lessons.Step) { playgoal.Check(context.Background(), p, l, s, "steps") })
	})
	b.Run("sandbox", func(b *testing.B) {
		for b.Loop() {
			if _, err := Challenges(context.Background()); err != nil {
				b.Fatal(err)
			}
		}
	})
}
