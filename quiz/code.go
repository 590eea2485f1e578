package quiz

import (
	"github.com/conflictlab/conflictlab/lessons"
	"github.com/conflictlab/conflictlab/lessons/snippets"
)

// Code is the snippet a question shows before it is answered: the course's
// source without any comment. The course comments its snippets for the
// lessons, where they explain the defect ("// DEFECT: no bound", a doc
// comment naming the anti-pattern, a remark spelling out what a patch
// carries); in a question every one of them can give the answer away, so
// all are dropped rather than only those somebody remembered to mark. Empty
// when the question shows no code.
func (q *Question) Code() (string, error) {
	if q.Snippet == "" {
		return "", nil
	}
	src, err := snippets.Get(q.Snippet)
	if err != nil {
		return "", err
	}
	return lessons.SnippetBeforeAnswer(src), nil
}
