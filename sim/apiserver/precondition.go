package apiserver

import (
	"fmt"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/conflictlab/conflictlab/sim/api"
)

// checkUIDPrecondition is the precondition every PUT carries without
// saying so: rest.DefaultUpdatedObjectInfo makes the body's metadata.uid,
// when it has one, a storage precondition, and etcd's store checks it
// before anything else about the update — before the resourceVersion. A
// copy of an object that was deleted and created again under the same
// name carries the old uid: the write fails even without a
// resourceVersion, with the storage layer's own text (its key names the
// object's etcd path).
func checkUIDPrecondition(info api.KindInfo, live, next *unstructured.Unstructured) error {
	uid := next.GetUID()
	if uid == "" || uid == live.GetUID() {
		return nil
	}
	return apierrors.NewConflict(info.Resource, live.GetName(), fmt.Errorf(
		"StorageError: invalid object, Code: 4, Key: %s, ResourceVersion: 0, AdditionalErrorMsg: Precondition failed: UID in precondition: %s, UID in object meta: %s",
		storageKey(info, live), uid, live.GetUID()))
}

// storageKey is where kube-apiserver keeps the object in etcd: built-in
// resources under /registry/RESOURCE, custom resources under
// /registry/GROUP/RESOURCE.
func storageKey(info api.KindInfo, obj *unstructured.Unstructured) string {
	prefix := "/registry/" + info.Resource.Resource
	if !info.Builtin {
		prefix = "/registry/" + info.Resource.Group + "/" + info.Resource.Resource
	}
	return prefix + "/" + obj.GetNamespace() + "/" + obj.GetName()
}
