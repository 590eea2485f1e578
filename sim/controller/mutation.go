package controller

import (
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"

	"k8s.io/apimachinery/pkg/runtime"
)

// Op is what a mutation does to the field at its path.
type Op string

const (
	Set            Op = "set"              // path = value: independent of what was read
	Remove         Op = "remove"           // delete the field
	Increment      Op = "increment"        // path += by: depends on what was read
	Append         Op = "append"           // add value at the end of a list (or a comma-separated string): depends on what was read
	AddToSet       Op = "add-to-set"       // add value to a list if absent (finalizers)
	RemoveFromList Op = "remove-from-list" // remove value from a list
	// Copy sets path to the value the copy that was read holds at From
	// (status.observedGeneration = metadata.generation): depends on what
	// was read.
	Copy Op = "copy"
)

// Mutation is one change a controller makes to the copy it read.
type Mutation struct {
	Op    Op
	Path  Path
	Value any
	By    int64
	// From is where a Copy takes its value, in the copy that was read.
	From Path
	// When makes the mutation a decision taken from what was read: it is
	// applied only if the read copy satisfies it.
	When *Condition
}

// Condition is a test on the copy that was read.
type Condition struct {
	Path   Path
	Equals any
}

// Holds reports whether obj satisfies the condition.
func (c Condition) Holds(obj map[string]any) bool {
	v, ok := c.Path.Get(obj)
	if !ok {
		return c.Equals == nil
	}
	return sameValue(v, c.Equals)
}

// Validate reports what is wrong with a mutation.
func (m Mutation) Validate() error {
	if len(m.Path.segs) == 0 {
		return fmt.Errorf("%s needs a path", m.Op)
	}
	switch m.Op {
	case Set, Append, AddToSet, RemoveFromList:
		if m.Value == nil {
			return fmt.Errorf("%s %s needs a value", m.Op, m.Path)
		}
	case Remove:
	case Copy:
		if len(m.From.segs) == 0 {
			return fmt.Errorf("copy to %s needs a from", m.Path)
		}
	case Increment:
		if m.By == 0 {
			return fmt.Errorf("increment %s needs a non-zero by", m.Path)
		}
	default:
		return fmt.Errorf("unknown operation %q", m.Op)
	}
	return nil
}

// DependsOnRead reports whether the mutation's result depends on the value
// it read: such a change is only safe with a conditional write.
func (m Mutation) DependsOnRead() bool {
	return m.Op == Increment || m.Op == Append || m.Op == Copy || m.When != nil
}

// Resolve is the mutation as it acts on the copy that was read: a Copy
// becomes the Set of the value read at From (a Remove when there is
// none), so that what a write meant is a plain value, checked like any
// other. Every other mutation is returned as it is.
func (m Mutation) Resolve(read map[string]any) Mutation {
	if m.Op != Copy {
		return m
	}
	r := Mutation{Op: Set, Path: m.Path, When: m.When}
	v, ok := m.From.Get(read)
	if !ok || v == nil {
		r.Op = Remove
		return r
	}
	r.Value = normalizeValue(runtime.DeepCopyJSONValue(v))
	return r
}

// Describe is the mutation in a person's words.
func (m Mutation) Describe() string {
	p := m.Path.String()
	var s string
	switch {
	case m.Op == AddToSet && p == "metadata.finalizers":
		s = fmt.Sprintf("add finalizer %s", describeValue(m.Value))
	case m.Op == RemoveFromList && p == "metadata.finalizers":
		s = fmt.Sprintf("remove finalizer %s", describeValue(m.Value))
	case m.Op == Set && strings.HasPrefix(p, "metadata.labels"):
		s = fmt.Sprintf("label %s=%s", mapKey(m.Path), describeValue(m.Value))
	case m.Op == Set && strings.HasPrefix(p, "metadata.annotations"):
		s = fmt.Sprintf("annotate %s=%s", mapKey(m.Path), describeValue(m.Value))
	case m.Op == Set:
		s = fmt.Sprintf("set %s=%s", p, describeValue(m.Value))
	case m.Op == Remove:
		s = fmt.Sprintf("remove %s", p)
	case m.Op == Increment:
		// Not "+= 1": the controller sends a value it computed from its
		// copy, and the server adds nothing.
		s = fmt.Sprintf("set %s=(value read)+%d", p, m.By)
	case m.Op == Append:
		s = fmt.Sprintf("append %s to %s", describeValue(m.Value), p)
	case m.Op == Copy:
		s = fmt.Sprintf("set %s from %s", p, m.From)
	case m.Op == AddToSet:
		s = fmt.Sprintf("add %s to %s", describeValue(m.Value), p)
	case m.Op == RemoveFromList:
		s = fmt.Sprintf("remove %s from %s", describeValue(m.Value), p)
	}
	if m.When != nil {
		s += fmt.Sprintf(" if %s=%s", m.When.Path, describeValue(m.When.Equals))
	}
	return s
}

