package lint_test

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/conflictlab/conflictlab/lessons"
	"github.com/conflictlab/conflictlab/lessons/lint"
	"github.com/conflictlab/conflictlab/ui/raceview"
	"github.com/conflictlab/conflictlab/ui/styles"
)

// TestScreenPartsAreTheRaceViewsColumns ties lint.ScreenParts to the race
// view as it draws: every column a text may name is a heading of the
// timeline, and every heading of the timeline that is not a controller's
// own column is one a text may name. The race is the course's stale-cache
// read step (two controllers, a cache), drawn in both layouts — lanes side
// by side at 120 columns, one "who: request → answer" column at 60.
func TestScreenPartsAreTheRaceViewsColumns(t *testing.T) {
	p, err := lessons.Course()
	if err != nil {
		t.Fatal(err)
	}
	l := p.Lesson("stale-cache")
	if l == nil || len(l.Steps) < 2 || l.Steps[1].Race == nil {
		t.Fatal("the course's stale-cache lesson no longer has its read step with a race")
	}
	s := l.Steps[1]
	o, err := p.Run(s, nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, c := range o.Controllers {
		names = append(names, strings.ToLower(c.Name))
	}
	headings := map[string]bool{}
	for _, w := range []int{120, 60} {
		m := raceview.New(styles.New(true, true))
		m.SetRun(&raceview.Run{Outcome: o}, false)
		m.SetSize(w, 30)
		header := ""
		for _, line := range strings.Split(ansi.Strip(m.View()), "\n") {
			if strings.HasPrefix(line, "   #") {
				header = line
				break
			}
		}
		if header == "" {
			t.Fatalf("at %d columns the race view has no timeline header:\n%s", w, ansi.Strip(m.View()))
		}
		// The step number and the clock come first ("   #  t"), a space apart.
		header = regexp.MustCompile(`^\s*#(\s+t\b)?`).ReplaceAllString(header, "")
		for _, h := range regexp.MustCompile(`\s{2,}`).Split(strings.TrimSpace(header), -1) {
			h = strings.ToLower(strings.TrimSpace(h))
			switch {
			case slices.Contains(names, h):
				// a controller's own column
			case strings.HasPrefix(h, "who:"):
				// the one-column layout's own column, named by its rows
			case strings.HasPrefix(h, "cache "):
				headings["cache"] = true // "cache w/c": the caches of w and c
			default:
				headings[h] = true
			}
		}
	}
	parts := lint.ScreenParts["column"]
	for h := range headings {
		if !slices.Contains(parts, h) {
			t.Errorf("the race view has a %q column that lint.ScreenParts does not let a text name (parts: %v)", h, parts)
		}
	}
	words := map[string]bool{}
	for h := range headings {
		for _, w := range strings.Fields(h) {
			words[w], words[w+"s"] = true, true // "caches": more than one cache column
		}
	}
	for _, part := range parts {
		for _, w := range strings.Fields(part) {
			if !words[w] {
				t.Errorf("lint.ScreenParts lets a text name the %q column, but the race view heads no column %q (headings: %v)", part, w, headings)
			}
		}
	}
}
