package apiserver

import (
	"errors"
	"fmt"
	"net/http"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/conflictlab/conflictlab/sim/api"
)

// The constructors below produce exactly the Status objects a real
// kube-apiserver v1.37 answers with (see shared/SEMANTICS.md). They use the
// apimachinery constructors wherever the real server does, so that
// apierrors.IsConflict and friends behave identically on them.

// errStaleRV is the text of the store's precondition failure.
var errStaleRV = errors.New("the object has been modified; please apply your changes to the latest version and try again")

func conflict(k api.KindInfo, name string) error {
	return apierrors.NewConflict(k.Resource, name, errStaleRV)
}

func notFound(k api.KindInfo, name string) error {
	return apierrors.NewNotFound(k.Resource, name)
}

func alreadyExists(k api.KindInfo, name string) error {
	return apierrors.NewAlreadyExists(k.Resource, name)
}

func invalid(k api.KindInfo, name string, errs field.ErrorList) error {
	return invalidGK(k.GroupKind(), name, errs)
}

func invalidGK(gk schema.GroupKind, name string, errs field.ErrorList) error {
	return apierrors.NewInvalid(gk, name, errs)
}

// cannotDecode is the 400 a body gets when it does not fit the typed object.
func cannotDecode(k api.KindInfo, err error) error {
	return apierrors.NewBadRequest(fmt.Sprintf("%s in version %q cannot be handled as a %s: %v",
		k.Kind, k.GVK().Version, k.Kind, err))
}

// unknownServerError is how the real server reports a plain Go error that
// escaped the storage layer: 500, no reason, the error's own text.
func unknownServerError(err error) error {
	return &apierrors.StatusError{ErrStatus: metav1.Status{
		Status:  metav1.StatusFailure,
		Code:    http.StatusInternalServerError,
		Reason:  metav1.StatusReasonUnknown,
		Message: err.Error(),
	}}
}

// patchRejected is the 422 for a JSON patch whose operations fail (a failed
// `test` op, a path that does not exist): the library's text is hidden.
func patchRejected(err error) error {
	return apierrors.NewGenericServerResponse(http.StatusUnprocessableEntity, "", schema.GroupResource{}, "", err.Error(), 0, false)
}

// unsupportedPatch is the 415 a strategic merge patch gets on a custom resource.
func unsupportedPatch() error {
	return apierrors.NewGenericServerResponse(http.StatusUnsupportedMediaType, "", schema.GroupResource{}, "",
		"the body of the request was in an unknown format - accepted media types include: "+
			"application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml", 0, false)
}

func fieldManagerRequired() error {
	return apierrors.NewInvalid(schema.GroupKind{Group: "meta.k8s.io", Kind: "PatchOptions"}, "",
		field.ErrorList{field.Required(field.NewPath("fieldManager"), "is required for apply patch")})
}

func nameMismatch(body, url string) error {
	return apierrors.NewBadRequest(fmt.Sprintf("the name of the object (%s) does not match the name on the URL (%s)", body, url))
}

// Code returns the HTTP status code of an error returned by the server (200
// for nil).
func Code(err error) int {
	if err == nil {
		return http.StatusOK
	}
	var st apierrors.APIStatus
	if errors.As(err, &st) {
		return int(st.Status().Code)
	}
	return http.StatusInternalServerError
}
