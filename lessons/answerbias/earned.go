package answerbias

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
)

// An answer is earned when nothing on the screen before it decides it:
// not the title, not the stem, not the step before, not the way the right
// option is written. The checks here read a question as the learner sees
// it before answering (Question) and say what gives it away (Finding),
// for the course's steps and the quiz bank's questions alike.

// Enforce turns the earned-answer findings (the checks of this file, the
// surface cues of cues.go, the room a play step leaves and the course's
// play rules) from warnings into problems: with it, `lessons validate`
// fails and `go test ./lessons/... ./quiz/` fails on any of them. The
// built-in course and the quiz bank pass them all; a finding judged fair
// is excused in its file (`reviewed: {CHECK: why}`), never here.
const Enforce = true

// CheckName names an earned-answer check. A reviewed exception in a
// lesson or question file names the check it excuses.
type CheckName string

// The checks.
const (
	// Echo: a distinctive phrase of an option (three content words or
	// more, in no other option) is on the screen before the answer: in
	// the title, the stem or the hint, or in the step before's solution or
	// feedback.
	Echo CheckName = "echo"
	// Reason: the right option states a reason and no wrong one does, or
	// every wrong one does and the right one does not.
	Reason CheckName = "reason"
	// StemExcludes: the stem's own words rule a wrong option out (a 409
	// for a write the stem says carries no resourceVersion, a read
	// answered 409, a retry where the stem says one attempt, a conflict
	// where the stem says nobody else writes).
	StemExcludes CheckName = "stem-excludes"
	// TwoRight: two options are right in a step that reads as single
	// choice.
	TwoRight CheckName = "two-right"
	// Replay: the step asks about the same race and the same quantity as
	// an earlier step, which showed or asked it.
	Replay CheckName = "replay"
	// Title: the title, or a name the question uses, names the outcome
	// instead of the situation.
	Title CheckName = "title"
	// Cue: a surface cue picks the right option more than MaxCueLead
	// points above chance.
	Cue CheckName = "cue"
	// BreakRoom and FixRoom: a play step leaves too little to search
	// (lessons/playgoal); CoursePlay: the course's play rules.
	BreakRoom  CheckName = "break-room"
	FixRoom    CheckName = "fix-room"
	CoursePlay CheckName = "course-play"
)

// Reviewable are the checks a file may excuse at one step, question or
// option (`reviewed: {CHECK: why}`), where a reader judged the finding
// fair. The others are facts about the race or the whole course.
var Reviewable = []CheckName{Echo, Reason, StemExcludes, Replay, Title}

// Question is one question as the learner sees it before answering.
type Question struct {
	// Group is the lesson the question belongs to.
	Group string
	// File, Line and Field place it for messages ("steps[3]", or a
	// quiz question's id).
	File  string
	Line  int
	Field string
	Title string
	// Stem is what the question says of its situation: a step's text and
	// question.
	Stem string
	// Shown are the texts on the screen before the answer, each named by
	// where it is ("the title", "the hint", "the solution of steps[2]").
	Shown   []Shown
	Options []Option
	// Shuffled: the options are shown in an order drawn per session (the
	// quiz), so where they are written is no cue.
	Shuffled bool
	// Reviewed are the checks a reader excused for the whole question,
	// with why.
	Reviewed map[CheckName]string
}

// Shown is one text on the screen before the answer.
type Shown struct{ Where, Text string }

// Option is one answer.
type Option struct {
	Text  string
	Right bool
	Line  int
	Field string
	// Codes are the HTTP status codes the option's claims say the race
	// answers (a predict option's `code: {is: 409}`).
	Codes    []int
	Reviewed map[CheckName]string
}

// Finding is one way an answer can be had without earning it.
type Finding struct {
	File  string
	Line  int
	Field string
	Check CheckName
	Msg   string
	// Excused is why a reviewed exception lets it stand ("" when none).
	Excused string
}

