package controller

import "testing"

// TestSatisfiedByADefaultedItem: an appended item is there when the
// stored one holds every field it was given, whatever the server added
// (a container's imagePullPolicy, a port's protocol); a different item,
// or one missing a field, is not it. A removal is done only when no item
// holds the removed one.
func TestSatisfiedByADefaultedItem(t *testing.T) {
	sidecar := map[string]any{"name": "sidecar", "image": "busybox:1.36", "ports": []any{map[string]any{"containerPort": int64(9090)}}}
	stored := func(image string) map[string]any {
		return map[string]any{"spec": map[string]any{"containers": []any{
			map[string]any{"name": "app", "image": "nginx"},
			map[string]any{"name": "sidecar", "image": image, "imagePullPolicy": "IfNotPresent", "resources": map[string]any{},
				"ports": []any{map[string]any{"containerPort": int64(9090), "protocol": "TCP"}}},
		}}}
	}
	add := Mutation{Op: Append, Path: MustPath("spec.containers"), Value: sidecar}
	if !add.Satisfied(stored("busybox:1.36")) {
		t.Error("the defaulted sidecar does not count as the one appended")
	}
	if add.Satisfied(stored("busybox:1.37")) {
		t.Error("a sidecar of another image counts as the one appended")
	}
	remove := Mutation{Op: RemoveFromList, Path: MustPath("spec.containers"), Value: sidecar}
	if remove.Satisfied(stored("busybox:1.36")) {
		t.Error("the sidecar is still there, and its removal counts as done")
	}
	tags := Mutation{Op: Append, Path: MustPath("spec.tags"), Value: "a"}
	if !tags.Satisfied(map[string]any{"spec": map[string]any{"tags": []any{"b", "a"}}}) {
		t.Error("a string appended to a list is not found")
	}
}

// TestUndoesInsideAnItem: changing a field of one item of a list does not
// mean to take out another controller's item; removing that item does.
func TestUndoesInsideAnItem(t *testing.T) {
	add := Mutation{Op: Append, Path: MustPath("spec.containers"), Value: map[string]any{"name": "sidecar"}}
	for _, c := range []struct {
		m    Mutation
		want bool
	}{
		{Mutation{Op: Set, Path: MustPath("spec.containers[name=app].image"), Value: "nginx:1.28"}, false},
		{Mutation{Op: Remove, Path: MustPath("spec.containers[name=app].image")}, false},
		{Mutation{Op: Remove, Path: MustPath("spec.containers[name=sidecar]")}, true},
		{Mutation{Op: Set, Path: MustPath("spec.containers"), Value: []any{}}, true},
		{Mutation{Op: RemoveFromList, Path: MustPath("spec.containers"), Value: map[string]any{"name": "sidecar"}}, true},
	} {
		if got := c.m.Undoes(add); got != c.want {
			t.Errorf("%s %s undoes the append: %v, want %v", c.m.Op, c.m.Path, got, c.want)
		}
	}
}
