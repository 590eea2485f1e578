package scenario

import (
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	yaml "go.yaml.in/yaml/v3"
)

// Limits that keep a hostile file (alias bombs, deep nesting) cheap; the
// caps on what a race may ask for are in scenario.go.
const (
	maxDepth = 64
	// maxNodes bounds the nodes visited, aliases expanded.
	maxNodes = 200000
)

// parser walks yaml.v3 nodes and collects errors with their lines.
type parser struct {
	file  string
	errs  ErrorList
	nodes int
	// aborted is set once maxNodes or maxDepth is passed: the rest of the
	// file is not looked at.
	aborted bool
	// suggested holds, per mapping, the known fields an unknown key looked
	// like: a misspelt required field is not also reported missing.
	suggested map[*yaml.Node]map[string]bool
	// unknown holds the mappings that had an unknown key.
	unknown map[*yaml.Node]bool
}

// missing reports a required field absent from mapping n, unless a
// misspelling of it was already reported.
func (p *parser) missing(n *yaml.Node, field, key, hint string) {
	if p.suggested[n][key] {
		return
	}
	p.errorf(n, field, "missing required field %q%s", key, hint)
}

func (p *parser) errorf(n *yaml.Node, field, format string, args ...any) {
	line := 0
	if n != nil {
		line = n.Line
	}
	p.errs = append(p.errs, &Error{File: p.file, Line: line, Field: field, Msg: fmt.Sprintf(format, args...)})
}

// deref follows aliases to the node they name.
func deref(n *yaml.Node) *yaml.Node {
	for i := 0; n != nil && n.Kind == yaml.AliasNode && i < maxDepth; i++ {
		n = n.Alias
	}
	if n != nil && n.Kind == yaml.AliasNode {
		return nil
	}
	return n
}

// visit counts a node against the budget; false once it is spent.
func (p *parser) visit(n *yaml.Node, field string) bool { return p.visitN(n, field, 1) }

func (p *parser) visitN(n *yaml.Node, field string, count int) bool {
	p.nodes += count
	if p.aborted {
		return false
	}
	if p.nodes > maxNodes {
		p.aborted = true
		p.errorf(n, field, "too many nodes (more than %d, counting what aliases expand to)", maxNodes)
		return false
	}
	return true
}

// describe says what a node is, for "want X, got Y" messages.
func describe(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.ScalarNode:
		if n.ShortTag() == "!!null" {
			return "nothing"
		}
		v := n.Value
		if len(v) > 40 {
			v = v[:40] + "…"
		}
		return strconv.Quote(v)
	}
	return "something else"
}

// entry is one key: value pair of a mapping.
type entry struct {
	key, val *yaml.Node
}

// fields reads a mapping whose keys must be among known. It reports
// unknown and repeated keys, and returns the entries by key (values
// dereferenced). ok is false when n is not a mapping at all.
func (p *parser) fields(n *yaml.Node, field string, known ...string) (map[string]entry, bool) {
	if n.Kind != yaml.MappingNode {
		p.errorf(n, field, "want a mapping, got %s", describe(n))
		return nil, false
	}
	if !p.visitN(n, field, 1+len(n.Content)/2) {
		return nil, false
	}
	out := map[string]entry{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := deref(n.Content[i]), deref(n.Content[i+1])
		if k == nil || v == nil {
			p.errorf(n.Content[i], field, "alias nested too deeply")
			continue
		}
		if k.Kind != yaml.ScalarNode {
			p.errorf(k, field, "a key must be a plain word, got %s", describe(k))
			continue
		}
		if k.ShortTag() == "!!merge" {
			p.errorf(k, field, "merge keys (<<) are not supported")
			continue
		}
		name := k.Value
		if !slices.Contains(known, name) {
			hint := suggest(name, known)
			p.errorf(k, field, "unknown field %q%s", name, hint)
			if p.unknown == nil {
				p.unknown = map[*yaml.Node]bool{}
			}
			p.unknown[n] = true
			if hint != "" {
				if p.suggested == nil {
					p.suggested = map[*yaml.Node]map[string]bool{}
				}
				if p.suggested[n] == nil {
					p.suggested[n] = map[string]bool{}
				}
				p.suggested[n][strings.Split(hint, `"`)[1]] = true
			}
			continue
		}
		if _, dup := out[name]; dup {
			p.errorf(k, field, "field %q given twice", name)
			continue
		}
		out[name] = entry{key: k, val: v}
	}
	return out, true
}

