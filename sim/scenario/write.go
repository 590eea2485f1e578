package scenario

import (
	"fmt"
	"strings"

	yaml "go.yaml.in/yaml/v3"
	metav1validation "k8s.io/apimachinery/pkg/apis/meta/v1/validation"
	validationfield "k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/conflictlab/conflictlab/sim/api"
	"github.com/conflictlab/conflictlab/sim/controller"
)

// This file reads and writes what says how a controller's write goes out
// beyond its method: the subresource it goes to, a hand-written body sent
// instead of the computed change, and sending a write that changes
// nothing (docs/scenario-format.md, "Write methods").

// The values of noop.
const (
	noopSkip = "skip"
	noopSend = "send"
)

// hasBody reports whether a controller's mapping gives a body, which
// replaces its mutations.
func hasBody(f map[string]entry) bool {
	_, ok := f["body"]
	return ok
}

// fieldManager reads fieldManager. A real server refuses an apply without
// one (422) and any write whose manager is longer than 128 bytes or holds
// a character that does not print: the file says so at its line.
func (p *parser) fieldManager(n *yaml.Node, field string, w controller.WriteMethod) string {
	s, ok := p.text(n, field)
	if !ok {
		return ""
	}
	if strings.TrimSpace(s) == "" {
		if w == controller.ServerSideApply {
			p.errorf(n, field, "empty: an apply needs a field manager (a real server answers 422 %q); leave fieldManager out to use the controller's name",
				`PatchOptions.meta.k8s.io "" is invalid: fieldManager: Required value: is required for apply patch`)
		} else {
			p.errorf(n, field, "empty value: leave fieldManager out to use the controller's name")
		}
		return ""
	}
	p.checkManager(n, field, s)
	return s
}

// checkManager applies the real server's rule for a field manager's name.
func (p *parser) checkManager(n *yaml.Node, field, manager string) {
	for _, e := range metav1validation.ValidateFieldManager(manager, nil) {
		switch e.Type {
		case validationfield.ErrorTypeTooLong:
			p.errorf(n, field, "%q is %d bytes: a real server refuses a field manager longer than %d (422)", manager, len(manager), metav1validation.FieldManagerMaxLength)
		default:
			p.errorf(n, field, "%q: %s (a real server answers 422)", manager, e.Detail)
		}
	}
}

// writeOptions reads subresource, body and noop, once the rest of the
// controller is read (they are checked against its write method).
func (p *parser) writeOptions(f map[string]entry, field string, c *Controller) {
	prog := &c.Program
	sub := func(k string) string { return field + "." + k }
	lifecycle := prog.Write.IsLifecycle()
	if e, ok := f["name"]; ok && prog.FieldManager == "" && prog.Name != "" {
		if _, given := f["fieldManager"]; !given {
			p.checkManager(e.val, sub("name")+" (its field manager)", prog.Name)
		}
	}
	if e, ok := f["subresource"]; ok {
		if s, ok := p.text(e.val, sub("subresource")); ok {
			switch {
			case s != controller.StatusSubresource:
				p.errorf(e.val, sub("subresource"), "unknown subresource %q (want status: the served kinds have no other; leave it out for the object itself)", s)
			case lifecycle:
				p.errorf(e.val, sub("subresource"), "%s goes to the object itself, not to /status", prog.Write)
			default:
				prog.Subresource = s
			}
		}
	}
	if e, ok := f["noop"]; ok {
		if s, ok := p.text(e.val, sub("noop")); ok {
			switch {
			case s != noopSkip && s != noopSend:
				p.errorf(e.val, sub("noop"), "%q: want skip (the default: a write that changes nothing is not sent) or send", s)
			case s == noopSend && lifecycle:
				p.errorf(e.val, sub("noop"), "noop is for writes computed from mutations, not %s", prog.Write)
			case s == noopSend && hasBody(f):
				p.errorf(e.val, sub("noop"), "a hand-written body is always sent: leave noop out")
			default:
				prog.SendNoop = s == noopSend
			}
		}
	}
	e, ok := f["body"]
	if !ok {
		return
	}
	before := len(p.errs)
	v, ok := p.value(e.val, sub("body"), 0)
	if !ok {
		return
	}
	switch {
	case v == nil:
		p.errorf(e.val, sub("body"), "empty: want a mapping (for json-patch, a list of operations)")
		return
	case prog.Write == "":
		return // reported already
	case !prog.Write.TakesBody():
		p.errorf(e.key, sub("body"), "a hand-written body is for merge-patch, strategic-patch, json-patch and apply, not %s%s", prog.Write, bodyHint(prog.Write))
	}
	if m, ok := f["mutations"]; ok {
		p.errorf(m.key, sub("mutations"), "a hand-written body replaces mutations: give one or the other")
	}
	if o, ok := f["withRV"]; ok && prog.WithRV {
		p.errorf(o.key, sub("withRV"), "withRV does not go with a hand-written body: write metadata.resourceVersion into the body")
	}
	if o, ok := f["test"]; ok && prog.Test != controller.TestNone {
		p.errorf(o.key, sub("test"), "test does not go with a hand-written body: write the test operations into the body")
	}
	if len(p.errs) > before {
		return
	}
	if _, known := api.Lookup(prog.Target.Kind); known {
		for _, pr := range controller.CheckBody(prog.Write, prog.Target, v) {
			p.errorf(bodyNode(e.val, pr.At), sub("body")+pathText(pr.At), "%s", pr.Msg)
		}
	}
	prog.Body = v
}

func bodyHint(w controller.WriteMethod) string {
	if w.IsLifecycle() {
		return ""
	}
	return " (an update sends the whole object it read, changed by its mutations)"
}

// pathText is a place in a body as the field of a message: .metadata.name,
// [0].path, .metadata["$setElementOrder/finalizers"].
func pathText(at []any) string {
	s := controller.BodyProblem{At: at}.String()
	return strings.TrimSuffix(s, ": ")
}

// bodyNode finds the node at a place in a body, or the deepest node on the
// way there (for the line of a message about a field that is missing).
func bodyNode(n *yaml.Node, at []any) *yaml.Node {
	for _, k := range at {
		d := deref(n)
		if d == nil {
			return n
		}
		switch k := k.(type) {
		case int:
			if d.Kind != yaml.SequenceNode || k >= len(d.Content) {
				return d
			}
			n = d.Content[k]
		default:
			c := childNode(d, fmt.Sprint(k))
			if c == d {
				return d
			}
			n = c
		}
	}
	if d := deref(n); d != nil {
		return d
	}
	return n
}

// writeOptionNodes writes subresource, body and noop back, after force.
func writeOptionNodes(m mapping, p controller.Program) error {
	if p.Subresource != "" {
		m.add("subresource", strNode(p.Subresource))
	}
	if p.Body != nil {
		b, err := valueNode(p.Body, 0)
		if err != nil {
			return fmt.Errorf("body: %w", err)
		}
		m.add("body", b)
	}
	if p.SendNoop {
		m.add("noop", strNode(noopSend))
	}
	return nil
}
