package controller

import (
	"encoding/json"
	"fmt"
	"sort"
	"strconv"

	jsonpatch "github.com/evanphx/json-patch/v5"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/util/strategicpatch"

	"github.com/conflictlab/conflictlab/sim/api"
)

// BuildWrite turns (what was read, what it became) into the request the
// program's write method sends — the way real controllers build them:
// client.MergeFrom diffs for a merge patch, CreateTwoWayMergePatch for a
// strategic one, an op list for a JSON patch, an apply configuration that
// names only the intended fields for server-side apply.
func BuildWrite(p Program, read, mutated *unstructured.Unstructured) (api.Request, error) {
	req := api.Request{Ref: p.Target, FieldManager: p.Manager(), Subresource: p.WriteSubresource()}
	if p.Body != nil {
		return bodyRequest(p, req)
	}
	switch p.Write {
	case Update, UpdateClearRV, UpdateStatus:
		obj := mutated.DeepCopy()
		if p.Write == UpdateClearRV {
			obj.SetResourceVersion("")
		}
		body, err := marshal(obj)
		if err != nil {
			return req, err
		}
		req.Verb, req.Body = api.Update, body
		return req, nil
	case MergePatch, StrategicPatch:
		body, err := diffPatch(p, read, mutated)
		if err != nil {
			return req, err
		}
		req.Verb, req.Body = api.Patch, body
		req.PatchType = api.MergePatch
		if p.Write == StrategicPatch {
			req.PatchType = api.StrategicPatch
		}
		return req, nil
	case JSONPatch:
		ops := jsonPatchOps(read.Object, mutated.Object, p.Test)
		if p.WithRV {
			ops = append(ops, patchOp{Op: "replace", Path: "/metadata/resourceVersion", Value: read.GetResourceVersion()})
		}
		body, err := json.Marshal(ops)
		if err != nil {
			return req, err
		}
		req.Verb, req.Body, req.PatchType = api.Patch, body, api.JSONPatch
		return req, nil
	case ServerSideApply:
		body, err := applyConfiguration(p, read, mutated)
		if err != nil {
			return req, err
		}
		req.Verb, req.Body, req.PatchType, req.Force = api.Patch, body, api.ApplyPatch, p.Force
		return req, nil
	}
	return req, fmt.Errorf("unknown write method %q", p.Write)
}

// bodyRequest sends a hand-written body as it is: the patch the
// instructor wrote, instead of one computed from mutations.
func bodyRequest(p Program, req api.Request) (api.Request, error) {
	body, err := json.Marshal(p.Body)
	if err != nil {
		return req, err
	}
	req.Verb, req.Body = api.Patch, body
	switch p.Write {
	case MergePatch:
		req.PatchType = api.MergePatch
	case StrategicPatch:
		req.PatchType = api.StrategicPatch
	case JSONPatch:
		req.PatchType = api.JSONPatch
	case ServerSideApply:
		req.PatchType, req.Force = api.ApplyPatch, p.Force
	default:
		return req, fmt.Errorf("a hand-written body cannot be sent with %s", p.Write)
	}
	return req, nil
}

// diffPatch builds a merge or strategic merge patch from the difference.
func diffPatch(p Program, read, mutated *unstructured.Unstructured) ([]byte, error) {
	orig, err := marshal(withoutRV(read))
	if err != nil {
		return nil, err
	}
	mod, err := marshal(withoutRV(mutated))
	if err != nil {
		return nil, err
	}
	var patch []byte
	if typed := api.NewTyped(p.Target.Kind); p.Write == StrategicPatch && typed != nil {
		patch, err = strategicpatch.CreateTwoWayMergePatch(orig, mod, typed)
	} else {
		// A custom resource has no Go struct to read merge keys from; the
		// client sends a plain merge document (and the server answers 415
		// when it is labelled strategic).
		patch, err = jsonpatch.CreateMergePatch(orig, mod)
	}
	if err != nil {
		return nil, err
	}
	if !p.WithRV {
		return patch, nil
	}
	// controller-runtime's MergeFromWithOptimisticLock: the patch carries
	// the RV it was computed from, which makes it conditional.
	var m map[string]any
	if err := json.Unmarshal(patch, &m); err != nil {
		return nil, err
	}
	meta, _ := m["metadata"].(map[string]any)
	if meta == nil {
		meta = map[string]any{}
	}
	meta["resourceVersion"] = read.GetResourceVersion()
	m["metadata"] = meta
	return json.Marshal(m)
}

func withoutRV(u *unstructured.Unstructured) *unstructured.Unstructured {
	c := u.DeepCopy()
	c.SetResourceVersion("")
	return c
}

type patchOp struct {
	Op    string `json:"op"`
	Path  string `json:"path"`
	Value any    `json:"value,omitempty"`
}

// MarshalJSON keeps "value" for add/replace/test even when it is empty.
func (o patchOp) MarshalJSON() ([]byte, error) {
	if o.Op == "remove" {
		return json.Marshal(struct {
			Op   string `json:"op"`
			Path string `json:"path"`
		}{o.Op, o.Path})
	}
	return json.Marshal(struct {
		Op    string `json:"op"`
		Path  string `json:"path"`
		Value any    `json:"value"`
	}{o.Op, o.Path, o.Value})
}

