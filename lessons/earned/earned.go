// Package earned is the earned-answers report (issue 26) over the
// built-in content: the course (what `lessons validate` finds, and the
// room every play step leaves), the quiz bank, and the sandbox's
// challenges. docs/earned-answers.md carries it between two markers;
// `conflictlab lessons report` writes it there, and a test fails when the
// page no longer says what the content is.
package earned

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"path"
	"slices"
	"sort"
	"strings"

	"github.com/conflictlab/conflictlab/lessons"
	"github.com/conflictlab/conflictlab/lessons/answerbias"
	"github.com/conflictlab/conflictlab/lessons/lint"
	"github.com/conflictlab/conflictlab/lessons/playgoal"
	"github.com/conflictlab/conflictlab/lessons/racecache"
	"github.com/conflictlab/conflictlab/lessons/validate"
	"github.com/conflictlab/conflictlab/quiz"
	"github.com/conflictlab/conflictlab/sandbox/challenges"
	"github.com/conflictlab/conflictlab/sandbox/draft"
	"github.com/conflictlab/conflictlab/sim/explore"
	"github.com/conflictlab/conflictlab/sim/scenario"
)

// Where the built-in content lives, for FILE:LINE in the report.
const (
	CourseDir = "lessons/course"
	QuizDir   = "quiz/bank"
)

// Report is the earned-answers report.
type Report struct {
	// Course is lessons validate over the built-in course, with the
	// course's own play rules; its findings name files under CourseDir.
	Course validate.Result
	// Quiz is the earned-answer checks over the quiz bank.
	Quiz lint.EarnedReport
	// Challenges are the sandbox's challenges and the room each leaves.
	Challenges []Challenge
	// Enforced says whether the findings are problems (answerbias.Enforce).
	Enforced bool
}

// Challenge is one sandbox challenge and the room it leaves.
type Challenge struct {
	ID, Title string
	Kind      challenges.Kind
	Room      playgoal.Room
}

// Build computes the report; without sandbox, the challenges are left
// out (measuring them takes a minute or more: their fixes explore many
// races).
func Build(sandbox bool) (*Report, error) {
	p, err := lessons.Course()
	if err != nil {
		return nil, err
	}
	b, err := quiz.Default()
	if err != nil {
		return nil, err
	}
	r := &Report{Enforced: answerbias.Enforce}
	r.Course = validate.Run(p, validate.Defaults())
	for i := range r.Course.Earned.Findings {
		f := &r.Course.Earned.Findings[i]
		f.File = path.Join(CourseDir, f.File)
	}
	for i := range r.Course.Plays {
		r.Course.Plays[i].File = path.Join(CourseDir, r.Course.Plays[i].File)
	}
	r.Quiz = quiz.Earned(b, racecache.New(p), QuizDir)
	if sandbox {
		if r.Challenges, err = Challenges(context.Background()); err != nil {
			return nil, err
		}
	}
	return r, nil
}

// Challenges measures the room every sandbox challenge leaves, by the
// rules a lesson's play step is held to: a break's random orders and
// longest race, a fix's settings (each one the sandbox's editor shows for
// a controller, with the values it offers) and the share of their
// combinations that pass the challenge's own judge.
func Challenges(ctx context.Context) ([]Challenge, error) {
	all, err := challenges.All()
	if err != nil {
		return nil, err
	}
	var out []Challenge
	for _, c := range all {
		ch := Challenge{ID: c.ID, Title: c.Title, Kind: c.Kind}
		switch c.Kind {
		case challenges.Break:
			room, err := playgoal.MeasureBreak(ctx, c.Scenario, challenges.Broken, c.Solution, playgoal.Walks, playgoal.Seed)
			if err != nil {
				return nil, fmt.Errorf("challenge %s: %w", c.ID, err)
			}
			ch.Room.Break = &room
		case challenges.Fix:
			slots := sandboxSlots(c.Scenario)
			room, err := playgoal.MeasureFix(ctx, slots, func(values []string) (bool, error) {
				return sandboxFixes(ctx, c.Scenario, slots, values), ctx.Err()
			}, SandboxFixSample, playgoal.Seed)
			if err != nil {
				return nil, fmt.Errorf("challenge %s: %w", c.ID, err)
			}
			ch.Room.Fix = &room
		}
		out = append(out, ch)
	}
	return out, nil
}

