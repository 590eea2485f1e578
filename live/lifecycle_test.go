package live

import (
	"strings"
	"testing"

	"github.com/conflictlab/conflictlab/sim/api"
)

// TestFootprintRecreatedAndGenerated: a name created, deleted and created
// again during a race is recorded twice, each time with its own uid (the
// second create must not overwrite the first's record before it is
// answered); a create the server names is journalled by its prefix before,
// by its name and uid after, and a prefix whose answer never came is
// described with the label that finds it.
func TestFootprintRecreatedAndGenerated(t *testing.T) {
	s := &Session{c: &Cluster{}, fp: Footprint{RunID: "abc123", Namespace: "ns", Context: "ctx"}}
	ref := api.Ref{Kind: api.ConfigMap, Namespace: "ns", Name: "cm1"}
	s.intend(ref)
	s.created(ref, "uid-1")
	s.intend(ref)
	if got := s.fp.Objects; len(got) != 2 || got[0].UID != "uid-1" || got[1].UID != "" {
		t.Fatalf("after a second create was sent: %+v", got)
	}
	s.created(ref, "uid-2")
	if got := s.fp.Objects; got[0].UID != "uid-1" || got[1].UID != "uid-2" {
		t.Fatalf("after it was answered: %+v", got)
	}

	s.intendGenerated(api.ConfigMap, "child-")
	s.intendGenerated(api.ConfigMap, "child-")
	s.createdGenerated(api.Ref{Kind: api.ConfigMap, Namespace: "ns", Name: "child-x7k2q"}, "child-", "uid-3")
	got := s.fp.Objects[2:]
	if len(got) != 2 || got[0].Name != "child-x7k2q" || got[0].UID != "uid-3" || got[1].Name != "" || got[1].GenerateName != "child-" {
		t.Fatalf("generated: %+v", got)
	}
	desc := strings.Join(s.fp.Describe(), "\n")
	if !strings.Contains(desc, "delete configmaps -l "+RunLabel+"=abc123") {
		t.Fatalf("an unanswered generated create is not described with its label:\n%s", desc)
	}
	s.notCreatedGenerated(api.ConfigMap, "child-")
	if len(s.fp.Objects) != 3 {
		t.Fatalf("the refused create's intent was kept: %+v", s.fp.Objects)
	}
}

// TestGeneratedCreatesKeepTheIdentityRule: a create without a name must
// send one of the scenario's generateName prefixes and no name.
func TestGeneratedCreatesKeepTheIdentityRule(t *testing.T) {
	b := &Backend{s: &Session{ID: "abc123", Namespace: "conflictlab-x-abc123"},
		generated: map[api.Kind][]string{api.ConfigMap: {"child-"}}}
	coll := api.Ref{Kind: api.ConfigMap, Namespace: "default"}
	for body, want := range map[string]string{
		`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"generateName":"victim-"}}`:                   `no create of the scenario declares`,
		`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"victim","generateName":"child-"}}`:    `the request names none`,
		`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"generateName":"child-","namespace":"prod"}}`: `namespace "prod"`,
		`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"generateName":"child-"}}`:                    "",
	} {
		req := api.Request{Verb: api.Create, Ref: coll, Body: []byte(body)}
		u, err := b.outgoing(req)
		switch {
		case want == "" && err != nil:
			t.Errorf("%s: refused: %v", body, err)
		case want == "" && (u.GetNamespace() != b.s.Namespace || u.GetLabels()[RunLabel] != "abc123"):
			t.Errorf("%s: sent as %v", body, u.Object)
		case want != "" && (err == nil || !strings.Contains(err.Error(), want)):
			t.Errorf("%s: err = %v, want one saying %q", body, err, want)
		}
	}
	if !b.mayTouch(api.Request{Verb: api.Create, Ref: coll}, coll) || b.mayTouch(api.Request{Verb: api.Delete, Ref: coll}, coll) {
		t.Error("a nameless ref is for a create only")
	}
}
