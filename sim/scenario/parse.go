package scenario

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	yaml "go.yaml.in/yaml/v3"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/conflictlab/conflictlab/sim/api"
	"github.com/conflictlab/conflictlab/sim/controller"
	"github.com/conflictlab/conflictlab/userfile"
)

// DefaultNamespace is the namespace of objects and targets that name none.
const DefaultNamespace = "default"

// Load reads and parses a scenario file; messages name the path as given.
// Only a regular file of at most MaxFileSize is read (a FIFO or a device
// is refused at once): the error is then a *userfile.Error.
func Load(path string) (*Scenario, error) {
	data, err := userfile.Read(path, MaxFileSize)
	if err != nil {
		return nil, err
	}
	return Parse(path, data)
}

// Parse reads a scenario in the format of docs/scenario-format.md. file is
// only used in messages. On failure the error is an ErrorList of every
// problem found, each with its line and field.
func Parse(file string, data []byte) (*Scenario, error) {
	p := &parser{file: file}
	s := p.parse(data)
	if len(p.errs) > 0 {
		return nil, p.errs.sorted()
	}
	return s, nil
}

// yamlLine picks the line out of yaml.v3's "yaml: line 3: …" messages.
var yamlLine = regexp.MustCompile(`^yaml: line (\d+): (.*)$`)

// parserProblems are yaml.v3's parser errors (as opposed to its scanner's),
// whose line it reports 0-based, and at the start of the construct being
// parsed ("while parsing a flow sequence").
var parserProblems = map[string]bool{
	"did not find expected ',' or ']'":       true,
	"did not find expected ',' or '}'":       true,
	"did not find expected '-' indicator":    true,
	"did not find expected <document start>": true,
	"did not find expected <stream-start>":   true,
	"did not find expected key":              true,
	"did not find expected node content":     true,
	"found duplicate %TAG directive":         true,
	"found duplicate %YAML directive":        true,
	"found incompatible YAML document":       true,
	"found undefined tag handle":             true,
}

// unknownAnchor is yaml.v3's message for an alias to no anchor, which
// names no line.
var unknownAnchor = regexp.MustCompile(`^unknown anchor '(.*)' referenced$`)

func (p *parser) syntaxError(err error, data []byte) {
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	line := 1
	if m := yamlLine.FindStringSubmatch(err.Error()); m != nil {
		line, _ = strconv.Atoi(m[1])
		msg = m[2]
		if parserProblems[msg] {
			line++
		}
	} else if m := unknownAnchor.FindStringSubmatch(msg); m != nil {
		line = aliasLine(data, m[1])
	}
	p.errs = append(p.errs, &Error{File: p.file, Line: line, Msg: "YAML: " + msg})
}

// aliasLine finds the line of the first alias *name outside comments and
// quotes (0 if none is found): the alias yaml.v3 could not resolve.
func aliasLine(data []byte, name string) int {
	for i, line := range strings.Split(string(data), "\n") {
		var quote byte
		for j := 0; j < len(line); j++ {
			c := line[j]
			switch {
			case quote != 0:
				if c == quote {
					quote = 0
				}
			case c == '\'' || c == '"':
				quote = c
			case c == '#' && (j == 0 || line[j-1] == ' ' || line[j-1] == '\t'):
				j = len(line)
			case c == '*' && (j == 0 || strings.IndexByte(" \t[{,:-", line[j-1]) >= 0) && strings.HasPrefix(line[j+1:], name):
				end := j + 1 + len(name)
				if end == len(line) || strings.IndexByte(" \t\r,]}", line[end]) >= 0 {
					return i + 1
				}
			}
		}
	}
	return 0
}

// checkText reports the first byte YAML would refuse, with its line:
// invalid UTF-8 and control characters.
func (p *parser) checkText(data []byte) bool {
	line := 1
	for i := 0; i < len(data); {
		r, size := utf8.DecodeRune(data[i:])
		if r == utf8.RuneError && size <= 1 {
			p.errs = append(p.errs, &Error{File: p.file, Line: line, Msg: "not valid UTF-8 text"})
			return false
		}
		if !yamlPrintable(r) {
			p.errs = append(p.errs, &Error{File: p.file, Line: line, Msg: fmt.Sprintf("control character %U is not allowed in YAML", r)})
			return false
		}
		if r == '\n' {
			line++
		}
		i += size
	}
	return true
}

