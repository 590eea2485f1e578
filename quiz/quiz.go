// Package quiz is the question bank that goes with the course, and the
// engine that draws a quiz from it: filtered by topic and difficulty, a given number of
// questions, in an order (and with option orders) fixed by a seed, scored,
// with the missed questions kept for review.
//
// Questions are data (bank/*.yaml, one file per topic). Race questions name
// a scenario of the course and a schedule, and every option carries claims
// the simulator checks; method questions run the race with each option's
// write strategy against a goal. Verify runs them all, so a question cannot
// state an answer the simulator does not produce.
//
// The engine has no I/O: the line-oriented `conflictlab quiz` drives it, and
// a screen can drive it the same way (NewSession, Current, Answer, Done,
// Score).
package quiz

import (
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"regexp"
	"sort"
	"strconv"
	"strings"

	yaml "go.yaml.in/yaml/v3"

	"github.com/conflictlab/conflictlab/lessons"
	"github.com/conflictlab/conflictlab/sim/scenario"
)

// Kind is what a question asks for.
type Kind string

const (
	// Choice is a plain multiple-choice question.
	Choice Kind = "choice"
	// Race asks for the outcome of a race (scenario + schedule); each
	// option's claims are checked against the simulator.
	Race Kind = "race"
	// Bug shows a snippet and asks for its defect.
	Bug Kind = "bug"
	// Method asks for the write method; each option's strategy runs the
	// race, and the goal must be met exactly by the correct one.
	Method Kind = "method"
)

// Kinds lists the kinds in the order the docs present them.
var Kinds = []Kind{Choice, Race, Bug, Method}

// Label names what a question of this kind asks, for people.
func (k Kind) Label() string {
	switch k {
	case Race:
		return "predict the race"
	case Bug:
		return "spot the bug"
	case Method:
		return "pick the write method"
	}
	return "multiple choice"
}

// MaxOptions is the number of answer letters (a–d).
const MaxOptions = 4

// Question is one question of the bank.
type Question struct {
	ID   string
	Kind Kind
	// Lesson is the ID of the lesson that teaches the answer.
	Lesson string
	// Concepts are the ideas tested, by key of lessons.Concepts.
	Concepts []string
	// Topic is the area of controller work the question is about (a key
	// of Topics), and Difficulty how much it asks (a key of Difficulties):
	// the axes an interview-prep quiz is drawn along.
	Topic      string
	Difficulty string
	// Repeats names the lesson step ("LESSON/N", N counted from 1) the
	// question asks again, when it does; the bank keeps such questions to
	// a third, so that the quiz tests more than recall of the course.
	Repeats string
	// Text is the question (Markdown).
	Text string
	// Snippet names the code shown with the question (see lessons/snippets).
	Snippet string
	// Scenario is a scenario of the course (e.g. scenarios/counter.yaml),
	// played with Schedule; Apply names the controllers a method option's
	// strategy changes (all when empty).
	Scenario string
	Schedule []string
	Apply    []string
	// Goal is what a method question's correct strategy achieves.
	Goal []lessons.Claim
	// PlansAfterAnswer keeps the controllers' plans off the race's setup
	// until the question is answered (`plans: after-answer`), for a race
	// or method question the plans would answer.
	PlansAfterAnswer bool
	Options          []Option
	// Explanation is shown after the answer, right or wrong.
	Explanation string
	// Reviewed are the earned-answer checks a reader excused for the
	// question (`reviewed: {replay: why}`), as a lesson step's.
	Reviewed map[string]string
	// File and Line place the question, for messages.
	File string
	Line int
}

// Option is one answer.
type Option struct {
	Text    string
	Correct bool
	// Claims (race questions) hold in the simulator exactly when the
	// option is correct.
	Claims []lessons.Claim
	// Strategy (method questions) is the write the option stands for.
	Strategy *lessons.Strategy
	// Reviewed are the earned-answer checks a reader excused at the
	// option (`reviewed: {stem-excludes: why}`).
	Reviewed map[string]string
	Line     int
}

