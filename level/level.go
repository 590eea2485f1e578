// Package level is a race an instructor shares: a scenario, what the
// learner is asked to do with it (a break-it or a fix-it goal, proven like
// a lesson's play step), and its par — as a level file, and as one line of
// text that can be pasted into a chat or onto a slide
// (docs/levels.md). The sandbox opens both; `lessons validate` proves a
// level's par.
package level

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	yaml "go.yaml.in/yaml/v3"

	"github.com/conflictlab/conflictlab/lessons"
	"github.com/conflictlab/conflictlab/lessons/playgoal"
	"github.com/conflictlab/conflictlab/sim/race"
	"github.com/conflictlab/conflictlab/sim/scenario"
	"github.com/conflictlab/conflictlab/userfile"
)

// Level is a race and what to do with it.
type Level struct {
	// Title names the level ("Two writers, one version"); the race's
	// name when the file gives none.
	Title string
	// Question is the task in one line: "Find an order of steps that
	// loses a field." Required with a goal.
	Question string
	// Hint is one line that helps without giving it away.
	Hint string
	// Goal is what the learner must reach, checked by the simulator:
	// nil for a race to play freely.
	Goal *lessons.PlayGoal
	// Race is the scenario.
	Race *scenario.Scenario
}

// Limits on the text a level's words may take: a title is shown on one
// line, a question and a hint in a few.
const (
	MaxTitle    = 80
	MaxQuestion = 400
)

// Load reads a level file: a level (title, question, hint, goal, race), or
// a plain scenario file, which is a level without a goal. Only a regular
// file of at most scenario.MaxFileSize is read.
func Load(path string) (*Level, error) {
	data, err := userfile.Read(path, scenario.MaxFileSize)
	if err != nil {
		return nil, err
	}
	return Parse(path, data)
}

// Parse reads a level file's bytes; file is only used in messages. A
// document whose top level has race: is a level; any other is read as a
// scenario (whose own messages then apply).
func Parse(file string, data []byte) (*Level, error) {
	if len(data) > scenario.MaxFileSize {
		return nil, scenario.ErrorList{{File: file, Msg: fmt.Sprintf("file is larger than %s", userfile.Size(scenario.MaxFileSize))}}
	}
	if !utf8.Valid(data) {
		// The scenario parser says where.
		_, err := scenario.Parse(file, data)
		return nil, err
	}
	doc, extra, err := scenario.DecodeDocument(data)
	if err != nil || extra || doc == nil || len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode || child(doc.Content[0], "race") == nil {
		// Not a level: a scenario, or something its parser explains
		// (a syntax error, a control character, a second document).
		sc, err := scenario.Parse(file, data)
		if err != nil {
			return nil, err
		}
		return &Level{Title: sc.Name, Race: sc}, nil
	}
	return parseLevel(file, doc.Content[0])
}

// levelFields are a level file's top-level keys, in the order Marshal
// writes them.
var levelFields = []string{"title", "question", "hint", "goal", "race"}