// yamlPrintable is the YAML 1.1 character set yaml.v3 accepts.
func yamlPrintable(r rune) bool {
	return r == 0x09 || r == 0x0A || r == 0x0D || (r >= 0x20 && r <= 0x7E) || r == 0x85 ||
		(r >= 0xA0 && r <= 0xD7FF) || (r >= 0xE000 && r <= 0xFFFD) || (r >= 0x10000 && r <= 0x10FFFF)
}

// DecodeDocument reads the one YAML document of a file, and whether
// another follows it; a panic in the YAML library is an error. A level
// file (package level) is read with it too.
func DecodeDocument(data []byte) (doc *yaml.Node, extra bool, err error) {
	defer func() {
		// yaml.v3 is fuzzed upstream, but a scenario file comes from anyone:
		// a panic in the library must not take the sandbox down.
		if r := recover(); r != nil {
			doc, err = nil, fmt.Errorf("yaml: cannot parse: %v", r)
		}
	}()
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var d yaml.Node
	if err := dec.Decode(&d); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, false, nil
		}
		return nil, false, err
	}
	var more yaml.Node
	if err := dec.Decode(&more); !errors.Is(err, io.EOF) {
		if err != nil {
			return &d, false, err
		}
		return &d, true, nil
	}
	return &d, false, nil
}

var topFields = []string{"name", "description", "startRV", "lag", "maxSteps", "seed", "schedule", "objects", "controllers", "invariants"}

func (p *parser) parse(data []byte) *Scenario {
	if len(data) > MaxFileSize {
		p.errs = append(p.errs, &Error{File: p.file, Msg: fmt.Sprintf("file is larger than %s", userfile.Size(MaxFileSize))})
		return nil
	}
	if !p.checkText(data) {
		return nil
	}
	doc, extra, err := DecodeDocument(data)
	if err != nil {
		p.syntaxError(err, data)
		return nil
	}
	if doc == nil || len(doc.Content) == 0 || isNull(doc.Content[0]) {
		p.errs = append(p.errs, &Error{File: p.file, Msg: "no scenario in the file (want a mapping with name, objects and controllers)"})
		return nil
	}
	if extra {
		p.errs = append(p.errs, &Error{File: p.file, Msg: "more than one YAML document: a scenario file holds one"})
		return nil
	}
	return p.root(doc.Content[0])
}

// ParseNode reads a scenario from a YAML node of a larger document (a
// level file holds its race under race:); messages name file and the
// document's own lines. The node was decoded by the caller, which bounds
// the document's size; the scenario's own limits apply as in Parse.
func ParseNode(file string, n *yaml.Node) (*Scenario, error) {
	p := &parser{file: file}
	s := p.root(n)
	if len(p.errs) > 0 {
		return nil, p.errs.sorted()
	}
	return s, nil
}

