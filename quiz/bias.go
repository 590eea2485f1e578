package quiz

import (
	"fmt"

	"github.com/conflictlab/conflictlab/lessons/answerbias"
)

// MeasureBias measures how far qs can be answered without understanding
// them, with the rules the course's own questions are held to (package
// answerbias). Questions are grouped by the lesson that teaches them.
func MeasureBias(qs []*Question) (answerbias.Report, []*Question) {
	var items []answerbias.Item
	var measured []*Question
	for _, q := range qs {
		right := q.Answer()
		if right < 0 {
			continue
		}
		texts := make([]string, len(q.Options))
		for i, o := range q.Options {
			texts[i] = o.Text
		}
		items = append(items, answerbias.Item{Group: q.Lesson, Right: right, Options: texts})
		measured = append(measured, q)
	}
	return answerbias.Measure(items), measured
}

// BiasProblems lists what makes qs guessable, one message each, placed at
// the question's file and line where it is one question's.
func BiasProblems(qs []*Question) []string {
	r, measured := MeasureBias(qs)
	var out []string
	for _, p := range r.Problems() {
		switch {
		case p.Item >= 0:
			q := measured[p.Item]
			out = append(out, fmt.Sprintf("%s:%d: %s: %s", q.File, q.Line, q.ID, p.Msg))
		case p.Group != "":
			out = append(out, fmt.Sprintf("lesson %s: %s", p.Group, p.Msg))
		default:
			out = append(out, p.Msg)
		}
	}
	return out
}