// SandboxFixSample is how many combinations of a sandbox fix are proven:
// the editor offers every setting of every controller, so there are
// thousands, and each is an exhaustive exploration.
const SandboxFixSample = 24

// SandboxMaxSchedules bounds the search of one combination (the
// challenges' own tests prove their solutions within this); a
// combination whose race is bigger is counted as not passing, as the
// challenge's judge counts a search that was cut short.
const SandboxMaxSchedules = 200_000

// sandboxKnobs are the settings of the sandbox's editor a fix is
// measured over: how each controller reads and writes, as a lesson's
// knobs. The others change the race itself (how often a controller
// reconciles, when its cache hears of a write) or are typed (the field
// manager), and each value of them makes another race to search.
var sandboxKnobs = []string{"read", "write", "withRV", "test", "force", "retry", "requeue"}

// sandboxSlots are the settings of sandboxKnobs the editor shows for each
// controller of sc, with the values it cycles through.
func sandboxSlots(sc *scenario.Scenario) []playgoal.Slot {
	var slots []playgoal.Slot
	for i, c := range sc.Controllers {
		for _, s := range draft.Settings {
			if s.Free || !s.Shown(sc, i) || !slices.Contains(sandboxKnobs, s.Key) {
				continue
			}
			var values []string
			for _, ch := range s.Choices(sc, i) {
				values = append(values, ch.Value)
			}
			slots = append(slots, playgoal.Slot{Controller: c.Name, Knob: s.Key, Values: values, Start: slices.Index(values, s.Get(sc, i))})
		}
	}
	return slots
}

// sandboxFixes reports whether the combination passes the challenge: set
// as the editor would set it, a race the editor can run, and no
// interleaving that loses, gives up or never ends.
func sandboxFixes(ctx context.Context, sc *scenario.Scenario, slots []playgoal.Slot, values []string) bool {
	try := draft.Clone(sc)
	for k, sl := range slots {
		i := slices.IndexFunc(try.Controllers, func(c scenario.Controller) bool { return c.Name == sl.Controller })
		s, ok := draft.Lookup(sl.Knob)
		if i < 0 || !ok || s.Set(try, i, values[k]) != nil {
			return false
		}
	}
	if draft.Check(try) != nil {
		return false
	}
	r, err := explore.Explore(ctx, try, explore.Options{MaxSchedules: SandboxMaxSchedules})
	if err != nil {
		return false
	}
	ok, _ := challenges.Fixed(r)
	return ok
}

// Open are the findings no reviewed exception excuses, the course's and
// the quiz's, in the report's order.
func (r *Report) Open() []answerbias.Finding {
	return answerbias.Open(append(slices.Clone(r.Course.Earned.Findings), r.Quiz.Findings...))
}