// root reads the scenario's mapping.
func (p *parser) root(n *yaml.Node) *Scenario {
	root := deref(n)
	if root == nil {
		p.errorf(n, "", "alias nested too deeply")
		return nil
	}
	f, ok := p.fields(root, "", topFields...)
	if !ok {
		return nil
	}
	s := &Scenario{File: p.file, StartRV: DefaultStartRV, MaxSteps: DefaultMaxSteps}

	if e, ok := f["name"]; ok {
		s.Name, _ = p.nonEmpty(e.val, "name")
	} else {
		p.missing(root, "", "name", "")
	}
	if e, ok := f["description"]; ok {
		s.Description, _ = p.text(e.val, "description")
	}
	if e, ok := f["startRV"]; ok {
		if v, ok := p.integer(e.val, "startRV"); ok {
			switch {
			case v < 1:
				p.errorf(e.val, "startRV", "must be at least 1, not %d", v)
			case v > LimitStartRV:
				p.errorf(e.val, "startRV", "must be at most %d (10^15), not %d: resourceVersions must stay exact as JSON numbers", int64(LimitStartRV), v)
			}
			s.StartRV = v
		}
	}
	if e, ok := f["lag"]; ok {
		s.Lag, _ = p.lag(e.val, "lag")
	}
	if e, ok := f["maxSteps"]; ok {
		s.MaxSteps, _ = p.intBetween(e.val, "maxSteps", 1, LimitSteps, "the limit of a race's length")
	}
	if e, ok := f["seed"]; ok {
		if v, ok := p.uinteger(e.val, "seed"); ok {
			s.Seed = &v
		}
	}

	var objectRefs map[api.Ref]int
	objectsOK := false
	if e, ok := f["objects"]; ok {
		before := len(p.errs)
		s.Objects, objectRefs = p.objects(e.val)
		objectsOK = len(p.errs) == before
	} else {
		p.missing(root, "", "objects", " (the objects that exist before the race)")
	}

	var ctrlNodes []*yaml.Node
	controllersOK := false
	if e, ok := f["controllers"]; ok {
		before := len(p.errs)
		s.Controllers, ctrlNodes = p.controllers(e.val)
		controllersOK = len(p.errs) == before
		if controllersOK && objectsOK {
			created := createdRefs(s.Controllers) // lifecycle.go
			for i, c := range s.Controllers {
				if _, found := objectRefs[c.Target]; !found && !created[c.Target] && c.Write != controller.Create {
					p.errorf(childNode(ctrlNodes[i], "target"), indexField("controllers", i)+".target", "target %s is not among objects", c.Target)
				}
			}
		}
	} else {
		p.missing(root, "", "controllers", "")
	}

	if controllersOK {
		p.checkQueues(s, ctrlNodes) // queue.go
	}
	if e, ok := f["schedule"]; ok {
		s.Schedule = p.schedule(e.val, s.Controllers, controllersOK)
	}
	if e, ok := f["invariants"]; ok {
		s.Invariants = p.invariants(e.val, s, objectsOK && controllersOK) // invariant.go
	}
	return s
}

// objects reads the initial objects: free-form Kubernetes YAML of a known
// kind, with apiVersion, kind and metadata.name.
func (p *parser) objects(n *yaml.Node) ([]*unstructured.Unstructured, map[api.Ref]int) {
	items, ok := p.seq(n, "objects")
	if !ok {
		return nil, nil
	}
	if len(items) > LimitObjects {
		p.errorf(n, "objects", "%d objects: a scenario has at most %d", len(items), LimitObjects)
		return nil, nil
	}
	var out []*unstructured.Unstructured
	refs := map[api.Ref]int{}
	for i, item := range items {
		field := indexField("objects", i)
		before := len(p.errs)
		v, ok := p.value(item, field, 0)
		if !ok {
			if p.aborted {
				return out, refs
			}
			continue
		}
		m, isMap := v.(map[string]any)
		if !isMap {
			p.errorf(item, field, "want a Kubernetes object (a mapping), got %s", describe(item))
			continue
		}
		u := &unstructured.Unstructured{Object: m}
		ref, ok := p.checkObject(item, field, m)
		if !ok || len(p.errs) > before {
			continue
		}
		if ns := u.GetNamespace(); ns == "" {
			u.SetNamespace(DefaultNamespace)
			ref.Namespace = DefaultNamespace
		}
		if j, dup := refs[ref]; dup {
			p.errorf(item, field, "%s is already defined by objects[%d]", ref, j)
			continue
		}
		refs[ref] = i
		out = append(out, u)
	}
	return out, refs
}

