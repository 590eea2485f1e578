package scenario

import (
	"fmt"

	yaml "go.yaml.in/yaml/v3"

	"github.com/conflictlab/conflictlab/sim/controller"
)

// then reads a controller's `then`: a second call of the same reconcile,
// a PUT sent on the object the first write's answer was decoded into
// (controller.Then). Its program checks the rest (Program.Validate).
//
//	then:
//	  subresource: status     # optional: "" (the object) or status
//	  mutations: [...]        # optional: what the reconcile changes after the first call returned
func (p *parser) then(f map[string]entry, field string, c *Controller) {
	e, ok := f["then"]
	if !ok {
		return
	}
	field += ".then"
	g, ok := p.fields(e.val, field, "subresource", "mutations")
	if !ok {
		return
	}
	t := &controller.Then{}
	if s, ok := g["subresource"]; ok {
		if v, ok := p.text(s.val, field+".subresource"); ok {
			if v != controller.StatusSubresource {
				p.errorf(s.val, field+".subresource", "unknown subresource %q (want status, or leave it out for the object itself)", v)
			}
			t.Subresource = v
		}
	}
	if m, ok := g["mutations"]; ok {
		t.Mutations = p.mutations(m.val, field+".mutations")
	}
	c.Program.Then = t
}

// thenNode writes it back.
func thenNode(m mapping, p controller.Program) error {
	if p.Then == nil {
		return nil
	}
	t := newMapping(false)
	if p.Then.Subresource != "" {
		t.add("subresource", strNode(p.Then.Subresource))
	}
	if len(p.Then.Mutations) > 0 {
		muts := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq"}
		for i, mu := range p.Then.Mutations {
			n, err := mutationNode(mu)
			if err != nil {
				return fmt.Errorf("then.mutations[%d]: %w", i, err)
			}
			muts.Content = append(muts.Content, n)
		}
		t.add("mutations", muts)
	}
	m.add("then", t.n)
	return nil
}
