package apiserver

import (
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"

	"github.com/conflictlab/conflictlab/sim/api"
)

// The methods below make the server an api.Client: the same narrow
// interface a live client-go implementation provides.

var _ api.Client = (*Server)(nil)

func (s *Server) one(r api.Request) (*unstructured.Unstructured, error) {
	resp := s.Do(r)
	return resp.Object, resp.Err
}

// Get reads an object.
func (s *Server) Get(ref api.Ref) (*unstructured.Unstructured, error) {
	return s.one(api.Request{Verb: api.Get, Ref: ref})
}

// List reads every object of a kind, and the collection's resourceVersion.
func (s *Server) List(kind api.Kind, namespace string) ([]*unstructured.Unstructured, string, error) {
	resp := s.Do(api.Request{Verb: api.List, Ref: api.Ref{Kind: kind, Namespace: namespace}})
	return resp.Items, resp.ListRV, resp.Err
}

// Create creates an object from its JSON.
func (s *Server) Create(obj []byte, ref api.Ref, fieldManager string) (*unstructured.Unstructured, error) {
	return s.one(api.Request{Verb: api.Create, Ref: ref, Body: obj, FieldManager: fieldManager})
}

// Update replaces an object (PUT).
func (s *Server) Update(obj []byte, ref api.Ref, fieldManager string) (*unstructured.Unstructured, error) {
	return s.one(api.Request{Verb: api.Update, Ref: ref, Body: obj, FieldManager: fieldManager})
}

// UpdateStatus replaces an object's status (PUT to /status).
func (s *Server) UpdateStatus(obj []byte, ref api.Ref, fieldManager string) (*unstructured.Unstructured, error) {
	return s.one(api.Request{Verb: api.Update, Subresource: "status", Ref: ref, Body: obj, FieldManager: fieldManager})
}

// Patch applies a JSON, merge or strategic merge patch.
func (s *Server) Patch(ref api.Ref, pt types.PatchType, body []byte, fieldManager string) (*unstructured.Unstructured, error) {
	return s.one(api.Request{Verb: api.Patch, Ref: ref, PatchType: pt, Body: body, FieldManager: fieldManager})
}

// Apply is server-side apply.
func (s *Server) Apply(ref api.Ref, body []byte, fieldManager string, force bool) (*unstructured.Unstructured, error) {
	return s.one(api.Request{Verb: api.Patch, Ref: ref, PatchType: api.ApplyPatch, Body: body, FieldManager: fieldManager, Force: force})
}

// Delete deletes an object (or marks it, while finalizers remain).
func (s *Server) Delete(ref api.Ref) (*unstructured.Unstructured, error) {
	return s.one(api.Request{Verb: api.Delete, Ref: ref})
}