func (f Finding) Error() string {
	var b strings.Builder
	b.WriteString(f.File)
	if f.Line > 0 {
		fmt.Fprintf(&b, ":%d", f.Line)
	}
	if f.Field != "" {
		b.WriteString(": " + f.Field)
	}
	fmt.Fprintf(&b, ": %s: %s", f.Check, f.Msg)
	return b.String()
}

// Check runs every per-question check on q. A finding a reviewed
// exception excuses comes back with Excused set.
func Check(q Question) []Finding {
	var out []Finding
	for _, f := range [](func(Question) []Finding){echo, reasons, stemExcludes, twoRight, title} {
		out = append(out, f(q)...)
	}
	return out
}

// Excuse sets Excused on f when q, or the option f is placed at, has a
// reviewed exception for f's check.
func (q Question) Excuse(f Finding) Finding {
	if why, ok := q.Reviewed[f.Check]; ok {
		f.Excused = why
		return f
	}
	for _, o := range q.Options {
		if o.Line == f.Line && o.Field == f.Field {
			if why, ok := o.Reviewed[f.Check]; ok {
				f.Excused = why
			}
		}
	}
	return f
}

func (q Question) at(check CheckName, msg string) Finding {
	return q.Excuse(Finding{File: q.File, Line: q.Line, Field: q.Field, Check: check, Msg: msg})
}

func (q Question) atOption(i int, check CheckName, msg string) Finding {
	o := q.Options[i]
	line, field := o.Line, o.Field
	if line == 0 {
		line = q.Line
	}
	return q.Excuse(Finding{File: q.File, Line: line, Field: field, Check: check, Msg: msg})
}

// echo: a distinctive phrase of an option is on the screen already. An
// echo that right and wrong options share tells nothing; one only the
// right options have picks them, and one only wrong options have picks
// the others.
func echo(q Question) []Finding {
	type hit struct {
		i              int
		surface, where string
	}
	var hits []hit
	right, wrong := 0, 0
	words := make([][]string, len(q.Options))
	for i, o := range q.Options {
		words[i] = Words(o.Text)
	}
	for i, o := range q.Options {
		toks := tokens(o.Text)
		for _, sh := range q.Shown {
			run, surface := sharedRun(o.Text, toks, Words(sh.Text), 3)
			if run == "" || inOthers(run, words, i) {
				continue
			}
			hits = append(hits, hit{i, surface, sh.Where})
			if o.Right {
				right++
			} else {
				wrong++
			}
			break
		}
	}
	if right > 0 && wrong > 0 {
		return nil
	}
	var out []Finding
	for _, h := range hits {
		msg := fmt.Sprintf("%q echoes %s, and only the right option says it: a learner picks the echo", h.surface, h.where)
		if !q.Options[h.i].Right {
			msg = fmt.Sprintf("%q echoes %s, and only a wrong option says it: a learner who avoids the echo is right", h.surface, h.where)
		}
		out = append(out, q.atOption(h.i, Echo, msg))
	}
	return out
}

// inOthers reports whether run occurs in an option other than i.
func inOthers(run string, words [][]string, i int) bool {
	for k, w := range words {
		if k != i && strings.Contains(" "+strings.Join(w, " ")+" ", " "+run+" ") {
			return true
		}
	}
	return false
}

// reasonMark is what makes an option argue rather than claim: a
// connective, or a clause after a colon, a dash or a semicolon.
var reasonMark = regexp.MustCompile(`(?i)\b(because|since|so|so that|therefore|thus|hence|otherwise|which|due to|thanks to|given|unless|as long as|whereas|instead|or else)\b|\S\s*[:;]\s+\S+\s+\S+|\s[—–-]\s+\S+\s+\S+|\(\S+\s+\S+[^)]*\)`)

// HasReason reports whether an option states a reason for its claim.
func HasReason(text string) bool { return reasonMark.MatchString(text) }