func parseLevel(file string, root *yaml.Node) (*Level, error) {
	var errs scenario.ErrorList
	bad := func(n *yaml.Node, field, format string, args ...interface{}) {
		errs = append(errs, &scenario.Error{File: file, Line: n.Line, Field: field, Msg: fmt.Sprintf(format, args...)})
	}
	l := &Level{}
	seen := map[string]bool{}
	var goalNode, raceNode *yaml.Node
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], root.Content[i+1]
		switch {
		case seen[k.Value]:
			bad(k, k.Value, "given twice")
			continue
		case !slices.Contains(levelFields, k.Value):
			bad(k, "", "unknown field %q (a level has %s)", k.Value, strings.Join(levelFields, ", "))
			continue
		}
		seen[k.Value] = true
		switch k.Value {
		case "title", "question", "hint":
			if v.Kind != yaml.ScalarNode || v.Tag == "!!null" {
				bad(v, k.Value, "want text")
				continue
			}
			text := strings.TrimSpace(v.Value)
			max := MaxQuestion
			if k.Value == "title" {
				max = MaxTitle
				if strings.ContainsAny(text, "\n\r") {
					bad(v, k.Value, "a title is one line")
				}
			}
			if n := utf8.RuneCountInString(text); n > max {
				bad(v, k.Value, "%d characters: at most %d", n, max)
			}
			for _, r := range text {
				if unicode.IsControl(r) && r != '\n' {
					bad(v, k.Value, "control character %U: a level's words are text to read", r)
					break
				}
			}
			switch k.Value {
			case "title":
				l.Title = text
			case "question":
				l.Question = text
			default:
				l.Hint = text
			}
		case "goal":
			goalNode = v
		case "race":
			raceNode = v
		}
	}
	if raceNode == nil {
		bad(root, "race", "missing: the scenario, as a scenario file writes it")
		return nil, errs
	}
	sc, err := scenario.ParseNode(file, raceNode)
	if err != nil {
		var el scenario.ErrorList
		if errors.As(err, &el) {
			for _, e := range el {
				e.Field = join("race", e.Field)
			}
		}
		return nil, appendErr(errs, err)
	}
	l.Race = sc
	if l.Title == "" {
		l.Title = sc.Name
	}
	if goalNode != nil {
		g, err := lessons.ParseGoal(file, "goal", goalNode)
		if err != nil {
			errs = appendErr(errs, err)
		} else {
			l.Goal = g
			for _, p := range fits(g, sc) {
				bad(goalNode, "goal"+p.Field, "%s", p.Msg)
			}
		}
		if l.Question == "" {
			bad(root, "question", "missing: a level with a goal asks it in one line (\"Find an order of steps that loses a field.\")")
		}
	}
	if len(errs) > 0 {
		return nil, errs
	}
	return l, nil
}

// fits checks what can be known of a goal without running it: the
// controllers it names are the race's, its order names only them.
func fits(g *lessons.PlayGoal, sc *scenario.Scenario) []playgoal.Problem {
	var out []playgoal.Problem
	names := map[string]bool{}
	for _, c := range sc.Controllers {
		names[c.Name] = true
	}
	for _, c := range g.Controllers {
		if !names[c] {
			out = append(out, playgoal.Problem{Field: ".controllers", Msg: fmt.Sprintf("%q is not one of the race's controllers", c)})
		}
	}
	for c := range g.Settings {
		if !names[c] {
			out = append(out, playgoal.Problem{Field: ".settings", Msg: fmt.Sprintf("%q is not one of the race's controllers", c)})
		}
	}
	for i, tok := range g.Schedule {
		if !names[strings.TrimSuffix(tok, ".cache")] {
			out = append(out, playgoal.Problem{Field: fmt.Sprintf(".schedule[%d]", i), Msg: fmt.Sprintf("%q names no controller of the race", tok)})
		}
	}
	return out
}

// Prove proves the level's goal as `lessons validate` proves a play step's:
// its par is the fewest moves or changes, and the author's order or
// settings reach it. A level without a goal has nothing to prove.
func (l *Level) Prove() []playgoal.Problem {
	if l.Goal == nil {
		return nil
	}
	if _, err := race.New(l.Race); err != nil {
		return []playgoal.Problem{{Field: "", Msg: "the race does not run: " + err.Error()}}
	}
	return playgoal.ProveGoal(l.Race, l.Goal)
}

func child(m *yaml.Node, key string) *yaml.Node {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i+1]
		}
	}
	return nil
}

func join(prefix, field string) string {
	if field == "" {
		return prefix
	}
	if strings.HasPrefix(field, "[") {
		return prefix + field
	}
	return prefix + "." + field
}

// appendErr adds err's problems to errs: the list's items, or err itself.
func appendErr(errs scenario.ErrorList, err error) scenario.ErrorList {
	// ParseGoal joins its problems.
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		for _, x := range j.Unwrap() {
			errs = appendErr(errs, x)
		}
		return errs
	}
	var el scenario.ErrorList
	if errors.As(err, &el) {
		return append(errs, el...)
	}
	var e *scenario.Error
	if errors.As(err, &e) {
		return append(errs, e)
	}
	return append(errs, &scenario.Error{Msg: err.Error()})
}
