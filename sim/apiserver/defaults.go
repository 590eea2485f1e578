package apiserver

import (
	"encoding/json"
	"strings"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/intstr"

	"github.com/conflictlab/conflictlab/sim/api"
)

// The defaults below are what the real server's decoder applies to every
// Deployment it reads from a request: SetObjectDefaults_Deployment in
// k8s.io/kubernetes/pkg/apis/apps/v1/zz_generated.defaults.go, which calls
// SetDefaults_Deployment (apps/v1/defaults.go) and, for the pod template,
// the SetDefaults_* of k8s.io/kubernetes/pkg/apis/core/v1/defaults.go. The
// simulator does not import k8s.io/kubernetes (see validate.go), so each
// function names the upstream one it mirrors.
// Without them the stored object lacks what a real GET shows (strategy,
// probes' thresholds, a volume's defaultMode, ...), and the creator's
// managedFields lack the fields it owns through them.

// defaultDeployment is SetObjectDefaults_Deployment.
func defaultDeployment(d *appsv1.Deployment) {
	setDefaultsDeployment(d)
	ps := &d.Spec.Template.Spec
	setDefaultsPodSpec(ps)
	for i := range ps.Volumes {
		defaultVolume(&ps.Volumes[i])
	}
	for i := range ps.InitContainers {
		defaultContainer(&ps.InitContainers[i])
	}
	for i := range ps.Containers {
		defaultContainer(&ps.Containers[i])
	}
	for i := range ps.EphemeralContainers {
		defaultContainer((*corev1.Container)(&ps.EphemeralContainers[i].EphemeralContainerCommon))
	}
	roundResources(ps.Overhead)
	if ps.Resources != nil {
		roundResources(ps.Resources.Limits)
		roundResources(ps.Resources.Requests)
	}
}

// setDefaultsDeployment is apps/v1 SetDefaults_Deployment.
func setDefaultsDeployment(d *appsv1.Deployment) {
	if d.Spec.Replicas == nil {
		d.Spec.Replicas = ptr(int32(1))
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
		d.Spec.RevisionHistoryLimit = ptr(int32(10))
	}
	if d.Spec.ProgressDeadlineSeconds == nil {
		d.Spec.ProgressDeadlineSeconds = ptr(int32(600))
	}
}

// setDefaultsPodSpec is core/v1 SetDefaults_PodSpec.
func setDefaultsPodSpec(ps *corev1.PodSpec) {
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
		ps.TerminationGracePeriodSeconds = ptr(int64(corev1.DefaultTerminationGracePeriodSeconds))
	}
	if ps.SchedulerName == "" {
		ps.SchedulerName = corev1.DefaultSchedulerName
	}
}

// defaultVolume is SetDefaults_Volume plus the defaults of the volume
// sources a template can name (SetDefaults_SecretVolumeSource,
// _ConfigMapVolumeSource, _DownwardAPIVolumeSource,
// _ProjectedVolumeSource, _ServiceAccountTokenProjection,
// _HostPathVolumeSource, _ObjectFieldSelector, and the generated ISCSI, RBD,
// AzureDisk and ScaleIO literals). The ImageVolume source's pull policy is
// behind a feature gate that v1.37.2 leaves off.
func defaultVolume(v *corev1.Volume) {
	src := &v.VolumeSource
	if allSourcesNil(src) {
		src.EmptyDir = &corev1.EmptyDirVolumeSource{}
	}
	if src.HostPath != nil && src.HostPath.Type == nil {
		src.HostPath.Type = ptr(corev1.HostPathUnset)
	}
	if src.Secret != nil && src.Secret.DefaultMode == nil {
		src.Secret.DefaultMode = ptr(corev1.SecretVolumeSourceDefaultMode)
	}
	if src.ISCSI != nil && src.ISCSI.ISCSIInterface == "" {
		src.ISCSI.ISCSIInterface = "default"
	}
	if r := src.RBD; r != nil {
		if r.RBDPool == "" {
			r.RBDPool = "rbd"
		}
		if r.RadosUser == "" {
			r.RadosUser = "admin"
		}
		if r.Keyring == "" {
			r.Keyring = "/etc/ceph/keyring"
		}
	}
	if d := src.DownwardAPI; d != nil {
		if d.DefaultMode == nil {
			d.DefaultMode = ptr(corev1.DownwardAPIVolumeSourceDefaultMode)
		}
		for i := range d.Items {
			defaultFieldRef(d.Items[i].FieldRef)
		}
	}
	if src.ConfigMap != nil && src.ConfigMap.DefaultMode == nil {
		src.ConfigMap.DefaultMode = ptr(corev1.ConfigMapVolumeSourceDefaultMode)
	}
	if a := src.AzureDisk; a != nil {
		if a.CachingMode == nil {
			a.CachingMode = ptr(corev1.AzureDataDiskCachingReadWrite)
		}
		if a.FSType == nil {
			a.FSType = ptr("ext4")
		}
		if a.ReadOnly == nil {
			a.ReadOnly = ptr(false)
		}
		if a.Kind == nil {
			a.Kind = ptr(corev1.AzureSharedBlobDisk)
		}
	}
	if p := src.Projected; p != nil {
		if p.DefaultMode == nil {
			p.DefaultMode = ptr(corev1.ProjectedVolumeSourceDefaultMode)
		}
		for i := range p.Sources {
			s := &p.Sources[i]
			if s.DownwardAPI != nil {
				for j := range s.DownwardAPI.Items {
					defaultFieldRef(s.DownwardAPI.Items[j].FieldRef)
				}
			}
			if s.ServiceAccountToken != nil && s.ServiceAccountToken.ExpirationSeconds == nil {
				s.ServiceAccountToken.ExpirationSeconds = ptr(int64(time.Hour.Seconds()))
			}
		}
	}
	if s := src.ScaleIO; s != nil {
		if s.StorageMode == "" {
			s.StorageMode = "ThinProvisioned"
		}
		if s.FSType == "" {
			s.FSType = "xfs"
		}
	}
	if e := src.Ephemeral; e != nil && e.VolumeClaimTemplate != nil {
		// SetDefaults_PersistentVolumeClaimSpec.
		spec := &e.VolumeClaimTemplate.Spec
		if spec.VolumeMode == nil {
			spec.VolumeMode = ptr(corev1.PersistentVolumeFilesystem)
		}
		roundResources(spec.Resources.Limits)
		roundResources(spec.Resources.Requests)
	}
}