// checkObject checks the few fields the scenario itself needs.
func (p *parser) checkObject(n *yaml.Node, field string, m map[string]any) (api.Ref, bool) {
	ok := true
	str := func(key string, parent map[string]any, pnode *yaml.Node, pfield string) string {
		v, present := parent[key]
		if !present {
			p.errorf(pnode, pfield, "missing %s", key)
			ok = false
			return ""
		}
		s, isStr := v.(string)
		if !isStr || s == "" {
			p.errorf(childNode(pnode, key), keyField(pfield, key), "want a non-empty string, got %v", v)
			ok = false
		}
		return s
	}
	apiVersion := str("apiVersion", m, n, field)
	kind := str("kind", m, n, field)
	if kind != "" {
		info, known := api.Lookup(api.Kind(kind))
		if !known {
			p.errorf(childNode(n, "kind"), field+".kind", "unknown kind %q (want %s)", kind, oneOf(kindNames()))
			ok = false
		} else if apiVersion != "" && apiVersion != info.APIVersion {
			p.errorf(childNode(n, "apiVersion"), field+".apiVersion", "%s is %s, not %q", kind, info.APIVersion, apiVersion)
			ok = false
		}
	}
	var name, namespace string
	metaNode := childNode(n, "metadata")
	switch meta := m["metadata"].(type) {
	case map[string]any:
		name = str("name", meta, metaNode, field+".metadata")
		if v, present := meta["namespace"]; present {
			s, isStr := v.(string)
			if !isStr || s == "" {
				p.errorf(childNode(metaNode, "namespace"), field+".metadata.namespace", "want a non-empty string, got %v", v)
				ok = false
			}
			namespace = s
		}
	case nil:
		if _, present := m["metadata"]; !present {
			p.errorf(n, field, "missing metadata (with a name)")
		} else {
			p.errorf(metaNode, field+".metadata", "want a mapping with a name")
		}
		ok = false
	default:
		p.errorf(metaNode, field+".metadata", "want a mapping with a name")
		ok = false
	}
	return api.Ref{Kind: api.Kind(kind), Namespace: namespace, Name: name}, ok
}

// childNode finds the value node of key in a mapping node, or returns the
// mapping itself (for its line) when there is none.
func childNode(n *yaml.Node, key string) *yaml.Node {
	if n == nil {
		return nil
	}
	if n.Kind == yaml.MappingNode {
		for i := 0; i+1 < len(n.Content); i += 2 {
			if k := deref(n.Content[i]); k != nil && k.Value == key {
				if v := deref(n.Content[i+1]); v != nil {
					return v
				}
			}
		}
	}
	return n
}

func kindNames() []string {
	var out []string
	for _, k := range api.Kinds() {
		out = append(out, string(k))
	}
	return out
}

// schedule reads the list of steps.
func (p *parser) schedule(n *yaml.Node, ctrls []Controller, check bool) []Move {
	items, ok := p.seq(n, "schedule")
	if !ok {
		return nil
	}
	if len(items) > LimitSteps {
		p.errorf(n, "schedule", "%d steps: a race takes at most %d", len(items), LimitSteps)
		return nil
	}
	names := make([]string, len(ctrls))
	for i, c := range ctrls {
		names[i] = c.Name
	}
	out := make([]Move, 0, len(items))
	for i, item := range items {
		if p.aborted {
			break
		}
		field := indexField("schedule", i)
		step, ok := p.nonEmpty(item, field)
		if !ok {
			continue
		}
		m, err := ParseMove(step)
		if err != nil {
			if check { // (else the controllers' errors say enough)
				p.errorf(item, field, "%v", err)
			}
			continue
		}
		out = append(out, m)
		if check && !slices.Contains(names, m.Controller) {
			p.errorf(item, field, "unknown controller %q (controllers are %s)%s", m.Controller, oneOf(names), suggest(m.Controller, names))
		}
	}
	return out
}

// stepBound says why counts are capped at LimitSteps.
var stepBound = fmt.Sprintf("each takes at least one step, and a race takes at most %d", LimitSteps)

var controllerFields = []string{"name", "target", "read", "mutations", "write", "withRV", "test", "fieldManager", "force", "subresource", "body", "noop", "retry", "requeue", "reconciles", "lag", "object", "when", "preconditions", "propagationPolicy", "expectations", "onEvent", "worker", "then", "cacheSelector"}

// controllerName is the one rule for a controller's name.
var controllerName = controller.NameRule

