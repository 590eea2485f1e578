// Package verdict is what conflictlab and an exercise's check share,
// without the clients the check runs: an exercise's check.yaml (Spec)
// and the verdict the check writes as JSON (Verdict, Encode, Decode).
// conflictlab reads both and never links simcluster or client-go's
// typed clients; the learner's workspace builds package check, which
// imports this one.
package verdict

import (
	"bytes"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	yaml "go.yaml.in/yaml/v3"

	"github.com/conflictlab/conflictlab/sim/race"
	"github.com/conflictlab/conflictlab/sim/scenario"
	"github.com/conflictlab/conflictlab/userfile"
)

// SpecFile is the name of an exercise's check file, beside its code.
const SpecFile = "check.yaml"

// Spec is an exercise's check.yaml: what its check proves of the code
// (docs/exercises-format.md).
type Spec struct {
	// Code pairs each code controller of the races (write: code) with the
	// Go function of the exercise's package that builds its reconciler,
	// in the file's order.
	Code []CodeEntry
	// Limits bound every run of the code.
	Limits Limits
	// Races are the races the code must pass, in order.
	Races []RaceSpec
	// Test, when set, makes the exercise a test to write: the package's
	// own tests must fail on its code as written and pass with the fix.
	Test *TestSpec
}

// CodeEntry is one code controller and the function that builds it.
type CodeEntry struct {
	Controller string
	Func       string
}

// Limits bound a run of the code (simcluster.Options). Zero is
// simcluster's default.
type Limits struct {
	// CallsPerReconcile ends a run whose reconcile makes more calls
	// (requests and cache reads) without returning: "a loop that does not
	// end".
	CallsPerReconcile int
	// Requests ends a run in which a code controller sends more requests.
	Requests int
}

// RaceSpec is one race of the check.
type RaceSpec struct {
	// Scenario is the race's file, beside check.yaml.
	Scenario string
	// Schedule, when set (even empty), plays one run in that order (then
	// round-robin) instead of exploring every interleaving.
	Schedule []scenario.Move
	// One is true when the race is that one run.
	One bool
	// Verdict is how the run must end; empty: well (no-loss or
	// requeued, every invariant kept) — over every interleaving when the
	// race is explored.
	Verdict race.Verdict
	// Owns, for one run, is what a field manager must own at its end.
	Owns *Owns
	// Line is where the race is written in check.yaml.
	Line int
}

// Owns says which fields a field manager's server-side apply must own at
// the end of a run: exactly these (its apply entry of the object itself,
// not of /status).
type Owns struct {
	Manager string
	Fields  []string
}

// TestSpec is the check of an exercise whose answer is a test.
type TestSpec struct {
	// FixTag is the build tag under which the package's code is fixed:
	// its tests must fail without it and pass with it.
	FixTag string
	// Mentions is text the failing tests' output must contain (that the
	// test that catches the bug is the one the exercise asks for).
	Mentions string
}

// LoadSpec reads dir's check.yaml.
func LoadSpec(path string) (*Spec, error) {
	data, err := userfile.Read(path, scenario.MaxFileSize)
	if err != nil {
		return nil, err
	}
	return ParseSpec(path, data)
}

// goIdent is what a Code function must look like: an exported or
// unexported Go identifier of the package.
var goIdent = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// goTag is a build tag.
var goTag = regexp.MustCompile(`^[A-Za-z0-9_.]+$`)

// ParseSpec reads a check.yaml; file names it in messages. Every problem
// is reported with its line and field (a scenario.ErrorList).
func ParseSpec(file string, data []byte) (*Spec, error) {
	p := &specParser{file: file}
	s := p.parse(data)
	if len(p.errs) > 0 {
		return nil, p.errs
	}
	return s, nil
}

type specParser struct {
	file string
	errs scenario.ErrorList
}

func (p *specParser) errorf(n *yaml.Node, field, format string, args ...any) {
	line := 0
	if n != nil {
		line = n.Line
	}
	p.errs = append(p.errs, &scenario.Error{File: p.file, Line: line, Field: field, Msg: fmt.Sprintf(format, args...)})
}

// fields walks a mapping's keys, refusing those it does not know.
func (p *specParser) fields(n *yaml.Node, field string, known ...string) map[string]*yaml.Node {
	out := map[string]*yaml.Node{}
	if n.Kind != yaml.MappingNode {
		p.errorf(n, field, "want a mapping")
		return out
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		name := join(field, k.Value)
		switch {
		case !slices.Contains(known, k.Value):
			p.errorf(k, name, "unknown field (known: %s)", strings.Join(known, ", "))
		case out[k.Value] != nil:
			p.errorf(k, name, "given twice")
		default:
			out[k.Value] = v
		}
	}
	return out
}

func join(field, key string) string {
	if field == "" {
		return key
	}
	return field + "." + key
}

func (p *specParser) str(n *yaml.Node, field string) string {
	if n.Kind != yaml.ScalarNode || n.Tag == "!!null" {
		p.errorf(n, field, "want a string")
		return ""
	}
	return n.Value
}

func (p *specParser) positive(n *yaml.Node, field string, max int) int {
	v, err := strconv.Atoi(n.Value)
	if n.Kind != yaml.ScalarNode || err != nil || v < 1 || v > max {
		p.errorf(n, field, "want a whole number from 1 to %d", max)
		return 0
	}
	return v
}