// describeValue writes a value as the scenario file would hold it:
// scalars bare, null for nil, objects and lists as compact JSON (fmt's %v
// would print "<nil>" and "map[reason:… type:Ready]").
func describeValue(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case map[string]any, []any:
		if b, err := json.Marshal(v); err == nil {
			return string(b)
		}
	}
	return fmt.Sprint(v)
}

func mapKey(p Path) string {
	if n := len(p.segs); n > 0 {
		return p.segs[n-1].key
	}
	return ""
}

// Apply performs the mutation on obj (the copy that was read).
func (m Mutation) Apply(obj map[string]any) error {
	if m.When != nil && !m.When.Holds(obj) {
		return nil
	}
	switch m.Op {
	case Set:
		return m.Path.Set(obj, normalizeValue(m.Value))
	case Remove:
		m.Path.Remove(obj)
		return nil
	case Copy:
		// Applied alone, a copy reads obj itself; Mutate resolves it
		// against the copy that was read first.
		r := m.Resolve(obj)
		r.When = nil
		return r.Apply(obj)
	case Increment:
		cur, _ := m.Path.Get(obj)
		n, asString, err := counterValue(cur)
		if err != nil {
			return fmt.Errorf("increment %s: %w", m.Path, err)
		}
		if (m.By > 0 && n > math.MaxInt64-m.By) || (m.By < 0 && n < math.MinInt64-m.By) {
			// A 64-bit counter would wrap to the other end: stop, as a
			// value that is not a number does.
			return fmt.Errorf("increment %s: %d + %d does not fit in a 64-bit integer", m.Path, n, m.By)
		}
		if asString || (cur == nil && m.Path.segs[0].key == "data") {
			return m.Path.Set(obj, strconv.FormatInt(n+m.By, 10))
		}
		return m.Path.Set(obj, n+m.By)
	case Append:
		cur, _ := m.Path.Get(obj)
		switch c := cur.(type) {
		case string:
			if c == "" {
				return m.Path.Set(obj, fmt.Sprint(m.Value))
			}
			return m.Path.Set(obj, c+","+fmt.Sprint(m.Value))
		case nil:
			if m.Path.segs[0].key == "data" {
				return m.Path.Set(obj, fmt.Sprint(m.Value))
			}
			return m.Path.Set(obj, []any{normalizeValue(m.Value)})
		case []any:
			return m.Path.Set(obj, append(append([]any{}, c...), normalizeValue(m.Value)))
		default:
			return fmt.Errorf("append %s: not a list or string", m.Path)
		}
	case AddToSet:
		cur, _ := m.Path.Get(obj)
		l, _ := cur.([]any)
		for _, e := range l {
			if sameValue(e, m.Value) {
				return nil
			}
		}
		return m.Path.Set(obj, append(append([]any{}, l...), normalizeValue(m.Value)))
	case RemoveFromList:
		cur, ok := m.Path.Get(obj)
		if !ok {
			return nil
		}
		l, _ := cur.([]any)
		out := []any{}
		for _, e := range l {
			if !sameValue(e, m.Value) {
				out = append(out, e)
			}
		}
		if len(out) == 0 {
			m.Path.Remove(obj)
			return nil
		}
		return m.Path.Set(obj, out)
	}
	return fmt.Errorf("unknown operation %q", m.Op)
}

// counterValue reads a counter kept as a number or (in ConfigMap data) a
// decimal string; a missing counter is zero.
func counterValue(v any) (n int64, asString bool, err error) {
	switch c := v.(type) {
	case nil:
		return 0, false, nil
	case int64:
		return c, false, nil
	case float64:
		if c >= math.MaxInt64 || c < math.MinInt64 {
			return 0, false, fmt.Errorf("%v does not fit in a 64-bit integer", c)
		}
		return int64(c), false, nil
	case string:
		if c == "" {
			return 0, true, nil
		}
		n, err := strconv.ParseInt(c, 10, 64)
		if err != nil {
			return 0, true, fmt.Errorf("%q is not a number", c)
		}
		return n, true, nil
	}
	return 0, false, fmt.Errorf("%v is not a number", v)
}

// normalizeValue turns Go ints into the int64 unstructured JSON uses.
func normalizeValue(v any) any {
	switch n := v.(type) {
	case int:
		return int64(n)
	case int32:
		return int64(n)
	case uint64:
		return int64(n)
	case float64:
		if n == float64(int64(n)) {
			return int64(n)
		}
	}
	return v
}

