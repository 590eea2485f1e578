package controller

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/conflictlab/conflictlab/sim/api"
)

// StatusSubresource is the one subresource the served kinds have.
const StatusSubresource = "status"

// WriteSubresource is the subresource the program's writes go to: ""
// for the object itself, "status" for its /status.
func (p Program) WriteSubresource() string {
	if p.Write == UpdateStatus {
		return StatusSubresource
	}
	return p.Subresource
}

// validateWrite checks the parts of a program that say what its write
// sends: the subresource, and a hand-written body with what may go with it.
func (p Program) validateWrite() error {
	switch p.Subresource {
	case "", StatusSubresource:
	default:
		return fmt.Errorf("unknown subresource %q (want status, or none for the object itself)", p.Subresource)
	}
	if p.Body == nil {
		return nil
	}
	if !p.Write.TakesBody() {
		return fmt.Errorf("a hand-written body is for merge-patch, strategic-patch, json-patch and apply, not %s", p.Write)
	}
	switch {
	case len(p.Mutations) > 0:
		return fmt.Errorf("a hand-written body replaces mutations: give one or the other")
	case p.WithRV:
		return fmt.Errorf("withRV does not go with a hand-written body: write metadata.resourceVersion into the body")
	case p.Test != TestNone:
		return fmt.Errorf("test does not go with a hand-written body: write the test operations into it")
	case p.SendNoop:
		return fmt.Errorf("noop does not go with a hand-written body: a body is always sent")
	}
	if probs := CheckBody(p.Write, p.Target, p.Body); len(probs) > 0 {
		return fmt.Errorf("body%s", probs[0])
	}
	if _, err := json.Marshal(p.Body); err != nil {
		return fmt.Errorf("body: %v", err)
	}
	return nil
}

// TakesBody reports whether a hand-written body can replace the computed
// change: the patches and apply, whose body is the change itself (an
// update sends the whole object).
func (w WriteMethod) TakesBody() bool { return w.IsPatch() || w == ServerSideApply }

// BodyProblem is one thing wrong with a hand-written body. At is where, as
// keys (string) and list indexes (int) from the body's root.
type BodyProblem struct {
	At  []any
	Msg string
}

func (b BodyProblem) String() string {
	var s strings.Builder
	for _, k := range b.At {
		switch k := k.(type) {
		case int:
			fmt.Fprintf(&s, "[%d]", k)
		default:
			if key := fmt.Sprint(k); strings.ContainsAny(key, `./[]"`) {
				fmt.Fprintf(&s, "[%q]", key)
			} else {
				s.WriteString("." + key)
			}
		}
	}
	return s.String() + ": " + b.Msg
}

// JSON patch operations (RFC 6902) and the fields an operation may have.
var (
	jsonPatchOpNames  = []string{"add", "remove", "replace", "move", "copy", "test"}
	jsonPatchOpFields = []string{"op", "path", "from", "value"}
)

// Strategic merge patch directives (k8s.io/apimachinery/pkg/util/strategicpatch).
const (
	directivePatch            = "$patch"
	directiveRetainKeys       = "$retainKeys"
	prefixSetElementOrder     = "$setElementOrder/"
	prefixDeleteFromPrimitive = "$deleteFromPrimitiveList/"
)

