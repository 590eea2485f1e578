package lint

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/conflictlab/conflictlab/lessons"
)

// Feedback points at the screen, and only at what is on it. A predict
// step hides its race until the learner has answered, so its hint, its
// solution and the feedback of its wrong options are read with no race on
// screen: they must argue from the setup, not send the learner to look at
// rows that are not there. And no text may name a part of the screen that
// does not exist at all.

// RaceMentions are the words that point at a race on screen. A predict
// step's hint, solution and wrong-answer feedback must use none of them
// (matched case-insensitively, as whole words).
var RaceMentions = []string{
	"column", "columns", "row", "rows", "timeline", "table", "race view",
	"the race shows", "the race marks", "the explorer",
	"on screen", "LOST mark",
}

// ScreenParts are the parts of the screen a text may name as "X pane" or
// "X column" (besides each controller's own column, "b's column"): the
// code pane, and the columns ui/raceview heads its timeline with
// (TestScreenPartsAreTheRaceViewsColumns draws one and compares).
var ScreenParts = map[string][]string{
	"pane":   {"code"},
	"column": {"rv", "server rv", "api server", "cache", "caches", "server"},
}

var (
	raceMention = regexp.MustCompile(`(?i)\b(` + strings.Join(quoteAll(RaceMentions), "|") + `)\b`)
	screenPart  = regexp.MustCompile(`(?i)\b((?:[\w.]+'s|[\w.()]+)(?: [\w.()]+)?) (pane|column)s?\b`)
)

func quoteAll(words []string) []string {
	out := make([]string, len(words))
	for i, w := range words {
		out[i] = regexp.QuoteMeta(w)
	}
	return out
}

// shownText is one text of a step, and whether the race is hidden while
// it is read.
type shownText struct {
	field, text string
	line        int
	hidden      bool
}

// Screen applies both rules to every step of a lesson.
func Screen(p *lessons.Pack, l *lessons.Lesson) []error {
	var errs []error
	fail := func(line int, f, msg string) {
		errs = append(errs, &lessons.Error{File: l.File, Line: line, Field: f, Msg: msg})
	}
	for i, s := range l.Steps {
		field := fmt.Sprintf("steps[%d]", i)
		hidden := s.Kind == lessons.Predict && s.Race != nil
		texts := []shownText{
			{field + ".text", s.Text, s.Line, false},
			{field + ".question", s.Question, s.Line, false},
			{field + ".hint", s.Hint, s.Line, hidden},
			{field + ".solution", s.Solution, s.Line, hidden},
		}
		for k, o := range s.Options {
			f := fmt.Sprintf("%s.options[%d]", field, k)
			texts = append(texts,
				shownText{f + ".label", o.Label, o.Line, hidden},
				shownText{f + ".feedback", o.Feedback, o.Line, hidden && !o.Correct})
		}
		var names []string
		if s.Race != nil {
			if sc, ok := p.Scenarios[s.Race.Scenario]; ok {
				for _, c := range sc.Controllers {
					names = append(names, c.Name)
				}
			}
		}
		for _, t := range texts {
			if t.hidden {
				if m := raceMention.FindString(t.text); m != "" {
					fail(t.line, t.field, fmt.Sprintf("mentions the race (%q) while it is hidden: argue from the setup the learner can see", m))
				}
			}
			if part := missingPart(t.text, names); part != "" {
				fail(t.line, t.field, fmt.Sprintf("names %q, which is not on the screen (parts: code pane; API server, RV and cache columns; a controller's column)", part))
			}
		}
	}
	return errs
}

// missingPart returns the first "X pane" or "X column" in text that names
// no part of the screen, or "".
func missingPart(text string, controllers []string) string {
	for _, m := range screenPart.FindAllStringSubmatch(text, -1) {
		what, kind := strings.ToLower(strings.TrimSpace(m[1])), strings.ToLower(m[2])
		if known(what, ScreenParts[kind]) {
			continue
		}
		if kind == "column" && isController(what, controllers) {
			continue
		}
		return m[0]
	}
	return ""
}

// known matches the part's name at the end of the words before "pane" or
// "column" ("the server RV column", "the code pane").
func known(what string, parts []string) bool {
	what = strings.TrimPrefix(what, "the ")
	for _, p := range parts {
		if what == p || strings.HasSuffix(what, " "+p) {
			return true
		}
	}
	return false
}

func isController(what string, controllers []string) bool {
	what = strings.TrimPrefix(what, "the ")
	for _, c := range controllers {
		c = strings.ToLower(c)
		if what == c || what == c+"'s" || strings.HasSuffix(what, " "+c+"'s") || strings.HasSuffix(what, " "+c) {
			return true
		}
	}
	return false
}
