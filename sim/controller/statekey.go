package controller

import "github.com/conflictlab/conflictlab/sim/statekey"

// EncodeState writes the machine's state for the explorer's state key
// (sim/statekey): where it is in its reconcile and retry loop, when it
// wakes, its counters, its last error, the revision it expects its cache
// to reach, and the copies it holds. Left out: its program (fixed for a
// run), and when its current reconcile started with the longest one so far
// (Stats.LongestReconcileMS): a report's number that no step and no
// verdict reads; keeping it would tell apart every two orders of the same
// reads.
//
// The copy a read-modify-write machine read is written only while it will
// act on it, from its read to its write: about to read, it still holds the
// copy of its last reconcile, but its next read replaces it and nothing
// looks at it meanwhile (a world records the copy held only with a write).
// Keeping it would tell apart states that differ only in what a finished
// reconcile once read (in a race of increments, most of them).
func (m *Machine) EncodeState(e statekey.Encoder) {
	e.Int(int64(m.phase))
	e.Text(string(m.source))
	e.Int(int64(m.attempt))
	e.Int(int64(m.reconcile))
	if m.prog.Write.IsLifecycle() || m.phase == phaseWrite {
		e.Object(m.read)
	} else {
		e.Text("read: not held")
	}
	e.Object(m.mutated)
	e.Int(int64(m.wakeAt))
	s := m.stats
	for _, n := range []int{s.Requests, s.ListerReads, s.Writes, s.Conflicts, s.Errors, s.Retries, s.Requeues} {
		e.Int(int64(n))
	}
	statekey.Error(e, m.lastErr)
	e.Int(m.expect)
	statekey.Bool(e, m.inReconcile)
	m.code.encodeState(e) // code.go
	m.encodeQueueState(e) // queue.go
}

// EncodeState writes the mutation for the explorer's state key: a world's
// history holds the mutations its writes carried (a copy's resolved
// value among them).
func (mu Mutation) EncodeState(e statekey.Encoder) {
	e.Text(string(mu.Op))
	mu.Path.encodeState(e)
	statekey.Value(e, mu.Value)
	e.Int(mu.By)
	mu.From.encodeState(e)
	if mu.When == nil {
		e.Int(0)
		return
	}
	e.Int(1)
	mu.When.Path.encodeState(e)
	statekey.Value(e, mu.When.Equals)
}

func (p Path) encodeState(e statekey.Encoder) {
	e.Text(p.text)
	e.Int(int64(len(p.segs)))
	for _, s := range p.segs {
		e.Int(int64(s.kind))
		e.Text(s.key)
		e.Int(int64(s.index))
		e.Text(s.field)
		e.Text(s.value)
		statekey.Bool(e, s.quoted)
	}
}