// jsonPatchOps diffs two objects into RFC 6902 operations. Appends become
// `add …/-`, removals from a list become `remove …/i` (highest index first);
// other list changes replace the list. With TestValues every replace and
// remove is guarded by a `test` of the value that was read.
func jsonPatchOps(a, b map[string]any, mode TestMode) []patchOp {
	// Never nil: a write sent although nothing changed (noop: send) is
	// the empty op list [], not null.
	ops := []patchOp{}
	if mode == TestRV {
		rv, _, _ := unstructured.NestedString(a, "metadata", "resourceVersion")
		ops = append(ops, patchOp{Op: "test", Path: "/metadata/resourceVersion", Value: rv})
	}
	diffValue("", a, b, mode, &ops, true)
	return ops
}

func diffValue(ptr string, a, b any, mode TestMode, ops *[]patchOp, root bool) {
	am, aIsMap := a.(map[string]any)
	bm, bIsMap := b.(map[string]any)
	if aIsMap && bIsMap {
		keys := map[string]bool{}
		for k := range am {
			keys[k] = true
		}
		for k := range bm {
			keys[k] = true
		}
		sorted := make([]string, 0, len(keys))
		for k := range keys {
			sorted = append(sorted, k)
		}
		sort.Strings(sorted)
		for _, k := range sorted {
			if root && k == "metadata" {
				// resourceVersion and managedFields are the server's business.
				diffValue(ptr+"/metadata", stripServerMeta(am[k]), stripServerMeta(bm[k]), mode, ops, false)
				continue
			}
			av, aok := am[k]
			bv, bok := bm[k]
			child := ptr + "/" + escapePointer(k)
			switch {
			case aok && !bok:
				if mode == TestValues {
					*ops = append(*ops, patchOp{Op: "test", Path: child, Value: av})
				}
				*ops = append(*ops, patchOp{Op: "remove", Path: child})
			case !aok && bok:
				*ops = append(*ops, patchOp{Op: "add", Path: child, Value: bv})
			default:
				diffValue(child, av, bv, mode, ops, false)
			}
		}
		return
	}
	al, aIsList := a.([]any)
	bl, bIsList := b.([]any)
	if aIsList && bIsList {
		if isPrefix(al, bl) {
			if mode == TestValues && len(bl) > len(al) {
				// An append decided from what was read: test the list first.
				*ops = append(*ops, patchOp{Op: "test", Path: ptr, Value: al})
			}
			for _, v := range bl[len(al):] {
				*ops = append(*ops, patchOp{Op: "add", Path: ptr + "/-", Value: v})
			}
			return
		}
		if removed, ok := removals(al, bl); ok {
			for i := len(removed) - 1; i >= 0; i-- {
				idx := ptr + "/" + strconv.Itoa(removed[i])
				if mode == TestValues {
					*ops = append(*ops, patchOp{Op: "test", Path: idx, Value: al[removed[i]]})
				}
				*ops = append(*ops, patchOp{Op: "remove", Path: idx})
			}
			return
		}
	}
	if equalJSON(a, b) {
		return
	}
	if mode == TestValues {
		*ops = append(*ops, patchOp{Op: "test", Path: ptr, Value: a})
	}
	*ops = append(*ops, patchOp{Op: "replace", Path: ptr, Value: b})
}

func stripServerMeta(v any) any {
	m, ok := v.(map[string]any)
	if !ok {
		return v
	}
	out := make(map[string]any, len(m))
	for k, x := range m {
		if k != "resourceVersion" && k != "managedFields" {
			out[k] = x
		}
	}
	return out
}

func isPrefix(a, b []any) bool {
	if len(a) > len(b) {
		return false
	}
	for i := range a {
		if !equalJSON(a[i], b[i]) {
			return false
		}
	}
	return true
}

// removals reports the indexes of a that are missing from b, when b is a
// with some elements taken out (order kept).
func removals(a, b []any) ([]int, bool) {
	if len(b) >= len(a) {
		return nil, false
	}
	var out []int
	j := 0
	for i := range a {
		if j < len(b) && equalJSON(a[i], b[j]) {
			j++
			continue
		}
		out = append(out, i)
	}
	return out, j == len(b)
}

func equalJSON(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return string(x) == string(y)
}

// applyConfiguration declares only the fields the controller means to own,
// with the values it computed from what it read.
func applyConfiguration(p Program, read, mutated *unstructured.Unstructured) ([]byte, error) {
	info, _ := api.Lookup(p.Target.Kind)
	cfg := map[string]any{
		"apiVersion": info.APIVersion,
		"kind":       string(info.Kind),
		"metadata":   map[string]any{"name": p.Target.Name, "namespace": p.Target.Namespace},
	}
	if p.Target.Namespace == "" {
		delete(cfg["metadata"].(map[string]any), "namespace")
	}
	if p.WithRV {
		// An apply configuration built from a copy that was read (its
		// metadata carried over, as client.Apply does with a whole object)
		// brings that copy's resourceVersion, and the server takes it as a
		// precondition like any other write's: stale → 409.
		cfg["metadata"].(map[string]any)["resourceVersion"] = read.GetResourceVersion()
	}
	for _, mu := range p.Mutations {
		if mu.When != nil && !mu.When.Holds(read.Object) {
			continue
		}
		mu = mu.Resolve(read.Object)
		switch mu.Op {
		case Set, Increment, Append:
			v, ok := mu.Path.Get(mutated.Object)
			if !ok {
				continue
			}
			if err := mu.Path.Set(cfg, v); err != nil {
				return nil, err
			}
		case AddToSet:
			// Declare just our element: the server merges list-type=set lists.
			cur, _ := mu.Path.Get(cfg)
			l, _ := cur.([]any)
			if err := mu.Path.Set(cfg, append(l, normalizeValue(mu.Value))); err != nil {
				return nil, err
			}
		case Remove, RemoveFromList:
			// With apply, giving up a field is saying nothing about it.
		}
	}
	return json.Marshal(cfg)
}
