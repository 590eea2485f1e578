package apiserver

import (
	"reflect"
	"testing"

	"github.com/conflictlab/conflictlab/sim/api"
)

// TestClientMatchesDo: a request carried out through the narrow Client
// interface (as a live client would be driven) answers exactly what Do
// answers, object and error alike.
func TestClientMatchesDo(t *testing.T) {
	cm := api.Ref{Kind: api.ConfigMap, Namespace: "default", Name: "cm1"}
	reqs := []api.Request{
		{Verb: api.Create, Ref: cm, FieldManager: "t", Body: []byte(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"cm1","namespace":"default"},"data":{"x":"1"}}`)},
		{Verb: api.Get, Ref: cm},
		{Verb: api.Update, Ref: cm, Body: []byte(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"cm1","namespace":"default","resourceVersion":"101"},"data":{"x":"2"}}`)},
		{Verb: api.Update, Ref: cm, Body: []byte(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"cm1","namespace":"default","resourceVersion":"101"},"data":{"x":"3"}}`)},
		{Verb: api.Patch, Ref: cm, PatchType: api.MergePatch, Body: []byte(`{"data":{"y":"1"}}`)},
		{Verb: api.Patch, Ref: cm, PatchType: api.ApplyPatch, FieldManager: "a", Body: []byte(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"cm1","namespace":"default"},"data":{"z":"1"}}`)},
		{Verb: api.Delete, Ref: cm},
		{Verb: api.Get, Ref: cm},
	}
	viaDo, viaClient := New(nil, 100), New(nil, 100)
	for i, r := range reqs {
		want := viaDo.Do(r)
		got := api.Do(viaClient, r)
		if (want.Err == nil) != (got.Err == nil) || (want.Err != nil && want.Err.Error() != got.Err.Error()) {
			t.Fatalf("request %d: Do answered %v, Client %v", i, want.Err, got.Err)
		}
		if want.Err == nil && !reflect.DeepEqual(want.Object.Object, got.Object.Object) {
			t.Fatalf("request %d: objects differ:\n%v\n%v", i, want.Object.Object, got.Object.Object)
		}
		if want.Code != got.Code {
			t.Fatalf("request %d: Do answered %d, Client %d", i, want.Code, got.Code)
		}
	}
}
