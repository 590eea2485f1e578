package quiz

import (
	"fmt"
	"path"

	"github.com/conflictlab/conflictlab/lessons"
	"github.com/conflictlab/conflictlab/lessons/answerbias"
	"github.com/conflictlab/conflictlab/lessons/lint"
	"github.com/conflictlab/conflictlab/lessons/racecache"
	"github.com/conflictlab/conflictlab/sim/race"
	"github.com/conflictlab/conflictlab/sim/scenario"
)

// The quiz is held to the course's standard (issue 26): nothing on the
// screen before the answer decides it (package answerbias, with the
// question's text as all there is on screen: the quiz has no title, hint
// or step before), no surface cue beats chance over the bank or within a
// lesson's questions (options are shuffled per session, so their written
// position is none), and no question asks what an earlier question of
// the bank asks, nor what the course shows or asks, unless it says which
// lesson step it repeats.

// EarnedQuestions are the bank's questions as the learner sees them
// before answering; dir prefixes their files in messages.
func EarnedQuestions(b *Bank, dir string) []answerbias.Question {
	var out []answerbias.Question
	for _, q := range b.Questions {
		aq := answerbias.Question{
			Group: q.Lesson, File: path.Join(dir, q.File), Line: q.Line, Field: q.ID,
			Stem: q.Text, Shown: []answerbias.Shown{{Where: "the question", Text: q.Text}},
			Shuffled: true, Reviewed: checkNames(q.Reviewed),
		}
		for i, o := range q.Options {
			var codes []int
			for _, c := range o.Claims {
				if c.Code != nil {
					codes = append(codes, c.Code.Is)
				}
			}
			aq.Options = append(aq.Options, answerbias.Option{Text: o.Text, Right: o.Correct, Line: o.Line,
				Field: fmt.Sprintf("%s option %s", q.ID, Letter(i)), Codes: codes, Reviewed: checkNames(o.Reviewed)})
		}
		out = append(out, aq)
	}
	return out
}

func checkNames(m map[string]string) map[answerbias.CheckName]string {
	if len(m) == 0 {
		return nil
	}
	out := make(map[answerbias.CheckName]string, len(m))
	for k, v := range m {
		out[answerbias.CheckName(k)] = v
	}
	return out
}

// Earned runs the earned-answer checks over the bank; races plays its
// races (the course's runtime: the pack is the course the bank goes
// with), dir prefixes files in messages.
func Earned(b *Bank, races *racecache.Races, dir string) lint.EarnedReport {
	qs := EarnedQuestions(b, dir)
	r := lint.EarnedReport{Questions: len(qs)}
	for _, q := range qs {
		r.Findings = append(r.Findings, answerbias.Check(q)...)
	}
	r.Findings = append(r.Findings, Replays(b, races, dir)...)
	r.Cues, r.Lessons = answerbias.MeasureCues("the quiz", dir, qs)
	r.Findings = append(r.Findings, r.Cues.Findings()...)
	for _, l := range r.Lessons {
		r.Findings = append(r.Findings, l.Findings()...)
	}
	return r
}

// Replays finds the race and method questions that ask what an earlier
// question of the bank asks, or what the course shows or asks without
// saying which step they repeat (Repeats).
func Replays(b *Bank, races *racecache.Races, dir string) []answerbias.Finding {
	var out []answerbias.Finding
	course := lint.Saw(races.Pack())
	asked := map[lint.Ask]*Question{}
	for _, q := range b.Questions {
		if q.Kind != Race && q.Kind != Method {
			continue
		}
		var asks []lint.Ask
		switch q.Kind {
		case Race:
			var cs []lessons.Claim
			for _, o := range q.Options {
				cs = append(cs, o.Claims...)
			}
			asks = raceAsks(races, q.Spec(nil), cs)
		case Method:
			for _, o := range q.Options {
				asks = append(asks, raceAsks(races, q.Spec(o.Strategy), q.Goal)...)
			}
		}
		f := answerbias.Finding{File: path.Join(dir, q.File), Line: q.Line, Field: q.ID, Check: answerbias.Replay}
		if why, ok := q.Reviewed[string(answerbias.Replay)]; ok {
			f.Excused = why
		}
		found := false
		for _, a := range asks {
			if prev := asked[a]; prev != nil && !found {
				f.Msg = fmt.Sprintf("it asks %s of the race question %s (%s:%d) asks it of", a.Quantity, prev.ID, path.Join(dir, prev.File), prev.Line)
				found = true
			}
			if asked[a] == nil {
				asked[a] = q
			}
			if where := course.Where(a.Race, a.Quantity, a.Interleavings); where != "" && !found && q.Repeats == "" {
				f.Msg = fmt.Sprintf("it asks %s of a race the course plays or asks at %s, and does not say it repeats it (repeats: LESSON/STEP)", a.Quantity, where)
				found = true
			}
		}
		if found {
			out = append(out, f)
		}
	}
	return out
}

// raceAsks are what claims cs ask of spec's race (nothing when it does
// not run: Verify reports that).
func raceAsks(races *racecache.Races, spec lessons.RaceSpec, cs []lessons.Claim) []lint.Ask {
	sc, o, err := played(races, spec)
	if err != nil {
		return nil
	}
	return lint.Asks(sc, scenario.Tokens(o.Schedule), cs)
}

func played(races *racecache.Races, spec lessons.RaceSpec) (*scenario.Scenario, *race.Outcome, error) {
	sc, err := races.Scenario(spec)
	if err != nil {
		return nil, nil, err
	}
	o, err := races.Race(spec)
	return sc, o, err
}