func (p *parser) controllers(n *yaml.Node) ([]Controller, []*yaml.Node) {
	items, ok := p.seq(n, "controllers")
	if !ok {
		return nil, nil
	}
	if len(items) == 0 {
		p.errorf(n, "controllers", "empty: a race needs at least one controller")
		return nil, nil
	}
	if len(items) > LimitControllers {
		p.errorf(n, "controllers", "%d controllers: a race has at most %d", len(items), LimitControllers)
		return nil, nil
	}
	var out []Controller
	var nodes []*yaml.Node
	seen := map[string]int{}
	for i, item := range items {
		if p.aborted {
			break
		}
		field := indexField("controllers", i)
		before := len(p.errs)
		c, ok := p.controller(item, field)
		if !ok {
			continue
		}
		if j, dup := seen[c.Name]; dup {
			p.errorf(childNode(item, "name"), field+".name", "duplicate controller name %q (also controllers[%d])", c.Name, j)
			continue
		}
		seen[c.Name] = i
		if len(p.errs) == before {
			if err := c.Program.Validate(); err != nil {
				p.errorf(item, field, "%v", err)
				continue
			}
		}
		out = append(out, c)
		nodes = append(nodes, item)
	}
	return out, nodes
}

func (p *parser) controller(n *yaml.Node, field string) (Controller, bool) {
	before := len(p.errs)
	f, ok := p.fields(n, field, controllerFields...)
	if !ok {
		return Controller{}, false
	}
	c := Controller{Program: controller.Program{
		Read:       controller.FromLister,
		Retry:      controller.NoRetry(),
		Reconciles: 1,
	}}
	prog := &c.Program
	sub := func(k string) string { return field + "." + k }
	required := func(k, hint string) (entry, bool) {
		e, ok := f[k]
		if !ok {
			p.missing(n, field, k, hint)
		}
		return e, ok
	}

	if e, ok := required("name", ""); ok {
		if name, ok := p.nonEmpty(e.val, sub("name")); ok {
			if !controllerName.MatchString(name) {
				p.errorf(e.val, sub("name"), "%q: use letters, digits and dashes", name)
			}
			prog.Name = name
		}
	}
	lifecycle := lifecycleOf(f) // a create's target is its object; neither takes mutations (lifecycle.go)
	if e, ok := f["target"]; ok || lifecycle != controller.Create {
		if e, ok = required("target", " (the object it reconciles, as KIND/NAME or {kind, name, namespace})"); ok {
			prog.Target, _ = p.target(e.val, sub("target"))
		}
	}
	if e, ok := f["read"]; ok {
		if s, ok := p.text(e.val, sub("read")); ok {
			switch controller.ReadSource(s) {
			case controller.FromLister, controller.FromLive:
				prog.Read = controller.ReadSource(s)
			default:
				p.errorf(e.val, sub("read"), "unknown read source %q (want lister or live)", s)
			}
		}
	}
	code := isCodeEntry(f) // code.go
	if code {
		p.codeOptions(f, field)
	}
	if _, ok := f["mutations"]; (lifecycle == "" && !hasBody(f) && !code) || ok { // a body replaces mutations (write.go)
		if e, ok := required("mutations", ""); ok && lifecycle == "" {
			prog.Mutations = p.mutations(e.val, sub("mutations"))
		}
	}
	if e, ok := required("write", " (one of "+strings.Join(writeNames(), ", ")+")"); ok {
		if s, ok := p.text(e.val, sub("write")); ok {
			if w, known := writeMethod(s); known {
				prog.Write = w
			} else {
				p.errorf(e.val, sub("write"), "unknown write method %q (want one of %s)%s", s, strings.Join(writeNames(), ", "), suggest(s, writeNames()))
			}
		}
	}
	isPatch := prog.Write.IsPatch()
	if e, ok := f["withRV"]; ok {
		if v, ok := p.boolean(e.val, sub("withRV")); ok {
			// An apply may carry one too: the server then checks it like an
			// update's (lesson 7 races it).
			if v && prog.Write != "" && !isPatch && prog.Write != controller.ServerSideApply {
				p.errorf(e.val, sub("withRV"), "only patches (merge-patch, strategic-patch, json-patch) can carry a resourceVersion; %s %s", prog.Write, withRVHint(prog.Write))
			}
			prog.WithRV = v
		}
	}
	if e, ok := f["test"]; ok {
		if s, ok := p.text(e.val, sub("test")); ok {
			switch s {
			case "none":
				prog.Test = controller.TestNone
			case string(controller.TestRV), string(controller.TestValues):
				prog.Test = controller.TestMode(s)
				if prog.Write != "" && prog.Write != controller.JSONPatch {
					p.errorf(e.val, sub("test"), "test preconditions are for json-patch, not %s", prog.Write)
				}
			default:
				p.errorf(e.val, sub("test"), "unknown test mode %q (want none, resourceVersion or values)", s)
			}
		}
	}
	if e, ok := f["fieldManager"]; ok {
		prog.FieldManager = p.fieldManager(e.val, sub("fieldManager"), prog.Write) // write.go
	}
	if e, ok := f["force"]; ok {
		if v, ok := p.boolean(e.val, sub("force")); ok {
			if v && prog.Write != "" && prog.Write != controller.ServerSideApply {
				p.errorf(e.val, sub("force"), "force is for apply, not %s", prog.Write)
			}
			prog.Force = v
		}
	}
	if e, ok := f["retry"]; ok {
		prog.Retry, _ = p.retry(e.val, sub("retry"))
	}
	if e, ok := f["requeue"]; ok {
		prog.Requeue, _ = p.requeue(e.val, sub("requeue"))
	}
	if e, ok := f["reconciles"]; ok {
		prog.Reconciles, _ = p.intBetween(e.val, sub("reconciles"), 1, LimitSteps, stepBound)
	}
	if e, ok := f["lag"]; ok {
		if l, ok := p.lag(e.val, sub("lag")); ok {
			c.Lag = &l
		}
	}
	p.lifecycle(f, n, field, &c)  // lifecycle.go
	p.expectations(f, field, &c)  // expect.go
	p.queue(f, field, &c)         // queue.go
	p.then(f, field, &c)          // then.go
	p.cacheSelector(f, field, &c) // cacheselector.go
	p.writeOptions(f, field, &c)  // write.go
	return c, len(p.errs) == before
}

