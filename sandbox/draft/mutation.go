package draft

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	yaml "go.yaml.in/yaml/v3"

	"github.com/conflictlab/conflictlab/sim/api"
	"github.com/conflictlab/conflictlab/sim/controller"
	"github.com/conflictlab/conflictlab/sim/scenario"
)

// The editor's grammar of changes is one line per mutation, with one verb
// for every item the scenario format has (docs/scenario-format.md,
// "Mutations"), spelled in the editor's kebab case:
//
//	set PATH = VALUE              remove PATH
//	append PATH = VALUE           increment PATH [by N]
//	add-to-set PATH = VALUE       remove-from-list PATH = VALUE
//	copy PATH from FROM
//	add-label KEY = VALUE         remove-label KEY
//	annotate KEY = VALUE          remove-annotation KEY
//	add-finalizer NAME            remove-finalizer NAME
//	… if PATH = VALUE
//
// FormatMutation writes a mutation the way a file's short forms do (a set
// of a label is add-label), and ParseMutation reads every form back: the
// file's own names (addToSet, addFinalizer…), "add finalizer X" in two
// words, and the long forms through paths (add-to-set
// metadata.finalizers = X). What the editor shows is always what can be
// typed to get the same change.

// MutationSyntax is the grammar in short, shown where a change is typed.
const MutationSyntax = "set|append|add-to-set|remove-from-list PATH = VALUE · remove PATH · increment PATH [by N] · copy PATH from FROM · " +
	"add-label|annotate KEY = VALUE · remove-label|remove-annotation KEY · add-finalizer|remove-finalizer NAME · … if PATH = VALUE"

// verb is one word of the grammar.
type verb struct {
	name string
	op   controller.Op
	// prefix is the string map a label or annotation verb writes into, or
	// the finalizers list; "" for the verbs that take a path.
	prefix string
	// valued: the verb takes "= VALUE" (or, with a prefix, "KEY = VALUE").
	valued bool
}

const (
	labelsPath      = "metadata.labels"
	annotationsPath = "metadata.annotations"
	finalizersPath  = "metadata.finalizers"
)

// verbs in the order MutationSyntax lists them.
var verbs = []verb{
	{"set", controller.Set, "", true},
	{"append", controller.Append, "", true},
	{"add-to-set", controller.AddToSet, "", true},
	{"remove-from-list", controller.RemoveFromList, "", true},
	{"remove", controller.Remove, "", false},
	{"increment", controller.Increment, "", false},
	{"copy", controller.Copy, "", false},
	{"add-label", controller.Set, labelsPath, true},
	{"remove-label", controller.Remove, labelsPath, false},
	{"annotate", controller.Set, annotationsPath, true},
	{"remove-annotation", controller.Remove, annotationsPath, false},
	{"add-finalizer", controller.AddToSet, finalizersPath, false},
	{"remove-finalizer", controller.RemoveFromList, finalizersPath, false},
}

// verbNamed finds a verb by any of its spellings: add-to-set, addToSet,
// add_to_set, ADD-TO-SET; addLabel for add-label.
func verbNamed(word string) (verb, bool) {
	norm := func(s string) string {
		return strings.ToLower(strings.NewReplacer("-", "", "_", "").Replace(s))
	}
	w := norm(word)
	for _, v := range verbs {
		if norm(v.name) == w {
			return v, true
		}
	}
	return verb{}, false
}

// shortForm is the verb and key a file's short form would write mu with:
// add-label team for a set of metadata.labels.team to a string.
func shortForm(mu controller.Mutation) (verb, string, bool) {
	path := mu.Path.String()
	str, isStr := mu.Value.(string)
	for _, v := range verbs {
		if v.prefix == "" || v.op != mu.Op {
			continue
		}
		if v.prefix == finalizersPath {
			if path == finalizersPath && isStr && strings.TrimSpace(str) != "" && plainWord(str) {
				return v, str, true
			}
			continue
		}
		key, ok := scenario.EntryKey(v.prefix, path)
		if !ok || (v.valued && !isStr) || !plainWord(key) {
			continue
		}
		return v, key, true
	}
	return verb{}, "", false
}

