package code

import corev1 "k8s.io/api/core/v1"

// ConfigMapLister is the slice of client-go's generated lister the snippets
// use (corev1listers.ConfigMapNamespaceLister has this method).
type ConfigMapLister interface {
	Get(name string) (*corev1.ConfigMap, error)
}
