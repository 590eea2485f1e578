// Package fakes runs the course's races on the fake clients controller
// authors use in unit tests — client-go's kubernetes/fake (NewSimpleClientset
// and NewClientset, with dynamic/fake for the Widget custom resource) and
// controller-runtime's client/fake — as race.Backends next to the simulator
// and the live cluster, and compares what each of them answers.
//
// The libraries are used, not imitated: every request of a race becomes the
// call a controller's code makes on the fake (Update, Patch, Status().Update,
// …), and the answer is what that call returned. The fakes deliver their
// watch events synchronously into buffered channels while the call runs, so
// a backend drains them after each call and the run stays a function of the
// scenario and the schedule, like the simulator's.
//
// It lives outside sim/ because the libraries take locks and are not the
// pure state machine sim/ must stay.
package fakes

import (
	"context"
	"fmt"
	"net/http"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	utiljson "k8s.io/apimachinery/pkg/util/json"
	"k8s.io/apimachinery/pkg/watch"

	"github.com/conflictlab/conflictlab/sim/api"
	"github.com/conflictlab/conflictlab/sim/apiserver"
	"github.com/conflictlab/conflictlab/sim/race"
)

// kindClient is one kind's client in a fake library: the calls a
// controller's code makes, in the shapes the race's requests have.
type kindClient interface {
	get(ctx context.Context, ref api.Ref) (*unstructured.Unstructured, error)
	list(ctx context.Context, ns string) (items []*unstructured.Unstructured, listRV string, err error)
	create(ctx context.Context, obj *unstructured.Unstructured, manager string) (*unstructured.Unstructured, error)
	update(ctx context.Context, obj *unstructured.Unstructured, manager string, status bool) (*unstructured.Unstructured, error)
	patch(ctx context.Context, ref api.Ref, pt types.PatchType, body []byte, manager string, force, status bool) (*unstructured.Unstructured, error)
	delete(ctx context.Context, ref api.Ref, opts metav1.DeleteOptions) error
	watch(ctx context.Context) (watch.Interface, error)
}

// Backend is a race.Backend on one fake client library.
//
// Event revisions: the fakes number nothing globally (client-go's keep no
// resourceVersion in the objects at all; controller-runtime's counts per
// object), so the backend numbers the watch events itself, 1, 2, 3… in the
// order the fakes emitted them. Those numbers are what RV and Events speak
// in; the objects keep whatever metadata.resourceVersion the fake gave them.
type Backend struct {
	name    Name
	ctx     context.Context
	clients map[api.Kind]kindClient
	watches []kindWatch
	events  []api.Event
	seq     int64
	// fatal is a failure that makes the run meaningless (a watch that
	// could not be opened).
	fatal error
}

type kindWatch struct {
	kind api.Kind
	w    watch.Interface
}

var _ race.Backend = (*Backend)(nil)

func newBackend(name Name, clients map[api.Kind]kindClient) *Backend {
	b := &Backend{name: name, ctx: context.Background(), clients: clients}
	// One watch per kind, in a fixed order, opened before anything exists:
	// every event of the run is seen, setup included.
	for _, k := range api.Kinds() {
		c, ok := clients[k]
		if !ok {
			continue
		}
		w, err := c.watch(b.ctx)
		if err != nil {
			b.fatal = fmt.Errorf("%s: watch %s: %w", name, k, err)
			continue
		}
		b.watches = append(b.watches, kindWatch{kind: k, w: w})
	}
	return b
}

// Name is the backend's name, as --backend spells it.
func (b *Backend) Name() Name { return b.name }

// Err is the failure that made the run meaningless, if any.
func (b *Backend) Err() error { return b.fatal }

// Close stops the watches.
func (b *Backend) Close() {
	for _, kw := range b.watches {
		kw.w.Stop()
	}
}

// drain moves the events the fakes emitted during the last call into the
// buffer. The fakes send them before the call returns (into channels of
// watch.DefaultChanSize), so nothing is waited for and nothing arrives
// later.
func (b *Backend) drain() {
	for _, kw := range b.watches {
		for {
			var ev watch.Event
			var open bool
			select {
			case ev, open = <-kw.w.ResultChan():
			default:
				open = false
			}
			if !open {
				break
			}
			t, ok := eventTypes[ev.Type]
			if !ok {
				continue
			}
			u, err := toUnstructured(kw.kind, ev.Object)
			if err != nil {
				b.fatal = fmt.Errorf("%s: watch event of %s: %w", b.name, kw.kind, err)
				continue
			}
			b.seq++
			b.events = append(b.events, api.Event{Type: t, RV: b.seq, Object: u})
		}
	}
}

var eventTypes = map[watch.EventType]api.EventType{
	watch.Added: api.Added, watch.Modified: api.Modified, watch.Deleted: api.Deleted,
}

// Events returns the watch events numbered after from, in order.
func (b *Backend) Events(from int64) ([]apiserver.Event, error) {
	if from < 0 {
		from = 0
	}
	if from >= int64(len(b.events)) {
		return nil, nil
	}
	// Capped: a caller's append cannot write into the buffer.
	return b.events[from:len(b.events):len(b.events)], nil
}

