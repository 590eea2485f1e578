package apiserver

import (
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/mergepatch"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/conflictlab/conflictlab/sim/api"
)

// The constructors below produce exactly the Status objects a real
// kube-apiserver v1.37 answers with (see docs/SEMANTICS.md). They use the
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

// patchInvalid is the 422 for a patch whose result the kind cannot hold
// (the real handler's NewInvalid on the field "patch", with no kind or name).
func patchInvalid(value string, err error) error {
	return apierrors.NewInvalid(schema.GroupKind{}, "", field.ErrorList{field.Invalid(field.NewPath("patch"), value, err.Error())})
}

// interpretStrategicMergePatchError is the real handler's: the patch
// library's format errors are the client's (400, 422), anything else
// escapes as a plain error (500).
func interpretStrategicMergePatchError(err error) error {
	switch err {
	case mergepatch.ErrBadJSONDoc, mergepatch.ErrBadPatchFormatForPrimitiveList, mergepatch.ErrBadPatchFormatForRetainKeys,
		mergepatch.ErrBadPatchFormatForSetElementOrderList, mergepatch.ErrUnsupportedStrategicMergePatchFormat:
		return apierrors.NewBadRequest(err.Error())
	case mergepatch.ErrNoListOfLists, mergepatch.ErrPatchContentNotMatchRetainKeys:
		return apierrors.NewGenericServerResponse(http.StatusUnprocessableEntity, "", schema.GroupResource{}, "", err.Error(), 0, false)
	}
	return unknownServerError(err)
}

// unsupportedPatch is the 415 a patch gets whose content type the resource
// does not accept (a strategic merge patch on a custom resource). The real
// handler answers with negotiation's errUnsupportedMediaType: a Status with
// the accepted types listed in the message and no details.
func unsupportedPatch(info api.KindInfo) error {
	return &apierrors.StatusError{ErrStatus: metav1.Status{
		Status: metav1.StatusFailure,
		Code:   http.StatusUnsupportedMediaType,
		Reason: metav1.StatusReasonUnsupportedMediaType,
		Message: "the body of the request was in an unknown format - accepted media types include: " +
			strings.Join(acceptedPatchTypes(info), ", "),
	}}
}

// acceptedPatchTypes lists the patch content types a resource accepts, in
// the order the real server lists them (api_installer.go for built-in kinds,
// the CRD handler for custom resources, which has no strategic merge patch).
func acceptedPatchTypes(info api.KindInfo) []string {
	if info.Builtin {
		return []string{string(api.JSONPatch), string(api.MergePatch), string(api.StrategicPatch), string(api.ApplyPatch)}
	}
	return []string{string(api.JSONPatch), string(api.MergePatch), string(api.ApplyPatch)}
}

// invalidOptions is the 422 for query parameters that fail validation
// (an apply without fieldManager, force on a non-apply patch, ...): kind is
// "PatchOptions", "UpdateOptions" or "CreateOptions", the name is empty.
func invalidOptions(kind string, errs field.ErrorList) error {
	return apierrors.NewInvalid(schema.GroupKind{Group: metav1.GroupName, Kind: kind}, "", errs)
}

// checkTarget is what the real handlers check on the object a write
// would store, in their order (endpoints/handlers: update.go and patch.go
// call rest.EnsureObjectNamespaceMatchesRequestNamespace, then checkName):
// a body without a namespace takes the request's; a different namespace,
// then a different name, is a 400. The write never lands elsewhere.
func checkTarget(obj *unstructured.Unstructured, ref api.Ref) error {
	switch ns := obj.GetNamespace(); {
	case ns == "":
		obj.SetNamespace(ref.Namespace)
	case ns != ref.Namespace:
		return apierrors.NewBadRequest("the namespace of the provided object does not match the namespace sent on the request")
	}
	if obj.GetName() != ref.Name {
		return nameMismatch(obj.GetName(), ref.Name)
	}
	return nil
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

// applyConflictInOrder gives an apply conflict's causes one order: the
// managers as its message lists them (sorted), each manager's fields in
// the order the field manager found them. The real server lists the
// causes in the order structured-merge-diff walks its map of managers,
// which Go randomises on every run: two managers' conflicts come in
// either order, request after request. The simulator must answer the
// same way every time it is asked the same thing (a run is a function of
// scenario and schedule; the explorer merges equal states), so it picks
// one of the real server's orders, the message's. Any other error is
// returned as it is.
func applyConflictInOrder(err error) error {
	var se *apierrors.StatusError
	if !errors.As(err, &se) || se.ErrStatus.Details == nil || len(se.ErrStatus.Details.Causes) < 2 {
		return err
	}
	causes := se.ErrStatus.Details.Causes
	for _, c := range causes {
		if c.Type != metav1.CauseTypeFieldManagerConflict {
			return err
		}
	}
	st := se.ErrStatus
	d := *st.Details
	d.Causes = slices.Clone(causes)
	// "conflict with \"b\" using v1": the manager as the message prints
	// it, which sorts as the message's managers do.
	manager := func(c metav1.StatusCause) string { return strings.TrimPrefix(c.Message, "conflict with ") }
	slices.SortStableFunc(d.Causes, func(a, b metav1.StatusCause) int { return strings.Compare(manager(a), manager(b)) })
	st.Details = &d
	return &apierrors.StatusError{ErrStatus: st}
}
