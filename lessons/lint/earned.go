package lint

import (
	"fmt"
	"strings"

	"github.com/conflictlab/conflictlab/lessons"
	"github.com/conflictlab/conflictlab/lessons/answerbias"
	"github.com/conflictlab/conflictlab/lessons/snippets"
)

// An answer must be earned (issue 26): nothing on the screen before it
// decides it. Questions reads the pack's predict and choose steps as the
// learner sees them before answering, and Earned runs the checks of
// package answerbias over them, the surface cues over the pack and each
// lesson, and the replay check (replay.go) over the pack in course order.

// EarnedReport is what the earned-answer checks found in a pack.
type EarnedReport struct {
	// Questions is the number of predict and choose steps.
	Questions int
	// Findings are the giveaways, each at its file and line; those a
	// reviewed exception excuses have Excused set.
	Findings []answerbias.Finding
	// Cues are the surface cues over the pack, and over each lesson of at
	// least answerbias.MinCueGroup questions.
	Cues    answerbias.CueReport
	Lessons []answerbias.CueReport
}

// Earned runs the earned-answer checks over p; scope names the pack in
// messages ("the course").
func Earned(p *lessons.Pack, scope string) EarnedReport {
	qs := Questions(p)
	r := EarnedReport{Questions: len(qs)}
	for _, q := range qs {
		r.Findings = append(r.Findings, answerbias.Check(q)...)
	}
	r.Findings = append(r.Findings, Replays(p)...)
	r.Cues, r.Lessons = answerbias.MeasureCues(scope, ".", qs)
	r.Findings = append(r.Findings, r.Cues.Findings()...)
	for _, l := range r.Lessons {
		r.Findings = append(r.Findings, l.Findings()...)
	}
	return r
}

// Questions are the pack's predict and choose steps as the learner sees
// them before answering: the title, text, question and hint, and the step
// before's solution and feedback (or text, for a read step).
func Questions(p *lessons.Pack) []answerbias.Question {
	var out []answerbias.Question
	for _, l := range p.Lessons {
		for i, s := range l.Steps {
			if (s.Kind != lessons.Predict && s.Kind != lessons.Choose) || len(s.Options) < 2 {
				continue
			}
			field := fmt.Sprintf("steps[%d]", i)
			q := answerbias.Question{
				Group: l.File, File: l.File, Line: s.Line, Field: field,
				Title: s.Title, Stem: s.Text + "\n" + s.Question,
				Shown: []answerbias.Shown{
					{Where: "the title", Text: s.Title},
					{Where: "the text", Text: s.Text},
					{Where: "the question", Text: s.Question},
					{Where: "the hint", Text: s.Hint},
				},
				Reviewed: reviewed(s.Reviewed),
			}
			if c := codeComments(s.Code, p); c != "" {
				q.Shown = append(q.Shown, answerbias.Shown{Where: "the comments of the code pane (" + s.Code + ")", Text: c})
			}
			if i > 0 {
				q.Shown = append(q.Shown, before(l.Steps[i-1], fmt.Sprintf("steps[%d]", i-1))...)
			}
			for k, o := range s.Options {
				q.Options = append(q.Options, answerbias.Option{
					Text: o.Label, Right: o.Correct, Line: o.Line, Field: fmt.Sprintf("%s.options[%d]", field, k),
					Codes: codes(o.Claims), Reviewed: reviewed(o.Reviewed),
				})
			}
			out = append(out, q)
		}
	}
	return out
}

// codeComments are the comments of the snippet a step shows in its code
// pane (one key away before the answer): the prose of a snippet can state
// an answer as plainly as the stem. Its markers are left out.
func codeComments(name string, p *lessons.Pack) string {
	if name == "" {
		return ""
	}
	src, err := snippets.Resolve(name, p)
	if err != nil {
		return "" // the code check reports a missing snippet
	}
	var out []string
	for _, l := range strings.Split(src, "\n") {
		l = strings.TrimSpace(l)
		c, ok := strings.CutPrefix(l, "//")
		if !ok || strings.HasPrefix(c, " snippet:") || strings.HasPrefix(c, " strategy:") || strings.HasPrefix(c, " end snippet") {
			continue
		}
		out = append(out, strings.TrimSpace(c))
	}
	return strings.Join(out, "\n")
}

// before is what the step before leaves on the learner's mind: a
// question's solution and feedback, a read step's text.
func before(s lessons.Step, field string) []answerbias.Shown {
	if s.Kind == lessons.Read {
		return []answerbias.Shown{{Where: "the text of " + field, Text: s.Text}}
	}
	out := []answerbias.Shown{{Where: "the solution of " + field, Text: s.Solution}}
	for _, o := range s.Options {
		out = append(out, answerbias.Shown{Where: fmt.Sprintf("the feedback of %s's option %s", field, o.ID), Text: o.Feedback})
	}
	return out
}

// codes are the status codes claims say a race answers.
func codes(cs []lessons.Claim) []int {
	var out []int
	for _, c := range cs {
		if c.Code != nil {
			out = append(out, c.Code.Is)
		}
	}
	return out
}

func reviewed(m map[string]string) map[answerbias.CheckName]string {
	if len(m) == 0 {
		return nil
	}
	out := make(map[answerbias.CheckName]string, len(m))
	for k, v := range m {
		out[answerbias.CheckName(k)] = v
	}
	return out
}