func sameValue(a, b any) bool {
	return reflect.DeepEqual(normalizeValue(a), normalizeValue(b)) || fmt.Sprint(a) == fmt.Sprint(b) && isScalar(a) && isScalar(b)
}

func isScalar(v any) bool {
	switch v.(type) {
	case string, int64, int, float64, bool:
		return true
	}
	return false
}

// Satisfied reports whether obj shows the mutation's effect: the field set
// to the value, removed, the element present or gone. An element counts as
// present when the stored one has every field the mutation gave it (holds):
// the server fills in the rest of an item it defaults (a Deployment's
// containers). Increments have no such test (their effect is relative) and
// always report true.
func (m Mutation) Satisfied(obj map[string]any) bool {
	cur, found := m.Path.Get(obj)
	switch m.Op {
	case Set:
		return found && sameValue(cur, normalizeValue(m.Value))
	case Remove:
		return !found
	case AddToSet, Append:
		return holds(cur, m.Value)
	case RemoveFromList:
		return !holds(cur, m.Value)
	}
	return true
}

// holds is contains as an intent sees it: an element of the list covers v
// (a string list, the only other kind of list a mutation appends to, is
// contains's).
func holds(list any, v any) bool {
	l, ok := list.([]any)
	if !ok {
		return contains(list, v)
	}
	for _, e := range l {
		if covers(e, v) {
			return true
		}
	}
	return false
}

// covers reports whether got is want, or holds every field of want with
// the same value, recursively (a list item by item): want as the server
// stores it after filling in its defaults.
func covers(got, want any) bool {
	switch w := want.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			return false
		}
		for k, wv := range w {
			if gv, ok := g[k]; !ok || !covers(gv, wv) {
				return false
			}
		}
		return true
	case []any:
		g, ok := got.([]any)
		if !ok || len(g) != len(w) {
			return false
		}
		for i := range w {
			if !covers(g[i], w[i]) {
				return false
			}
		}
		return true
	}
	return sameValue(got, want)
}

func contains(list any, v any) bool {
	switch l := list.(type) {
	case []any:
		for _, e := range l {
			if sameValue(e, v) {
				return true
			}
		}
	case string:
		for _, e := range strings.Split(l, ",") {
			if e == fmt.Sprint(v) {
				return true
			}
		}
	}
	return false
}

// Touches reports whether the mutation writes the field at path p (or a
// field inside it, or one containing it).
func (m Mutation) Touches(p Path) bool {
	a, b := m.Path.String(), p.String()
	return a == b || strings.HasPrefix(a, b+".") || strings.HasPrefix(b, a+".") ||
		strings.HasPrefix(a, b+"[") || strings.HasPrefix(b, a+"[")
}

// CounterValue reads the counter at the mutation's path (zero when absent).
func (m Mutation) CounterValue(obj map[string]any) (int64, bool) {
	cur, _ := m.Path.Get(obj)
	n, _, err := counterValue(cur)
	return n, err == nil
}

// Undoes reports whether m, applied deliberately, means to undo the effect
// of other: set or remove the same field, remove the element other added,
// add the element other removed. Adding a different element to the same
// list is not undoing it, nor is changing a field inside one of its items
// — if the element vanishes anyway, the list was written from a stale
// copy.
func (m Mutation) Undoes(other Mutation) bool {
	if !m.Touches(other.Path) {
		return false
	}
	elementOp := func(op Op) bool { return op == AddToSet || op == Append || op == RemoveFromList }
	switch {
	case elementOp(other.Op) && strings.HasPrefix(m.Path.String(), other.Path.String()+"["):
		// A write inside one item of the list (a container's image) does
		// not mean to take out the item other put in; removing an item
		// itself may.
		rest := strings.TrimPrefix(m.Path.String(), other.Path.String())
		return m.Op == Remove && strings.HasSuffix(rest, "]") && strings.Count(rest, "[") == 1
	case elementOp(m.Op) && elementOp(other.Op):
		// Only taking out the element other put in (or putting back the
		// one it took out) undoes it; a second append of another value
		// that drops other's element wrote from a stale copy.
		adds := func(op Op) bool { return op == AddToSet || op == Append }
		return adds(m.Op) != adds(other.Op) && sameValue(m.Value, other.Value)
	case elementOp(m.Op):
		// Adding or removing one element does not mean to change a field
		// someone set as a whole, unless that field is the list itself.
		return m.Path.String() == other.Path.String() && other.Op != Increment
	}
	return true
}