// RV is the number of watch events the fakes have emitted.
func (b *Backend) RV() int64 { return b.seq }

// SetTime is the simulator's clock; the fakes read the wall clock (for
// managedFields times) and cannot be given another.
func (b *Backend) SetTime(time.Duration) {}

// Peek reads the fake's copy through its own Get.
func (b *Backend) Peek(ref api.Ref) *unstructured.Unstructured {
	c, ok := b.clients[ref.Kind]
	if !ok {
		return nil
	}
	u, err := c.get(b.ctx, ref)
	if err != nil {
		return nil
	}
	return u
}

// Do makes the call a controller's code would make for req.
func (b *Backend) Do(req api.Request) api.Response {
	resp := b.do(req)
	b.drain()
	return resp
}

func (b *Backend) do(req api.Request) api.Response {
	info, known := api.Lookup(req.Ref.Kind)
	c, ok := b.clients[req.Ref.Kind]
	if !known || !ok {
		err := apierrors.NewNotFound(info.Resource, string(req.Ref.Kind))
		return api.Response{Code: http.StatusNotFound, Err: err}
	}
	status := req.Subresource == "status"
	if req.Subresource != "" && !status {
		err := apierrors.NewNotFound(info.Resource, req.Ref.Name+"/"+req.Subresource)
		return api.Response{Code: http.StatusNotFound, Err: err}
	}
	var (
		obj *unstructured.Unstructured
		err error
	)
	code := http.StatusOK
	switch req.Verb {
	case api.Get:
		obj, err = c.get(b.ctx, req.Ref)
	case api.List:
		items, listRV, lerr := c.list(b.ctx, req.Ref.Namespace)
		if lerr != nil {
			return errResponse(lerr)
		}
		return api.Response{Code: http.StatusOK, Items: items, ListRV: listRV}
	case api.Create, api.Update:
		var u *unstructured.Unstructured
		u, err = decodeBody(req)
		if err != nil {
			return errResponse(apierrors.NewBadRequest(err.Error()))
		}
		if req.Verb == api.Create {
			obj, err = c.create(b.ctx, u, req.FieldManager)
			code = http.StatusCreated
		} else {
			obj, err = c.update(b.ctx, u, req.FieldManager, status)
		}
	case api.Patch:
		existed := req.PatchType == api.ApplyPatch && b.Peek(req.Ref) != nil
		obj, err = c.patch(b.ctx, req.Ref, req.PatchType, req.Body, req.FieldManager, req.Force, status)
		if req.PatchType == api.ApplyPatch && !existed {
			code = http.StatusCreated
		}
	case api.Delete:
		// The body, if any, is the DeleteOptions (preconditions).
		var opts metav1.DeleteOptions
		if len(req.Body) > 0 {
			if jerr := utiljson.Unmarshal(req.Body, &opts); jerr != nil {
				return errResponse(apierrors.NewBadRequest(fmt.Sprintf("delete options: %v", jerr)))
			}
		}
		before := b.Peek(req.Ref)
		err = c.delete(b.ctx, req.Ref, opts)
		if err == nil {
			// The fakes answer a delete with nothing; what they hold
			// afterwards (a copy marked for deletion, or none) is the answer.
			if obj = b.Peek(req.Ref); obj == nil {
				obj = before
			}
		}
	default:
		err = apierrors.NewMethodNotSupported(info.Resource, string(req.Verb))
	}
	if err != nil {
		return errResponse(err)
	}
	return api.Response{Code: code, Object: obj}
}

// errResponse carries a fake's error as it came. A *StatusError keeps its
// code; a plain Go error (the fakes return some) shows as 500, which is what
// apierrors' helpers make of it: IsConflict and the rest say no.
func errResponse(err error) api.Response {
	return api.Response{Code: apiserver.Code(err), Err: err}
}

func decodeBody(req api.Request) (*unstructured.Unstructured, error) {
	var m map[string]any
	if err := utiljson.Unmarshal(req.Body, &m); err != nil {
		return nil, fmt.Errorf("request body: %v", err)
	}
	u := &unstructured.Unstructured{Object: m}
	if u.GetNamespace() == "" {
		u.SetNamespace(req.Ref.Namespace)
	}
	return u, nil
}

// toUnstructured turns what a fake returned into the JSON a client would
// have decoded, with apiVersion and kind (typed objects from a tracker do
// not always carry them; the race needs the kind to know the object).
func toUnstructured(kind api.Kind, obj runtime.Object) (*unstructured.Unstructured, error) {
	var m map[string]any
	if u, ok := obj.(*unstructured.Unstructured); ok {
		m = u.DeepCopy().Object
	} else {
		data, err := utiljson.Marshal(obj)
		if err != nil {
			return nil, err
		}
		if err := utiljson.Unmarshal(data, &m); err != nil {
			return nil, err
		}
	}
	u := &unstructured.Unstructured{Object: m}
	info, _ := api.Lookup(kind)
	if u.GetKind() == "" {
		u.SetKind(string(kind))
	}
	if u.GetAPIVersion() == "" {
		u.SetAPIVersion(info.APIVersion)
	}
	return u, nil
}
