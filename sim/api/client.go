package api

import (
	"net/http"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"
)

// Client is the narrow interface controllers act through. The simulated
// server implements it; a live implementation wraps client-go's dynamic
// client (whose methods have the same shape), so the same controller
// programs run unchanged against both.
type Client interface {
	Get(ref Ref) (*unstructured.Unstructured, error)
	List(kind Kind, namespace string) ([]*unstructured.Unstructured, string, error)
	Create(obj []byte, ref Ref, fieldManager string) (*unstructured.Unstructured, error)
	Update(obj []byte, ref Ref, fieldManager string) (*unstructured.Unstructured, error)
	UpdateStatus(obj []byte, ref Ref, fieldManager string) (*unstructured.Unstructured, error)
	Patch(ref Ref, pt types.PatchType, body []byte, fieldManager string) (*unstructured.Unstructured, error)
	Apply(ref Ref, body []byte, fieldManager string, force bool) (*unstructured.Unstructured, error)
	Delete(ref Ref) (*unstructured.Unstructured, error)
}

// Lister is the read side of an informer: its local, possibly stale, cache.
type Lister interface {
	Get(ref Ref) (*unstructured.Unstructured, error)
}

// Do carries out a request through a Client: the one place where a
// request (data) becomes a method call.
func Do(c Client, r Request) Response {
	var (
		obj  *unstructured.Unstructured
		err  error
		code = http.StatusOK
	)
	switch {
	case r.Verb == Get:
		obj, err = c.Get(r.Ref)
	case r.Verb == List:
		items, rv, err := c.List(r.Ref.Kind, r.Ref.Namespace)
		if err != nil {
			return Response{Code: codeOf(err), Err: err}
		}
		return Response{Code: http.StatusOK, Items: items, ListRV: rv}
	case r.Verb == Create:
		obj, err = c.Create(r.Body, r.Ref, r.FieldManager)
		code = http.StatusCreated
	case r.Verb == Update && r.Subresource == "status":
		obj, err = c.UpdateStatus(r.Body, r.Ref, r.FieldManager)
	case r.Verb == Update:
		obj, err = c.Update(r.Body, r.Ref, r.FieldManager)
	case r.Verb == Patch && r.PatchType == ApplyPatch:
		obj, err = c.Apply(r.Ref, r.Body, r.FieldManager, r.Force)
	case r.Verb == Patch:
		obj, err = c.Patch(r.Ref, r.PatchType, r.Body, r.FieldManager)
	case r.Verb == Delete:
		obj, err = c.Delete(r.Ref)
	default:
		err = apierrors.NewMethodNotSupported(kinds[r.Ref.Kind].Resource, string(r.Verb))
	}
	if err != nil {
		return Response{Code: codeOf(err), Err: err}
	}
	return Response{Code: code, Object: obj}
}

func codeOf(err error) int {
	if st, ok := err.(apierrors.APIStatus); ok {
		return int(st.Status().Code)
	}
	return http.StatusInternalServerError
}
