package scenario

import (
	"bytes"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"time"

	yaml "go.yaml.in/yaml/v3"

	"github.com/conflictlab/conflictlab/sim/api"
	"github.com/conflictlab/conflictlab/sim/controller"
)

// Marshal writes a scenario in the file format Parse reads, leaving out
// fields that have their default value. Parse(s.File, Marshal(s)) gives
// back s. The result is checked by parsing it: a scenario that would not
// load (an unknown kind, a controller with no mutations…) is an error.
func Marshal(s *Scenario) ([]byte, error) {
	if s == nil {
		return nil, fmt.Errorf("scenario: Marshal of nil")
	}
	root, err := scenarioNode(s)
	if err != nil {
		return nil, err
	}
	if bad := findBinary(root); bad != nil {
		return nil, fmt.Errorf("scenario: string %q is not valid UTF-8", bad.Value)
	}
	root.HeadComment = "Conflict Lab scenario: the format is described in docs/scenario-format.md"
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	enc.CompactSeqIndent()
	if err := enc.Encode(root); err != nil {
		return nil, fmt.Errorf("scenario: %w", err)
	}
	if err := enc.Close(); err != nil {
		return nil, fmt.Errorf("scenario: %w", err)
	}
	file := s.File
	if file == "" {
		file = "scenario"
	}
	if _, err := Parse(file, buf.Bytes()); err != nil {
		return nil, fmt.Errorf("scenario %q would not load back:\n%w", s.Name, err)
	}
	return buf.Bytes(), nil
}

// findBinary finds a string that SetString had to encode as !!binary.
func findBinary(n *yaml.Node) *yaml.Node {
	if n.Tag == "!!binary" {
		return n
	}
	for _, c := range n.Content {
		if b := findBinary(c); b != nil {
			return b
		}
	}
	return nil
}

// mapping builds a mapping node from key, value pairs.
type mapping struct{ n *yaml.Node }

func newMapping(flow bool) mapping {
	n := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
	if flow {
		n.Style = yaml.FlowStyle
	}
	return mapping{n}
}

func (m mapping) add(key string, v *yaml.Node) {
	m.n.Content = append(m.n.Content, strNode(key), v)
}

func strNode(s string) *yaml.Node {
	n := &yaml.Node{}
	n.SetString(s)
	if s == "<<" {
		// yaml.v3 would write it bare, and a bare << reads as a merge key.
		n.Style = yaml.DoubleQuotedStyle
	}
	return n
}

func intNode(i int64) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: strconv.FormatInt(i, 10)}
}

func boolNode(b bool) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: strconv.FormatBool(b)}
}

func flowSeq(items []string) *yaml.Node {
	n := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Style: yaml.FlowStyle}
	for _, s := range items {
		n.Content = append(n.Content, strNode(s))
	}
	return n
}

// durationNode writes a duration; 0 stays a bare 0.
func durationNode(d time.Duration) *yaml.Node {
	if d == 0 {
		return intNode(0)
	}
	return strNode(d.String())
}

func lagNode(l Lag) *yaml.Node {
	if l.Manual {
		return strNode("manual")
	}
	return durationNode(l.Delay)
}

// valueNode renders a JSON-shaped value; the types survive a Parse.
func valueNode(v any, depth int) (*yaml.Node, error) {
	if depth > maxDepth {
		return nil, fmt.Errorf("value nested more than %d levels deep", maxDepth)
	}
	switch x := v.(type) {
	case nil:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null", Value: "null"}, nil
	case string:
		return strNode(x), nil
	case bool:
		return boolNode(x), nil
	case int:
		return intNode(int64(x)), nil
	case int32:
		return intNode(int64(x)), nil
	case int64:
		return intNode(x), nil
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return nil, fmt.Errorf("%v has no JSON form", x)
		}
		s := strconv.FormatFloat(x, 'g', -1, 64)
		if !strings.ContainsAny(s, ".eE") {
			// 3.0 must stay a float: "3" would read back as an integer.
			s += ".0"
		}
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!float", Value: s}, nil
	case map[string]any:
		m := newMapping(false)
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			c, err := valueNode(x[k], depth+1)
			if err != nil {
				return nil, err
			}
			m.add(k, c)
		}
		return m.n, nil
	case []any:
		n := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq"}
		for _, e := range x {
			c, err := valueNode(e, depth+1)
			if err != nil {
				return nil, err
			}
			n.Content = append(n.Content, c)
		}
		return n, nil
	}
	return nil, fmt.Errorf("value %v of type %T has no YAML form here", v, v)
}

// simple reports whether v fits on one line of a flow mapping.
func simple(v any) bool {
	switch x := v.(type) {
	case nil, bool, int, int32, int64, float64:
		return true
	case string:
		return !strings.ContainsAny(x, "\n\r") && len(x) < 60
	}
	return false
}

