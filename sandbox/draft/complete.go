package draft

import (
	"maps"
	"slices"
	"sort"
	"strings"

	"github.com/conflictlab/conflictlab/sim/api"
	"github.com/conflictlab/conflictlab/sim/controller"
	"github.com/conflictlab/conflictlab/sim/scenario"
)

// Complete lists the ways the change being typed can go on, each as the
// whole line (the text field offers the first that starts with what is
// typed, and tab takes it): the verbs, then the paths of the object's
// fields (and, on a Widget, those its schema has), the label and
// annotation keys and the finalizers it has, and after "if " or " from "
// paths again. Nothing is offered for a value.
func Complete(text string, sc *scenario.Scenario) []string {
	if len(sc.Objects) == 0 {
		return nil
	}
	obj := sc.Objects[0].Object
	word, rest, spaced := strings.Cut(text, " ")
	if !spaced {
		var out []string
		for _, v := range verbs {
			out = append(out, v.name+" ")
		}
		return out
	}
	v, ok := verbNamed(word)
	if !ok {
		return nil
	}
	// After "if " or " from ", a path is being typed.
	if i := lastOutsideQuotes(text, " if "); i >= 0 {
		return prefixed(text[:i+4], fieldPaths(obj, Kind(sc)), " = ")
	}
	if v.op == controller.Copy && strings.Contains(rest, " from ") {
		at := strings.LastIndex(text, " from ") + len(" from ")
		return prefixed(text[:at], fieldPaths(obj, Kind(sc)), "")
	}
	if strings.Contains(rest, " ") || strings.Contains(rest, "=") {
		return nil // the value, or the rest of the line: the learner's
	}
	head := word + " "
	switch v.prefix {
	case labelsPath, annotationsPath:
		m, _ := dig(obj, v.prefix).(map[string]interface{})
		var keys []string
		for k := range m {
			if plainWord(k) {
				keys = append(keys, k)
			}
		}
		sort.Strings(keys)
		tail := ""
		if v.valued {
			tail = " = "
		}
		return prefixed(head, keys, tail)
	case finalizersPath:
		l, _ := dig(obj, finalizersPath).([]interface{})
		var names []string
		for _, f := range l {
			if s, ok := f.(string); ok && plainWord(s) {
				names = append(names, s)
			}
		}
		if v.op == controller.AddToSet {
			for _, c := range sc.Controllers {
				names = append(names, "example.com/"+c.Name)
			}
		}
		return prefixed(head, names, "")
	}
	tail := ""
	switch {
	case v.valued:
		tail = " = "
	case v.op == controller.Copy:
		tail = " from "
	}
	return prefixed(head, fieldPaths(obj, Kind(sc)), tail)
}

func prefixed(head string, items []string, tail string) []string {
	out := make([]string, 0, len(items))
	seen := map[string]bool{}
	for _, it := range items {
		t := tail
		if strings.HasSuffix(it, ".") {
			t = "" // a map's key comes next
		}
		if s := head + it + t; !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}

// widgetFields are the custom resource's fields (its schema), which a
// change may set whether or not the object has them yet.
var widgetFields = []string{"spec.size", "spec.color", "spec.replicas", "spec.paused", "spec.items", "spec.owner",
	"status.phase", "status.observedGeneration", "status.count", "status.conditions", "status.message", "status.readyReplicas"}

// fieldPaths lists the paths of the object's fields: every leaf outside
// the server's metadata, a list item with a name by its name
// (containers[name=app].image), and the kind's own fields.
func fieldPaths(obj map[string]interface{}, kind api.Kind) []string {
	var out []string
	var walk func(prefix string, v interface{})
	walk = func(prefix string, v interface{}) {
		switch x := v.(type) {
		case map[string]interface{}:
			for _, k := range slices.Sorted(maps.Keys(x)) {
				p, ok := scenario.EntryPath(prefix, k)
				if prefix == "" {
					p, ok = k, simpleWord(k)
				}
				if !ok {
					continue
				}
				walk(p, x[k])
			}
		case []interface{}:
			out = append(out, prefix)
			for _, item := range x {
				if m, ok := item.(map[string]interface{}); ok {
					if name, ok := m["name"].(string); ok && simpleWord(name) {
						walk(prefix+"[name="+name+"]", m)
					}
				}
			}
		default:
			out = append(out, prefix)
		}
	}
	for k, v := range obj {
		if k == "apiVersion" || k == "kind" {
			continue
		}
		if k == "metadata" {
			m, _ := v.(map[string]interface{})
			for _, f := range []string{"labels", "annotations", "finalizers"} {
				if x, ok := m[f]; ok {
					walk("metadata."+f, x)
				}
			}
			continue
		}
		walk(k, v)
	}
	if kind == api.Widget {
		out = append(out, widgetFields...)
	}
	out = append(out, labelsPath+".", annotationsPath+".", finalizersPath)
	sort.Strings(out)
	return dedupe(out)
}

func simpleWord(s string) bool {
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_') {
			return false
		}
	}
	return s != ""
}

func dedupe(s []string) []string {
	out := s[:0]
	for i, x := range s {
		if i == 0 || x != s[i-1] {
			out = append(out, x)
		}
	}
	return out
}

// dig is the value at a dotted path of plain keys.
func dig(obj map[string]interface{}, path string) interface{} {
	var cur interface{} = obj
	for _, k := range strings.Split(path, ".") {
		m, ok := cur.(map[string]interface{})
		if !ok {
			return nil
		}
		cur = m[k]
	}
	return cur
}
