// Package lint holds the content linters of a lesson pack: what a race
// is shown beside (code.go: the code must be what the race plays), what a
// text may point at (screen.go: only what is on the screen), and what
// gives an answer away before it is earned (bias.go).
package lint

import (
	"github.com/conflictlab/conflictlab/lessons"
	"github.com/conflictlab/conflictlab/lessons/answerbias"
)

// An answer must be earned, not spotted. A learner soon notices when the
// right option is the longest one (the only one that bothered to give a
// reason) or always sits in the same place, and then answers without
// reading the race. Warnings measures the pack's predict and choose steps
// with the rules the quiz bank is held to (package answerbias).

// Bias returns the pack's answer-bias warnings (nil when none). They
// do not make a pack invalid; the built-in course is tested to have none.
func Bias(p *lessons.Pack) []error {
	type at struct {
		file string
		line int
	}
	var items []answerbias.Item
	var where []at
	files := map[string]string{}
	for _, l := range p.Lessons {
		files[l.ID] = l.File
		for _, s := range l.Steps {
			if s.Kind != lessons.Predict && s.Kind != lessons.Choose || len(s.Options) < 2 {
				continue
			}
			right, n := -1, 0
			labels := make([]string, len(s.Options))
			for k, o := range s.Options {
				labels[k] = o.Label
				if o.Correct {
					right, n = k, n+1
				}
			}
			if n != 1 {
				continue
			}
			items = append(items, answerbias.Item{Group: l.ID, Right: right, Options: labels})
			where = append(where, at{l.File, s.Line})
		}
	}
	var out []error
	for _, pr := range answerbias.Measure(items).Problems() {
		e := &lessons.Error{File: ".", Msg: "warning: " + pr.Msg}
		switch {
		case pr.Item >= 0:
			e.File, e.Line = where[pr.Item].file, where[pr.Item].line
		case pr.Group != "":
			e.File, e.Field = files[pr.Group], "steps"
		}
		out = append(out, e)
	}
	return out
}
