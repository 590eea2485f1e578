package scenario

import (
	"fmt"

	"k8s.io/apimachinery/pkg/labels"
)

// A filtered cache. controller-runtime can start an informer with a label
// selector (cache.Options{ByObject: {&corev1.ConfigMap{}: {Label: sel}}})
// to hold fewer objects. Its Lister then answers NotFound for an object
// that exists but does not match — and for one that stopped matching,
// whose change the server's filtered watch sends as DELETED — so a
// controller that creates what it does not find gets AlreadyExists.

// Selector parses the controller's CacheSelector (nil when there is none).
func (c Controller) Selector() (labels.Selector, error) {
	if c.CacheSelector == "" {
		return nil, nil
	}
	sel, err := labels.Parse(c.CacheSelector)
	if err != nil {
		return nil, fmt.Errorf("cacheSelector %q: %w", c.CacheSelector, err)
	}
	return sel, nil
}

// cacheSelector reads `cacheSelector: app=web`.
func (p *parser) cacheSelector(f map[string]entry, field string, c *Controller) {
	e, ok := f["cacheSelector"]
	if !ok {
		return
	}
	s, ok := p.nonEmpty(e.val, field+".cacheSelector")
	if !ok {
		return
	}
	if _, err := labels.Parse(s); err != nil {
		p.errorf(e.val, field+".cacheSelector", "%q is not a label selector (%v): write it as kubectl -l takes it, as app=web or app=web,tier!=db", s, err)
		return
	}
	c.CacheSelector = s
}

// cacheSelectorNode writes it back.
func cacheSelectorNode(m mapping, c Controller) {
	if c.CacheSelector != "" {
		m.add("cacheSelector", strNode(c.CacheSelector))
	}
}
