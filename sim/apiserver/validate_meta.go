package apiserver

import (
	"maps"
	"slices"
	"strings"
	"unicode"

	"k8s.io/apimachinery/pkg/api/validate/content"
	apivalidation "k8s.io/apimachinery/pkg/api/validation"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	metav1validation "k8s.io/apimachinery/pkg/apis/meta/v1/validation"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// ObjectMeta validation, as apimachinery's api/validation (objectmeta.go)
// does it, built from its own per-field functions. The whole-map functions
// (ValidateLabels, ValidateAnnotations) range over a Go map, so with two
// bad labels the real server's causes come in a random order; the
// simulator must answer the same way every time, so it checks the keys in
// sorted order, one at a time, with the same functions.

// validateObjectMeta is ValidateObjectMetaAccessor with the name rule of
// every served kind (NameIsDNSSubdomain: ValidateConfigMapName,
// ValidateDeploymentName, a custom resource's name), on an object whose
// name has been generated.
func validateObjectMeta(u *unstructured.Unstructured, path *field.Path) field.ErrorList {
	return validateObjectMetaNamed(u, path, apivalidation.NameIsDNSSubdomain)
}

// validatePathSegment is the name rule of the generic registry's own
// ObjectMeta check (rest's validatePathSegment, in validateCommonFields):
// only what cannot be a URL path segment.
func validatePathSegment(name string, prefix bool) []string {
	if prefix {
		return content.IsPathSegmentPrefix(name)
	}
	return content.IsPathSegmentName(name)
}

// validateObjectMetaNamed is ValidateObjectMetaAccessor with the name rule
// nameFn.
func validateObjectMetaNamed(u *unstructured.Unstructured, path *field.Path, nameFn apivalidation.ValidateNameFunc) field.ErrorList {
	var errs field.ErrorList
	if g := u.GetGenerateName(); g != "" {
		for _, msg := range nameFn(g, true) {
			errs = append(errs, field.Invalid(path.Child("generateName"), g, msg))
		}
	}
	if name := u.GetName(); name == "" {
		errs = append(errs, field.Required(path.Child("name"), "name or generateName is required"))
	} else {
		for _, msg := range nameFn(name, false) {
			errs = append(errs, field.Invalid(path.Child("name"), name, msg))
		}
	}
	// validateObjectMetaAccessorWithOptsCommon: every served kind is
	// namespaced.
	if ns := u.GetNamespace(); ns == "" {
		errs = append(errs, field.Required(path.Child("namespace"), ""))
	} else {
		for _, msg := range apivalidation.ValidateNamespaceName(ns, false) {
			errs = append(errs, field.Invalid(path.Child("namespace"), ns, msg))
		}
	}
	errs = append(errs, apivalidation.ValidateNonnegativeField(u.GetGeneration(), path.Child("generation"))...)
	errs = append(errs, validateLabels(u.GetLabels(), path.Child("labels"))...)
	errs = append(errs, validateAnnotations(u.GetAnnotations(), path.Child("annotations"))...)
	errs = append(errs, apivalidation.ValidateOwnerReferences(u.GetOwnerReferences(), path.Child("ownerReferences"))...)
	errs = append(errs, apivalidation.ValidateFinalizers(u.GetFinalizers(), path.Child("finalizers"))...)
	errs = append(errs, validateManagedFields(u, path.Child("managedFields"))...)
	return errs
}

// validateManagedFields is metav1validation.ValidateManagedFields. Entries
// come from the field manager, so they nearly always pass: a look at the
// raw entries settles that without converting each to its Go type (what
// GetManagedFields does, a noticeable part of a write's cost).
func validateManagedFields(u *unstructured.Unstructured, path *field.Path) field.ErrorList {
	ok := true
	for _, e := range rawManagedFields(u) {
		op, _ := e["operation"].(string)
		ft, _ := e["fieldsType"].(string)
		mgr, _ := e["manager"].(string)
		sub, _ := e["subresource"].(string)
		if (op != "Apply" && op != "Update") || (ft != "" && ft != "FieldsV1") || len(mgr) > 128 || len(sub) > 256 || !printable(mgr) {
			ok = false
			break
		}
	}
	if ok {
		return nil
	}
	return metav1validation.ValidateManagedFields(u.GetManagedFields(), path)
}

func printable(s string) bool {
	for _, r := range s {
		if !unicode.IsPrint(r) {
			return false
		}
	}
	return true
}

// validateObjectMetaUpdate is ValidateObjectMetaAccessorUpdate. The
// resourceVersion rule ("must be specified for an update") is the store's
// business here: an unconditional update of a built-in kind has been given
// the live RV before validation, as the real store gives it, and a custom
// resource without one was refused by checkRV. Generation, creation and
// deletion timestamps have been carried over from the live object
// (keepServerMetadata, as rest.BeforeUpdate does); the uid has not when
// the request sent one.
func validateObjectMetaUpdate(next, live *unstructured.Unstructured, path *field.Path) field.ErrorList {
	var errs field.ErrorList
	if live.GetDeletionTimestamp() != nil {
		errs = append(errs, apivalidation.ValidateNoNewFinalizers(next.GetFinalizers(), live.GetFinalizers(), path.Child("finalizers"))...)
	}
	errs = append(errs, apivalidation.ValidateNonnegativeField(next.GetGeneration(), path.Child("generation"))...)
	if next.GetGeneration() < live.GetGeneration() {
		errs = append(errs, field.Invalid(path.Child("generation"), next.GetGeneration(), "must not be decremented"))
	}
	errs = append(errs, apivalidation.ValidateImmutableField(next.GetName(), live.GetName(), path.Child("name"))...)
	errs = append(errs, apivalidation.ValidateImmutableField(next.GetNamespace(), live.GetNamespace(), path.Child("namespace"))...)
	errs = append(errs, apivalidation.ValidateImmutableField(next.GetUID(), live.GetUID(), path.Child("uid"))...)
	errs = append(errs, validateLabels(next.GetLabels(), path.Child("labels"))...)
	errs = append(errs, validateAnnotations(next.GetAnnotations(), path.Child("annotations"))...)
	errs = append(errs, apivalidation.ValidateOwnerReferences(next.GetOwnerReferences(), path.Child("ownerReferences"))...)
	errs = append(errs, validateManagedFields(next, path.Child("managedFields"))...)
	return errs
}

// validateKubeObjectMeta is core validation's ValidateObjectMeta: the
// generic checks plus kube-apiserver's finalizer names. In an update the
// generic checks already ran (validateCommonFields) and could only repeat
// their errors, which validate drops: generic false leaves them out.
func validateKubeObjectMeta(u *unstructured.Unstructured, path *field.Path, generic bool) field.ErrorList {
	var errs field.ErrorList
	if generic {
		errs = validateObjectMeta(u, path)
	}
	return append(errs, validateKubeFinalizerNames(u.GetFinalizers(), path.Child("finalizers"))...)
}

// validateKubeObjectMetaUpdate is core validation's ValidateObjectMetaUpdate,
// whose generic part validateCommonFields has run (see above).
func validateKubeObjectMetaUpdate(next *unstructured.Unstructured, path *field.Path) field.ErrorList {
	return validateKubeFinalizerNames(next.GetFinalizers(), path.Child("finalizers"))
}

// validateLabels is metav1validation.ValidateLabels, key by key in order.
func validateLabels(labels map[string]string, path *field.Path) field.ErrorList {
	var errs field.ErrorList
	for _, k := range slices.Sorted(maps.Keys(labels)) {
		errs = append(errs, metav1validation.ValidateLabelName(k, path)...)
		for _, msg := range validation.IsValidLabelValue(labels[k]) {
			errs = append(errs, field.Invalid(path, labels[k], msg))
		}
	}
	return errs
}

// validateAnnotations is apivalidation.ValidateAnnotations, key by key in
// order: keys are qualified names (case aside), and all of them with their
// values fit in TotalAnnotationSizeLimitB (256 KiB).
func validateAnnotations(annotations map[string]string, path *field.Path) field.ErrorList {
	var errs field.ErrorList
	for _, k := range slices.Sorted(maps.Keys(annotations)) {
		for _, msg := range validation.IsQualifiedName(strings.ToLower(k)) {
			errs = append(errs, field.Invalid(path, k, msg))
		}
	}
	if apivalidation.ValidateAnnotationsSize(annotations) != nil {
		errs = append(errs, field.TooLong(path, "", apivalidation.TotalAnnotationSizeLimitB))
	}
	return errs
}

// validateKubeFinalizerNames is core validation's validateKubeFinalizerName
// for each finalizer: a built-in kind's finalizer must be qualified
// ("example.com/name") or one of the standard ones.
func validateKubeFinalizerNames(finalizers []string, path *field.Path) field.ErrorList {
	var errs field.ErrorList
	for i, name := range finalizers {
		if strings.Contains(name, "/") {
			continue
		}
		switch name {
		case "kubernetes", "orphan", "foregroundDeletion":
		default:
			errs = append(errs, field.Invalid(path.Index(i), name, "name is neither a standard finalizer name nor is it fully qualified"))
		}
	}
	return errs
}
