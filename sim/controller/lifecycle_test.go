package controller

import (
	"encoding/json"
	"strings"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/util/retry"

	"github.com/conflictlab/conflictlab/sim/api"
)

var gr = schema.GroupResource{Resource: "configmaps"}

func child(name, generateName string) *unstructured.Unstructured {
	u := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "v1", "kind": "ConfigMap",
		"metadata": map[string]any{"namespace": "default", "labels": map[string]any{"app": "web"}},
	}}
	if name != "" {
		u.SetName(name)
	}
	if generateName != "" {
		u.SetGenerateName(generateName)
	}
	return u
}

func createProgram(obj *unstructured.Unstructured, whenAbsent bool, r RetryPolicy) Program {
	return Program{Name: "a", Target: api.Ref{Kind: api.ConfigMap, Namespace: "default", Name: obj.GetName()},
		Read: FromLister, Write: Create, Object: obj, WhenAbsent: whenAbsent, Retry: r}
}

// TestCreateRetriesAsClientGo: AlreadyExists is a 409 but not a Conflict,
// so every retry preset does to it what client-go's helpers do: the
// conflict presets (RetryOnConflict) give up after one call; any-error
// (retry.OnError with a predicate that says yes) calls again.
func TestCreateRetriesAsClientGo(t *testing.T) {
	exists := apierrors.NewAlreadyExists(gr, "child")
	for _, preset := range RetryPresets {
		if preset.Policy.Unbounded {
			continue
		}
		t.Run(preset.Name, func(t *testing.T) {
			backoff := retry.DefaultRetry
			backoff.Steps, backoff.Duration, backoff.Jitter = preset.Policy.Attempts, 0, 0
			calls := 0
			want := retry.OnError(backoff, preset.Policy.Retries, func() error { calls++; return exists })
			if preset.Policy.On == OnConflict && calls != 1 {
				t.Fatalf("client-go's RetryOnConflict called %d times on AlreadyExists", calls)
			}

			m := New(createProgram(child("child", ""), false, preset.Policy))
			writes := 0
			for i := 0; !m.Finished() && i < 100; i++ {
				a := m.Next()
				if a.Kind != SendRequest || a.Request.Verb != api.Create {
					t.Fatalf("a create without when-absent sends only creates, got %v %s", a.Kind, a.Request.Verb)
				}
				writes++
				m.Deliver(a, api.Response{Code: 409, Err: exists}, 0)
			}
			if writes != calls {
				t.Fatalf("machine created %d times, client-go called %d times", writes, calls)
			}
			if m.LastError() == nil || m.LastError().Error() != want.Error() {
				t.Fatalf("machine ended with %v, client-go with %v", m.LastError(), want)
			}
			if st := m.Stats(); st.Conflicts != 0 || st.Errors != writes {
				t.Fatalf("AlreadyExists counted as %d conflicts, %d errors", st.Conflicts, st.Errors)
			}
		})
	}
}

// TestCreateWhenAbsent: a create that looks first writes only when its
// object is not there — by name, or for a generated name by the object's
// labels among what it lists.
func TestCreateWhenAbsent(t *testing.T) {
	named := New(createProgram(child("child", ""), true, NoRetry()))
	a := named.Next()
	if a.Kind != ReadLister || a.Request.Verb != api.Get || a.Request.Ref.Name != "child" {
		t.Fatalf("first step %v %s %s, want a Lister GET of child", a.Kind, a.Request.Verb, a.Request.Ref)
	}
	named.Deliver(a, api.Response{Code: 200, Object: child("child", "")}, 0)
	if !named.Finished() || named.Stats().Writes != 0 {
		t.Fatalf("found in the cache, the create was still made (finished %v, writes %d)", named.Finished(), named.Stats().Writes)
	}

	gen := New(createProgram(child("", "child-"), true, NoRetry()))
	a = gen.Next()
	if a.Request.Verb != api.List || SelectorString(a.Selector) != "app=web" {
		t.Fatalf("first step %s selector %q, want a LIST with app=web", a.Request.Verb, SelectorString(a.Selector))
	}
	other := child("other", "")
	other.SetLabels(map[string]string{"app": "db"})
	gen.Deliver(a, api.Response{Code: 200, Items: []*unstructured.Unstructured{other}}, 0)
	a = gen.Next()
	if a.Request.Verb != api.Create || a.Request.Ref.Name != "" {
		t.Fatalf("no child with app=web listed: want a create with a generated name, got %s %q", a.Request.Verb, a.Request.Ref.Name)
	}
	var sent map[string]any
	if err := json.Unmarshal(a.Request.Body, &sent); err != nil {
		t.Fatal(err)
	}
	if md := sent["metadata"].(map[string]any); md["generateName"] != "child-" || md["name"] != nil {
		t.Fatalf("create body metadata %v", md)
	}
}

