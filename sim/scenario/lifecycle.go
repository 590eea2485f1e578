package scenario

import (
	"go.yaml.in/yaml/v3"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/conflictlab/conflictlab/sim/api"
	"github.com/conflictlab/conflictlab/sim/controller"
)

// The fields of a controller that creates or deletes (docs/scenario-format.md,
// "Create and delete"):
//
//	write: create
//	object: {apiVersion: v1, kind: ConfigMap, metadata: {generateName: child-, labels: {app: web}}}
//	when: absent              # look first (read says where); create only if not found
//
//	write: delete
//	target: ConfigMap/cm1
//	preconditions: [uid, resourceVersion]   # taken from the copy it read

// lifecycleOf peeks at a controller's write: create, delete or neither
// (""), so that the fields a create or a delete does without (target,
// mutations) are not reported missing.
func lifecycleOf(f map[string]entry) controller.WriteMethod {
	if e, ok := f["write"]; ok && e.val.Kind == yaml.ScalarNode {
		if w := controller.WriteMethod(e.val.Value); w.IsLifecycle() {
			return w
		}
	}
	return ""
}

// lifecycle reads object, when and preconditions, and checks that each
// is given only where it means something. A create's target is its object.
func (p *parser) lifecycle(f map[string]entry, n *yaml.Node, field string, c *Controller) {
	prog := &c.Program
	sub := func(k string) string { return field + "." + k }
	w := lifecycleOf(f)
	if w != "" {
		if e, ok := f["mutations"]; ok {
			p.errorf(e.val, sub("mutations"), "%s changes no copy it read: it takes no mutations", w)
		}
	}
	if e, ok := f["object"]; ok {
		if w != controller.Create {
			p.errorf(e.val, sub("object"), "object is what a create sends: only for write: create")
		} else if obj, ok := p.createObject(e.val, sub("object")); ok {
			prog.Object = obj
			ref := api.RefOf(obj)
			if te, given := f["target"]; given && obj.GetName() == "" {
				p.errorf(te.val, sub("target"), "a create with generateName has no target: the server names the object")
			} else if given && prog.Target != ref {
				p.errorf(te.val, sub("target"), "target %s is not the object the create sends (%s): leave target out", prog.Target, ref)
			}
			prog.Target = ref
		}
	} else if w == controller.Create {
		p.missing(n, field, "object", " (the object the create sends)")
	}
	if e, ok := f["when"]; ok {
		if s, ok := p.text(e.val, sub("when")); ok {
			switch {
			case s != "absent":
				p.errorf(e.val, sub("when"), "unknown condition %q (want absent: create only if the object is not found)", s)
			case w != controller.Create:
				p.errorf(e.val, sub("when"), "when: absent is for write: create")
			case prog.Object != nil && prog.Object.GetName() == "" && len(prog.Object.GetLabels()) == 0:
				p.errorf(e.val, sub("when"), "a generated name cannot be looked up: give the object metadata.labels, by which the create looks for it")
			default:
				prog.WhenAbsent = true
			}
		}
	}
	if e, ok := f["preconditions"]; ok {
		if w != controller.Delete {
			p.errorf(e.val, sub("preconditions"), "preconditions are for write: delete")
			return
		}
		items, ok := p.seq(e.val, sub("preconditions"))
		if !ok {
			return
		}
		seen := map[string]bool{}
		for i, it := range items {
			itf := indexField(sub("preconditions"), i)
			s, ok := p.text(it, itf)
			if !ok {
				continue
			}
			if seen[s] {
				p.errorf(it, itf, "%s is given twice", s)
				continue
			}
			seen[s] = true
			switch s {
			case "resourceVersion":
				prog.Preconditions.ResourceVersion = true
			case "uid":
				prog.Preconditions.UID = true
			default:
				p.errorf(it, itf, "unknown precondition %q (want resourceVersion or uid)%s", s, suggest(s, []string{"resourceVersion", "uid"}))
			}
		}
	}
	if e, ok := f["propagationPolicy"]; ok {
		if w != controller.Delete {
			p.errorf(e.val, sub("propagationPolicy"), "propagationPolicy is for write: delete")
			return
		}
		if s, ok := p.text(e.val, sub("propagationPolicy")); ok {
			switch s {
			case "Foreground", "Background", "Orphan":
				prog.Propagation = s
			default:
				p.errorf(e.val, sub("propagationPolicy"), "unknown propagationPolicy %q (want Foreground, Background or Orphan)%s", s, suggest(s, []string{"Foreground", "Background", "Orphan"}))
			}
		}
	}
}

// createObject reads the object a create sends: like an entry of objects,
// but named by metadata.name or metadata.generateName.
func (p *parser) createObject(n *yaml.Node, field string) (*unstructured.Unstructured, bool) {
	before := len(p.errs)
	v, ok := p.value(n, field, 0)
	if !ok {
		return nil, false
	}
	m, isMap := v.(map[string]any)
	if !isMap {
		p.errorf(n, field, "want a Kubernetes object (a mapping), got %s", describe(n))
		return nil, false
	}
	meta, _ := m["metadata"].(map[string]any)
	_, named := meta["name"]
	gen, generated := meta["generateName"]
	if meta != nil && !named && !generated {
		p.errorf(childNode(n, "metadata"), field+".metadata", "missing name (or generateName, for the server to finish)")
		return nil, false
	}
	if meta != nil && !named {
		// checkObject wants a name: check the prefix here, and the rest there.
		if s, isStr := gen.(string); !isStr || s == "" {
			p.errorf(childNode(childNode(n, "metadata"), "generateName"), field+".metadata.generateName", "want a non-empty string, got %v", gen)
			return nil, false
		}
		meta["name"] = "x"
		defer delete(meta, "name")
	}
	if _, ok := p.checkObject(n, field, m); !ok || len(p.errs) > before {
		return nil, false
	}
	u := &unstructured.Unstructured{Object: m}
	if u.GetNamespace() == "" {
		u.SetNamespace(DefaultNamespace)
	}
	return u, true
}

// createdRefs are the objects the scenario's creates make under a name
// they give: other controllers may target them.
func createdRefs(ctrls []Controller) map[api.Ref]bool {
	out := map[api.Ref]bool{}
	for _, c := range ctrls {
		if c.Write == controller.Create && c.Object != nil && c.Object.GetName() != "" {
			out[c.Target] = true
		}
	}
	return out
}

// lifecycleNodes writes object, when and preconditions back.
func lifecycleNodes(m mapping, p controller.Program) error {
	if p.Object != nil {
		obj := p.Object.DeepCopy()
		n, err := objectNode(obj.Object)
		if err != nil {
			return err
		}
		m.add("object", n)
	}
	if p.WhenAbsent {
		m.add("when", strNode("absent"))
	}
	var pre []string
	if p.Preconditions.UID {
		pre = append(pre, "uid")
	}
	if p.Preconditions.ResourceVersion {
		pre = append(pre, "resourceVersion")
	}
	if len(pre) > 0 {
		m.add("preconditions", flowSeq(pre))
	}
	if p.Propagation != "" {
		m.add("propagationPolicy", strNode(p.Propagation))
	}
	return nil
}

// lifecycleWriteNames are the names of create and delete, for messages.
func lifecycleWriteNames() []string {
	var out []string
	for _, w := range controller.LifecycleWrites {
		out = append(out, string(w))
	}
	return out
}
