// Package controller runs controllers written as data: read the target
// (from the informer's Lister or with a live GET), apply mutations, write
// it back with one of the write methods, and retry or requeue according to
// a policy. A Machine is a pure state machine driven by explicit steps,
// like etcd's raft: it says which request it wants to make next, the
// scheduler carries the request out and hands back the response.
package controller

import (
	"errors"
	"fmt"
	"regexp"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/conflictlab/conflictlab/sim/api"
)

// ReadSource says where a controller reads the object it is about to change.
type ReadSource string

const (
	// FromLister reads the informer's local cache: cheap, and possibly stale.
	FromLister ReadSource = "lister"
	// FromLive is a GET to the API server: a request, and current.
	FromLive ReadSource = "live"
)

// WriteMethod is how a controller sends its change.
type WriteMethod string

const (
	Update          WriteMethod = "update"          // PUT with the RV that was read
	UpdateClearRV   WriteMethod = "update-clear-rv" // PUT with the RV removed: an unconditional overwrite
	UpdateStatus    WriteMethod = "update-status"   // PUT to /status
	MergePatch      WriteMethod = "merge-patch"     // JSON merge patch of the difference
	StrategicPatch  WriteMethod = "strategic-patch" // strategic merge patch of the difference
	JSONPatch       WriteMethod = "json-patch"      // JSON patch (RFC 6902) of the difference
	ServerSideApply WriteMethod = "apply"           // server-side apply of the intended fields
)

// WriteMethods lists every write method, in teaching order.
var WriteMethods = []WriteMethod{Update, UpdateClearRV, UpdateStatus, MergePatch, StrategicPatch, JSONPatch, ServerSideApply}

// IsPatch reports whether the method is one of the three patches (merge,
// strategic merge, JSON patch): the writes withRV and test apply to.
func (w WriteMethod) IsPatch() bool {
	return w == MergePatch || w == StrategicPatch || w == JSONPatch
}

// NameRule is what a controller's name may be: letters, digits and
// dashes, starting and ending with a letter or digit (it appears in
// schedules, where "," and "." have meanings).
var NameRule = regexp.MustCompile(`^[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?$`)

// TestMode is what a JSON patch checks before it changes anything.
type TestMode string

const (
	TestNone TestMode = ""
	// TestRV adds `test /metadata/resourceVersion` with the RV that was read.
	TestRV TestMode = "resourceVersion"
	// TestValues adds a `test` of the old value before every replace or remove.
	TestValues TestMode = "values"
)

// Program is one controller.
type Program struct {
	Name   string
	Target api.Ref
	Read   ReadSource
	// Mutations are applied in order to the copy that was read.
	Mutations []Mutation
	Write     WriteMethod
	// WithRV makes a patch carry metadata.resourceVersion: a conditional write.
	WithRV bool
	// Test is the JSON patch precondition.
	Test TestMode
	// FieldManager names the writer in managedFields (defaults to Name).
	FieldManager string
	// Force takes ownership of contested fields on apply.
	Force bool
	// Subresource is where the write goes: "" (the object itself) or
	// "status" (its /status), for every write method. UpdateStatus is
	// Update with Subresource "status", kept for older files.
	Subresource string
	// SendNoop sends the write even when the mutations leave the copy as
	// it was read, so the server's answer to a no-op request shows; by
	// default such a write is skipped, as a real controller skips it.
	SendNoop bool
	// Body, when set, is sent as it is instead of the computed change (see
	// body.go): a mapping for merge, strategic and apply, an op list for
	// json-patch. A program with a body has no mutations.
	Body any
	// Object is what a create sends, whole (lifecycle.go): named by its
	// metadata.name, or by metadata.generateName for the server to finish.
	Object *unstructured.Unstructured
	// WhenAbsent makes a create look for its object first, where Read
	// says, and create it only if it finds none: a controller ensuring a
	// child exists.
	WhenAbsent bool
	// Preconditions are what a delete takes from the copy it read.
	Preconditions Preconditions
	// Propagation is a delete's propagationPolicy: "" (the server's
	// default), Foreground, Background or Orphan (lifecycle.go).
	Propagation string
	// Expectations make the controller remember the resourceVersion of its
	// own last write and read its Lister only once its informer has seen
	// it (expect.go): the ReplicaSet controller's expectations.
	Expectations bool
	// OnEvent says which watch events of its target put the controller's
	// key back on its workqueue once its reconciles are run (queue.go):
	// none by default.
	OnEvent EventFilter
	Retry   RetryPolicy
	Requeue RequeuePolicy
	// Reconciles is how many times the controller runs its loop (default 1):
	// a hot object sees several.
	Reconciles int
	// Then, when set, is a second call of the same reconcile, sent on the
	// object the first write's answer was decoded into (then.go).
	Then *Then
}

// Manager returns the field manager name the controller writes under.
func (p Program) Manager() string {
	if p.FieldManager != "" {
		return p.FieldManager
	}
	return p.Name
}

// RetryOn says which errors a retry loop retries.
type RetryOn string