func scenarioNode(s *Scenario) (*yaml.Node, error) {
	top := newMapping(false)
	top.add("name", strNode(s.Name))
	if s.Description != "" {
		top.add("description", strNode(s.Description))
	}
	if s.StartRV != DefaultStartRV && s.StartRV != 0 { // 0: the default, as race.New reads it
		top.add("startRV", intNode(s.StartRV))
	}
	if s.Lag != (Lag{}) {
		top.add("lag", lagNode(s.Lag))
	}
	if s.MaxSteps != DefaultMaxSteps && s.MaxSteps != 0 {
		top.add("maxSteps", intNode(int64(s.MaxSteps)))
	}
	if s.Seed != nil {
		top.add("seed", &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: strconv.FormatUint(*s.Seed, 10)})
	}
	if len(s.Schedule) > 0 {
		top.add("schedule", flowSeq(Tokens(s.Schedule)))
	}
	objs := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq"}
	for i, o := range s.Objects {
		if o == nil {
			return nil, fmt.Errorf("objects[%d] is nil", i)
		}
		n, err := objectNode(o.Object)
		if err != nil {
			return nil, fmt.Errorf("objects[%d]: %w", i, err)
		}
		objs.Content = append(objs.Content, n)
	}
	top.add("objects", objs)
	ctrls := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq"}
	for i, c := range s.Controllers {
		n, err := controllerNode(c)
		if err != nil {
			return nil, fmt.Errorf("controllers[%d]: %w", i, err)
		}
		ctrls.Content = append(ctrls.Content, n)
	}
	top.add("controllers", ctrls)
	if len(s.Invariants) > 0 {
		top.add("invariants", invariantNodes(s)) // invariant.go
	}
	return top.n, nil
}

// objectNode writes an object the way people write them: apiVersion, kind
// and metadata first.
func objectNode(obj map[string]any) (*yaml.Node, error) {
	n, err := valueNode(obj, 0)
	if err != nil {
		return nil, err
	}
	rank := func(k string) int {
		switch k {
		case "apiVersion":
			return 0
		case "kind":
			return 1
		case "metadata":
			return 2
		}
		return 3
	}
	type pair struct{ k, v *yaml.Node }
	pairs := make([]pair, 0, len(n.Content)/2)
	for i := 0; i+1 < len(n.Content); i += 2 {
		pairs = append(pairs, pair{n.Content[i], n.Content[i+1]})
	}
	sort.SliceStable(pairs, func(i, j int) bool { return rank(pairs[i].k.Value) < rank(pairs[j].k.Value) })
	n.Content = n.Content[:0]
	for _, p := range pairs {
		if p.k.Value == "metadata" && p.v.Kind == yaml.MappingNode {
			nameFirst(p.v)
		}
		n.Content = append(n.Content, p.k, p.v)
	}
	return n, nil
}

// nameFirst puts name and namespace at the top of metadata.
func nameFirst(meta *yaml.Node) {
	var first, rest []*yaml.Node
	for i := 0; i+1 < len(meta.Content); i += 2 {
		switch meta.Content[i].Value {
		case "name":
			first = append([]*yaml.Node{meta.Content[i], meta.Content[i+1]}, first...)
		case "namespace":
			first = append(first, meta.Content[i], meta.Content[i+1])
		default:
			rest = append(rest, meta.Content[i], meta.Content[i+1])
		}
	}
	meta.Content = append(first, rest...)
}

func targetNode(r api.Ref) *yaml.Node {
	ns := r.Namespace
	if ns == "" {
		ns = DefaultNamespace
	}
	if !strings.Contains(string(r.Kind)+ns+r.Name, "/") && r.Kind != "" && r.Name != "" {
		if ns == DefaultNamespace {
			return strNode(string(r.Kind) + "/" + r.Name)
		}
		return strNode(string(r.Kind) + "/" + ns + "/" + r.Name)
	}
	m := newMapping(true)
	m.add("kind", strNode(string(r.Kind)))
	m.add("name", strNode(r.Name))
	if ns != DefaultNamespace {
		m.add("namespace", strNode(ns))
	}
	return m.n
}

