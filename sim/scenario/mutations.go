package scenario

import (
	"regexp"
	"sort"
	"strings"

	yaml "go.yaml.in/yaml/v3"

	"github.com/conflictlab/conflictlab/sim/controller"
)

// Mutation keys in a scenario file. The first six are the controller's
// operations; the rest are sugar for common metadata changes.
const (
	opSet              = "set"
	opRemove           = "remove"
	opIncrement        = "increment"
	opAppend           = "append"
	opAddToSet         = "addToSet"
	opRemoveFromList   = "removeFromList"
	opAddLabel         = "addLabel"
	opRemoveLabel      = "removeLabel"
	opAnnotate         = "annotate"
	opRemoveAnnotation = "removeAnnotation"
	opAddFinalizer     = "addFinalizer"
	opRemoveFinalizer  = "removeFinalizer"
	opCopy             = "copy"
)

var mutationOps = []string{
	opSet, opRemove, opIncrement, opAppend, opAddToSet, opRemoveFromList,
	opAddLabel, opRemoveLabel, opAnnotate, opRemoveAnnotation, opAddFinalizer, opRemoveFinalizer,
	opCopy,
}

const (
	labelsPath      = "metadata.labels"
	annotationsPath = "metadata.annotations"
	finalizersPath  = "metadata.finalizers"
)

// simpleKey is a map key that can stand unquoted in a path.
var simpleKey = regexp.MustCompile(`^[A-Za-z0-9_-]+$`)

// mapEntryPath is the path of one key of a string map such as
// metadata.labels: metadata.labels.team, metadata.labels["app.kubernetes.io/name"].
func mapEntryPath(prefix, key string) (string, bool) {
	if simpleKey.MatchString(key) {
		return prefix + "." + key, true
	}
	if key == "" || strings.Contains(key, "]") {
		return "", false
	}
	return prefix + `["` + key + `"]`, true
}

// EntryPath is the path of one key of a string map such as
// metadata.labels, as the short forms (addLabel, annotate) write it; false
// when the key cannot be written as a path. The sandbox's editor writes
// the short forms as a file does.
func EntryPath(prefix, key string) (string, bool) { return mapEntryPath(prefix, key) }

// EntryKey is the key of a string map's entry that path names, when the
// short form would write exactly that path.
func EntryKey(prefix, path string) (string, bool) { return mapEntryKey(prefix, path) }

// mapEntryKey is the inverse of mapEntryPath: the key when path is exactly
// what mapEntryPath(prefix, key) writes.
func mapEntryKey(prefix, path string) (string, bool) {
	rest, ok := strings.CutPrefix(path, prefix)
	if !ok {
		return "", false
	}
	var key string
	switch {
	case strings.HasPrefix(rest, "."):
		key = rest[1:]
	case strings.HasPrefix(rest, `["`) && strings.HasSuffix(rest, `"]`) && len(rest) >= 4:
		key = rest[2 : len(rest)-2]
	default:
		return "", false
	}
	if p, ok := mapEntryPath(prefix, key); !ok || p != path {
		return "", false
	}
	return key, true
}

func (p *parser) mutations(n *yaml.Node, field string) []controller.Mutation {
	items, ok := p.seq(n, field)
	if !ok {
		return nil
	}
	if len(items) == 0 {
		p.errorf(n, field, "empty: a controller needs at least one mutation")
		return nil
	}
	var out []controller.Mutation
	for i, item := range items {
		if p.aborted {
			break
		}
		if m, ok := p.mutation(item, indexField(field, i)); ok {
			out = append(out, m)
		}
	}
	return out
}

