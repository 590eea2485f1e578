package draft

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	yaml "go.yaml.in/yaml/v3"

	"github.com/conflictlab/conflictlab/sim/api"
	"github.com/conflictlab/conflictlab/sim/controller"
)

// MutationSyntax is the one-line form the editor reads and writes, shown
// where a mutation is typed.
const MutationSyntax = "set|append|add-to-set|remove-from-list PATH = VALUE · remove PATH · increment PATH [by N] · copy PATH from FROM · … if PATH = VALUE"

// ops are the operations in the order the syntax lists them.
var ops = []controller.Op{controller.Set, controller.Append, controller.AddToSet, controller.RemoveFromList, controller.Remove, controller.Increment, controller.Copy}

// FormatMutation writes a mutation in the editor's one-line syntax;
// ParseMutation reads it back to the same mutation.
func FormatMutation(mu controller.Mutation) string {
	p := mu.Path.String()
	var s string
	switch mu.Op {
	case controller.Remove:
		s = "remove " + p
	case controller.Increment:
		s = "increment " + p
		if mu.By != 1 {
			s += fmt.Sprintf(" by %d", mu.By)
		}
	case controller.Copy:
		s = fmt.Sprintf("copy %s from %s", p, mu.From)
	default:
		s = fmt.Sprintf("%s %s = %s", mu.Op, p, formatValue(mu.Value))
	}
	if mu.When != nil {
		s += fmt.Sprintf(" if %s = %s", mu.When.Path, formatValue(mu.When.Equals))
	}
	return s
}

// formatValue writes a value as YAML reads it back: a plain string bare
// when that is unambiguous, quoted when YAML would read it as something
// else ("3", "true", "null") or when it holds the syntax's separators.
func formatValue(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case string:
		var back any
		if err := yaml.Unmarshal([]byte(x), &back); err == nil && back == x && x == strings.TrimSpace(x) &&
			!strings.Contains(x, " if ") && !strings.Contains(x, " = ") {
			return x
		}
		return strconv.Quote(x)
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

// ParseMutation reads one mutation in the editor's syntax. On a
// ConfigMap, values under data, labels and annotations are always
// strings, as the API requires: `set data.count = 3` sets "3".
func ParseMutation(s string, kind api.Kind) (controller.Mutation, error) {
	var mu controller.Mutation
	s = strings.TrimSpace(s)
	body, cond := s, ""
	if i := strings.LastIndex(s, " if "); i >= 0 {
		body, cond = strings.TrimSpace(s[:i]), strings.TrimSpace(s[i+4:])
	}
	opText, rest, _ := strings.Cut(body, " ")
	rest = strings.TrimSpace(rest)
	for _, op := range ops {
		if string(op) == opText {
			mu.Op = op
		}
	}
	if mu.Op == "" {
		return mu, fmt.Errorf("%q: start with set, append, add-to-set, remove-from-list, remove, increment or copy", opText)
	}
	pathText := rest
	switch mu.Op {
	case controller.Remove:
	case controller.Increment:
		mu.By = 1
		if p, by, ok := strings.Cut(rest, " by "); ok {
			n, err := strconv.ParseInt(strings.TrimSpace(by), 10, 64)
			if err != nil {
				return mu, fmt.Errorf("increment … by %q: want a whole number", strings.TrimSpace(by))
			}
			pathText, mu.By = strings.TrimSpace(p), n
		}
	case controller.Copy:
		// The first " from " ends PATH (padded, so that a missing PATH or
		// FROM is told apart from a missing "from").
		p, f, ok := strings.Cut(" "+rest+" ", " from ")
		p, f = strings.TrimSpace(p), strings.TrimSpace(f)
		switch {
		case !ok:
			return mu, fmt.Errorf("copy needs PATH from FROM (FROM: the field whose value it copies)")
		case p == "":
			return mu, fmt.Errorf("copy needs a PATH before from: the field it sets")
		case f == "":
			return mu, fmt.Errorf("copy needs a FROM after from: the field whose value it copies")
		}
		from, err := controller.ParsePath(f)
		if err != nil {
			return mu, fmt.Errorf("from: %w", err)
		}
		pathText, mu.From = p, from
	default:
		p, v, ok := strings.Cut(rest, " = ")
		if !ok {
			return mu, fmt.Errorf("%s needs PATH = VALUE", mu.Op)
		}
		pathText = strings.TrimSpace(p)
		val, err := parseValue(strings.TrimSpace(v), stringsOnly(kind, pathText))
		if err != nil {
			return mu, err
		}
		mu.Value = val
	}
	path, err := controller.ParsePath(pathText)
	if err != nil {
		return mu, err
	}
	mu.Path = path
	if cond != "" {
		p, v, ok := strings.Cut(cond, " = ")
		if !ok {
			return mu, fmt.Errorf("if needs PATH = VALUE (null: the field is absent)")
		}
		cp, err := controller.ParsePath(strings.TrimSpace(p))
		if err != nil {
			return mu, err
		}
		val, err := parseValue(strings.TrimSpace(v), false)
		if err != nil {
			return mu, err
		}
		mu.When = &controller.Condition{Path: cp, Equals: val}
	}
	return mu, mu.Validate()
}

// stringsOnly reports whether a path holds only strings: ConfigMap data,
// and labels and annotations on any kind.
func stringsOnly(kind api.Kind, path string) bool {
	return kind == api.ConfigMap && strings.HasPrefix(path, "data.") ||
		strings.HasPrefix(path, "metadata.labels") || strings.HasPrefix(path, "metadata.annotations")
}

// parseValue reads a YAML value; with str, a bare scalar stays text.
func parseValue(text string, str bool) (any, error) {
	if text == "" {
		return nil, fmt.Errorf("a value is missing after =")
	}
	if str {
		if u, err := strconv.Unquote(text); err == nil {
			return u, nil
		}
		return text, nil
	}
	var v any
	if err := yaml.Unmarshal([]byte(text), &v); err != nil {
		return nil, fmt.Errorf("value %s: %v", text, err)
	}
	return int64s(v), nil
}

// int64s turns YAML's ints into the int64 unstructured objects hold.
func int64s(v any) any {
	switch x := v.(type) {
	case int:
		return int64(x)
	case map[string]any:
		for k, e := range x {
			x[k] = int64s(e)
		}
	case []any:
		for i, e := range x {
			x[i] = int64s(e)
		}
	}
	return v
}
