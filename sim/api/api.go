// Package api holds the vocabulary shared by the simulated API server, the
// controllers that talk to it and any real-cluster client: the kinds the
// course uses, object references, and the request/response pair that is one
// atomic step of a race.
//
// Requests are plain data on purpose: the scheduler can log them, the UI can
// draw them, and a second implementation can send the same request to a real
// API server.
package api

import (
	"fmt"
	"sort"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
)

// Kind names one of the object kinds the simulator serves.
type Kind string

const (
	ConfigMap  Kind = "ConfigMap"
	Deployment Kind = "Deployment"
	// Widget is the course's custom resource: spec + status with a status
	// subresource, served as unstructured JSON like any CRD.
	Widget Kind = "Widget"
)

// KindInfo is what the server needs to know about a kind.
type KindInfo struct {
	Kind       Kind
	APIVersion string
	Resource   schema.GroupResource
	// Builtin kinds are typed (strategic merge patch works, an update without
	// a resourceVersion is allowed); custom resources are not.
	Builtin bool
	// StatusSubresource: the main resource ignores status, /status ignores
	// everything else.
	StatusSubresource bool
}

// GVK returns the kind's group/version/kind.
func (k KindInfo) GVK() schema.GroupVersionKind {
	return schema.FromAPIVersionAndKind(k.APIVersion, string(k.Kind))
}

// GroupKind is the qualified kind used in Invalid errors ("Widget.oracle.example.com").
func (k KindInfo) GroupKind() schema.GroupKind {
	return schema.GroupKind{Group: k.Resource.Group, Kind: string(k.Kind)}
}

// WidgetGroup is the API group of the course's custom resource.
const WidgetGroup = "oracle.example.com"

var kinds = map[Kind]KindInfo{
	ConfigMap: {Kind: ConfigMap, APIVersion: "v1", Resource: schema.GroupResource{Resource: "configmaps"}, Builtin: true},
	Deployment: {Kind: Deployment, APIVersion: "apps/v1",
		Resource: schema.GroupResource{Group: "apps", Resource: "deployments"}, Builtin: true, StatusSubresource: true},
	Widget: {Kind: Widget, APIVersion: WidgetGroup + "/v1",
		Resource: schema.GroupResource{Group: WidgetGroup, Resource: "widgets"}, StatusSubresource: true},
}

// Lookup returns the kind's description.
func Lookup(k Kind) (KindInfo, bool) {
	info, ok := kinds[k]
	return info, ok
}

// NewTyped returns an empty Go value of a built-in kind (nil for a custom
// resource): strategic merge patch reads its struct tags (patchStrategy,
// patchMergeKey), and the server's decoder uses it to reject bodies that do
// not fit.
func NewTyped(k Kind) runtime.Object {
	switch k {
	case ConfigMap:
		return &corev1.ConfigMap{}
	case Deployment:
		return &appsv1.Deployment{}
	}
	return nil
}

// Kinds lists the served kinds in a stable order.
func Kinds() []Kind {
	out := make([]Kind, 0, len(kinds))
	for k := range kinds {
		out = append(out, k)
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}

// Ref names one object, as a URL does.
type Ref struct {
	Kind      Kind   `json:"kind"`
	Namespace string `json:"namespace"`
	Name      string `json:"name"`
}

func (r Ref) String() string {
	if r.Namespace == "" {
		return fmt.Sprintf("%s/%s", r.Kind, r.Name)
	}
	return fmt.Sprintf("%s/%s/%s", r.Kind, r.Namespace, r.Name)
}

// RefOf returns the reference of an object.
func RefOf(u *unstructured.Unstructured) Ref {
	return Ref{Kind: Kind(u.GetKind()), Namespace: u.GetNamespace(), Name: u.GetName()}
}

// Verb is an HTTP-level action.
type Verb string

const (
	Get    Verb = "GET"
	List   Verb = "LIST"
	Create Verb = "CREATE"
	Update Verb = "UPDATE"
	Patch  Verb = "PATCH"
	Delete Verb = "DELETE"
)

// Patch content types, as the real server names them.
const (
	MergePatch     = types.MergePatchType
	StrategicPatch = types.StrategicMergePatchType
	JSONPatch      = types.JSONPatchType
	ApplyPatch     = types.ApplyYAMLPatchType
)

// Request is one API call. Body is what goes on the wire (JSON, or YAML/JSON
// for apply); Ref is the URL.
type Request struct {
	Verb         Verb            `json:"verb"`
	Ref          Ref             `json:"ref"`
	Subresource  string          `json:"subresource,omitempty"`
	PatchType    types.PatchType `json:"patchType,omitempty"`
	Body         []byte          `json:"body,omitempty"`
	FieldManager string          `json:"fieldManager,omitempty"`
	Force        bool            `json:"force,omitempty"`
}

// Describe is the request line a person reads: "PATCH (merge) ConfigMap/cm1".
func (r Request) Describe() string {
	verb := string(r.Verb)
	switch r.PatchType {
	case MergePatch:
		verb += " merge"
	case StrategicPatch:
		verb += " smp"
	case JSONPatch:
		verb += " json"
	case ApplyPatch:
		verb = "APPLY"
	}
	target := r.Ref.Name
	if r.Subresource != "" {
		target += "/" + r.Subresource
	}
	return verb + " " + target
}

// Response is the server's answer. Exactly one of Object/Err is set for
// single-object calls; Code is the HTTP status code.
type Response struct {
	Code   int
	Object *unstructured.Unstructured
	Items  []*unstructured.Unstructured
	// ListRV is a LIST's collection resourceVersion.
	ListRV string
	Err    error
}

// EventType is a watch event's type.
type EventType string

const (
	Added    EventType = "ADDED"
	Modified EventType = "MODIFIED"
	Deleted  EventType = "DELETED"
)

// Event is one watch event: every successful write emits exactly one, on
// the simulated server as on a real one (live mode reads them from a watch).
type Event struct {
	Type   EventType
	RV     int64
	Object *unstructured.Unstructured
}
