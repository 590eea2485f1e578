package scenario

import (
	"sort"
	"strings"

	yaml "go.yaml.in/yaml/v3"
	"k8s.io/apimachinery/pkg/labels"

	"github.com/conflictlab/conflictlab/sim/api"
	"github.com/conflictlab/conflictlab/sim/controller"
)

// Invariant is something that must be true of the world when the race
// ends, whatever else happened: a race where no field is lost can still
// leave two children where one was wanted, or delete an object nobody
// meant to delete (docs/scenario-format.md, "Invariants"):
//
//	invariants:
//	- objects: {selector: app=web, is: 1}
//	  why: the parent needs exactly one child
//
// Today an invariant counts objects: those of Kind in Namespace named
// Name, or carrying the labels Selector asks for (exactly one of the two).
type Invariant struct {
	// Kind is the kind counted: the scenario's one kind unless it says.
	Kind api.Kind
	// Namespace defaults to DefaultNamespace.
	Namespace string
	// Name counts the object of that name: 0 or 1.
	Name string
	// Selector is a label selector as kubectl takes it (app=web,
	// tier!=db, env in (a,b)), checked when the file is read.
	Selector string
	// Is is how many of them must exist when the race ends.
	Is int
	// Why is what breaking it means, in the author's words: the race
	// prints it with the count.
	Why string
}

// LimitInvariants bounds the list (each is checked at the end of every run).
const LimitInvariants = 16

// limitCount bounds a count: no race makes more objects than it starts
// with plus one per step.
const limitCount = LimitObjects + LimitSteps

var invariantFields = []string{"objects", "why"}

var objectCountFields = []string{"kind", "namespace", "name", "selector", "is"}

// InNamespace is the namespace the invariant counts in: its own, or the
// default one (Parse fills it in; a scenario built in code may not).
func (inv Invariant) InNamespace() string {
	if inv.Namespace == "" {
		return DefaultNamespace
	}
	return inv.Namespace
}

// Matches reports whether an object of kind, namespace, name and labels
// is one the invariant counts. The selector was checked by Parse; one that
// does not parse (a scenario built in code) matches nothing.
func (inv Invariant) Matches(kind api.Kind, namespace, name string, objLabels map[string]string) bool {
	if kind != inv.Kind || namespace != inv.InNamespace() {
		return false
	}
	if inv.Name != "" {
		return name == inv.Name
	}
	sel, err := labels.Parse(inv.Selector)
	if err != nil {
		return false
	}
	return sel.Matches(labels.Set(objLabels))
}

