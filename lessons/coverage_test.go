package lessons

import (
	"fmt"
	"path"
	"regexp"
	"strings"
	"testing"

	"github.com/conflictlab/conflictlab/lessons/snippets"
)

func loadCourse(t *testing.T) *Pack {
	t.Helper()
	p, err := Course()
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestCourseCoversEveryConcept: every idea of the source notes is taught by
// some lesson, and every lesson that claims to teach something shows it
// in at least one race.
func TestCourseCoversEveryConcept(t *testing.T) {
	p := loadCourse(t)
	taught := map[string][]string{}
	for _, l := range p.Lessons {
		if len(l.Concepts) == 0 {
			t.Errorf("%s: tags no concept", l.File)
		}
		races := 0
		for _, s := range l.Steps {
			if s.Race != nil {
				races++
			}
		}
		if races == 0 {
			t.Errorf("%s: tags %v but no step has a race to show them", l.File, l.Concepts)
		}
		for _, c := range l.Concepts {
			taught[c] = append(taught[c], l.ID)
		}
	}
	for key := range Concepts {
		if len(taught[key]) == 0 {
			t.Errorf("concept %q (%s) is taught by no lesson", key, Concepts[key])
		}
	}
}

// TestCourseSnippetsExist: every code: name the course shows is a region
// of lessons/snippets.
func TestCourseSnippetsExist(t *testing.T) {
	p := loadCourse(t)
	for _, l := range p.Lessons {
		for i, s := range l.Steps {
			names := []string{s.Code}
			for _, o := range s.Options {
				names = append(names, o.Code)
			}
			for _, n := range names {
				if n == "" {
					continue
				}
				if _, err := snippets.Get(n); err != nil {
					t.Errorf("%s:%d: steps[%d]: code %q: %v", l.File, s.Line, i, n, err)
				}
			}
		}
	}
}

// TestStrategiesNameSnippets: whatever shows a way of writing has code to
// go with it — every choose option, and every step that plays a race.
func TestStrategiesNameSnippets(t *testing.T) {
	p := loadCourse(t)
	for _, l := range p.Lessons {
		for i, s := range l.Steps {
			if s.Race != nil && s.Kind != Choose && s.Code == "" {
				t.Errorf("%s:%d: steps[%d] plays a race but names no code", l.File, s.Line, i)
			}
			for k, o := range s.Options {
				if o.Strategy != nil && o.Code == "" {
					t.Errorf("%s:%d: steps[%d].options[%d] (%s) has a strategy but names no code", l.File, o.Line, i, k, o.ID)
				}
			}
		}
	}
}

var lessonFileName = regexp.MustCompile(`^(\d\d)-([a-z0-9-]+)\.yaml$`)

// TestCourseOrder: lessons are NN-id.yaml, and following next from the
// first visits every lesson once, in file order.
func TestCourseOrder(t *testing.T) {
	p := loadCourse(t)
	for i, l := range p.Lessons {
		m := lessonFileName.FindStringSubmatch(path.Base(l.File))
		if m == nil || m[1] != fmt.Sprintf("%02d", i+1) || m[2] != l.ID {
			t.Errorf("%s: want %02d-%s.yaml", l.File, i+1, l.ID)
		}
		want := ""
		if i+1 < len(p.Lessons) {
			want = p.Lessons[i+1].ID
		}
		if l.Next != want {
			t.Errorf("%s: next is %q, want %q", l.File, l.Next, want)
		}
	}
}

// TestQuestionsAreComplete: every question step has feedback on every
// option, a hint and a solution (the loader checks most of it; feedback
// must also say something about the race, not just "wrong").
func TestQuestionsAreComplete(t *testing.T) {
	p := loadCourse(t)
	for _, l := range p.Lessons {
		if len(l.Summary) != 2 {
			t.Errorf("%s: summary has %d lines", l.File, len(l.Summary))
		}
		for i, s := range l.Steps {
			if s.Kind == Read {
				continue
			}
			if strings.TrimSpace(s.Solution) == "" || strings.TrimSpace(s.Hint) == "" {
				t.Errorf("%s:%d: steps[%d] lacks a hint or a solution", l.File, s.Line, i)
			}
			for _, o := range s.Options {
				if len(strings.Fields(o.Feedback)) < 5 {
					t.Errorf("%s:%d: option %s: feedback %q is too thin", l.File, o.Line, o.ID, o.Feedback)
				}
			}
		}
	}
}