func (p *parser) mutation(n *yaml.Node, field string) (controller.Mutation, bool) {
	var m controller.Mutation
	f, ok := p.fields(n, field, append(append([]string{}, mutationOps...), "when")...)
	if !ok {
		return m, false
	}
	var found []string
	for _, name := range mutationOps {
		if _, present := f[name]; present {
			found = append(found, name)
		}
	}
	// In the order of the file, to name the second one where it is.
	sort.Slice(found, func(i, j int) bool {
		a, b := f[found[i]].key, f[found[j]].key
		return a.Line < b.Line || a.Line == b.Line && a.Column < b.Column
	})
	if len(found) == 0 {
		if p.unknown[n] {
			return m, false // a misspelt operation, reported as unknown
		}
		p.errorf(n, field, "no operation (want one of %s)", strings.Join(mutationOps, ", "))
		return m, false
	}
	if len(found) > 1 {
		p.errorf(f[found[1]].key, field, "two operations, %s and %s: give each its own list item", found[0], found[1])
		return m, false
	}
	op := found[0]
	body := f[op].val
	of := field + "." + op
	before := len(p.errs)
	switch op {
	case opSet, opAppend, opAddToSet, opRemoveFromList:
		m.Op = map[string]controller.Op{
			opSet: controller.Set, opAppend: controller.Append,
			opAddToSet: controller.AddToSet, opRemoveFromList: controller.RemoveFromList,
		}[op]
		bf, ok := p.fields(body, of, "path", "value")
		if !ok {
			return m, false
		}
		m.Path, _ = p.requiredPath(body, bf, of)
		if e, present := bf["value"]; !present {
			p.missing(body, of, "value", "")
		} else if isNull(e.val) {
			if op == opSet {
				p.errorf(e.val, of+".value", "empty value (to delete a field use remove)")
			} else {
				p.errorf(e.val, of+".value", "empty value")
			}
		} else {
			m.Value, _ = p.value(e.val, of+".value", 0)
		}
	case opRemove:
		m.Op = controller.Remove
		m.Path, _ = p.path(body, of)
	case opCopy:
		m.Op = controller.Copy
		bf, ok := p.fields(body, of, "from", "path")
		if !ok {
			return m, false
		}
		if e, present := bf["from"]; !present {
			p.missing(body, of, "from", "")
		} else {
			m.From, _ = p.path(e.val, of+".from")
		}
		m.Path, _ = p.requiredPath(body, bf, of)
	case opIncrement:
		m.Op, m.By = controller.Increment, 1
		if body.Kind == yaml.ScalarNode {
			m.Path, _ = p.path(body, of)
			break
		}
		bf, ok := p.fields(body, of, "path", "by")
		if !ok {
			return m, false
		}
		m.Path, _ = p.requiredPath(body, bf, of)
		if e, present := bf["by"]; present {
			if by, ok := p.integer(e.val, of+".by"); ok {
				if by == 0 {
					p.errorf(e.val, of+".by", "must not be 0")
				}
				m.By = by
			}
		}
	case opAddLabel, opAnnotate:
		prefix := labelsPath
		if op == opAnnotate {
			prefix = annotationsPath
		}
		m.Op = controller.Set
		if body.Kind != yaml.MappingNode || len(body.Content) != 2 {
			p.errorf(body, of, "want one key: value, as {team: a}; give each its own list item")
			return m, false
		}
		k, v := deref(body.Content[0]), deref(body.Content[1])
		if k == nil || v == nil || k.Kind != yaml.ScalarNode {
			p.errorf(body, of, "want one key: value, as {team: a}")
			return m, false
		}
		path, ok := p.mapKey(k, of, prefix)
		if !ok {
			return m, false
		}
		// Labels and annotations are strings: `{version: 2}` means "2".
		val, ok := p.text(v, keyField(of, k.Value))
		if !ok {
			return m, false
		}
		m.Path, m.Value = path, val
	case opRemoveLabel, opRemoveAnnotation:
		prefix := labelsPath
		if op == opRemoveAnnotation {
			prefix = annotationsPath
		}
		m.Op = controller.Remove
		if _, ok := p.text(body, of); !ok {
			return m, false
		}
		path, ok := p.mapKey(body, of, prefix)
		if !ok {
			return m, false
		}
		m.Path = path
	case opAddFinalizer, opRemoveFinalizer:
		m.Op = controller.AddToSet
		if op == opRemoveFinalizer {
			m.Op = controller.RemoveFromList
		}
		name, ok := p.nonEmpty(body, of)
		if !ok {
			return m, false
		}
		m.Path = controller.MustPath(finalizersPath)
		m.Value = name
	}
	if e, present := f["when"]; present {
		m.When, _ = p.condition(e.val, field+".when")
	}
	if len(p.errs) > before {
		return m, false
	}
	if err := m.Validate(); err != nil {
		p.errorf(n, field, "%v", err)
		return m, false
	}
	return m, true
}

// mapKey returns the path of a label or annotation entry.
func (p *parser) mapKey(k *yaml.Node, field, prefix string) (controller.Path, bool) {
	if k.Kind != yaml.ScalarNode || isNull(k) || k.Value == "" {
		p.errorf(k, field, "empty key")
		return controller.Path{}, false
	}
	text, ok := mapEntryPath(prefix, k.Value)
	if !ok {
		p.errorf(k, field, "key %q cannot be written as a path (it contains ])", k.Value)
		return controller.Path{}, false
	}
	path, err := controller.ParsePath(text)
	if err != nil {
		p.errorf(k, field, "key %q: %v", k.Value, err)
		return controller.Path{}, false
	}
	return path, true
}

func (p *parser) requiredPath(n *yaml.Node, f map[string]entry, field string) (controller.Path, bool) {
	e, present := f["path"]
	if !present {
		p.missing(n, field, "path", "")
		return controller.Path{}, false
	}
	return p.path(e.val, field+".path")
}

func (p *parser) path(n *yaml.Node, field string) (controller.Path, bool) {
	s, ok := p.nonEmpty(n, field)
	if !ok {
		return controller.Path{}, false
	}
	path, err := controller.ParsePath(s)
	if err != nil {
		p.errorf(n, field, "%v", err)
		return controller.Path{}, false
	}
	return path, true
}

func (p *parser) condition(n *yaml.Node, field string) (*controller.Condition, bool) {
	f, ok := p.fields(n, field, "path", "equals")
	if !ok {
		return nil, false
	}
	path, ok := p.requiredPath(n, f, field)
	if !ok {
		return nil, false
	}
	e, present := f["equals"]
	if !present {
		p.missing(n, field, "equals", " (use equals: null for \"the field is absent\")")
		return nil, false
	}
	v, ok := p.value(e.val, field+".equals", 0)
	if !ok {
		return nil, false
	}
	return &controller.Condition{Path: path, Equals: v}, true
}
