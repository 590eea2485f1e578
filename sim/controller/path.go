package controller

import (
	"fmt"
	"strconv"
	"strings"
)

// Path addresses a field of an object: `data.owner`,
// `metadata.labels["app.kubernetes.io/name"]`,
// `spec.template.spec.containers[name=app].image`, `status.conditions[0]`.
type Path struct {
	text string
	segs []segment
}

type segment struct {
	key    string // a map key
	index  int    // a list index, when isIndex
	field  string // a selector field (`name` in [name=app])
	value  string // a selector value
	kind   segKind
	quoted bool
}

type segKind int

const (
	segKey segKind = iota
	segIndex
	segSelect
)

// ParsePath parses the path syntax above.
func ParsePath(s string) (Path, error) {
	p := Path{text: s}
	i := 0
	expectKey := true
	for i < len(s) {
		switch {
		case s[i] == '.':
			if expectKey {
				return Path{}, fmt.Errorf("path %q: empty segment at offset %d", s, i)
			}
			expectKey = true
			i++
		case s[i] == '[':
			end := strings.IndexByte(s[i:], ']')
			if end < 0 {
				return Path{}, fmt.Errorf("path %q: unclosed [", s)
			}
			inner := s[i+1 : i+end]
			i += end + 1
			switch {
			case len(inner) >= 2 && inner[0] == '"' && inner[len(inner)-1] == '"':
				p.segs = append(p.segs, segment{kind: segKey, key: inner[1 : len(inner)-1], quoted: true})
			case strings.Contains(inner, "="):
				kv := strings.SplitN(inner, "=", 2)
				if kv[0] == "" {
					return Path{}, fmt.Errorf("path %q: selector [%s] has no field", s, inner)
				}
				p.segs = append(p.segs, segment{kind: segSelect, field: kv[0], value: kv[1]})
			default:
				n, err := strconv.Atoi(inner)
				if err != nil || n < 0 {
					return Path{}, fmt.Errorf("path %q: [%s] is neither an index, a \"quoted key\" nor a field=value selector", s, inner)
				}
				p.segs = append(p.segs, segment{kind: segIndex, index: n})
			}
			expectKey = false
		default:
			if !expectKey {
				return Path{}, fmt.Errorf("path %q: expected . or [ at offset %d", s, i)
			}
			j := i
			for j < len(s) && s[j] != '.' && s[j] != '[' {
				j++
			}
			p.segs = append(p.segs, segment{kind: segKey, key: s[i:j]})
			i = j
			expectKey = false
		}
	}
	if len(p.segs) == 0 || expectKey {
		return Path{}, fmt.Errorf("path %q: empty", s)
	}
	return p, nil
}

// MustPath parses a path known to be valid.
func MustPath(s string) Path {
	p, err := ParsePath(s)
	if err != nil {
		panic(err)
	}
	return p
}

func (p Path) String() string { return p.text }

// JSONPointer renders the path for JSON patch, resolving selectors against obj.
func (p Path) JSONPointer(obj map[string]any) (string, bool) {
	var b strings.Builder
	var cur any = obj
	for _, s := range p.segs {
		switch s.kind {
		case segKey:
			m, ok := cur.(map[string]any)
			if !ok {
				return "", false
			}
			b.WriteString("/" + escapePointer(s.key))
			cur = m[s.key]
		case segIndex:
			l, ok := cur.([]any)
			if !ok || s.index >= len(l) {
				return "", false
			}
			b.WriteString("/" + strconv.Itoa(s.index))
			cur = l[s.index]
		case segSelect:
			l, ok := cur.([]any)
			if !ok {
				return "", false
			}
			i := selectIndex(l, s)
			if i < 0 {
				return "", false
			}
			b.WriteString("/" + strconv.Itoa(i))
			cur = l[i]
		}
	}
	return b.String(), true
}

func escapePointer(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}

func selectIndex(l []any, s segment) int {
	for i, e := range l {
		if m, ok := e.(map[string]any); ok && fmt.Sprint(m[s.field]) == s.value {
			return i
		}
	}
	return -1
}

// Get returns the value at the path.
func (p Path) Get(obj map[string]any) (any, bool) {
	var cur any = obj
	for _, s := range p.segs {
		switch s.kind {
		case segKey:
			m, ok := cur.(map[string]any)
			if !ok {
				return nil, false
			}
			v, ok := m[s.key]
			if !ok {
				return nil, false
			}
			cur = v
		case segIndex:
			l, ok := cur.([]any)
			if !ok || s.index >= len(l) {
				return nil, false
			}
			cur = l[s.index]
		case segSelect:
			l, ok := cur.([]any)
			if !ok {
				return nil, false
			}
			i := selectIndex(l, s)
			if i < 0 {
				return nil, false
			}
			cur = l[i]
		}
	}
	return cur, true
}

// Set stores v at the path, creating maps (and selected list entries) on the way.
func (p Path) Set(obj map[string]any, v any) error {
	return p.setIn(obj, 0, v)
}

func (p Path) setIn(cur any, i int, v any) error {
	s := p.segs[i]
	last := i == len(p.segs)-1
	switch s.kind {
	case segKey:
		m, ok := cur.(map[string]any)
		if !ok {
			return fmt.Errorf("%s: %s is not an object", p.text, s.key)
		}
		if last {
			m[s.key] = v
			return nil
		}
		next, ok := m[s.key]
		if !ok || next == nil {
			if p.segs[i+1].kind == segKey {
				next = map[string]any{}
			} else {
				next = []any{}
			}
		}
		if l, isList := next.([]any); isList && p.segs[i+1].kind == segSelect {
			if selectIndex(l, p.segs[i+1]) < 0 {
				sel := p.segs[i+1]
				next = append(l, map[string]any{sel.field: sel.value})
			}
		}
		m[s.key] = next
		return p.setIn(next, i+1, v)
	case segIndex, segSelect:
		l, ok := cur.([]any)
		if !ok {
			return fmt.Errorf("%s: not a list", p.text)
		}
		idx := s.index
		if s.kind == segSelect {
			idx = selectIndex(l, s)
		}
		if idx < 0 || idx >= len(l) {
			return fmt.Errorf("%s: no such list entry", p.text)
		}
		if last {
			l[idx] = v
			return nil
		}
		return p.setIn(l[idx], i+1, v)
	}
	return nil
}

// Remove deletes the field at the path; a missing field is not an error.
func (p Path) Remove(obj map[string]any) {
	parent := Path{text: p.text, segs: p.segs[:len(p.segs)-1]}
	var container any = obj
	if len(parent.segs) > 0 {
		var ok bool
		if container, ok = parent.Get(obj); !ok {
			return
		}
	}
	s := p.segs[len(p.segs)-1]
	switch s.kind {
	case segKey:
		if m, ok := container.(map[string]any); ok {
			delete(m, s.key)
		}
	case segIndex, segSelect:
		l, ok := container.([]any)
		if !ok {
			return
		}
		idx := s.index
		if s.kind == segSelect {
			idx = selectIndex(l, s)
		}
		if idx < 0 || idx >= len(l) {
			return
		}
		l = append(l[:idx:idx], l[idx+1:]...)
		_ = parent.setList(obj, l)
	}
}

func (p Path) setList(obj map[string]any, l []any) error {
	if len(p.segs) == 0 {
		return fmt.Errorf("cannot replace the root")
	}
	return p.Set(obj, l)
}