// Answer returns the index of the correct option.
func (q *Question) Answer() int {
	for i, o := range q.Options {
		if o.Correct {
			return i
		}
	}
	return -1
}

// HasTopic reports whether the question is about topic: its topic tag,
// its lesson's ID or one of its concepts.
func (q *Question) HasTopic(topic string) bool {
	if topic == "" || q.Topic == topic || q.Lesson == topic {
		return true
	}
	for _, c := range q.Concepts {
		if c == topic {
			return true
		}
	}
	return false
}

// Bank is a set of questions.
type Bank struct {
	Questions []*Question
}

// Question returns the question with the given ID, or nil.
func (b *Bank) Question(id string) *Question {
	for _, q := range b.Questions {
		if q.ID == id {
			return q
		}
	}
	return nil
}

// TopicTags lists the topic tags (keys of Topics) the bank's questions
// carry, sorted.
func (b *Bank) TopicTags() []string {
	seen := map[string]bool{}
	for _, q := range b.Questions {
		if q.Topic != "" {
			seen[q.Topic] = true
		}
	}
	out := make([]string, 0, len(seen))
	for t := range seen {
		out = append(out, t)
	}
	sort.Strings(out)
	return out
}

// Topics lists the lesson IDs and concept keys the bank's questions are
// tagged with, sorted (the topic tags are TopicTags).
func (b *Bank) Topics() []string {
	seen := map[string]bool{}
	for _, q := range b.Questions {
		seen[q.Lesson] = true
		for _, c := range q.Concepts {
			seen[c] = true
		}
	}
	out := make([]string, 0, len(seen))
	for t := range seen {
		out = append(out, t)
	}
	sort.Strings(out)
	return out
}

//go:embed bank/*.yaml
var bankFiles embed.FS

// Default returns the built-in bank.
func Default() (*Bank, error) {
	sub, err := fs.Sub(bankFiles, "bank")
	if err != nil {
		return nil, err
	}
	return Load(sub)
}