// reasons: only the right options argue, or only the wrong ones.
func reasons(q Question) []Finding {
	var right, wrong, rightWith, wrongWith int
	for _, o := range q.Options {
		r := HasReason(o.Text)
		if o.Right {
			right++
			if r {
				rightWith++
			}
		} else {
			wrong++
			if r {
				wrongWith++
			}
		}
	}
	if right == 0 || wrong == 0 {
		return nil
	}
	switch {
	case rightWith == right && wrongWith == 0:
		return []Finding{q.at(Reason, "the right option gives a reason and no wrong one does: argue every option")}
	case rightWith == 0 && wrongWith == wrong:
		return []Finding{q.at(Reason, "every wrong option gives a reason and the right one does not: argue the right one too")}
	}
	return nil
}

// An exclusion is a way the stem's own words rule an option out.
type exclusion struct {
	stem   *regexp.Regexp
	unless *regexp.Regexp // in the stem: the rule does not apply
	option func(Option) bool
	why    string
}

var (
	noRV       = regexp.MustCompile(`(?i)\b(no|without( a| the| its| any)?|clears?( the| its)?|empt(y|ies|ied)( the| its)?|drops?( the| its)?)\s+` + "`?" + `(metadata\.)?resourceVersion` + "`?" + `|\b(no|without( a| the| its)?)\s+RV\b|\bunconditional(ly)?\b|\bblind(ly)?\b`)
	applyWrite = regexp.MustCompile(`(?i)\b(apply|applies|server-side|SSA|AlreadyExists|create[sd]?)\b`)
	readAsked  = regexp.MustCompile(`(?i:\bwhat (does|do)\b)[^?]*(\b(?i:read|reads|lister|watch)\b|\bGET\b|\bLIST\b)[^?]*\?`)
	writeAsked = regexp.MustCompile(`(?i)\b(update|patch|apply|write|delete|create|PUT|POST)\w*\b`)
	oneTry     = regexp.MustCompile(`(?i)\b(one attempt|a single attempt|only once|no retr(y|ies)|does not retry|never retries|retry: none|without a retry|without retrying)\b`)
	alone      = regexp.MustCompile(`(?i)\b(nobody else|no one else|no other (writer|controller|client)s?|the only writer|writes? alone)\b`)
	conflict   = regexp.MustCompile(`(?i)\b409\b|\bconflict(s|ed|ing)?\b`)
	retried    = regexp.MustCompile(`(?i)\b(retries|retried|retrying|tries again|try again|second attempt|another attempt|[2-9] attempts|(two|three|four|five) (attempts|times|tries|requests))\b`)
	negated    = regexp.MustCompile(`(?i)\b(no|not|never|without|nor|cannot|can't|won't|isn't|doesn't|don't)\b(\s+\S+){0,2}\s*$`)
)

// asserts reports whether the option claims what re matches: in its
// words, not negated just before, or (for a code) in its claims.
func asserts(o Option, re *regexp.Regexp, code int) bool {
	if code != 0 && slices.Contains(o.Codes, code) {
		return true
	}
	for _, loc := range re.FindAllStringIndex(o.Text, -1) {
		if !negated.MatchString(o.Text[:loc[0]]) {
			return true
		}
	}
	return false
}

var exclusions = []exclusion{
	{stem: noRV, unless: applyWrite, option: func(o Option) bool { return asserts(o, conflict, 409) },
		why: "the stem says the write carries no resourceVersion, and a 409 Conflict needs one to compare"},
	{stem: readAsked, option: func(o Option) bool { return asserts(o, conflict, 409) },
		why: "the question asks what a read gets, and a read is never answered 409 Conflict"},
	{stem: oneTry, option: func(o Option) bool { return asserts(o, retried, 0) },
		why: "the stem says one attempt, and the option has it try again"},
	{stem: alone, option: func(o Option) bool { return asserts(o, conflict, 409) },
		why: "the stem says nobody else writes the object, and the option has a conflict"},
}

