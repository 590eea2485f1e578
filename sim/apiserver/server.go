// Package apiserver is an in-memory model of a kube-apiserver and its etcd:
// one cluster-wide resourceVersion counter, conditional and unconditional
// writes, the four patch kinds, server-side apply with the real field
// manager, the status subresource, finalizers, and a watch event log.
//
// It is a pure state machine: no goroutines, no wall clock, no globals that
// carry state. Time is whatever the caller last set with SetTime. Every
// answer is built from the same apimachinery and patch libraries the real
// server uses, and its texts match those measured in docs/SEMANTICS.md.
package apiserver

import (
	"errors"
	"fmt"
	"net/http"
	"sort"
	"strconv"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	metav1validation "k8s.io/apimachinery/pkg/apis/meta/v1/validation"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/managedfields"

	"github.com/conflictlab/conflictlab/sim/api"
)

// Epoch is virtual time zero: every timestamp the server writes is Epoch plus
// the virtual time the scheduler has reached.
var Epoch = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// The watch event vocabulary is sim/api's (a live backend produces the
// same events); these names keep the server's callers short.
type (
	EventType = api.EventType
	Event     = api.Event
)

const (
	Added    = api.Added
	Modified = api.Modified
	Deleted  = api.Deleted
)

// Server is the simulated API server.
type Server struct {
	schema  *Schema
	rv      int64
	now     time.Time
	objects map[api.Ref]*unstructured.Unstructured
	events  []Event
	// compacted is the newest revision etcd has compacted away: watches
	// from at or below it get 410 Expired.
	compacted int64
	uids      int
	// memo, when set, remembers writes' answers (see memo.go).
	memo answers
}

// New returns an empty server. The first write gets resourceVersion
// firstRV+1; a real cluster is never at zero, and starting elsewhere shows
// that the numbers mean nothing but order.
func New(schema *Schema, firstRV int64) *Server {
	if schema == nil {
		schema = DefaultSchema()
	}
	return &Server{schema: schema, rv: firstRV, now: Epoch, objects: map[api.Ref]*unstructured.Unstructured{}}
}

// Clone returns an independent copy, for the explorer's branching.
func (s *Server) Clone() *Server {
	c := *s
	c.objects = make(map[api.Ref]*unstructured.Unstructured, len(s.objects))
	for k, v := range s.objects {
		// Stored objects are never mutated in place (writes replace them),
		// so clones may share them.
		c.objects[k] = v
	}
	c.events = s.events[:len(s.events):len(s.events)]
	return &c
}

// SetTime moves the server's clock (virtual time since Epoch).
func (s *Server) SetTime(d time.Duration) { s.now = Epoch.Add(d) }

// RV returns the newest revision: the resourceVersion of the last write.
func (s *Server) RV() int64 { return s.rv }

// Events returns the watch events with RV greater than from, or 410 Expired
// when from has been compacted away.
func (s *Server) Events(from int64) ([]Event, error) {
	if from < s.compacted {
		return nil, apierrors.NewResourceExpired("The resourceVersion for the provided watch is too old.")
	}
	i := sort.Search(len(s.events), func(i int) bool { return s.events[i].RV > from })
	return s.events[i:len(s.events):len(s.events)], nil
}

// Compact forgets the history up to and including rv, as etcd compaction does.
func (s *Server) Compact(rv int64) {
	i := sort.Search(len(s.events), func(i int) bool { return s.events[i].RV > rv })
	s.events = s.events[i:len(s.events):len(s.events)]
	if rv > s.compacted {
		s.compacted = rv
	}
}

// Peek returns the stored object without copying, for observers (the
// scheduler's history) that promise not to mutate it.
func (s *Server) Peek(ref api.Ref) *unstructured.Unstructured { return s.objects[ref] }

// Do serves one request.
func (s *Server) Do(req api.Request) api.Response {
	k, memoize := s.memoKey(req)
	if !memoize {
		return s.do(req)
	}
	if a, ok := s.memo[k]; ok {
		return s.replay(k, a)
	}
	rv := s.rv
	resp := s.do(req)
	s.remember(k, resp, rv)
	return resp
}