// Load reads every *.yaml file at the top of fsys, in name order.
func Load(fsys fs.FS) (*Bank, error) {
	names, err := fs.Glob(fsys, "*.yaml")
	if err != nil {
		return nil, err
	}
	sort.Strings(names)
	if len(names) == 0 {
		return nil, errors.New("no question files (*.yaml)")
	}
	b := &Bank{}
	var errs []error
	for _, name := range names {
		data, err := fs.ReadFile(fsys, name)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		qs, err := Parse(name, data)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		b.Questions = append(b.Questions, qs...)
	}
	seen := map[string]*Question{}
	for _, q := range b.Questions {
		if prev, dup := seen[q.ID]; dup {
			errs = append(errs, &Error{File: q.File, Line: q.Line, Msg: fmt.Sprintf("id %q is also used at %s:%d", q.ID, prev.File, prev.Line)})
		}
		seen[q.ID] = q
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return b, nil
}

// Error is a problem with a question, placed in its file; Field holds the
// question's id. It is the error type of every course file.
type Error = scenario.Error

type fileQuestion struct {
	ID          string      `yaml:"id"`
	Kind        string      `yaml:"kind"`
	Lesson      string      `yaml:"lesson"`
	Concepts    []string    `yaml:"concepts"`
	Topic       string      `yaml:"topic"`
	Difficulty  string      `yaml:"difficulty"`
	Repeats     string      `yaml:"repeats"`
	Text        string      `yaml:"question"`
	Snippet     string      `yaml:"snippet"`
	Scenario    string      `yaml:"scenario"`
	Schedule    []string    `yaml:"schedule"`
	Apply       []string    `yaml:"apply"`
	Plans       string      `yaml:"plans"`
	Goal        []yaml.Node `yaml:"goal"`
	Options     []yaml.Node `yaml:"options"`
	Explanation string      `yaml:"explanation"`
	Reviewed    yaml.Node   `yaml:"reviewed"`
}

type fileOption struct {
	Text     string                `yaml:"text"`
	Correct  bool                  `yaml:"correct"`
	Claims   []yaml.Node           `yaml:"claims"`
	Strategy *lessons.StrategySpec `yaml:"strategy"`
	Reviewed yaml.Node             `yaml:"reviewed"`
}

// repeatsForm is how a question names the lesson step it repeats.
var repeatsForm = regexp.MustCompile(`^[a-z0-9-]+/[1-9][0-9]*$`)

// yamlLine finds the line yaml.v3 puts in its messages ("line 12: …").
var yamlLine = regexp.MustCompile(`^line (\d+): (.*)$`)

// Parse reads one question file: a YAML list of questions.
func Parse(file string, data []byte) ([]*Question, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		e := &Error{File: file, Msg: strings.TrimPrefix(err.Error(), "yaml: ")}
		if m := yamlLine.FindStringSubmatch(e.Msg); m != nil {
			e.Line, _ = strconv.Atoi(m[1])
			e.Msg = m[2]
		}
		return nil, e
	}
	if len(doc.Content) == 0 || doc.Content[0].Kind != yaml.SequenceNode {
		return nil, &Error{File: file, Line: 1, Msg: "want a list of questions"}
	}
	var out []*Question
	var errs []error
	for _, n := range doc.Content[0].Content {
		q, err := parseQuestion(file, n)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		out = append(out, q)
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return out, nil
}

func parseQuestion(file string, n *yaml.Node) (*Question, error) {
	var fq fileQuestion
	if err := lessons.DecodeStrict(n, &fq); err != nil {
		return nil, placed(file, n, "", err)
	}
	q := &Question{ID: fq.ID, Kind: Kind(fq.Kind), Lesson: fq.Lesson, Concepts: fq.Concepts,
		Topic: fq.Topic, Difficulty: fq.Difficulty, Repeats: fq.Repeats, Text: strings.TrimSpace(fq.Text),
		Snippet: fq.Snippet, Scenario: fq.Scenario, Schedule: fq.Schedule, Apply: fq.Apply,
		Explanation: strings.TrimSpace(fq.Explanation), File: file, Line: n.Line}
	fail := func(line int, format string, args ...any) error {
		return &Error{File: file, Line: line, Field: q.ID, Msg: fmt.Sprintf(format, args...)}
	}
	var errs []error
	for _, req := range []struct{ name, v string }{{"id", q.ID}, {"lesson", q.Lesson}, {"question", q.Text}, {"explanation", q.Explanation}} {
		if strings.TrimSpace(req.v) == "" {
			errs = append(errs, fail(n.Line, "%s is required", req.name))
		}
	}
	if len(q.Concepts) == 0 {
		errs = append(errs, fail(n.Line, "concepts: name at least one concept"))
	}
	for _, c := range q.Concepts {
		if _, ok := lessons.Concepts[c]; !ok {
			errs = append(errs, fail(lineOf(n, "concepts"), "unknown concept %q", c))
		}
	}
	// Topic and difficulty are optional in the format (a small bank need
	// not be drawn along them; the built-in one tags every question, which
	// its test checks), but a value must be one the filters know.
	if _, known := Topics[q.Topic]; q.Topic != "" && !known {
		errs = append(errs, fail(lineOf(n, "topic"), "topic: unknown topic %q: want one of %s", q.Topic, strings.Join(TopicNames(), ", ")))
	}
	if _, known := Difficulties[q.Difficulty]; q.Difficulty != "" && !known {
		errs = append(errs, fail(lineOf(n, "difficulty"), "difficulty: unknown difficulty %q: want one of %s", q.Difficulty, strings.Join(DifficultyNames(), ", ")))
	}
	if q.Repeats != "" && !repeatsForm.MatchString(q.Repeats) {
		errs = append(errs, fail(lineOf(n, "repeats"), "repeats: %q: want LESSON/STEP, e.g. stale-cache/4", q.Repeats))
	}
	switch q.Kind {
	case Choice:
	case Race, Method:
		if q.Scenario == "" {
			errs = append(errs, fail(n.Line, "a %s question needs a scenario", q.Kind))
		}
	case Bug:
		if q.Snippet == "" {
			errs = append(errs, fail(n.Line, "a bug question needs a snippet"))
		}
	default:
		errs = append(errs, fail(lineOf(n, "kind"), "kind %q: want choice, race, bug or method", fq.Kind))
	}
	switch fq.Plans {
	case "", "shown":
	case "after-answer":
		if q.Kind != Race && q.Kind != Method {
			errs = append(errs, fail(lineOf(n, "plans"), "plans: after-answer: only a race or method question has a race held until the answer"))
		}
		q.PlansAfterAnswer = true
	default:
		errs = append(errs, fail(lineOf(n, "plans"), "plans: %q: want shown or after-answer", fq.Plans))
	}
	if r, err := lessons.ParseReviewed(file, q.ID+".reviewed", &fq.Reviewed); err != nil {
		errs = append(errs, err)
	} else {
		q.Reviewed = r
	}
	if q.Kind != Method && len(fq.Goal) > 0 {
		errs = append(errs, fail(lineOf(n, "goal"), "only method questions have a goal"))
	}
	for i := range fq.Goal {
		c, err := lessons.ParseClaim(file, fmt.Sprintf("%s.goal[%d]", fq.ID, i), &fq.Goal[i])
		if err != nil {
			errs = append(errs, err)
			continue
		}
		q.Goal = append(q.Goal, c)
	}
	if q.Kind == Method && len(q.Goal) == 0 {
		errs = append(errs, fail(n.Line, "a method question needs goal claims"))
	}
	correct := 0
	for i := range fq.Options {
		o, err := parseOption(file, q, &fq.Options[i])
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if o.Correct {
			correct++
		}
		q.Options = append(q.Options, o)
	}
	if len(errs) == 0 {
		if len(q.Options) < 2 || len(q.Options) > MaxOptions {
			errs = append(errs, fail(lineOf(n, "options"), "want 2 to %d options, got %d", MaxOptions, len(q.Options)))
		}
		if correct != 1 {
			errs = append(errs, fail(lineOf(n, "options"), "want exactly one correct option, got %d", correct))
		}
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return q, nil
}

func parseOption(file string, q *Question, n *yaml.Node) (Option, error) {
	var fo fileOption
	if err := lessons.DecodeStrict(n, &fo); err != nil {
		return Option{}, placed(file, n, q.ID, err)
	}
	o := Option{Text: strings.TrimSpace(fo.Text), Correct: fo.Correct, Line: n.Line}
	fail := func(format string, args ...any) error {
		return &Error{File: file, Line: n.Line, Field: q.ID, Msg: fmt.Sprintf(format, args...)}
	}
	if o.Text == "" {
		return o, fail("an option needs text")
	}
	r, err := lessons.ParseReviewed(file, q.ID+".reviewed", &fo.Reviewed)
	if err != nil {
		return o, err
	}
	o.Reviewed = r
	for i := range fo.Claims {
		c, err := lessons.ParseClaim(file, q.ID, &fo.Claims[i])
		if err != nil {
			return o, err
		}
		o.Claims = append(o.Claims, c)
	}
	switch {
	case q.Kind == Race && len(o.Claims) == 0:
		return o, fail("a race option needs claims the simulator can confirm or refute")
	case q.Kind != Race && len(o.Claims) > 0:
		return o, fail("only race options carry claims (method questions state a goal)")
	case q.Kind == Method && fo.Strategy == nil:
		return o, fail("a method option needs a strategy")
	case q.Kind != Method && fo.Strategy != nil:
		return o, fail("only method options carry a strategy")
	}
	if fo.Strategy != nil {
		s, err := fo.Strategy.Parse()
		if err != nil {
			return o, fail("strategy: %v", err)
		}
		o.Strategy = &s
	}
	return o, nil
}

func placed(file string, n *yaml.Node, id string, err error) error {
	var le *lessons.LineError
	if errors.As(err, &le) {
		return &Error{File: file, Line: le.Line, Field: id, Msg: le.Msg}
	}
	return &Error{File: file, Line: n.Line, Field: id, Msg: strings.TrimPrefix(err.Error(), "yaml: unmarshal errors:\n  ")}
}

func lineOf(n *yaml.Node, key string) int {
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return n.Content[i].Line
		}
	}
	return n.Line
}