// seq reads a list.
func (p *parser) seq(n *yaml.Node, field string) ([]*yaml.Node, bool) {
	if n.Kind != yaml.SequenceNode {
		p.errorf(n, field, "want a list, got %s", describe(n))
		return nil, false
	}
	if !p.visitN(n, field, 1+len(n.Content)) {
		return nil, false
	}
	out := make([]*yaml.Node, 0, len(n.Content))
	for _, c := range n.Content {
		d := deref(c)
		if d == nil {
			p.errorf(c, field, "alias nested too deeply")
			return nil, false
		}
		out = append(out, d)
	}
	return out, true
}

func isNull(n *yaml.Node) bool {
	return n.Kind == yaml.ScalarNode && n.ShortTag() == "!!null"
}

// text reads a scalar as its text: `name: 123` is the name "123".
func (p *parser) text(n *yaml.Node, field string) (string, bool) {
	if n.Kind != yaml.ScalarNode {
		p.errorf(n, field, "want a single value, got %s", describe(n))
		return "", false
	}
	if isNull(n) {
		p.errorf(n, field, "empty value")
		return "", false
	}
	return n.Value, true
}

// nonEmpty reads a scalar that must not be the empty string either.
func (p *parser) nonEmpty(n *yaml.Node, field string) (string, bool) {
	s, ok := p.text(n, field)
	if ok && strings.TrimSpace(s) == "" {
		p.errorf(n, field, "empty value")
		return "", false
	}
	return s, ok
}

func (p *parser) integer(n *yaml.Node, field string) (int64, bool) {
	if n.Kind != yaml.ScalarNode || n.ShortTag() != "!!int" {
		p.errorf(n, field, "want an integer, got %s", describe(n))
		return 0, false
	}
	var v int64
	if err := n.Decode(&v); err != nil {
		p.errorf(n, field, "integer %s out of range", n.Value)
		return 0, false
	}
	return v, true
}

// intBetween reads an integer in [lo, hi]; why says where hi comes from.
func (p *parser) intBetween(n *yaml.Node, field string, lo, hi int64, why string) (int, bool) {
	v, ok := p.integer(n, field)
	if !ok {
		return 0, false
	}
	if v < lo {
		p.errorf(n, field, "must be at least %d, not %d", lo, v)
		return 0, false
	}
	if v > hi {
		p.errorf(n, field, "must be at most %d, not %d: %s", hi, v, why)
		return 0, false
	}
	return int(v), true
}

func (p *parser) uinteger(n *yaml.Node, field string) (uint64, bool) {
	if n.Kind != yaml.ScalarNode || n.ShortTag() != "!!int" {
		p.errorf(n, field, "want a non-negative integer, got %s", describe(n))
		return 0, false
	}
	var v uint64
	if err := n.Decode(&v); err != nil {
		p.errorf(n, field, "want a non-negative integer, got %s", n.Value)
		return 0, false
	}
	return v, true
}

func (p *parser) boolean(n *yaml.Node, field string) (bool, bool) {
	if n.Kind != yaml.ScalarNode || n.ShortTag() != "!!bool" {
		p.errorf(n, field, "want true or false, got %s", describe(n))
		return false, false
	}
	var v bool
	if err := n.Decode(&v); err != nil {
		p.errorf(n, field, "want true or false, got %s", describe(n))
		return false, false
	}
	return v, true
}

// duration reads "0", "5ms", "2s"…
func (p *parser) duration(n *yaml.Node, field string) (time.Duration, bool) {
	s, ok := p.text(n, field)
	if !ok {
		return 0, false
	}
	d, ok := parseDuration(s)
	if !ok {
		p.errorf(n, field, "want a duration like 0, 5ms or 2s, got %q", s)
		return 0, false
	}
	return d, p.durationCapped(n, field, d)
}

// durationCapped refuses a duration over LimitDuration: the virtual clock
// adds them up, and must not overflow.
func (p *parser) durationCapped(n *yaml.Node, field string, d time.Duration) bool {
	if d > LimitDuration {
		p.errorf(n, field, "must be at most %s, not %s: the virtual clock of a race is counted in milliseconds", shortDuration(LimitDuration), n.Value)
		return false
	}
	return true
}

// shortDuration writes 1h rather than time's 1h0m0s.
func shortDuration(d time.Duration) string {
	s := d.String()
	s = strings.TrimSuffix(s, "0s")
	return strings.TrimSuffix(s, "0m")
}