// stemExcludes: the stem rules a wrong option out by itself.
func stemExcludes(q Question) []Finding {
	var out []Finding
	for _, ex := range exclusions {
		m := ex.stem.FindString(q.Stem)
		if m == "" {
			continue
		}
		if ex.stem == readAsked && writeAsked.MatchString(m) {
			continue // the question asks about a write too
		}
		if ex.unless != nil && ex.unless.MatchString(q.Stem) {
			continue
		}
		for i, o := range q.Options {
			if !o.Right && ex.option(o) {
				out = append(out, q.atOption(i, StemExcludes, fmt.Sprintf("%s (%q): a learner rules it out without the race — make it a belief the stem does not contradict, or mark it reviewed", ex.why, strings.TrimSpace(m))))
			}
		}
	}
	return out
}

// twoRight: a step that reads as single choice has two right options.
func twoRight(q Question) []Finding {
	var right []string
	for i, o := range q.Options {
		if o.Right {
			right = append(right, Letter(i))
		}
	}
	if len(right) < 2 {
		return nil
	}
	return []Finding{q.at(TwoRight, fmt.Sprintf("options %s are all right, in a step that reads as single choice: change all but one so that the simulator refutes them", strings.Join(right, ", ")))}
}

// outcomeWords name what happens rather than where: a title that uses
// one the stem does not has told the learner the answer.
var outcomeWords = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`lost lose loses losing erased erases erase overwrites overwritten
		wins won fails failed fail refused rejected succeeds succeeded lands landed stays stayed survives
		gone twice duplicate duplicates late works worked broken breaks silently never always forever
		409 404 410 422 200 stuck starves`) {
		outcomeWords[w] = true
	}
}

var identifier = regexp.MustCompile(`\b[A-Za-z]+[a-z][A-Z][A-Za-z]*\b`)

// title: the title, or a function a question names, says the outcome.
func title(q Question) []Finding {
	var out []Finding
	stem := map[string]bool{}
	for _, w := range strings.FieldsFunc(strings.ToLower(q.Stem), func(r rune) bool { return !wordChar(r) }) {
		stem[w] = true
	}
	for _, w := range strings.FieldsFunc(strings.ToLower(q.Title), func(r rune) bool { return !wordChar(r) }) {
		if outcomeWords[w] && !stem[w] {
			out = append(out, q.at(Title, fmt.Sprintf("the title %q says %q, an outcome the stem does not: name the situation", q.Title, w)))
			break
		}
	}
	if len(out) == 0 {
		if w := rightOnly(q, Words(q.Title), Words(q.Stem)); w != "" {
			out = append(out, q.at(Title, fmt.Sprintf("the title %q has %q, which only the right option shares (the stem does not): name the situation", q.Title, w)))
		}
	}
	for _, id := range identifier.FindAllString(q.Stem, -1) {
		for _, w := range strings.Fields(strings.ToLower(camel.ReplaceAllString(id, "$1 $2"))) {
			if outcomeWords[w] {
				out = append(out, q.at(Title, fmt.Sprintf("the name %s says %q: name it for what it does, not for what happens", id, w)))
				break
			}
		}
	}
	return out
}

// rightOnly is the first of words that a right option has and neither a
// wrong option nor the stem does ("" when none).
func rightOnly(q Question, words, stem []string) string {
	in := func(w string, ws []string) bool { return slices.Contains(ws, w) }
	for _, w := range words {
		if in(w, stem) {
			continue
		}
		right, wrong := false, false
		for _, o := range q.Options {
			if in(w, Words(o.Text)) {
				if o.Right {
					right = true
				} else {
					wrong = true
				}
			}
		}
		if right && !wrong {
			return w
		}
	}
	return ""
}

// Open are the findings of fs that no reviewed exception excuses.
func Open(fs []Finding) []Finding {
	var out []Finding
	for _, f := range fs {
		if f.Excused == "" {
			out = append(out, f)
		}
	}
	return out
}
