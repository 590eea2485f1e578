package apiserver

import (
	"net/http"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"

	"github.com/conflictlab/conflictlab/sim/api"
)

// What each endpoint of a kind with a status subresource ignores in what it
// is sent. Two things follow from it, as on a real server: the strategy's
// PrepareForUpdate puts the ignored fields back as they were
// (subresourceView, for updates, patches and applies alike), and the field
// manager neither records nor reports conflicts on them (resetFields: the
// strategies' GetResetFields, which the real installer hands the field
// manager wrapped in NewExcludeFilterSetMap).
//
//   - the main resource ignores status (customResourceStrategy,
//     deploymentStrategy);
//   - a custom resource's /status keeps only the status of what it is sent
//     (statusStrategy resets metadata and spec: it copies the old object
//     whole and sets the new status on it);
//   - a Deployment's /status ignores the spec and the labels, and nothing
//     else: annotations, finalizers and owner references sent to it are
//     written (deploymentStatusStrategy; measured on v1.37.2).

// resetFields is the exclude filter of kind info's endpoint sub (""
// for the main resource), nil when it ignores nothing (a ConfigMap).
func resetFields(info api.KindInfo, sub string) map[fieldpath.APIVersion]fieldpath.Filter {
	if !info.StatusSubresource {
		return nil
	}
	var set *fieldpath.Set
	switch {
	case sub == "":
		set = fieldpath.NewSet(fieldpath.MakePathOrDie("status"))
	case info.Builtin:
		set = fieldpath.NewSet(fieldpath.MakePathOrDie("spec"), fieldpath.MakePathOrDie("metadata", "labels"))
	default:
		set = fieldpath.NewSet(fieldpath.MakePathOrDie("metadata"), fieldpath.MakePathOrDie("spec"))
	}
	return fieldpath.NewExcludeFilterSetMap(map[fieldpath.APIVersion]*fieldpath.Set{
		fieldpath.APIVersion(info.APIVersion): set,
	})
}

// subresourceView keeps only the part of the body the endpoint owns: a
// write to the main resource keeps the live status; a write to /status
// keeps what the kind's status strategy keeps (see above). Server-owned
// metadata is restored later, by finish, for every endpoint.
func (s *Server) subresourceView(info api.KindInfo, live, next *unstructured.Unstructured, sub string) *unstructured.Unstructured {
	if !info.StatusSubresource {
		return next
	}
	if sub == "status" {
		if info.Builtin {
			// deploymentStatusStrategy: Spec and Labels from the old object.
			out := next.DeepCopy()
			if spec, ok := live.Object["spec"]; ok {
				out.Object["spec"] = runtimeDeepCopy(spec)
			} else {
				delete(out.Object, "spec")
			}
			out.SetLabels(live.GetLabels())
			return out
		}
		out := live.DeepCopy()
		if st, ok := next.Object["status"]; ok {
			out.Object["status"] = st
		} else {
			delete(out.Object, "status")
		}
		out.SetManagedFields(next.GetManagedFields())
		out.SetResourceVersion(next.GetResourceVersion())
		return out
	}
	if st, ok := live.Object["status"]; ok {
		next.Object["status"] = runtimeDeepCopy(st)
	} else {
		delete(next.Object, "status")
	}
	return next
}

// noSuchSubresource is the answer to a write to a subresource the kind
// does not have (a ConfigMap's /status): no route serves that path, and
// the server's not-found handler answers a bare 404 with empty details
// (measured on v1.37.2), whatever the object and the body.
func noSuchSubresource() error {
	return apierrors.NewGenericServerResponse(http.StatusNotFound, "", schema.GroupResource{}, "", "", 0, false)
}
