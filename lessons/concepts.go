package lessons

// Concepts are the ideas the course must teach, one key per idea in the
// source notes. Every key must be taught by at least one lesson of the
// built-in course (a test checks it).
var Concepts = map[string]string{
	"resource-version":       "every object carries metadata.resourceVersion, which changes on every write",
	"optimistic-concurrency": "no locks: a write carries the RV it read; a match is applied, a mismatch is 409 and writes nothing",
	"rv-cluster-wide":        "an RV is opaque (compare it for equality); this etcd-backed server numbers every write in the cluster, so an object's RV jumps",
	"noop-write":             "a write that changes nothing does not advance the RV",
	"lost-update":            "two read-modify-writes without a precondition: the second silently erases the first",
	"conflict-is-visible":    "with the RV, the same race becomes a visible 409 instead of a silent loss",
	"stale-cache":            "controllers read an informer cache that lags, so the first update after a change conflicts",
	"hot-objects":            "popular objects have many writers (status, finalizers, labels): conflicts are routine",
	"retry-live-get":         "retry by re-reading with a live GET and re-applying the change to the fresh copy",
	"retry-on-conflict":      "retry.RetryOnConflict runs get-mutate-update and retries only conflicts",
	"retry-stale-reread":     "retrying with the Lister's or the same stale copy fails every time and multiplies requests",
	"bounded-retries":        "retries are bounded (DefaultRetry: 5); then return the error and let the workqueue requeue",
	"workqueue-requeue":      "the workqueue requeues with per-item exponential backoff",
	"unbounded-retry":        "an unbounded retry loop on a contended object starves the workqueue",
	"patch-intent":           "a patch carries only the intent, so it does not conflict with unrelated changes",
	"strategic-merge-patch":  "strategic merge patch merges lists by key for built-in kinds; 415 on a custom resource",
	"json-merge-patch":       "JSON merge patch replaces lists wholesale: a finalizer added concurrently is lost",
	"json-patch-test":        "JSON patch is an op list; a test op is a precondition; a failed test is 422",
	"patch-no-rv":            "patches usually need no RV: ideal for labels, annotations, finalizers",
	"server-side-apply":      "server-side apply declares the fields you own; managedFields records owners",
	"apply-conflict":         "apply conflicts only when you contest a field another manager owns; force takes it",
	"want-the-conflict":      "when the change depends on what was read (counter, append, decision), keep the 409",
	"spec-status-split":      "a status subresource splits spec and status into two endpoints that ignore each other's fields",
	"clear-rv-antipattern":   "clearing the RV to force a write is an unconditional overwrite: a defect",
	"retry-wrong-errors":     "422, 403 and 404 do not improve with retries; only 409 is retried",
	"conflict-control-flow":  "409 is normal control flow: ask whether the change is independent (patch) or dependent (recompute)",
}
