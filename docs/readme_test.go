package docs

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/conflictlab/conflictlab/examples"
	"github.com/conflictlab/conflictlab/lessons"
	"github.com/conflictlab/conflictlab/quiz"
	"github.com/conflictlab/conflictlab/sandbox/challenges"
)

// TestReadmeCounts: what the README counts is what the course holds —
// the lessons, the quiz's questions, its topics and difficulties, the
// examples, the sandbox's challenges, and which lessons have a break-it or
// a fix-it step. (lessons/readme_test.go holds the course table to the
// lessons' titles.)
func TestReadmeCounts(t *testing.T) {
	readme := strings.Join(strings.Fields(readDoc(t, "README.md")), " ")
	course, err := lessons.Course()
	if err != nil {
		t.Fatal(err)
	}
	bank, err := quiz.Default()
	if err != nil {
		t.Fatal(err)
	}
	chs, err := challenges.All()
	if err != nil {
		t.Fatal(err)
	}
	var breaks, fixes []int
	for i, l := range course.Lessons {
		for _, s := range l.Steps {
			switch {
			case s.Goal == nil:
			case s.Goal.IsBreak():
				breaks = appendOnce(breaks, i+1)
			default:
				fixes = appendOnce(fixes, i+1)
			}
		}
	}
	for _, c := range []struct {
		what    string
		pattern string // its one group is what the README says
		want    string
		same    func(readme, want string) bool
	}{
		{"lessons (lessons.Course)", `(\w+) lessons, each letting you`, strconv.Itoa(len(course.Lessons)), sameNumber},
		{"quiz questions (quiz.Default)", `(\w+) interview-style questions`, strconv.Itoa(len(bank.Questions)), sameNumber},
		{"quiz topics (quiz.TopicNames)", `each tagged with a topic \(([^)]*)\)`, strings.Join(quiz.TopicNames(), ","), sameSet},
		{"quiz difficulties (quiz.DifficultyOrder)", `--difficulty ([a-z|]+)\]`, strings.Join(quiz.DifficultyOrder, "|"), equal},
		{"examples (examples.Names)", "the (\\w+) examples in `examples/`", strconv.Itoa(len(examples.Names())), sameNumber},
		{"sandbox challenges (challenges.All)", `(\w+) challenges — levels`, strconv.Itoa(len(chs)), sameNumber},
		{"lessons with a break-it step", `Lessons ([0-9, and]+) have a break-it step`, joinInts(breaks), sameSet},
		{"lessons with a fix-it step", `have a break-it step; ([0-9, and]+) a fix-it step`, joinInts(fixes), sameSet},
	} {
		m := regexp.MustCompile(c.pattern).FindStringSubmatch(readme)
		if m == nil {
			t.Errorf("README.md: no %q, where it counts the %s", c.pattern, c.what)
			continue
		}
		if !c.same(m[1], c.want) {
			t.Errorf("README.md says %q %s; the course has %s", m[1], c.what, c.want)
		}
	}
}

func appendOnce(s []int, n int) []int {
	if !slices.Contains(s, n) {
		s = append(s, n)
	}
	return s
}

func joinInts(ns []int) string {
	var out []string
	for _, n := range ns {
		out = append(out, strconv.Itoa(n))
	}
	return strings.Join(out, ",")
}

func equal(a, b string) bool { return a == b }

// sameSet: the README's list ("2, 3, 6 and 12", "versions, caches, …")
// holds the same items as want (comma-separated).
func sameSet(readme, want string) bool {
	items := strings.FieldsFunc(strings.ReplaceAll(readme, " and ", ","), func(r rune) bool { return r == ',' || r == ' ' })
	w := strings.Split(want, ",")
	slices.Sort(items)
	slices.Sort(w)
	return slices.Equal(items, w)
}

// sameNumber: the README's count, in digits or in words ("Seventeen"), is
// want.
func sameNumber(readme, want string) bool {
	n, err := parseCount(readme)
	return err == nil && strconv.Itoa(n) == want
}

var (
	units = []string{"zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
		"eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen"}
	tens = []string{"", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"}
)

// parseCount reads a count written in digits or in English words below
// a hundred ("Seventeen", "twenty-one").
func parseCount(s string) (int, error) {
	if n, err := strconv.Atoi(s); err == nil {
		return n, nil
	}
	s = strings.ToLower(s)
	if i := slices.Index(units, s); i >= 0 {
		return i, nil
	}
	ten, unit, _ := strings.Cut(s, "-")
	if i := slices.Index(tens, ten); i >= 2 {
		if unit == "" {
			return 10 * i, nil
		}
		if j := slices.Index(units, unit); j >= 1 && j <= 9 {
			return 10*i + j, nil
		}
	}
	return 0, fmt.Errorf("%q is not a count", s)
}

func TestParseCount(t *testing.T) {
	for s, want := range map[string]int{"Seventeen": 17, "six": 6, "133": 133, "twenty-one": 21, "Forty": 40} {
		if n, err := parseCount(s); err != nil || n != want {
			t.Errorf("parseCount(%q) = %d, %v; want %d", s, n, err, want)
		}
	}
	if _, err := parseCount("many"); err == nil {
		t.Error(`parseCount("many") is a count`)
	}
}