// Markdown is the report as docs/earned-answers.md carries it.
func (r *Report) Markdown() string {
	var b strings.Builder
	w := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }
	mode := "reported (warnings)"
	if r.Enforced {
		mode = "enforced (problems)"
	}
	w("Generated by `go run . lessons report -w docs/earned-answers.md`. The checks are **%s**.\n\n", mode)
	open := r.Open()
	w("| | questions | findings | excused |\n|---|---:|---:|---:|\n")
	w("| the course | %d | %d | %d |\n", r.Course.Earned.Questions, countOpen(r.Course.Earned.Findings), len(r.Course.Earned.Findings)-countOpen(r.Course.Earned.Findings))
	w("| the quiz | %d | %d | %d |\n\n", r.Quiz.Questions, countOpen(r.Quiz.Findings), len(r.Quiz.Findings)-countOpen(r.Quiz.Findings))

	w("### Findings by check\n\n| check | the course | the quiz |\n|---|---:|---:|\n")
	for _, c := range checkOrder {
		w("| `%s` | %d | %d |\n", c, countCheck(r.Course.Earned.Findings, c), countCheck(r.Quiz.Findings, c))
	}

	w("\n### Surface cues\n\nHow often a cue picks the right option, against chance; a lead over +%.0f points is a finding.\n\n", answerbias.MaxCueLead)
	w("| cue | the course (%d questions) | | | the quiz (%d questions) | | |\n|---|---:|---:|---:|---:|---:|---:|\n", r.Course.Earned.Cues.Questions, r.Quiz.Cues.Questions)
	w("| | right | chance | lead | right | chance | lead |\n")
	for i, s := range r.Course.Earned.Cues.Stats {
		q := r.Quiz.Cues.Stats[i]
		w("| %s | %s | %s |\n", s.Cue, cueCells(s), cueCells(q))
	}
	w("\nWithin one lesson (of %d questions or more), the cues that lead by more than +%.0f points, and by more than a whole number of right answers forces:\n\n", answerbias.MinCueGroup, answerbias.MaxCueLead)
	w("| lesson | questions | cues over the line (right / chance) |\n|---|---:|---|\n")
	for k, set := range [][]answerbias.CueReport{r.Course.Earned.Lessons, r.Quiz.Lessons} {
		for _, g := range set {
			scope := strings.TrimPrefix(g.Scope, "lesson ")
			if k == 1 {
				scope = "quiz, lesson " + scope
			}
			w("| %s | %d | %s |\n", scope, g.Questions, overLine(g))
		}
	}

	w("\n### Play steps\n\nBreak it: random orders of at most par + %d moves, each move drawn among those available (%d walks, seed %d), must meet the goal in at most %d%% of them, and par must be shorter than the longest race. Fix it: at least %d settings, %d combinations, and at most %d%% of the combinations passing (every combination proven when there are at most %d, else %d drawn).\n\n",
		playgoal.BreakSlack, playgoal.Walks, playgoal.Seed, playgoal.MaxBreakShare, playgoal.MinKnobs, playgoal.MinCombinations, playgoal.MaxFixShare, playgoal.FixSample, playgoal.FixSample)
	w("| step | lesson | numbers | verdict |\n|---|---:|---|---|\n")
	for _, pl := range r.Course.Plays {
		w("| %s:%d %s | %d | %s | %s |\n", pl.File, pl.Line, pl.Field, pl.Lesson, pl.Room, verdict(pl.Room))
	}
	w("\nThe course's own rules: a break-it step in each of lessons %s, and at least %d break-it steps with three controllers or decoy moves.\n\n", joinInts(validate.BreakLessons), validate.MinRichBreaks)
	for _, f := range r.Course.Earned.Findings {
		if f.Check == answerbias.CoursePlay {
			w("- %s\n", f.Msg)
		}
	}

	w("\n### Every finding\n\n")
	if len(open) == 0 {
		w("None.\n")
	}
	for _, c := range checkOrder {
		var lines []string
		for _, f := range open {
			if f.Check == c {
				lines = append(lines, f.Error())
			}
		}
		if len(lines) == 0 {
			continue
		}
		w("#### `%s` (%d)\n\n```\n%s\n```\n\n", c, len(lines), strings.Join(lines, "\n"))
	}
	w("### Reviewed exceptions\n\n")
	excused := 0
	for _, f := range append(slices.Clone(r.Course.Earned.Findings), r.Quiz.Findings...) {
		if f.Excused != "" {
			excused++
			w("- %s — reviewed: %s\n", f.Error(), f.Excused)
		}
	}
	if excused == 0 {
		w("None.\n")
	}
	return b.String()
}

// checkOrder is the order the report lists checks in.
var checkOrder = []answerbias.CheckName{answerbias.Echo, answerbias.Reason, answerbias.StemExcludes, answerbias.TwoRight,
	answerbias.Replay, answerbias.Title, answerbias.Cue, answerbias.BreakRoom, answerbias.FixRoom, answerbias.CoursePlay}

func countOpen(fs []answerbias.Finding) int { return len(answerbias.Open(fs)) }

func countCheck(fs []answerbias.Finding, c answerbias.CheckName) int {
	n := 0
	for _, f := range fs {
		if f.Check == c && f.Excused == "" {
			n++
		}
	}
	return n
}