const (
	// OnConflict is retry.RetryOnConflict: only 409 Conflict is retried.
	OnConflict RetryOn = "conflict"
	// OnAnyError retries everything, the anti-pattern: 422, 403 and 404 do
	// not get better by asking again.
	OnAnyError RetryOn = "any"
	// OnTestFailed retries what a failed JSON patch test gets — 422 Invalid
	// with no field causes — and nothing else: the lessons' testFailed. A
	// malformed patch gets the same answer, so it is retried too; only the
	// bound stops that.
	OnTestFailed RetryOn = "test-failed"
)

// RetryPolicy is the controller's inner retry loop.
type RetryPolicy struct {
	// Attempts is the number of write attempts, first one included; 1 means
	// no retry. retry.DefaultRetry allows 5. Zero with Unbounded retries forever.
	Attempts  int
	Unbounded bool
	On        RetryOn
	// Reread is where the retry gets its copy: live (right), lister (stale
	// cache: usually the same stale copy), or none (the same object again).
	Reread ReadSource
	// Backoff between attempts; retry.DefaultRetry sleeps 10ms each time.
	Backoff time.Duration
}

// Retries reports whether the loop tries again after err (attempts aside).
func (r RetryPolicy) Retries(err error) bool {
	switch r.On {
	case OnAnyError:
		return true
	case OnTestFailed:
		var st apierrors.APIStatus
		if !apierrors.IsInvalid(err) || !errors.As(err, &st) {
			return false
		}
		d := st.Status().Details
		return d == nil || len(d.Causes) == 0
	}
	return apierrors.IsConflict(err)
}

// RereadNone retries with the object already in hand.
const RereadNone ReadSource = "none"

// RequeuePolicy is the workqueue: after the retries are spent the reconcile
// returns an error and the item comes back after a per-item exponential
// backoff (5ms, 10ms, 20ms… as client-go's default controller rate limiter).
type RequeuePolicy struct {
	// Max requeues before the item is dropped (a real queue never drops it;
	// a simulation has to end). 0 disables requeueing.
	Max       int
	BaseDelay time.Duration
}

// DefaultRetry mirrors client-go's retry.DefaultRetry without jitter.
func DefaultRetry() RetryPolicy {
	return RetryPolicy{Attempts: 5, On: OnConflict, Reread: FromLive, Backoff: 10 * time.Millisecond}
}

// NoRetry makes one attempt.
func NoRetry() RetryPolicy { return RetryPolicy{Attempts: 1, On: OnConflict, Reread: FromLive} }

// Validate reports the first thing wrong with a program.
func (p Program) Validate() error {
	if p.Name == "" {
		return fmt.Errorf("controller has no name")
	}
	if !NameRule.MatchString(p.Name) {
		return fmt.Errorf("controller name %q: use letters, digits and dashes", p.Name)
	}
	switch p.OnEvent {
	case EventsNone, EventsAny, EventsGenerationChanged:
	default:
		return fmt.Errorf("controller %s: onEvent must be any or generation-changed, not %q", p.Name, p.OnEvent)
	}
	if p.Write.IsLifecycle() {
		return p.validateLifecycle() // lifecycle.go
	}
	if p.Write == Code {
		return p.validateCode() // code.go
	}
	if _, ok := api.Lookup(p.Target.Kind); !ok {
		return fmt.Errorf("controller %s: unknown kind %q", p.Name, p.Target.Kind)
	}
	if p.Target.Name == "" {
		return fmt.Errorf("controller %s: target has no name", p.Name)
	}
	switch p.Read {
	case FromLister, FromLive:
	default:
		return fmt.Errorf("controller %s: read must be lister or live, not %q", p.Name, p.Read)
	}
	ok := false
	for _, w := range WriteMethods {
		ok = ok || w == p.Write
	}
	if !ok {
		return fmt.Errorf("controller %s: unknown write method %q", p.Name, p.Write)
	}
	switch p.Retry.Reread {
	case FromLister, FromLive, RereadNone:
	default:
		return fmt.Errorf("controller %s: retry reread must be live, lister or none, not %q", p.Name, p.Retry.Reread)
	}
	switch p.Retry.On {
	case OnConflict, OnAnyError, OnTestFailed:
	default:
		return fmt.Errorf("controller %s: retry on must be conflict, any or test-failed, not %q", p.Name, p.Retry.On)
	}
	if p.Retry.Attempts < 1 && !p.Retry.Unbounded {
		return fmt.Errorf("controller %s: retry attempts must be at least 1", p.Name)
	}
	if err := p.validateWrite(); err != nil { // body.go
		return fmt.Errorf("controller %s: %w", p.Name, err)
	}
	if err := p.validateThen(); err != nil { // then.go
		return fmt.Errorf("controller %s: %w", p.Name, err)
	}
	if len(p.Mutations) == 0 && p.Body == nil {
		return fmt.Errorf("controller %s: no mutations", p.Name)
	}
	for i, m := range p.Mutations {
		if err := m.Validate(); err != nil {
			return fmt.Errorf("controller %s: mutation %d: %w", p.Name, i+1, err)
		}
	}
	return nil
}