// CheckBody reports what can be known wrong with a hand-written body before
// it is sent: its shape for the write method (an op list for json-patch, a
// mapping for the others), the operations of a JSON patch and the
// directives of a strategic one, and anything that would make it name
// another object than target (a kind, apiVersion, name or namespace of its
// own; a JSON patch operation that writes to those fields). What only the
// server can judge — a path that does not exist, a value of the wrong type
// for the kind — is left to its answer.
func CheckBody(w WriteMethod, target api.Ref, body any) []BodyProblem {
	var probs []BodyProblem
	add := func(msg string, at ...any) { probs = append(probs, BodyProblem{At: at, Msg: msg}) }
	if w == JSONPatch {
		ops, ok := body.([]any)
		if !ok {
			add(fmt.Sprintf("a JSON patch is a list of operations ({op, path, value}), not %s", jsonKind(body)))
			return probs
		}
		for i, o := range ops {
			op, ok := o.(map[string]any)
			if !ok {
				add(fmt.Sprintf("want an operation ({op, path, value}), got %s", jsonKind(o)), i)
				continue
			}
			for _, pr := range checkJSONPatchOp(op) {
				probs = append(probs, BodyProblem{At: append([]any{i}, pr.At...), Msg: pr.Msg})
			}
		}
		return probs
	}
	m, ok := body.(map[string]any)
	if !ok {
		add(fmt.Sprintf("a %s body is a mapping, not %s", w, jsonKind(body)))
		return probs
	}
	probs = append(probs, checkBodyIdentity(w, target, m)...)
	if w == StrategicPatch {
		probs = append(probs, checkDirectives(m, nil)...)
	}
	return probs
}

func checkJSONPatchOp(op map[string]any) []BodyProblem {
	var probs []BodyProblem
	add := func(msg string, at ...any) { probs = append(probs, BodyProblem{At: at, Msg: msg}) }
	for _, k := range slices.Sorted(maps.Keys(op)) {
		if !slices.Contains(jsonPatchOpFields, k) {
			add(fmt.Sprintf("unknown field %q of a JSON patch operation (want op, path, from, value)", k), k)
		}
	}
	name, ok := op["op"].(string)
	switch {
	case op["op"] == nil:
		add("missing op (one of " + strings.Join(jsonPatchOpNames, ", ") + ")")
		return probs
	case !ok || !slices.Contains(jsonPatchOpNames, name):
		add(fmt.Sprintf("unknown op %v (want one of %s)", op["op"], strings.Join(jsonPatchOpNames, ", ")), "op")
		return probs
	}
	pointer := func(k string) (string, bool) {
		v, present := op[k]
		if !present {
			add(fmt.Sprintf("%s needs a %s (a JSON pointer such as /data/x)", name, k))
			return "", false
		}
		p, isStr := v.(string)
		if !isStr || (p != "" && !strings.HasPrefix(p, "/")) {
			add(fmt.Sprintf("want a JSON pointer (\"\" or starting with /), got %v", v), k)
			return "", false
		}
		return p, true
	}
	if p, ok := pointer("path"); ok && name != "test" && IdentityPointer(p) {
		add(fmt.Sprintf("%s %q would change which object this is: a race writes only its own objects", name, p), "path")
	}
	switch name {
	case "move", "copy":
		if p, ok := pointer("from"); ok && name == "move" && IdentityPointer(p) {
			add(fmt.Sprintf("move from %q would change which object this is: a race writes only its own objects", p), "from")
		}
	case "add", "replace", "test":
		if _, present := op["value"]; !present {
			add(name + " needs a value (null is a value)")
		}
	}
	return probs
}

// IdentityPointer reports whether a JSON pointer reaches the fields that
// say which object this is: writing there would make a patch name another
// object (live mode refuses it for the same reason).
func IdentityPointer(p string) bool {
	switch p {
	case "", "/kind", "/apiVersion", "/metadata", "/metadata/name", "/metadata/namespace", "/metadata/generateName", "/metadata/uid":
		return true
	}
	return false
}

