package report

import (
	"fmt"
	"sort"
	"strings"
)

// Owner is one entry of an object's metadata.managedFields: a field
// manager, how it wrote (Apply or Update), where, and the fields it owns.
type Owner struct {
	Manager, Operation, Subresource string
	Fields                          []string
}

// Owners reads an object's metadata.managedFields, in the server's order.
func Owners(obj map[string]any) []Owner {
	md, _ := obj["metadata"].(map[string]any)
	list, _ := md["managedFields"].([]any)
	var out []Owner
	for _, e := range list {
		em, ok := e.(map[string]any)
		if !ok {
			continue
		}
		o := Owner{}
		o.Manager, _ = em["manager"].(string)
		o.Operation, _ = em["operation"].(string)
		o.Subresource, _ = em["subresource"].(string)
		if f, ok := em["fieldsV1"].(map[string]any); ok {
			fieldPaths("", f, &o.Fields)
			sort.Strings(o.Fields)
		}
		out = append(out, o)
	}
	return out
}

// fieldPaths flattens a fieldsV1 set ({"f:data":{"f:x":{}}}) into the
// paths a learner reads ("data.x"); list items keyed by their key.
func fieldPaths(prefix string, set map[string]any, out *[]string) {
	leaf := true
	for k, v := range set {
		if k == "." {
			continue
		}
		leaf = false
		var p string
		switch {
		case strings.HasPrefix(k, "f:"):
			p = k[2:]
			if prefix != "" {
				p = prefix + "." + p
			}
		case strings.HasPrefix(k, "k:"), strings.HasPrefix(k, "v:"), strings.HasPrefix(k, "i:"):
			p = prefix + "[" + k[2:] + "]"
		default:
			p = prefix + "." + k
		}
		sub, _ := v.(map[string]any)
		fieldPaths(p, sub, out)
	}
	if leaf && prefix != "" {
		*out = append(*out, prefix)
	}
}

// Describe is an owner in one line: "a (Apply): data.x, data.y".
func (o Owner) Describe() string {
	how := o.Operation
	if o.Subresource != "" {
		how += " /" + o.Subresource
	}
	fields := strings.Join(o.Fields, ", ")
	if fields == "" {
		fields = "(no fields)"
	}
	return fmt.Sprintf("%s (%s): %s", o.Manager, how, fields)
}
