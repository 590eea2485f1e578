package lessons

import (
	"os"
	"regexp"
	"testing"
)

// The README's course table lists the built-in course: one row per lesson,
// in order, under the lesson's own title.
func TestReadmeCourseTable(t *testing.T) {
	data, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	rows := regexp.MustCompile(`(?m)^\| (\d+) \| ([^|]+?) \| [^|]+ \|$`).FindAllStringSubmatch(string(data), -1)
	p := loadCourse(t)
	if len(rows) != len(p.Lessons) {
		t.Fatalf("README lists %d lessons, the course has %d", len(rows), len(p.Lessons))
	}
	for i, l := range p.Lessons {
		if rows[i][2] != l.Title {
			t.Errorf("README row %s: %q, lesson %d is %q", rows[i][1], rows[i][2], i+1, l.Title)
		}
	}
}