func (s *Server) do(req api.Request) api.Response {
	info, ok := api.Lookup(req.Ref.Kind)
	if !ok {
		err := apierrors.NewNotFound(s.unknownResource(req.Ref.Kind), "")
		return api.Response{Code: http.StatusNotFound, Err: err}
	}
	var (
		obj  *unstructured.Unstructured
		code = http.StatusOK
		err  error
	)
	switch req.Verb {
	case api.Get:
		obj, err = s.get(info, req.Ref)
	case api.List:
		return s.list(req.Ref)
	case api.Create:
		obj, err = s.create(info, req)
		code = http.StatusCreated
	case api.Update:
		obj, err = s.update(info, req)
	case api.Patch:
		var created bool
		obj, created, err = s.patch(info, req)
		if created {
			code = http.StatusCreated
		}
	case api.Delete:
		obj, err = s.delete(info, req)
	default:
		err = apierrors.NewMethodNotSupported(info.Resource, string(req.Verb))
	}
	if err != nil {
		return api.Response{Code: Code(err), Err: err}
	}
	return api.Response{Code: code, Object: obj.DeepCopy()}
}

func (s *Server) unknownResource(k api.Kind) schema.GroupResource {
	return schema.GroupResource{Resource: string(k)}
}

func (s *Server) get(info api.KindInfo, ref api.Ref) (*unstructured.Unstructured, error) {
	obj, ok := s.objects[ref]
	if !ok {
		return nil, notFound(info, ref.Name)
	}
	return obj, nil
}

func (s *Server) list(ref api.Ref) api.Response {
	var items []*unstructured.Unstructured
	for r, obj := range s.objects {
		if r.Kind == ref.Kind && (ref.Namespace == "" || r.Namespace == ref.Namespace) {
			items = append(items, obj.DeepCopy())
		}
	}
	sort.Slice(items, func(i, j int) bool { return items[i].GetName() < items[j].GetName() })
	return api.Response{Code: http.StatusOK, Items: items, ListRV: strconv.FormatInt(s.rv, 10)}
}

// decode turns a request body into an object the way the real server's
// decoder does: built-in kinds must fit their Go types (a number where a
// string belongs is a 400), custom resources are pruned to their schema.
func (s *Server) decode(info api.KindInfo, body []byte) (*unstructured.Unstructured, error) {
	if info.Builtin {
		u, err := decodeTyped(info, body)
		if err != nil {
			return nil, cannotDecode(info, err)
		}
		return u, nil
	}
	u, err := decodeCustom(body)
	var bad *metadataError
	switch {
	case errors.As(err, &bad):
		return nil, cannotDecode(info, bad.err)
	case err != nil:
		return nil, apierrors.NewBadRequest(fmt.Sprintf("the object provided is unrecognized (%v)", err))
	}
	return u, nil
}

func (s *Server) create(info api.KindInfo, req api.Request) (*unstructured.Unstructured, error) {
	if errs := metav1validation.ValidateCreateOptions(&metav1.CreateOptions{FieldManager: req.FieldManager}); len(errs) > 0 {
		return nil, invalidOptions("CreateOptions", errs)
	}
	obj, err := s.decode(info, req.Body)
	if err != nil {
		return nil, err
	}
	wipeSystemFields(obj)
	if obj.GetName() == "" {
		obj.SetName(req.Ref.Name)
	}
	if req.Ref.Name != "" {
		if err := checkTarget(obj, req.Ref); err != nil {
			return nil, err
		}
	} else if obj.GetNamespace() == "" {
		obj.SetNamespace(req.Ref.Namespace)
	}
	s.generateName(info, obj) // create.go
	obj.SetAPIVersion(info.APIVersion)
	obj.SetKind(string(info.Kind))
	if info.StatusSubresource {
		// The status of a new object comes from its controller, not its author.
		resetStatus(info, obj)
	}
	fm := s.schema.manager(info.Kind, "")
	marks := markManagedTimes(obj)
	obj = updateManaged(fm, zeroObject(info), obj, managerName(req.FieldManager))
	marks.restore(obj, s.now)
	if errs := validate(info, nil, obj, ""); len(errs) > 0 {
		return nil, invalid(info, obj.GetName(), errs)
	}
	// Only now does the storage layer see the object: a resourceVersion it
	// can parse as non-zero is refused, anything else is cleared; then
	// etcd's create-if-absent.
	if n, err := strconv.ParseUint(obj.GetResourceVersion(), 10, 64); err == nil && n != 0 {
		return nil, unknownServerError(fmt.Errorf("resourceVersion should not be set on objects to be created"))
	}
	obj.SetResourceVersion("")
	ref := api.RefOf(obj)
	ref.Kind = info.Kind
	if old, exists := s.objects[ref]; exists {
		err := alreadyExists(info, ref.Name)
		if old.GetDeletionTimestamp() != nil {
			// The registry store says why the name is still taken
			// (registry.Store.Create).
			st := err.(*apierrors.StatusError)
			st.ErrStatus.Message = "object is being deleted: " + st.ErrStatus.Message
		}
		return nil, err
	}
	return s.store(info, nil, obj), nil
}