func withRVHint(w controller.WriteMethod) string {
	switch w {
	case controller.Update, controller.UpdateStatus:
		return "already sends the resourceVersion it read"
	case controller.UpdateClearRV:
		return "removes it on purpose"
	}
	return "cannot"
}

func writeNames() []string {
	out := make([]string, len(controller.WriteMethods))
	for i, w := range controller.WriteMethods {
		out[i] = string(w)
	}
	return append(append(out, lifecycleWriteNames()...), string(controller.Code))
}

func writeMethod(s string) (controller.WriteMethod, bool) {
	for _, w := range append(append(controller.WriteMethods, controller.LifecycleWrites...), controller.Code) {
		if string(w) == s {
			return w, true
		}
	}
	return "", false
}

// target reads {kind, name, namespace} or the short KIND/NAME or
// KIND/NAMESPACE/NAME.
func (p *parser) target(n *yaml.Node, field string) (api.Ref, bool) {
	var ref api.Ref
	kindNode := n
	switch n.Kind {
	case yaml.ScalarNode:
		s, ok := p.nonEmpty(n, field)
		if !ok {
			return ref, false
		}
		parts := strings.Split(s, "/")
		switch len(parts) {
		case 2:
			ref = api.Ref{Kind: api.Kind(parts[0]), Namespace: DefaultNamespace, Name: parts[1]}
		case 3:
			ref = api.Ref{Kind: api.Kind(parts[0]), Namespace: parts[1], Name: parts[2]}
		default:
			p.errorf(n, field, "%q: want KIND/NAME or KIND/NAMESPACE/NAME, as ConfigMap/cm1", s)
			return ref, false
		}
		for _, part := range parts {
			if part == "" {
				p.errorf(n, field, "%q: want KIND/NAME or KIND/NAMESPACE/NAME, as ConfigMap/cm1", s)
				return ref, false
			}
		}
	case yaml.MappingNode:
		f, ok := p.fields(n, field, "kind", "name", "namespace")
		if !ok {
			return ref, false
		}
		for _, k := range []string{"kind", "name"} {
			e, present := f[k]
			if !present {
				p.missing(n, field, k, "")
				return ref, false
			}
			v, ok := p.nonEmpty(e.val, field+"."+k)
			if !ok {
				return ref, false
			}
			if k == "kind" {
				ref.Kind, kindNode = api.Kind(v), e.val
			} else {
				ref.Name = v
			}
		}
		ref.Namespace = DefaultNamespace
		if e, present := f["namespace"]; present {
			v, ok := p.nonEmpty(e.val, field+".namespace")
			if !ok {
				return ref, false
			}
			ref.Namespace = v
		}
	default:
		p.errorf(n, field, "want KIND/NAME or {kind, name, namespace}, got %s", describe(n))
		return ref, false
	}
	if _, known := api.Lookup(ref.Kind); !known {
		kf := field
		if n.Kind == yaml.MappingNode {
			kf += ".kind"
		}
		p.errorf(kindNode, kf, "unknown kind %q (want %s)%s", ref.Kind, oneOf(kindNames()), suggest(string(ref.Kind), kindNames()))
		return ref, false
	}
	return ref, true
}

