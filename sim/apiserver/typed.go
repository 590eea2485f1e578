package apiserver

import (
	"encoding/json"
	"strings"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/intstr"
	kjson "sigs.k8s.io/json"

	"github.com/conflictlab/conflictlab/sim/api"
)

type typesUID = types.UID

func runtimeDeepCopy(v interface{}) interface{} { return runtime.DeepCopyJSONValue(v) }

// decodeTyped decodes a body into the kind's Go type, the way the real
// server's decoder does (same JSON library, same messages), and back to
// unstructured: unknown fields fall away, types are checked. Its error is
// the decoder's own text; the caller says which request it failed.
func decodeTyped(info api.KindInfo, body []byte) (*unstructured.Unstructured, error) {
	obj := api.NewTyped(info.Kind)
	if err := kjson.UnmarshalCaseSensitivePreserveInts(body, obj); err != nil {
		return nil, err
	}
	return typedToUnstructured(info, obj)
}

// typedToUnstructured is the stored form of a typed object.
func typedToUnstructured(info api.KindInfo, obj runtime.Object) (*unstructured.Unstructured, error) {
	if d, ok := obj.(*appsv1.Deployment); ok {
		defaultDeployment(d)
	}
	m, err := runtime.DefaultUnstructuredConverter.ToUnstructured(obj)
	if err != nil {
		return nil, err
	}
	u := &unstructured.Unstructured{Object: m}
	dropNulls(u.Object)
	u.SetAPIVersion(info.APIVersion)
	u.SetKind(string(info.Kind))
	return u, nil
}

// decodeCustom decodes a custom resource: any JSON object, pruned to the
// CRD's schema.
func decodeCustom(body []byte) (*unstructured.Unstructured, error) {
	var m map[string]interface{}
	if err := kjson.UnmarshalCaseSensitivePreserveInts(body, &m); err != nil {
		return nil, err
	}
	if m == nil {
		m = map[string]interface{}{} // the body was null
	}
	// The real CR decoder reads the metadata as an ObjectMeta and refuses
	// what does not fit (a list, a number for a name, ...): apiextensions'
	// GetObjectMetaWithOptions, strict as under the default field
	// validation. Unchecked, a malformed metadata would make every metadata
	// setter silently fail.
	if md, ok := m["metadata"]; ok {
		raw, err := json.Marshal(md)
		if err != nil {
			return nil, err
		}
		if _, err := kjson.UnmarshalStrict(raw, &metav1.ObjectMeta{}); err != nil {
			return nil, &metadataError{err}
		}
	}
	u := &unstructured.Unstructured{Object: m}
	pruneWidget(u)
	return u, nil
}

// dropNulls removes the zero timestamps and empty structs the converter
// writes as null, so that stored objects look like what a server returns.
func dropNulls(m map[string]interface{}) {
	for k, v := range m {
		switch t := v.(type) {
		case nil:
			delete(m, k)
		case map[string]interface{}:
			dropNulls(t)
			// A Deployment's "status": {} and a container's "resources": {}
			// stay: a real server returns them (measured on v1.37.2).
			if len(t) == 0 && (k == "metadata" || k == "strategy" || k == "template" || k == "spec" || k == "selector") {
				delete(m, k)
			}
		case []interface{}:
			for _, e := range t {
				if em, ok := e.(map[string]interface{}); ok {
					dropNulls(em)
				}
			}
		}
	}
}

// metadataError is a custom resource whose metadata is not an ObjectMeta.
type metadataError struct{ err error }

func (e *metadataError) Error() string { return e.err.Error() }

// defaultDeployment is what the real server's decoder applies to every
// Deployment it reads from a request (SetObjectDefaults_Deployment in
// k8s.io/kubernetes/pkg/apis/apps/v1, for the fields a Deployment of the
// course has: the deployment, its pod spec and its containers). Without it
// the stored object lacks strategy, revisionHistoryLimit,
// progressDeadlineSeconds, dnsPolicy, ... that a real GET shows, and that
// the creator owns in managedFields.
func defaultDeployment(d *appsv1.Deployment) {
	i32 := func(v int32) *int32 { return &v }
	if d.Spec.Replicas == nil {
		d.Spec.Replicas = i32(1)
	}
	st := &d.Spec.Strategy
	if st.Type == "" {
		st.Type = appsv1.RollingUpdateDeploymentStrategyType
	}
	if st.Type == appsv1.RollingUpdateDeploymentStrategyType {
		if st.RollingUpdate == nil {
			st.RollingUpdate = &appsv1.RollingUpdateDeployment{}
		}
		if st.RollingUpdate.MaxUnavailable == nil {
			v := intstr.FromString("25%")
			st.RollingUpdate.MaxUnavailable = &v
		}
		if st.RollingUpdate.MaxSurge == nil {
			v := intstr.FromString("25%")
			st.RollingUpdate.MaxSurge = &v
		}
	}
	if d.Spec.RevisionHistoryLimit == nil {
		d.Spec.RevisionHistoryLimit = i32(10)
	}
	if d.Spec.ProgressDeadlineSeconds == nil {
		d.Spec.ProgressDeadlineSeconds = i32(600)
	}
	ps := &d.Spec.Template.Spec
	if ps.ServiceAccountName == "" {
		ps.ServiceAccountName = ps.DeprecatedServiceAccount
	}
	ps.DeprecatedServiceAccount = ps.ServiceAccountName
	if ps.DNSPolicy == "" {
		ps.DNSPolicy = corev1.DNSClusterFirst
	}
	if ps.RestartPolicy == "" {
		ps.RestartPolicy = corev1.RestartPolicyAlways
	}
	if ps.SecurityContext == nil {
		ps.SecurityContext = &corev1.PodSecurityContext{}
	}
	if ps.TerminationGracePeriodSeconds == nil {
		v := int64(corev1.DefaultTerminationGracePeriodSeconds)
		ps.TerminationGracePeriodSeconds = &v
	}
	if ps.SchedulerName == "" {
		ps.SchedulerName = corev1.DefaultSchedulerName
	}
	for _, cs := range [][]corev1.Container{ps.InitContainers, ps.Containers} {
		for i := range cs {
			defaultContainer(&cs[i])
		}
	}
}

// defaultContainer is SetDefaults_Container plus the ports' protocol.
func defaultContainer(c *corev1.Container) {
	if c.ImagePullPolicy == "" {
		if imageTag(c.Image) == "latest" {
			c.ImagePullPolicy = corev1.PullAlways
		} else {
			c.ImagePullPolicy = corev1.PullIfNotPresent
		}
	}
	if c.TerminationMessagePath == "" {
		c.TerminationMessagePath = corev1.TerminationMessagePathDefault
	}
	if c.TerminationMessagePolicy == "" {
		c.TerminationMessagePolicy = corev1.TerminationMessageReadFile
	}
	for i := range c.Ports {
		if c.Ports[i].Protocol == "" {
			c.Ports[i].Protocol = corev1.ProtocolTCP
		}
	}
}

// imageTag is the tag parsers.ParseImageName finds: "latest" when an image
// names neither a tag nor a digest, "" for a digest alone.
func imageTag(image string) string {
	name, _, hasDigest := strings.Cut(image, "@")
	last := name[strings.LastIndex(name, "/")+1:]
	if i := strings.LastIndex(last, ":"); i >= 0 {
		return last[i+1:]
	}
	if hasDigest {
		return ""
	}
	return "latest"
}