func cueCells(s answerbias.CueStat) string {
	if s.Questions == 0 {
		return "— | — | —"
	}
	lead := fmt.Sprintf("%+.1f", s.Lead())
	if s.Questions >= answerbias.MinCueGroup && s.Over() {
		lead = "**" + lead + "**"
	}
	return fmt.Sprintf("%.1f%% | %.1f%% | %s", s.HitPct(), s.ChancePct(), lead)
}

func overLine(g answerbias.CueReport) string {
	var parts []string
	stats := slices.Clone(g.Stats)
	sort.SliceStable(stats, func(i, j int) bool { return stats[i].Lead() > stats[j].Lead() })
	for _, s := range stats {
		if s.Questions >= answerbias.MinCueGroup && s.Over() {
			parts = append(parts, fmt.Sprintf("%s %+.1f (%.0f%% / %.0f%%)", s.Cue, s.Lead(), s.HitPct(), s.ChancePct()))
		}
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, ", ")
}

func verdict(r playgoal.Room) string {
	if p := r.Problems(); len(p) > 0 {
		return "✗ " + strings.Join(p, "; ")
	}
	return "ok"
}

func joinInts(ns []int) string {
	s := make([]string, len(ns))
	for i, n := range ns {
		s[i] = fmt.Sprint(n)
	}
	return strings.Join(s, ", ")
}

// SandboxMarkdown is the sandbox's part of the report. It records what
// the challenges were when it was measured (ChallengesDigest), so that a
// test can tell, without measuring them again, that it is still true.
func (r *Report) SandboxMarkdown() (string, error) {
	digest, err := ChallengesDigest()
	if err != nil {
		return "", err
	}
	var b strings.Builder
	w := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }
	w("Generated by `go run . lessons report -w docs/earned-answers.md` from the challenges as they are (`%s`). The rules are the play steps'; a fix's settings are the editor's write-side settings (%s) of every controller, %d combinations drawn with seed %d, each proven within %d schedules.\n\n",
		digest, strings.Join(sandboxKnobs, ", "), SandboxFixSample, playgoal.Seed, SandboxMaxSchedules)
	w("| challenge | numbers | verdict |\n|---|---|---|\n")
	for _, c := range r.Challenges {
		w("| %s (%s) | %s | %s |\n", c.ID, c.Title, c.Room, verdict(c.Room))
	}
	return b.String(), nil
}

// ChallengesDigest names the sandbox's challenges as they are: a digest of
// each one's goal, par, solution and scenario.
func ChallengesDigest() (string, error) {
	all, err := challenges.All()
	if err != nil {
		return "", err
	}
	data, err := json.Marshal(all)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(data)
	return fmt.Sprintf("challenges sha256:%x", sum[:12]), nil
}

// A block is one generated part of docs/earned-answers.md, between its
// markers.
type Block struct{ Begin, End string }

// The page's two blocks: the course's and the quiz's, and the sandbox's.
var (
	Main = Block{
		Begin: "<!-- begin: generated by `go run . lessons report -w docs/earned-answers.md`; do not edit by hand -->",
		End:   "<!-- end: generated -->",
	}
	Sandbox = Block{
		Begin: "<!-- begin sandbox: generated by `go run . lessons report -w docs/earned-answers.md`; do not edit by hand -->",
		End:   "<!-- end sandbox: generated -->",
	}
)

// Replace returns page with the text of block b replaced by text; an
// error when the page lacks its markers.
func (b Block) Replace(page, text string) (string, error) {
	i := strings.Index(page, b.Begin)
	j := strings.Index(page, b.End)
	if i < 0 || j < i {
		return "", fmt.Errorf("the page has no %q … %q markers to put the report between", b.Begin, b.End)
	}
	return page[:i+len(b.Begin)] + "\n\n" + text + "\n" + page[j:], nil
}

// In is the text of block b in page (false when the markers are missing).
func (b Block) In(page string) (string, bool) {
	i := strings.Index(page, b.Begin)
	j := strings.Index(page, b.End)
	if i < 0 || j < i {
		return "", false
	}
	return strings.TrimSuffix(strings.TrimPrefix(page[i+len(b.Begin):j], "\n\n"), "\n"), true
}