var retryFields = []string{"attempts", "on", "reread", "backoff", "unbounded"}

// retry reads none, default, or a mapping whose missing fields come from
// controller.DefaultRetry().
func (p *parser) retry(n *yaml.Node, field string) (controller.RetryPolicy, bool) {
	if n.Kind == yaml.ScalarNode {
		s, ok := p.text(n, field)
		if !ok {
			return controller.RetryPolicy{}, false
		}
		switch s {
		case "none":
			return controller.NoRetry(), true
		case "default":
			return controller.DefaultRetry(), true
		}
		p.errorf(n, field, "%q: want none, default or {attempts, on, reread, backoff, unbounded}", s)
		return controller.RetryPolicy{}, false
	}
	f, ok := p.fields(n, field, retryFields...)
	if !ok {
		return controller.RetryPolicy{}, false
	}
	r := controller.DefaultRetry()
	good := true
	if e, ok := f["unbounded"]; ok {
		r.Unbounded, ok = p.boolean(e.val, field+".unbounded")
		good = good && ok
	}
	if e, ok := f["attempts"]; ok {
		if r.Unbounded {
			p.errorf(e.key, field+".attempts", "an unbounded retry has no attempt limit: leave attempts out")
			good = false
		} else {
			r.Attempts, ok = p.intBetween(e.val, field+".attempts", 1, LimitSteps, stepBound)
			good = good && ok
		}
	} else if r.Unbounded {
		r.Attempts = 0
	}
	if e, ok := f["on"]; ok {
		if s, ok := p.text(e.val, field+".on"); ok {
			switch controller.RetryOn(s) {
			case controller.OnConflict, controller.OnAnyError, controller.OnTestFailed:
				r.On = controller.RetryOn(s)
			default:
				p.errorf(e.val, field+".on", "%q: want conflict, any or test-failed", s)
				good = false
			}
		} else {
			good = false
		}
	}
	if e, ok := f["reread"]; ok {
		if s, ok := p.text(e.val, field+".reread"); ok {
			switch controller.ReadSource(s) {
			case controller.FromLive, controller.FromLister, controller.RereadNone:
				r.Reread = controller.ReadSource(s)
			default:
				p.errorf(e.val, field+".reread", "%q: want live, lister or none", s)
				good = false
			}
		} else {
			good = false
		}
	}
	if e, ok := f["backoff"]; ok {
		r.Backoff, ok = p.duration(e.val, field+".backoff")
		good = good && ok
	}
	return r, good
}

func (p *parser) requeue(n *yaml.Node, field string) (controller.RequeuePolicy, bool) {
	var q controller.RequeuePolicy
	f, ok := p.fields(n, field, "max", "baseDelay")
	if !ok {
		return q, false
	}
	good := true
	if e, ok := f["max"]; ok {
		q.Max, ok = p.intBetween(e.val, field+".max", 0, LimitSteps, stepBound)
		good = good && ok
	}
	if e, ok := f["baseDelay"]; ok {
		q.BaseDelay, ok = p.duration(e.val, field+".baseDelay")
		good = good && ok
	}
	return q, good
}