func controllerNode(c Controller) (*yaml.Node, error) {
	p := c.Program
	m := newMapping(false)
	m.add("name", strNode(p.Name))
	if p.Write != controller.Create { // a create's target is its object
		m.add("target", targetNode(p.Target))
	}
	read := p.Read
	if read == "" {
		read = controller.FromLister
	}
	if p.Write != controller.Code { // code reads as it is written
		m.add("read", strNode(string(read)))
	}
	muts := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq"}
	for i, mu := range p.Mutations {
		n, err := mutationNode(mu)
		if err != nil {
			return nil, fmt.Errorf("mutations[%d]: %w", i, err)
		}
		muts.Content = append(muts.Content, n)
	}
	if !p.Write.IsLifecycle() && p.Body == nil && (p.Write != controller.Code || len(p.Mutations) > 0) { // a body replaces mutations (write.go)
		m.add("mutations", muts)
	}
	m.add("write", strNode(string(p.Write)))
	if err := lifecycleNodes(m, p); err != nil { // lifecycle.go
		return nil, fmt.Errorf("object: %w", err)
	}
	if p.WithRV {
		m.add("withRV", boolNode(true))
	}
	if p.Test != controller.TestNone {
		m.add("test", strNode(string(p.Test)))
	}
	if p.FieldManager != "" {
		m.add("fieldManager", strNode(p.FieldManager))
	}
	if p.Force {
		m.add("force", boolNode(true))
	}
	if err := writeOptionNodes(m, p); err != nil { // write.go
		return nil, err
	}
	switch {
	case p.Write == controller.Code: // code retries as it is written
	case p.Retry == controller.NoRetry():
	case p.Retry == controller.DefaultRetry():
		m.add("retry", strNode("default"))
	default:
		r := newMapping(true)
		if p.Retry.Unbounded {
			r.add("unbounded", boolNode(true))
		} else {
			r.add("attempts", intNode(int64(p.Retry.Attempts)))
		}
		r.add("on", strNode(string(p.Retry.On)))
		r.add("reread", strNode(string(p.Retry.Reread)))
		r.add("backoff", durationNode(p.Retry.Backoff))
		m.add("retry", r.n)
	}
	if p.Requeue != (controller.RequeuePolicy{}) {
		q := newMapping(true)
		q.add("max", intNode(int64(p.Requeue.Max)))
		if p.Requeue.BaseDelay != 0 {
			q.add("baseDelay", durationNode(p.Requeue.BaseDelay))
		}
		m.add("requeue", q.n)
	}
	if p.Reconciles > 1 {
		m.add("reconciles", intNode(int64(p.Reconciles)))
	}
	if c.Lag != nil {
		m.add("lag", lagNode(*c.Lag))
	}
	cacheSelectorNode(m, c)                // cacheselector.go
	expectationsNode(m, c)                 // expect.go
	queueNodes(m, c)                       // queue.go
	if err := thenNode(m, p); err != nil { // then.go
		return nil, err
	}
	return m.n, nil
}

// mutationNode writes a mutation, with the label, annotation and finalizer
// sugar where it reads back as the same mutation.
func mutationNode(mu controller.Mutation) (*yaml.Node, error) {
	m := newMapping(false)
	path := mu.Path.String()
	str, isStr := mu.Value.(string)
	single := func(key string, v any) (*yaml.Node, error) {
		b := newMapping(simple(v))
		vn, err := valueNode(v, 0)
		if err != nil {
			return nil, err
		}
		b.add(key, vn)
		return b.n, nil
	}
	pathValue := func() (*yaml.Node, error) {
		b := newMapping(simple(mu.Value))
		b.add("path", strNode(path))
		vn, err := valueNode(mu.Value, 0)
		if err != nil {
			return nil, err
		}
		b.add("value", vn)
		return b.n, nil
	}
	var (
		op   string
		body *yaml.Node
		err  error
	)
	switch mu.Op {
	case controller.Set:
		if key, ok := mapEntryKey(labelsPath, path); ok && isStr {
			op = opAddLabel
			body, err = single(key, str)
		} else if key, ok := mapEntryKey(annotationsPath, path); ok && isStr {
			op = opAnnotate
			body, err = single(key, str)
		} else {
			op = opSet
			body, err = pathValue()
		}
	case controller.Remove:
		if key, ok := mapEntryKey(labelsPath, path); ok {
			op, body = opRemoveLabel, strNode(key)
		} else if key, ok := mapEntryKey(annotationsPath, path); ok {
			op, body = opRemoveAnnotation, strNode(key)
		} else {
			op, body = opRemove, strNode(path)
		}
	case controller.Increment:
		op = opIncrement
		if mu.By == 1 {
			body = strNode(path)
		} else {
			b := newMapping(true)
			b.add("path", strNode(path))
			b.add("by", intNode(mu.By))
			body = b.n
		}
	case controller.Append:
		op = opAppend
		body, err = pathValue()
	case controller.Copy:
		op = opCopy
		b := newMapping(true)
		b.add("from", strNode(mu.From.String()))
		b.add("path", strNode(path))
		body = b.n
	case controller.AddToSet:
		if path == finalizersPath && isStr && strings.TrimSpace(str) != "" {
			op, body = opAddFinalizer, strNode(str)
		} else {
			op = opAddToSet
			body, err = pathValue()
		}
	case controller.RemoveFromList:
		if path == finalizersPath && isStr && strings.TrimSpace(str) != "" {
			op, body = opRemoveFinalizer, strNode(str)
		} else {
			op = opRemoveFromList
			body, err = pathValue()
		}
	default:
		return nil, fmt.Errorf("unknown operation %q", mu.Op)
	}
	if err != nil {
		return nil, err
	}
	m.add(op, body)
	if mu.When != nil {
		w := newMapping(simple(mu.When.Equals))
		w.add("path", strNode(mu.When.Path.String()))
		vn, err := valueNode(mu.When.Equals, 0)
		if err != nil {
			return nil, err
		}
		w.add("equals", vn)
		m.add("when", w.n)
	}
	return m.n, nil
}