// allSourcesNil is ptr.AllPtrFieldsNil(&VolumeSource): every source of a
// VolumeSource is a pointer.
func allSourcesNil(s *corev1.VolumeSource) bool {
	return *s == corev1.VolumeSource{}
}

// defaultContainer is SetDefaults_Container and what the generated
// defaulter adds for each container: the ports' protocol, an env var's
// fieldRef apiVersion and fileKeyRef optional, the resources rounded up,
// the probes (SetDefaults_Probe, SetDefaults_HTTPGetAction, a gRPC probe's
// service) and the lifecycle hooks' httpGet.
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
	for i := range c.Env {
		if vf := c.Env[i].ValueFrom; vf != nil {
			defaultFieldRef(vf.FieldRef)
			if vf.FileKeyRef != nil && vf.FileKeyRef.Optional == nil {
				vf.FileKeyRef.Optional = ptr(false)
			}
		}
	}
	roundResources(c.Resources.Limits)
	roundResources(c.Resources.Requests)
	for _, p := range []*corev1.Probe{c.LivenessProbe, c.ReadinessProbe, c.StartupProbe} {
		defaultProbe(p)
	}
	if lc := c.Lifecycle; lc != nil {
		for _, h := range []*corev1.LifecycleHandler{lc.PostStart, lc.PreStop} {
			if h != nil {
				defaultHTTPGet(h.HTTPGet)
			}
		}
	}
}

// defaultProbe is SetDefaults_Probe, with its handler's defaults.
func defaultProbe(p *corev1.Probe) {
	if p == nil {
		return
	}
	if p.TimeoutSeconds == 0 {
		p.TimeoutSeconds = 1
	}
	if p.PeriodSeconds == 0 {
		p.PeriodSeconds = 10
	}
	if p.SuccessThreshold == 0 {
		p.SuccessThreshold = 1
	}
	if p.FailureThreshold == 0 {
		p.FailureThreshold = 3
	}
	defaultHTTPGet(p.HTTPGet)
	if p.GRPC != nil && p.GRPC.Service == nil {
		p.GRPC.Service = ptr("")
	}
}

// defaultHTTPGet is SetDefaults_HTTPGetAction.
func defaultHTTPGet(h *corev1.HTTPGetAction) {
	if h == nil {
		return
	}
	if h.Path == "" {
		h.Path = "/"
	}
	if h.Scheme == "" {
		h.Scheme = corev1.URISchemeHTTP
	}
}

// defaultFieldRef is SetDefaults_ObjectFieldSelector.
func defaultFieldRef(f *corev1.ObjectFieldSelector) {
	if f != nil && f.APIVersion == "" {
		f.APIVersion = "v1"
	}
}

// roundResources is SetDefaults_ResourceList: quantities are rounded up to
// milli scale ("0.0001" becomes "1m").
func roundResources(l corev1.ResourceList) {
	for k, q := range l {
		q.RoundUp(-3)
		l[k] = q
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

func ptr[T any](v T) *T { return &v }

// Defaulted returns obj as the server would store it after decoding and
// defaulting it (nothing changes for a custom resource: the Widget CRD
// declares no defaults). The race analysis uses it to tell a field the
// server defaulted from one a write lost; obj is not changed.
func Defaulted(k api.Kind, obj map[string]any) (map[string]any, error) {
	info, ok := api.Lookup(k)
	if !ok || !info.Builtin {
		return obj, nil
	}
	body, err := json.Marshal(obj)
	if err != nil {
		return nil, err
	}
	u, err := decodeTyped(info, body)
	if err != nil {
		return nil, err
	}
	return u.Object, nil
}
