package race

// CauseKind is why a field was lost, or overwritten: the engine says it as
// data (Loss.Cause), and sim/report puts it in words (report.Reason).
type CauseKind string

const (
	// CauseNeverVisible: no version the server stored showed the change.
	CauseNeverVisible CauseKind = "never-visible"
	// CauseDeliberate: Actor wrote the field on purpose (an overwrite).
	CauseDeliberate CauseKind = "deliberate"
	// CauseStaleCopy: Actor's Request sent a copy read at HeldRV, before
	// the owner's change, and erased it.
	CauseStaleCopy CauseKind = "stale-copy"
	// CauseOwnApplyDropped: Actor applied as field manager Value, the
	// manager that had set the field, and left it out: nothing stale, an
	// apply gives up the fields its manager no longer declares.
	CauseOwnApplyDropped CauseKind = "own-apply-dropped"
	// CauseNamedInBody: Actor's Request, a hand-written body, named the
	// field and sent Value (JSON) for it: nothing stale, the request said
	// so (a typed struct's zero value).
	CauseNamedInBody CauseKind = "named-in-body"
	// CauseOlderCount: Actor's Request wrote back an older count.
	CauseOlderCount CauseKind = "older-count"
	// CauseStaleCount: Actor computed Computed from a stale read (Read at
	// HeldRV) while the server held Held: one increment vanished.
	CauseStaleCount CauseKind = "stale-count"
	// CauseRoundedIncrement: Actor read the live version (HeldRV, Read) and
	// computed Computed, but its request carried Value (or, when Value is
	// empty, no counter at all): the number went through a float64.
	CauseRoundedIncrement CauseKind = "rounded-increment"
	// CauseIgnoredStatus: a write to the main resource keeps the old status.
	CauseIgnoredStatus CauseKind = "ignored-status"
	// CauseIgnoredSpec: a write to a built-in kind's /status keeps the
	// spec and the labels.
	CauseIgnoredSpec CauseKind = "ignored-spec"
	// CauseIgnoredAllButStatus: a write to /status keeps everything but the
	// status.
	CauseIgnoredAllButStatus CauseKind = "ignored-all-but-status"
	// CauseNotShown: the write succeeded but the server's object does not
	// show the change.
	CauseNotShown CauseKind = "not-shown"
	// CauseManagedFieldsReset: the write asked the field manager to drop
	// every managedFields entry, sending Value (JSON: [] or [{}]); an
	// overwrite by the server.
	CauseManagedFieldsReset CauseKind = "managed-fields-reset"
	// CauseDefaulted: the server defaulted the field to Value (JSON), a
	// field left out (an overwrite by the server).
	CauseDefaulted CauseKind = "defaulted"
	// CauseCollateral: Actor's Request, computed from its copy at HeldRV,
	// removed Value, a setup list element nobody meant to remove.
	CauseCollateral CauseKind = "collateral"
	// CauseNotMade: Actor, a code controller (controller.Code), meant the
	// change and its reconcile returned without making it.
	CauseNotMade CauseKind = "not-made"
	// CauseMissedPosition: the owner's write removed Value, another
	// element, instead: it named a position in a list that had changed.
	CauseMissedPosition CauseKind = "missed-position"
)

// LossCause is why a field was lost: its kind, and what the words about
// it name.
type LossCause struct {
	Kind CauseKind
	// Actor is the controller the cause is about (who erased, who
	// computed); Request its write's request line ("UPDATE cm1"); HeldRV
	// the resourceVersion of the copy it acted on.
	Actor   string
	Request string
	HeldRV  string
	// Read, Computed and Held are a counter's values: what was read, what
	// was written, what the server held.
	Read, Computed, Held int64
	// Value is a list element, a default (as JSON) or the counter a
	// request carried.
	Value string
}

// ignored reports a change the server ignored by design (a subresource).
func (k CauseKind) ignored() bool {
	return k == CauseIgnoredStatus || k == CauseIgnoredSpec || k == CauseIgnoredAllButStatus
}