// plainWord reports whether s can stand as one bare word of the grammar:
// no spaces, nothing the grammar or YAML would read otherwise.
func plainWord(s string) bool {
	return s != "" && !strings.ContainsAny(s, " \t\"'=#") && s == strings.TrimSpace(s)
}

// FormatMutation writes a mutation in the editor's one-line syntax;
// ParseMutation reads it back to the same mutation.
func FormatMutation(mu controller.Mutation) string {
	p := mu.Path.String()
	var s string
	if v, key, ok := shortForm(mu); ok {
		switch {
		case v.prefix == finalizersPath:
			s = v.name + " " + key
		case v.valued:
			s = fmt.Sprintf("%s %s = %s", v.name, key, formatValue(mu.Value))
		default:
			s = v.name + " " + key
		}
	} else {
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
			!strings.Contains(x, " if ") && !strings.Contains(x, " = ") && !strings.Contains(x, " by ") && !strings.Contains(x, " from ") {
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
	if i := lastOutsideQuotes(s, " if "); i >= 0 {
		body, cond = strings.TrimSpace(s[:i]), strings.TrimSpace(s[i+4:])
	}
	word, rest, _ := strings.Cut(body, " ")
	rest = strings.TrimSpace(rest)
	v, ok := verbNamed(word)
	// "add finalizer X", "remove label K": the verb in two words (before
	// remove of a path "label", which no object has).
	if second, more, _ := strings.Cut(rest, " "); second != "" {
		if v2, ok2 := verbNamed(word + "-" + second); ok2 {
			v, ok, rest = v2, true, strings.TrimSpace(more)
		}
	}
	if !ok {
		return mu, fmt.Errorf("%q: start with one of %s", word, verbList())
	}
	mu.Op = v.op
	if v.prefix != "" {
		if err := parseShort(&mu, v, rest); err != nil {
			return mu, err
		}
	} else if err := parseLong(&mu, rest, kind); err != nil {
		return mu, err
	}
	if cond != "" {
		p, val, ok := cutEquals(cond)
		if !ok {
			return mu, fmt.Errorf("if needs PATH = VALUE (null: the field is absent)")
		}
		cp, err := controller.ParsePath(p)
		if err != nil {
			return mu, err
		}
		value, err := parseValue(val, false)
		if err != nil {
			return mu, err
		}
		mu.When = &controller.Condition{Path: cp, Equals: value}
	}
	return mu, mu.Validate()
}

// lastOutsideQuotes is the index of the last sep in s that is not inside
// a double-quoted value, or -1.
func lastOutsideQuotes(s, sep string) int {
	at, quoted := -1, false
	for i := 0; i < len(s); i++ {
		switch {
		case s[i] == '\\' && quoted:
			i++
		case s[i] == '"':
			quoted = !quoted
		case !quoted && strings.HasPrefix(s[i:], sep):
			at = i
		}
	}
	return at
}

func verbList() string {
	names := make([]string, len(verbs))
	for i, v := range verbs {
		names[i] = v.name
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

// parseShort reads what follows a label, annotation or finalizer verb.
func parseShort(mu *controller.Mutation, v verb, rest string) error {
	if v.prefix == finalizersPath {
		name := rest
		if u, err := strconv.Unquote(rest); err == nil {
			name = u
		}
		if name == "" {
			return fmt.Errorf("%s needs a NAME: the finalizer (example.com/cleanup)", v.name)
		}
		mu.Path, mu.Value = controller.MustPath(finalizersPath), name
		return nil
	}
	key, value := rest, ""
	if v.valued {
		k, val, ok := cutEquals(rest)
		if !ok {
			return fmt.Errorf("%s needs KEY = VALUE", v.name)
		}
		key, value = k, val
	}
	if u, err := strconv.Unquote(key); err == nil {
		key = u
	}
	if key == "" {
		return fmt.Errorf("%s needs a KEY", v.name)
	}
	path, ok := scenario.EntryPath(v.prefix, key)
	if !ok {
		return fmt.Errorf("%s %q: a key with ] cannot be written as a path", v.name, key)
	}
	p, err := controller.ParsePath(path)
	if err != nil {
		return err
	}
	mu.Path = p
	if v.valued {
		val, err := parseValue(value, true)
		if err != nil {
			return err
		}
		mu.Value = val
	}
	return nil
}

// parseLong reads what follows a verb that takes a path.
func parseLong(mu *controller.Mutation, rest string, kind api.Kind) error {
	pathText := rest
	switch mu.Op {
	case controller.Remove:
	case controller.Increment:
		mu.By = 1
		if p, by, ok := strings.Cut(rest, " by "); ok {
			n, err := strconv.ParseInt(strings.TrimSpace(by), 10, 64)
			if err != nil {
				return fmt.Errorf("increment … by %q: want a whole number", strings.TrimSpace(by))
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
			return fmt.Errorf("copy needs PATH from FROM (FROM: the field whose value it copies)")
		case p == "":
			return fmt.Errorf("copy needs a PATH before from: the field it sets")
		case f == "":
			return fmt.Errorf("copy needs a FROM after from: the field whose value it copies")
		}
		from, err := controller.ParsePath(f)
		if err != nil {
			return fmt.Errorf("from: %w", err)
		}
		pathText, mu.From = p, from
	default:
		p, v, ok := cutEquals(rest)
		if !ok {
			return fmt.Errorf("%s needs PATH = VALUE", mu.Op)
		}
		pathText = p
		val, err := parseValue(v, stringsOnly(kind, pathText))
		if err != nil {
			return err
		}
		mu.Value = val
	}
	path, err := controller.ParsePath(pathText)
	if err != nil {
		return err
	}
	mu.Path = path
	return nil
}

// cutEquals splits "PATH = VALUE" at " = ", or, written without spaces
// ("data.owner=a"), at the first = outside a [selector].
func cutEquals(s string) (string, string, bool) {
	if p, v, ok := strings.Cut(s, " = "); ok {
		return strings.TrimSpace(p), strings.TrimSpace(v), true
	}
	depth := 0
	for i, r := range s {
		switch r {
		case '[':
			depth++
		case ']':
			depth--
		case '=':
			if depth == 0 {
				return strings.TrimSpace(s[:i]), strings.TrimSpace(s[i+1:]), true
			}
		}
	}
	return "", "", false
}

// stringsOnly reports whether a path holds only strings: ConfigMap data,
// and labels and annotations on any kind.
func stringsOnly(kind api.Kind, path string) bool {
	return kind == api.ConfigMap && strings.HasPrefix(path, "data.") ||
		strings.HasPrefix(path, labelsPath) || strings.HasPrefix(path, annotationsPath)
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

// ExplainMutation says in words what a change does to the copy that was
// read (the editor shows the change itself as it is typed).
func ExplainMutation(mu controller.Mutation) string {
	p := mu.Path.String()
	var s string
	switch mu.Op {
	case controller.Set:
		s = "sets " + p + " to " + formatValue(mu.Value) + ", whatever it was"
	case controller.Remove:
		s = "deletes " + p + " (a missing field is fine)"
	case controller.Increment:
		s = fmt.Sprintf("adds %d to the number it read at %s", mu.By, p)
	case controller.Append:
		s = "adds " + formatValue(mu.Value) + " at the end of the list it read at " + p
	case controller.AddToSet:
		s = "adds " + formatValue(mu.Value) + " to " + p + " unless it is there"
	case controller.RemoveFromList:
		s = "takes " + formatValue(mu.Value) + " out of " + p
	case controller.Copy:
		s = "sets " + p + " to the value it read at " + mu.From.String()
	}
	if mu.When != nil {
		s += ", only if the copy it read has " + mu.When.Path.String() + " = " + formatValue(mu.When.Equals)
	}
	return s
}