// TestDeletePreconditionsFromRead: a delete's preconditions are the uid
// and resourceVersion of the copy it read, in the DeleteOptions body.
func TestDeletePreconditionsFromRead(t *testing.T) {
	p := Program{Name: "d", Target: api.Ref{Kind: api.ConfigMap, Namespace: "default", Name: "cm1"},
		Read: FromLister, Write: Delete, Retry: NoRetry(), Preconditions: Preconditions{ResourceVersion: true, UID: true}}
	if err := p.Validate(); err != nil {
		t.Fatal(err)
	}
	m := New(p)
	read := child("cm1", "")
	read.SetResourceVersion("101")
	read.SetUID("uid-1")
	m.Deliver(m.Next(), api.Response{Code: 200, Object: read}, 0)
	a := m.Next()
	var opts metav1.DeleteOptions
	if err := json.Unmarshal(a.Request.Body, &opts); err != nil {
		t.Fatal(err)
	}
	if a.Request.Verb != api.Delete || opts.Preconditions == nil || *opts.Preconditions.UID != "uid-1" || *opts.Preconditions.ResourceVersion != "101" {
		t.Fatalf("delete %s body %s", a.Request.Verb, a.Request.Body)
	}
	m.Deliver(a, api.Response{Code: 404, Err: apierrors.NewNotFound(gr, "cm1")}, 0)
	if m.Status(0) != Done || m.LastError() != nil {
		t.Fatalf("a delete answered 404 is done (the object is gone): status %s, error %v", m.Status(0), m.LastError())
	}
}

// TestReadNotFoundIsNothingToDo: every controller whose read finds its
// object gone (a Lister after the DELETED event, a GET after the delete)
// returns without an error, as controllers do on IsNotFound.
func TestReadNotFoundIsNothingToDo(t *testing.T) {
	gone := apierrors.NewNotFound(gr, "cm1")
	progs := []Program{
		{Name: "u", Read: FromLister, Write: Update, Mutations: []Mutation{{Op: Set, Path: MustPath("data.x"), Value: "1"}}},
		{Name: "l", Read: FromLive, Write: MergePatch, Mutations: []Mutation{{Op: Set, Path: MustPath("data.x"), Value: "1"}}},
		{Name: "d", Read: FromLister, Write: Delete},
	}
	for _, p := range progs {
		p.Target, p.Retry = api.Ref{Kind: api.ConfigMap, Namespace: "default", Name: "cm1"}, DefaultRetry()
		m := New(p)
		m.Deliver(m.Next(), api.Response{Code: 404, Err: gone}, 0)
		if m.Status(0) != Done || m.Stats().Errors != 0 || m.Stats().Writes != 0 {
			t.Errorf("%s %s: after NotFound status %s, %+v", p.Name, p.Write, m.Status(0), m.Stats())
		}
	}
}

// TestLifecycleValidate: what a create or a delete may not carry.
func TestLifecycleValidate(t *testing.T) {
	base := createProgram(child("child", ""), false, NoRetry())
	cases := map[string]func(p *Program){
		"takes no mutations":               func(p *Program) { p.Mutations = []Mutation{{Op: Remove, Path: MustPath("data.x")}} },
		"needs the object it creates":      func(p *Program) { p.Object = nil },
		"needs metadata.name or metadata.": func(p *Program) { p.Object = child("", ""); p.Target.Name = "" },
		"give the object metadata.labels": func(p *Program) {
			p.Object, p.Target.Name, p.WhenAbsent = child("", "child-"), "", true
			p.Object.SetLabels(nil)
		},
		"preconditions are for delete":  func(p *Program) { p.Preconditions.UID = true },
		"delete takes no object":        func(p *Program) { p.Write = Delete },
		"withRV, test, force, noop and": func(p *Program) { p.Force = true },
	}
	for want, edit := range cases {
		p := base
		edit(&p)
		err := p.Validate()
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: got %v", want, err)
		}
	}
	if err := base.Validate(); err != nil {
		t.Fatalf("the base program: %v", err)
	}
}
