package ui

import (
	"github.com/conflictlab/conflictlab/lessons"
	"github.com/conflictlab/conflictlab/termsafe"
)

// displayPack is p with the text the screens show (titles, prose,
// questions, options, feedback) escaped by termsafe: a lesson pack can come
// from anyone, and a title holding "\x1b]0;…\a" or "\x1b[2J" must be
// shown, not obeyed. Identifiers, file names and claims are left as they
// are (progress and races are keyed by them); the frame guard in render
// still escapes them if they are ever shown. p is not changed.
func displayPack(p *lessons.Pack) *lessons.Pack {
	cp := *p
	cp.Lessons = make([]*lessons.Lesson, len(p.Lessons))
	for i, l := range p.Lessons {
		lc := *l
		lc.Title = termsafe.Escape(l.Title)
		lc.Summary = escapeAll(l.Summary)
		lc.Steps = make([]lessons.Step, len(l.Steps))
		for j, s := range l.Steps {
			s.Title, s.Text, s.Question = termsafe.Escape(s.Title), termsafe.Escape(s.Text), termsafe.Escape(s.Question)
			s.Hint, s.Solution = termsafe.Escape(s.Hint), termsafe.Escape(s.Solution)
			s.Options = append([]lessons.Option(nil), s.Options...)
			for k := range s.Options {
				o := &s.Options[k]
				o.Label, o.Feedback = termsafe.Escape(o.Label), termsafe.Escape(o.Feedback)
			}
			lc.Steps[j] = s
		}
		cp.Lessons[i] = &lc
	}
	return &cp
}

func escapeAll(ss []string) []string {
	if ss == nil {
		return nil
	}
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = termsafe.Escape(s)
	}
	return out
}
