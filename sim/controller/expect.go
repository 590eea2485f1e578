package controller

import (
	"strconv"

	"github.com/conflictlab/conflictlab/sim/api"
)

// Expectations, as the ReplicaSet controller keeps them: after a write,
// remember what was written, and do not decide anything from the Lister
// until the informer has seen it. Without them, the reconcile after a
// create asks a cache that has not heard of the child yet, finds none and
// creates another. The machine remembers the resourceVersion its write
// was answered with; the world (sim/race) holds back its next Lister read
// until its cache has reached that revision — the comparison client code
// makes with resourceversion.CompareResourceVersion(cached, written).

// noteWrite remembers the revision of a successful write. A delete is
// not remembered: what it leaves is an absence, which its Lister reports
// once the DELETED event arrives, and a delete answered 404 made nothing.
func (m *Machine) noteWrite(resp api.Response) {
	if !m.prog.Expectations || m.prog.Write == Delete || resp.Object == nil {
		return
	}
	if rv, err := strconv.ParseInt(resp.Object.GetResourceVersion(), 10, 64); err == nil && rv > m.expect {
		m.expect = rv
	}
}

// Awaits is the revision the machine's cache must reach before its next
// step, 0 when it need not wait: a program with Expectations, about to
// read its Lister, after a write of its own.
func (m *Machine) Awaits() int64 {
	if !m.prog.Expectations || m.expect == 0 {
		return 0
	}
	if a := m.Next(); a.Kind != ReadLister {
		return 0
	}
	return m.expect
}