// zeroObject is the "live" object a create's field manager compares the new
// one with. The real create handler passes its Creater's New: for a
// built-in kind the typed zero object, whose empty structs (a Deployment's
// spec, strategy, template, status) count as present, so the creator does
// not own them as a whole ("." entries) and owns no status at all. A custom
// resource's zero object is empty.
func zeroObject(info api.KindInfo) *unstructured.Unstructured {
	u := &unstructured.Unstructured{Object: map[string]any{}}
	if typed := api.NewTyped(info.Kind); info.Builtin && typed != nil {
		if m, err := runtime.DefaultUnstructuredConverter.ToUnstructured(typed); err == nil {
			u.Object = m
		}
	}
	u.SetGroupVersionKind(info.GVK())
	return u
}

// resetStatus is what a create does to the status of a kind with a status
// subresource: a built-in kind's strategy sets the zero status, which its
// typed encoding returns as "status": {} (a Deployment, measured on
// v1.37.2); a custom resource's status is dropped.
func resetStatus(info api.KindInfo, obj *unstructured.Unstructured) {
	if info.Builtin {
		obj.Object["status"] = map[string]any{}
		return
	}
	unstructured.RemoveNestedField(obj.Object, "status")
}

// wipeSystemFields is rest.WipeObjectMetaSystemFields, which the create
// handler (and the store, for a create by apply) runs on the object sent:
// a creation time, uid, deletionTimestamp or grace period the client
// wrote are dropped, and the store fills in the first two.
func wipeSystemFields(u *unstructured.Unstructured) {
	md, ok := u.Object["metadata"].(map[string]any)
	if !ok {
		return
	}
	for _, k := range []string{"creationTimestamp", "uid", "deletionTimestamp", "deletionGracePeriodSeconds", "selfLink"} {
		delete(md, k)
	}
}

// updateManaged is FieldManager.UpdateNoErrors, which the real create and
// update handlers call: an object the type converter cannot take (a custom
// resource's field of the wrong type) is no error of the field manager's;
// the object goes on with the live object's managedFields (none on a
// create). (UpdateNoErrors itself also logs, on the wall clock.)
func updateManaged(fm *managedfields.FieldManager, live, next *unstructured.Unstructured, manager string) *unstructured.Unstructured {
	out, err := fm.Update(live, next, manager)
	if err != nil {
		md, _ := next.Object["metadata"].(map[string]any)
		if md == nil {
			md = map[string]any{}
			next.Object["metadata"] = md
		}
		liveMD, _ := live.Object["metadata"].(map[string]any)
		if mf, ok := liveMD["managedFields"]; ok {
			md["managedFields"] = runtime.DeepCopyJSONValue(mf)
		} else {
			delete(md, "managedFields")
		}
		return next
	}
	return out.(*unstructured.Unstructured)
}

// managerName is the field manager a write is recorded under when the
// client names none; a real server derives it from the User-Agent.
func managerName(m string) string {
	if m == "" {
		return "conflictlab"
	}
	return m
}