func parseDuration(s string) (time.Duration, bool) {
	if s == "0" {
		return 0, true
	}
	d, err := time.ParseDuration(s)
	if err != nil || d < 0 {
		return 0, false
	}
	return d, true
}

// lag reads a duration or "manual".
func (p *parser) lag(n *yaml.Node, field string) (Lag, bool) {
	s, ok := p.text(n, field)
	if !ok {
		return Lag{}, false
	}
	if s == "manual" {
		return Lag{Manual: true}, true
	}
	d, ok := parseDuration(s)
	if !ok {
		p.errorf(n, field, "want a duration like 0, 5ms or 2s, or manual, got %q", s)
		return Lag{}, false
	}
	return Lag{Delay: d}, p.durationCapped(n, field, d)
}

// plainKey matches keys that need no quoting in a field path.
var plainKey = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_-]*$`)

// keyField extends a field path by a map key: a.b, a["x.y/z"].
func keyField(parent, key string) string {
	if plainKey.MatchString(key) {
		if parent == "" {
			return key
		}
		return parent + "." + key
	}
	return parent + "[" + strconv.Quote(key) + "]"
}

func indexField(parent string, i int) string { return fmt.Sprintf("%s[%d]", parent, i) }

// value turns a node into the JSON-shaped value unstructured objects hold:
// map[string]interface{}, []interface{}, string, int64, float64, bool, nil.
// Scalars keep their YAML types; timestamps and binary stay text.
func (p *parser) value(n *yaml.Node, field string, depth int) (any, bool) {
	if !p.visit(n, field) {
		return nil, false
	}
	if depth > maxDepth {
		p.aborted = true
		p.errorf(n, field, "nested more than %d levels deep", maxDepth)
		return nil, false
	}
	switch n.Kind {
	case yaml.AliasNode:
		d := deref(n)
		if d == nil {
			p.errorf(n, field, "alias nested too deeply")
			return nil, false
		}
		return p.value(d, field, depth+1)
	case yaml.MappingNode:
		m := make(map[string]any, len(n.Content)/2)
		ok := true
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := deref(n.Content[i])
			if k == nil || k.Kind != yaml.ScalarNode {
				p.errorf(n.Content[i], field, "a key must be a single value")
				ok = false
				continue
			}
			if k.ShortTag() == "!!merge" {
				p.errorf(k, field, "merge keys (<<) are not supported")
				ok = false
				continue
			}
			child := keyField(field, k.Value)
			if _, dup := m[k.Value]; dup {
				p.errorf(k, field, "key %q given twice", k.Value)
				ok = false
				continue
			}
			v, vok := p.value(n.Content[i+1], child, depth+1)
			if !vok {
				ok = false
				if p.aborted {
					return nil, false
				}
				continue
			}
			m[k.Value] = v
		}
		return m, ok
	case yaml.SequenceNode:
		l := make([]any, 0, len(n.Content))
		ok := true
		for i, c := range n.Content {
			v, vok := p.value(c, indexField(field, i), depth+1)
			if !vok {
				ok = false
				if p.aborted {
					return nil, false
				}
				continue
			}
			l = append(l, v)
		}
		return l, ok
	case yaml.ScalarNode:
		return p.scalar(n, field)
	}
	p.errorf(n, field, "unexpected YAML node")
	return nil, false
}

func (p *parser) scalar(n *yaml.Node, field string) (any, bool) {
	switch tag := n.ShortTag(); tag {
	case "!!null":
		return nil, true
	case "!!str", "!!timestamp", "!!binary":
		return n.Value, true
	case "!!merge":
		// << is a merge only as a key; as a value it is text.
		return n.Value, true
	case "!!bool":
		var b bool
		if err := n.Decode(&b); err != nil {
			p.errorf(n, field, "%q is not true or false", n.Value)
			return nil, false
		}
		return b, true
	case "!!int":
		var i int64
		if err := n.Decode(&i); err != nil {
			p.errorf(n, field, "integer %s does not fit in 64 bits", n.Value)
			return nil, false
		}
		return i, true
	case "!!float":
		var f float64
		if err := n.Decode(&f); err != nil {
			p.errorf(n, field, "%q is not a number", n.Value)
			return nil, false
		}
		if math.IsNaN(f) || math.IsInf(f, 0) {
			p.errorf(n, field, "%s has no JSON form", n.Value)
			return nil, false
		}
		return f, true
	default:
		p.errorf(n, field, "unsupported tag %s", tag)
		return nil, false
	}
}