// scenarioKinds are the kinds of the objects a scenario starts with and
// the ones its creates make, sorted.
func scenarioKinds(s *Scenario) []string {
	seen := map[string]bool{}
	for _, o := range s.Objects {
		seen[o.GetKind()] = true
	}
	for _, c := range s.Controllers {
		if c.Write == controller.Create && c.Object != nil {
			seen[c.Object.GetKind()] = true
		}
	}
	out := make([]string, 0, len(seen))
	for k := range seen {
		if k != "" {
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out
}

// invariants reads the list. kindsKnown is false when the objects or the
// controllers had errors: the default kind is then not looked for.
func (p *parser) invariants(n *yaml.Node, s *Scenario, kindsKnown bool) []Invariant {
	items, ok := p.seq(n, "invariants")
	if !ok {
		return nil
	}
	if len(items) > LimitInvariants {
		p.errorf(n, "invariants", "%d invariants: a scenario has at most %d", len(items), LimitInvariants)
		return nil
	}
	var out []Invariant
	for i, item := range items {
		if p.aborted {
			break
		}
		field := indexField("invariants", i)
		if inv, ok := p.invariant(item, field, s, kindsKnown); ok {
			out = append(out, inv)
		}
	}
	return out
}

func (p *parser) invariant(n *yaml.Node, field string, s *Scenario, kindsKnown bool) (Invariant, bool) {
	var inv Invariant
	before := len(p.errs)
	f, ok := p.fields(n, field, invariantFields...)
	if !ok {
		return inv, false
	}
	if e, ok := f["why"]; ok {
		inv.Why, _ = p.nonEmpty(e.val, field+".why")
	} else {
		p.missing(n, field, "why", " (what breaking it means, shown with the count)")
	}
	oe, ok := f["objects"]
	if !ok {
		p.missing(n, field, "objects", " (which objects to count, and how many there must be: {selector: app=web, is: 1})")
		return inv, false
	}
	on := oe.val
	field += ".objects"
	of, ok := p.fields(on, field, objectCountFields...)
	if !ok {
		return inv, false
	}
	sub := func(k string) string { return field + "." + k }
	inv.Namespace = DefaultNamespace
	if e, ok := of["namespace"]; ok {
		inv.Namespace, _ = p.nonEmpty(e.val, sub("namespace"))
	}
	if e, ok := of["kind"]; ok {
		if k, ok := p.nonEmpty(e.val, sub("kind")); ok {
			if _, known := api.Lookup(api.Kind(k)); known {
				inv.Kind = api.Kind(k)
			} else {
				p.errorf(e.val, sub("kind"), "unknown kind %q (want %s)%s", k, oneOf(kindNames()), suggest(k, kindNames()))
			}
		}
	} else if kindsKnown {
		switch kinds := scenarioKinds(s); len(kinds) {
		case 1:
			inv.Kind = api.Kind(kinds[0])
		case 0:
		default:
			p.errorf(on, field, "the scenario has objects of %d kinds (%s): say which are counted with kind", len(kinds), strings.Join(kinds, " and "))
		}
	}
	nameE, byName := of["name"]
	selE, bySel := of["selector"]
	switch {
	case byName && bySel:
		p.errorf(selE.key, field, "give name or selector, not both: an invariant counts the object of a name, or the objects a selector matches")
	case !byName && !bySel:
		if !p.suggested[on]["name"] && !p.suggested[on]["selector"] { // else a misspelling of one is reported
			p.errorf(on, field, "missing name or selector (the object of that name, or the objects whose labels match)")
		}
	case byName:
		inv.Name, _ = p.nonEmpty(nameE.val, sub("name"))
	default:
		if s, ok := p.nonEmpty(selE.val, sub("selector")); ok {
			if _, err := labels.Parse(s); err != nil {
				p.errorf(selE.val, sub("selector"), "%q is not a label selector (%v): write it as kubectl -l takes it, as app=web or app=web,tier!=db", s, selectorProblem(err))
			} else {
				inv.Selector = s
			}
		}
	}
	if e, ok := of["is"]; ok {
		if v, ok := p.intBetween(e.val, sub("is"), 0, limitCount, "no race makes that many objects"); ok {
			inv.Is = v
			if byName && !bySel && v > 1 {
				p.errorf(e.val, sub("is"), "%d objects named %s: there is at most one of a name (want 0 or 1)", v, nameE.val.Value)
			}
		}
	} else {
		p.missing(on, field, "is", " (how many must exist when the race ends)")
	}
	return inv, len(p.errs) == before
}

// selectorProblem is the selector library's complaint without its
// prefix: "found 'b', expected: ',' or 'end of string'".
func selectorProblem(err error) string {
	return strings.TrimPrefix(err.Error(), "unable to parse requirement: ")
}

// invariantNodes writes the list back; a kind that is the scenario's one
// kind and the default namespace are left out.
func invariantNodes(s *Scenario) *yaml.Node {
	kinds := scenarioKinds(s)
	list := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq"}
	for _, inv := range s.Invariants {
		objs := newMapping(true)
		if len(kinds) != 1 || string(inv.Kind) != kinds[0] {
			objs.add("kind", strNode(string(inv.Kind)))
		}
		if inv.Namespace != "" && inv.Namespace != DefaultNamespace {
			objs.add("namespace", strNode(inv.Namespace))
		}
		if inv.Name != "" {
			objs.add("name", strNode(inv.Name))
		} else {
			objs.add("selector", strNode(inv.Selector))
		}
		objs.add("is", intNode(int64(inv.Is)))
		m := newMapping(false)
		m.add("objects", objs.n)
		m.add("why", strNode(inv.Why))
		list.Content = append(list.Content, m.n)
	}
	return list
}