func (p *specParser) strings(n *yaml.Node, field string) []string {
	if n.Kind != yaml.SequenceNode {
		p.errorf(n, field, "want a list")
		return nil
	}
	out := []string{}
	for i, c := range n.Content {
		out = append(out, p.str(c, fmt.Sprintf("%s[%d]", field, i)))
	}
	return out
}

func (p *specParser) parse(data []byte) *Spec {
	var doc yaml.Node
	dec := yaml.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&doc); err != nil {
		p.errs = append(p.errs, &scenario.Error{File: p.file, Msg: "not YAML: " + strings.TrimPrefix(err.Error(), "yaml: ")})
		return nil
	}
	if len(doc.Content) != 1 {
		p.errorf(&doc, "", "empty file")
		return nil
	}
	root := doc.Content[0]
	f := p.fields(root, "", "code", "limits", "races", "test")
	s := &Spec{}
	if n := f["code"]; n != nil {
		if n.Kind != yaml.MappingNode {
			p.errorf(n, "code", "want a mapping from each code controller to the function that builds it (you: New)")
		} else {
			for i := 0; i+1 < len(n.Content); i += 2 {
				k, v := n.Content[i], n.Content[i+1]
				fn := p.str(v, "code."+k.Value)
				if fn != "" && !goIdent.MatchString(fn) {
					p.errorf(v, "code."+k.Value, "%q is not the name of a Go function", fn)
				}
				s.Code = append(s.Code, CodeEntry{Controller: k.Value, Func: fn})
			}
		}
	}
	if n := f["limits"]; n != nil {
		lf := p.fields(n, "limits", "callsPerReconcile", "requests")
		if v := lf["callsPerReconcile"]; v != nil {
			s.Limits.CallsPerReconcile = p.positive(v, "limits.callsPerReconcile", 1000)
		}
		if v := lf["requests"]; v != nil {
			s.Limits.Requests = p.positive(v, "limits.requests", 1000)
		}
	}
	if n := f["races"]; n != nil {
		if n.Kind != yaml.SequenceNode {
			p.errorf(n, "races", "want a list")
		} else {
			for i, rn := range n.Content {
				s.Races = append(s.Races, p.race(rn, fmt.Sprintf("races[%d]", i)))
			}
		}
	}
	if n := f["test"]; n != nil {
		tf := p.fields(n, "test", "fixTag", "mentions")
		s.Test = &TestSpec{}
		if v := tf["fixTag"]; v != nil {
			s.Test.FixTag = p.str(v, "test.fixTag")
			if s.Test.FixTag != "" && !goTag.MatchString(s.Test.FixTag) {
				p.errorf(v, "test.fixTag", "%q is not a build tag", s.Test.FixTag)
			}
		} else {
			p.errorf(n, "test.fixTag", "missing: the build tag under which the code is fixed")
		}
		if v := tf["mentions"]; v != nil {
			s.Test.Mentions = p.str(v, "test.mentions")
		}
	}
	switch {
	case s.Test != nil && (len(s.Races) > 0 || len(s.Code) > 0):
		p.errorf(root, "test", "a test exercise has no races or code of its own: its tests race")
	case s.Test == nil && len(s.Races) == 0:
		p.errorf(root, "races", "missing: at least one race")
	case s.Test == nil && len(s.Code) == 0:
		p.errorf(root, "code", "missing: which function builds each code controller")
	}
	return s
}

func (p *specParser) race(n *yaml.Node, field string) RaceSpec {
	f := p.fields(n, field, "scenario", "schedule", "verdict", "owns")
	r := RaceSpec{Line: n.Line}
	if v := f["scenario"]; v != nil {
		r.Scenario = p.str(v, field+".scenario")
		if r.Scenario != "" && (strings.ContainsAny(r.Scenario, `/\`) || strings.HasPrefix(r.Scenario, ".")) {
			p.errorf(v, field+".scenario", "%q: a file beside check.yaml, by its name", r.Scenario)
		}
	} else {
		p.errorf(n, field+".scenario", "missing")
	}
	if v := f["schedule"]; v != nil {
		r.One = true
		toks := p.strings(v, field+".schedule")
		moves, err := scenario.ParseMoves(toks)
		if err != nil {
			p.errorf(v, field+".schedule", "%v", err)
		}
		r.Schedule = moves
	}
	if v := f["verdict"]; v != nil {
		r.Verdict = race.Verdict(p.str(v, field+".verdict"))
		if r.Verdict != "" && !slices.Contains(race.Verdicts, r.Verdict) {
			var known []string
			for _, k := range race.Verdicts {
				known = append(known, string(k))
			}
			p.errorf(v, field+".verdict", "%q is not a verdict (%s)", r.Verdict, strings.Join(known, ", "))
		}
	}
	if v := f["owns"]; v != nil {
		of := p.fields(v, field+".owns", "manager", "fields")
		r.Owns = &Owns{}
		if m := of["manager"]; m != nil {
			r.Owns.Manager = p.str(m, field+".owns.manager")
		} else {
			p.errorf(v, field+".owns.manager", "missing")
		}
		if fs := of["fields"]; fs != nil {
			r.Owns.Fields = p.strings(fs, field+".owns.fields")
		}
		if !r.One {
			p.errorf(v, field+".owns", "only for one run: give the race a schedule ([] is round-robin)")
		}
	}
	return r
}