// checkBodyIdentity: what a mapping body says about its object must be
// its target. A field left out is fine (the server takes it from the URL),
// except that an apply configuration must say its apiVersion and kind.
func checkBodyIdentity(w WriteMethod, target api.Ref, m map[string]any) []BodyProblem {
	var probs []BodyProblem
	info, _ := api.Lookup(target.Kind)
	want := map[string]string{"apiVersion": info.APIVersion, "kind": string(target.Kind)}
	for _, k := range []string{"apiVersion", "kind"} {
		v, present := m[k]
		switch {
		case !present && w == ServerSideApply:
			probs = append(probs, BodyProblem{Msg: fmt.Sprintf("an apply configuration needs %s: %s", k, want[k])})
		case present && v != want[k]:
			probs = append(probs, BodyProblem{At: []any{k}, Msg: fmt.Sprintf("the target %s is %s %s, not %v", target, k, want[k], jsonText(v))})
		}
	}
	meta, present := m["metadata"]
	if !present {
		return probs
	}
	md, ok := meta.(map[string]any)
	if !ok {
		return append(probs, BodyProblem{At: []any{"metadata"}, Msg: fmt.Sprintf("want a mapping (it says which object this is), got %s", jsonKind(meta))})
	}
	for k, want := range map[string]string{"name": target.Name, "namespace": target.Namespace} {
		if v, present := md[k]; present && v != want {
			probs = append(probs, BodyProblem{At: []any{"metadata", k}, Msg: fmt.Sprintf("the target's %s is %q, not %s: a body names only its own object", k, want, jsonText(v))})
		}
	}
	sort.Slice(probs, func(i, j int) bool { return BodyProblem.String(probs[i]) < BodyProblem.String(probs[j]) })
	return probs
}

// checkDirectives checks the strategic merge patch directives in a
// mapping: $patch is replace, merge or delete; $retainKeys lists field
// names; $setElementOrder/F and $deleteFromPrimitiveList/F hold lists.
func checkDirectives(v any, at []any) []BodyProblem {
	var probs []BodyProblem
	here := func(k any) []any { return append(append([]any{}, at...), k) }
	switch v := v.(type) {
	case []any:
		for i, x := range v {
			probs = append(probs, checkDirectives(x, here(i))...)
		}
	case map[string]any:
		for _, k := range slices.Sorted(maps.Keys(v)) {
			x := v[k]
			switch {
			case k == directivePatch:
				if s, _ := x.(string); s != "replace" && s != "merge" && s != "delete" {
					probs = append(probs, BodyProblem{At: here(k), Msg: fmt.Sprintf("want replace, merge or delete, got %s", jsonText(x))})
				}
			case k == directiveRetainKeys:
				if !stringList(x) {
					probs = append(probs, BodyProblem{At: here(k), Msg: "want a list of field names"})
				}
			case strings.HasPrefix(k, prefixSetElementOrder), strings.HasPrefix(k, prefixDeleteFromPrimitive):
				if _, isList := x.([]any); !isList || strings.HasSuffix(k, "/") {
					probs = append(probs, BodyProblem{At: here(k), Msg: "want a list (the directive names its field after the /)"})
				}
			case strings.HasPrefix(k, "$"):
				probs = append(probs, BodyProblem{At: here(k), Msg: "unknown strategic merge patch directive (want $patch, $retainKeys, $setElementOrder/FIELD or $deleteFromPrimitiveList/FIELD)"})
			default:
				probs = append(probs, checkDirectives(x, here(k))...)
			}
		}
	}
	return probs
}

func stringList(v any) bool {
	l, ok := v.([]any)
	if !ok {
		return false
	}
	for _, x := range l {
		if _, ok := x.(string); !ok {
			return false
		}
	}
	return true
}

// jsonKind names the JSON type of a value, for messages.
func jsonKind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case map[string]any:
		return "a mapping"
	case []any:
		return "a list"
	case string:
		return "a string"
	case bool:
		return "a boolean"
	}
	return "a number"
}

func jsonText(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

// writePurpose says why a write is sent, for the timeline: a hand-written
// body and a write that changes nothing are told apart from a change.
func writePurpose(p Program, read, mutated *unstructured.Unstructured) string {
	switch {
	case p.Body != nil:
		return "write (hand-written body)"
	case p.SendNoop && read != nil && mutated != nil && unchanged(read, mutated):
		return "write (no change, noop: send)"
	}
	return "write"
}
