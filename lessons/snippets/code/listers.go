package code

import (
	appsv1 "k8s.io/api/apps/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// DeploymentLister is the slice of client-go's generated Deployment lister
// the snippets use (appsv1listers.DeploymentNamespaceLister has it).
type DeploymentLister interface {
	Get(name string) (*appsv1.Deployment, error)
}

// WidgetLister reads the course's custom resource from an informer's cache
// (a dynamic informer's lister hands out unstructured objects).
type WidgetLister interface {
	Get(name string) (*unstructured.Unstructured, error)
}

// Widgets is the custom resource the course races on: spec and status,
// with a status subresource.
var Widgets = schema.GroupVersionResource{Group: "oracle.example.com", Version: "v1", Resource: "widgets"}
