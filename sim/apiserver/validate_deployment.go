package apiserver

import (
	"strconv"
	"strings"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	apivalidation "k8s.io/apimachinery/pkg/api/validation"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	metav1validation "k8s.io/apimachinery/pkg/apis/meta/v1/validation"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// A Deployment's strategy validation: ValidateDeployment and
// ValidateDeploymentUpdate in k8s.io/kubernetes/pkg/apis/apps/validation,
// with the pod template rules of pkg/apis/core/validation that a
// Deployment's template reaches through scenario mutations (containers,
// their names, images, pull policies, probes; the template's labels and
// restart policy). Pod-spec rules beyond these (volumes, security
// contexts, resources, affinity, ...) are not modelled: a mutation that
// breaks one is answered 200 where a real server answers 422.

// validateDeployment is ValidateDeployment (live nil) or
// ValidateDeploymentUpdate.
func validateDeployment(live, next *unstructured.Unstructured) field.ErrorList {
	metaPath := field.NewPath("metadata")
	var errs field.ErrorList
	if live == nil {
		errs = validateKubeObjectMeta(next, metaPath, true)
	} else {
		errs = validateKubeObjectMetaUpdate(next, metaPath)
	}
	d := &appsv1.Deployment{}
	if err := runtime.DefaultUnstructuredConverter.FromUnstructured(next.Object, d); err != nil {
		// Stored Deployments come from the typed decoder: unreachable.
		return append(errs, field.InternalError(field.NewPath("spec"), err))
	}
	specPath := field.NewPath("spec")
	errs = append(errs, validateDeploymentSpec(&d.Spec, specPath)...)
	if live != nil {
		// apps/v1's selector is immutable: ValidateImmutableField, which
		// compares with Semantic equality (as here, on the JSON values).
		was, _, _ := unstructured.NestedFieldNoCopy(live.Object, "spec", "selector")
		is, _, _ := unstructured.NestedFieldNoCopy(next.Object, "spec", "selector")
		if !equality.Semantic.DeepEqual(was, is) {
			errs = append(errs, field.Invalid(specPath.Child("selector"), d.Spec.Selector, apivalidation.FieldImmutableErrorMsg))
		}
	}
	return errs
}

// validateDeploymentSpec is ValidateDeploymentSpec.
func validateDeploymentSpec(spec *appsv1.DeploymentSpec, path *field.Path) field.ErrorList {
	var errs field.ErrorList
	replicas := int32(1)
	if spec.Replicas != nil {
		replicas = *spec.Replicas
	}
	errs = append(errs, apivalidation.ValidateNonnegativeField(int64(replicas), path.Child("replicas"))...)
	if spec.Selector == nil {
		errs = append(errs, field.Required(path.Child("selector"), ""))
	} else {
		errs = append(errs, metav1validation.ValidateLabelSelector(spec.Selector, metav1validation.LabelSelectorValidationOptions{}, path.Child("selector"))...)
		if len(spec.Selector.MatchLabels)+len(spec.Selector.MatchExpressions) == 0 {
			errs = append(errs, field.Invalid(path.Child("selector"), spec.Selector, "empty selector is invalid for deployment"))
		}
	}
	selector, err := metav1.LabelSelectorAsSelector(spec.Selector)
	if err != nil {
		errs = append(errs, field.Invalid(path.Child("selector"), spec.Selector, "invalid label selector"))
	} else {
		errs = append(errs, validateTemplateForReplicaSet(&spec.Template, selector, path.Child("template"))...)
	}
	errs = append(errs, validateDeploymentStrategy(&spec.Strategy, path.Child("strategy"))...)
	errs = append(errs, apivalidation.ValidateNonnegativeField(int64(spec.MinReadySeconds), path.Child("minReadySeconds"))...)
	if spec.RevisionHistoryLimit != nil {
		errs = append(errs, apivalidation.ValidateNonnegativeField(int64(*spec.RevisionHistoryLimit), path.Child("revisionHistoryLimit"))...)
	}
	if p := spec.ProgressDeadlineSeconds; p != nil {
		errs = append(errs, apivalidation.ValidateNonnegativeField(int64(*p), path.Child("progressDeadlineSeconds"))...)
		if *p <= spec.MinReadySeconds {
			errs = append(errs, field.Invalid(path.Child("progressDeadlineSeconds"), p, "must be greater than minReadySeconds"))
		}
	}
	return errs
}

// validateDeploymentStrategy is ValidateDeploymentStrategy with
// ValidateRollingUpdateDeployment.
func validateDeploymentStrategy(st *appsv1.DeploymentStrategy, path *field.Path) field.ErrorList {
	var errs field.ErrorList
	switch st.Type {
	case appsv1.RecreateDeploymentStrategyType:
		if st.RollingUpdate != nil {
			errs = append(errs, field.Forbidden(path.Child("rollingUpdate"), "may not be specified when strategy `type` is 'Recreate'"))
		}
	case appsv1.RollingUpdateDeploymentStrategyType:
		if st.RollingUpdate == nil {
			return append(errs, field.Required(path.Child("rollingUpdate"), "this should be defaulted and never be nil"))
		}
		ru, rp := st.RollingUpdate, path.Child("rollingUpdate")
		var maxUnavailable, maxSurge intstr.IntOrString
		if ru.MaxUnavailable != nil {
			maxUnavailable = *ru.MaxUnavailable
		}
		if ru.MaxSurge != nil {
			maxSurge = *ru.MaxSurge
		}
		errs = append(errs, validatePositiveIntOrPercent(maxUnavailable, rp.Child("maxUnavailable"))...)
		errs = append(errs, validatePositiveIntOrPercent(maxSurge, rp.Child("maxSurge"))...)
		if intOrPercentValue(maxUnavailable) == 0 && intOrPercentValue(maxSurge) == 0 {
			errs = append(errs, field.Invalid(rp.Child("maxUnavailable"), maxUnavailable, "may not be 0 when `maxSurge` is 0"))
		}
		if v, isPercent := percentValue(maxUnavailable); isPercent && v > 100 {
			errs = append(errs, field.Invalid(rp.Child("maxUnavailable"), maxUnavailable, "must not be greater than 100%"))
		}
	default:
		errs = append(errs, field.NotSupported(path, *st, []string{string(appsv1.RecreateDeploymentStrategyType), string(appsv1.RollingUpdateDeploymentStrategyType)}))
	}
	return errs
}

// validatePositiveIntOrPercent is ValidatePositiveIntOrPercent.
func validatePositiveIntOrPercent(v intstr.IntOrString, path *field.Path) field.ErrorList {
	var errs field.ErrorList
	switch v.Type {
	case intstr.String:
		for _, msg := range validation.IsValidPercent(v.StrVal) {
			errs = append(errs, field.Invalid(path, v, msg))
		}
	case intstr.Int:
		errs = append(errs, apivalidation.ValidateNonnegativeField(int64(v.IntValue()), path)...)
	}
	return errs
}

// percentValue is getPercentValue.
func percentValue(v intstr.IntOrString) (int, bool) {
	if v.Type != intstr.String || len(validation.IsValidPercent(v.StrVal)) != 0 {
		return 0, false
	}
	n, _ := strconv.Atoi(strings.TrimSuffix(v.StrVal, "%"))
	return n, true
}

// intOrPercentValue is getIntOrPercentValue.
func intOrPercentValue(v intstr.IntOrString) int {
	if n, ok := percentValue(v); ok {
		return n
	}
	return v.IntValue()
}

// validateTemplateForReplicaSet is ValidatePodTemplateSpecForReplicaSet.
func validateTemplateForReplicaSet(t *corev1.PodTemplateSpec, selector labels.Selector, path *field.Path) field.ErrorList {
	var errs field.ErrorList
	if !selector.Empty() && !selector.Matches(labels.Set(t.Labels)) {
		errs = append(errs, field.Invalid(path.Child("metadata", "labels"), t.Labels, "`selector` does not match template `labels`"))
	}
	// ValidatePodTemplateSpec: the template's labels and annotations, then
	// the pod spec.
	errs = append(errs, validateLabels(t.Labels, path.Child("labels"))...)
	errs = append(errs, validateAnnotations(t.Annotations, path.Child("annotations"))...)
	errs = append(errs, validateContainers(t.Spec.Containers, path.Child("spec", "containers"))...)
	if len(t.Spec.EphemeralContainers) > 0 {
		errs = append(errs, field.Forbidden(path.Child("spec", "ephemeralContainers"), "ephemeral containers not allowed in pod template"))
	}
	if t.Spec.RestartPolicy != corev1.RestartPolicyAlways {
		errs = append(errs, field.NotSupported(path.Child("spec", "restartPolicy"), t.Spec.RestartPolicy, []string{string(corev1.RestartPolicyAlways)}))
	}
	if t.Spec.ActiveDeadlineSeconds != nil {
		errs = append(errs, field.Forbidden(path.Child("spec", "activeDeadlineSeconds"), "activeDeadlineSeconds in ReplicaSet is not Supported"))
	}
	return errs
}

// validateContainers is validateContainers with the parts of
// validateContainerCommon and the probe checks listed above.
func validateContainers(cs []corev1.Container, path *field.Path) field.ErrorList {
	if len(cs) == 0 {
		return field.ErrorList{field.Required(path, "")}
	}
	var errs field.ErrorList
	names := sets.New[string]()
	for i := range cs {
		c, p := &cs[i], path.Index(i)
		if c.Name == "" {
			errs = append(errs, field.Required(p.Child("name"), ""))
		} else {
			for _, msg := range validation.IsDNS1123Label(c.Name) {
				errs = append(errs, field.Invalid(p.Child("name"), c.Name, msg))
			}
		}
		if c.Image == "" {
			errs = append(errs, field.Required(p.Child("image"), ""))
		}
		switch c.TerminationMessagePolicy {
		case corev1.TerminationMessageReadFile, corev1.TerminationMessageFallbackToLogsOnError:
		default:
			errs = append(errs, field.NotSupported(p.Child("terminationMessagePolicy"), c.TerminationMessagePolicy,
				[]corev1.TerminationMessagePolicy{corev1.TerminationMessageReadFile, corev1.TerminationMessageFallbackToLogsOnError}))
		}
		for j, port := range c.Ports {
			for _, msg := range validation.IsValidPortNum(int(port.ContainerPort)) {
				errs = append(errs, field.Invalid(p.Child("ports").Index(j).Child("containerPort"), port.ContainerPort, msg))
			}
		}
		switch c.ImagePullPolicy {
		case corev1.PullAlways, corev1.PullIfNotPresent, corev1.PullNever:
		default:
			errs = append(errs, field.NotSupported(p.Child("imagePullPolicy"), c.ImagePullPolicy,
				[]string{string(corev1.PullAlways), string(corev1.PullIfNotPresent), string(corev1.PullNever)}))
		}
		if names.Has(c.Name) {
			errs = append(errs, field.Duplicate(p.Child("name"), c.Name))
		} else {
			names.Insert(c.Name)
		}
		errs = append(errs, validateProbe(c.LivenessProbe, true, p.Child("livenessProbe"))...)
		errs = append(errs, validateProbe(c.ReadinessProbe, false, p.Child("readinessProbe"))...)
		errs = append(errs, validateProbe(c.StartupProbe, true, p.Child("startupProbe"))...)
	}
	return errs
}

// validateProbe is validateProbe's numbers; a liveness or startup probe's
// successThreshold must be 1 (validateLivenessProbe,
// validateStartupProbe); a readiness probe may not set
// terminationGracePeriodSeconds (validateReadinessProbe).
func validateProbe(pr *corev1.Probe, mustSucceedOnce bool, path *field.Path) field.ErrorList {
	if pr == nil {
		return nil
	}
	var errs field.ErrorList
	for _, f := range []struct {
		name string
		v    int32
	}{
		{"initialDelaySeconds", pr.InitialDelaySeconds}, {"timeoutSeconds", pr.TimeoutSeconds}, {"periodSeconds", pr.PeriodSeconds},
		{"successThreshold", pr.SuccessThreshold}, {"failureThreshold", pr.FailureThreshold},
	} {
		errs = append(errs, apivalidation.ValidateNonnegativeField(int64(f.v), path.Child(f.name))...)
	}
	if t := pr.TerminationGracePeriodSeconds; t != nil && *t <= 0 {
		errs = append(errs, field.Invalid(path.Child("terminationGracePeriodSeconds"), *t, "must be greater than 0"))
	}
	if mustSucceedOnce && pr.SuccessThreshold != 1 {
		errs = append(errs, field.Invalid(path.Child("successThreshold"), pr.SuccessThreshold, "must be 1"))
	}
	if !mustSucceedOnce && pr.TerminationGracePeriodSeconds != nil {
		errs = append(errs, field.Invalid(path.Child("terminationGracePeriodSeconds"), pr.TerminationGracePeriodSeconds, "must not be set for readinessProbes"))
	}
	return errs
}

// validateDeploymentStatusUpdate is ValidateDeploymentStatusUpdate, what
// deploymentStatusStrategy.ValidateUpdate runs on a write to /status in
// place of ValidateDeploymentUpdate: the spec is the live one there, the
// status is what is checked.
func validateDeploymentStatusUpdate(live, next *unstructured.Unstructured) field.ErrorList {
	errs := validateKubeObjectMetaUpdate(next, field.NewPath("metadata"))
	d, was := &appsv1.Deployment{}, &appsv1.Deployment{}
	for _, c := range []struct {
		from *unstructured.Unstructured
		into *appsv1.Deployment
	}{{next, d}, {live, was}} {
		if err := runtime.DefaultUnstructuredConverter.FromUnstructured(c.from.Object, c.into); err != nil {
			// Stored Deployments come from the typed decoder: unreachable.
			return append(errs, field.InternalError(field.NewPath("status"), err))
		}
	}
	statusPath := field.NewPath("status")
	errs = append(errs, validateDeploymentStatus(&d.Status, statusPath)...)
	if isDecremented(d.Status.CollisionCount, was.Status.CollisionCount) {
		var value int32
		if d.Status.CollisionCount != nil {
			value = *d.Status.CollisionCount
		}
		errs = append(errs, field.Invalid(statusPath.Child("collisionCount"), value, "cannot be decremented"))
	}
	return errs
}

// validateDeploymentStatus is ValidateDeploymentStatus: no count below
// zero, none of the replica counts above status.replicas, no more
// available than ready replicas.
func validateDeploymentStatus(st *appsv1.DeploymentStatus, path *field.Path) field.ErrorList {
	errs := apivalidation.ValidateNonnegativeField(st.ObservedGeneration, path.Child("observedGeneration"))
	for _, c := range []struct {
		name  string
		value int32
	}{
		{"replicas", st.Replicas},
		{"updatedReplicas", st.UpdatedReplicas},
		{"readyReplicas", st.ReadyReplicas},
		{"availableReplicas", st.AvailableReplicas},
		{"unavailableReplicas", st.UnavailableReplicas},
	} {
		errs = append(errs, apivalidation.ValidateNonnegativeField(int64(c.value), path.Child(c.name))...)
	}
	if st.TerminatingReplicas != nil {
		errs = append(errs, apivalidation.ValidateNonnegativeField(int64(*st.TerminatingReplicas), path.Child("terminatingReplicas"))...)
	}
	if st.CollisionCount != nil {
		errs = append(errs, apivalidation.ValidateNonnegativeField(int64(*st.CollisionCount), path.Child("collisionCount"))...)
	}
	const overReplicas = "cannot be greater than status.replicas"
	if st.UpdatedReplicas > st.Replicas {
		errs = append(errs, field.Invalid(path.Child("updatedReplicas"), st.UpdatedReplicas, overReplicas))
	}
	if st.ReadyReplicas > st.Replicas {
		errs = append(errs, field.Invalid(path.Child("readyReplicas"), st.ReadyReplicas, overReplicas))
	}
	if st.AvailableReplicas > st.Replicas {
		errs = append(errs, field.Invalid(path.Child("availableReplicas"), st.AvailableReplicas, overReplicas))
	}
	if st.AvailableReplicas > st.ReadyReplicas {
		errs = append(errs, field.Invalid(path.Child("availableReplicas"), st.AvailableReplicas, "cannot be greater than readyReplicas"))
	}
	return errs
}

// isDecremented is core validation's IsDecremented: a count that went
// away counts as decremented.
func isDecremented(update, old *int32) bool {
	if update == nil && old != nil {
		return true
	}
	if update == nil || old == nil {
		return false
	}
	return *update < *old
}
