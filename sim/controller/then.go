package controller

import (
	"errors"
	"fmt"
)

// A second call in the same reconcile. controller-runtime's Update, Patch
// and Create decode the server's answer into the object they were given,
// and the usual next line, r.Status().Update(ctx, w), sends that object:
// the server's answer to the first call, with whatever the reconcile
// changed after it returned — and nothing it changed before, where the
// first call's endpoint kept its own copy (a main-resource update keeps
// the old status). Then is that call.

// Then is a PUT sent right after the program's write succeeds, on the
// object that write's answer holds: Mutations (none, possibly) applied to
// it, to Subresource ("" or "status"). It is sent even when it changes
// nothing, as the client sends it; it is not retried, and its error
// ends the reconcile like the first write's.
type Then struct {
	Subresource string
	Mutations   []Mutation
}

// ThenProgram is the program of the Then call: p's, writing an update of
// the answered object to Then's subresource with Then's mutations.
func (p Program) ThenProgram() Program {
	t := p
	t.Write, t.Subresource, t.Mutations = Update, p.Then.Subresource, p.Then.Mutations
	t.Body, t.WithRV, t.Test, t.Force, t.Then = nil, false, TestNone, false, nil
	return t
}

// validateThen: a second call follows a full update (to either endpoint),
// whose answer is a whole object; its mutations take no decisions (a
// decision is taken from what was read, and this copy was not read).
func (p Program) validateThen() error {
	if p.Then == nil {
		return nil
	}
	switch {
	case p.Write != Update && p.Write != UpdateStatus:
		return fmt.Errorf("then follows an update (update or update-status), not %s", p.Write)
	case p.Body != nil:
		return errors.New("then follows a write computed from mutations, not a hand-written body")
	case p.Then.Subresource != "" && p.Then.Subresource != StatusSubresource:
		return fmt.Errorf("then.subresource must be status or empty, not %q", p.Then.Subresource)
	}
	for i, m := range p.Then.Mutations {
		if m.When != nil || m.Op == Copy {
			return fmt.Errorf("then mutation %d: a decision (when, copy) is taken from what was read; the answer of the first call was not read", i+1)
		}
		if err := m.Validate(); err != nil {
			return fmt.Errorf("then mutation %d: %w", i+1, err)
		}
	}
	return nil
}
