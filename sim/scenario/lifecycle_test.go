package scenario

import (
	"testing"

	"github.com/conflictlab/conflictlab/sim/api"
	"github.com/conflictlab/conflictlab/sim/controller"
)

// TestLifecycleParseErrors: a create's or a delete's fields, wrong, get
// FILE:LINE: field: problem.
func TestLifecycleParseErrors(t *testing.T) {
	tests := []struct {
		name  string
		data  []byte
		line  int
		field string
		msg   string
	}{
		{"create without object", ctrl("- name: a", "  write: create"), 7, "controllers[0]", `missing required field "object" (the object the create sends)`},
		{"create with mutations", ctrl("- name: a", "  write: create", "  mutations: [{set: {path: data.x, value: a}}]",
			"  object: {apiVersion: v1, kind: ConfigMap, metadata: {name: c2}}"), 9, "controllers[0].mutations", "create changes no copy it read: it takes no mutations"},
		{"create object without name", ctrl("- name: a", "  write: create", "  object: {apiVersion: v1, kind: ConfigMap, metadata: {labels: {app: web}}}"),
			9, "controllers[0].object.metadata", "missing name (or generateName, for the server to finish)"},
		{"create object bad generateName", ctrl("- name: a", "  write: create", "  object:", "    apiVersion: v1", "    kind: ConfigMap", "    metadata: {generateName: 3}"),
			12, "controllers[0].object.metadata.generateName", "want a non-empty string, got 3"},
		{"create object unknown kind", ctrl("- name: a", "  write: create", "  object: {apiVersion: v1, kind: Secret, metadata: {name: s}}"),
			9, "controllers[0].object.kind", `unknown kind "Secret" (want ConfigMap, Deployment or Widget)`},
		{"create target not its object", ctrl("- name: a", "  write: create", "  target: ConfigMap/cm1", "  object: {apiVersion: v1, kind: ConfigMap, metadata: {name: c2}}"),
			9, "controllers[0].target", "target ConfigMap/default/cm1 is not the object the create sends (ConfigMap/default/c2): leave target out"},
		{"when absent without labels", ctrl("- name: a", "  write: create", "  object: {apiVersion: v1, kind: ConfigMap, metadata: {generateName: c-}}", "  when: absent"),
			10, "controllers[0].when", "a generated name cannot be looked up: give the object metadata.labels, by which the create looks for it"},
		{"when unknown", ctrl("- name: a", "  write: create", "  object: {apiVersion: v1, kind: ConfigMap, metadata: {name: c2}}", "  when: present"),
			10, "controllers[0].when", `unknown condition "present" (want absent: create only if the object is not found)`},
		{"when on delete", ctrl("- name: a", "  target: ConfigMap/cm1", "  write: delete", "  when: absent"), 10, "controllers[0].when", "when: absent is for write: create"},
		{"object on delete", ctrl("- name: a", "  target: ConfigMap/cm1", "  write: delete", "  object: {apiVersion: v1, kind: ConfigMap, metadata: {name: c2}}"),
			10, "controllers[0].object", "object is what a create sends: only for write: create"},
		{"precondition typo", ctrl("- name: a", "  target: ConfigMap/cm1", "  write: delete", "  preconditions:", "  - uid", "  - resourceVersoin"),
			12, "controllers[0].preconditions[1]", `unknown precondition "resourceVersoin" (want resourceVersion or uid) (did you mean "resourceVersion"?)`},
		{"precondition twice", ctrl("- name: a", "  target: ConfigMap/cm1", "  write: delete", "  preconditions: [uid, uid]"),
			10, "controllers[0].preconditions[1]", "uid is given twice"},
		{"propagation typo", ctrl("- name: a", "  target: ConfigMap/cm1", "  write: delete", "  propagationPolicy: foreground"),
			10, "controllers[0].propagationPolicy", `unknown propagationPolicy "foreground" (want Foreground, Background or Orphan) (did you mean "Foreground"?)`},
		{"propagation on update", ctrl("- name: a", "  target: ConfigMap/cm1", "  mutations: [{set: {path: data.x, value: a}}]", "  write: update", "  propagationPolicy: Orphan"),
			11, "controllers[0].propagationPolicy", "propagationPolicy is for write: delete"},
		{"preconditions on update", ctrl("- name: a", "  target: ConfigMap/cm1", "  mutations: [{set: {path: data.x, value: a}}]", "  write: update", "  preconditions: [uid]"),
			11, "controllers[0].preconditions", "preconditions are for write: delete"},
		{"delete with force", ctrl("- name: a", "  target: ConfigMap/cm1", "  write: delete", "  force: true"), 10, "controllers[0].force", "force is for apply, not delete"},
		{"delete target not among objects", ctrl("- name: a", "  target: ConfigMap/cm9", "  write: delete"), 8, "controllers[0].target", "target ConfigMap/default/cm9 is not among objects"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			wantOneError(t, tc.data, tc.line, tc.field, tc.msg)
		})
	}
}

// TestLifecycleParseAndMarshal: creates and deletes read into programs
// and write back as the same scenario; an update may target what a
// create makes.
func TestLifecycleParseAndMarshal(t *testing.T) {
	data := ctrl(
		"- name: a",
		"  write: create",
		"  object: {apiVersion: v1, kind: ConfigMap, metadata: {generateName: child-, labels: {app: web}}, data: {x: \"1\"}}",
		"  when: absent",
		"  retry: default",
		"- name: n",
		"  write: create",
		"  object: {apiVersion: v1, kind: ConfigMap, metadata: {name: c2}}",
		"- name: u",
		"  target: ConfigMap/c2",
		"  mutations: [{set: {path: data.x, value: a}}]",
		"  write: update",
		"- name: d",
		"  target: ConfigMap/cm1",
		"  read: live",
		"  write: delete",
		"  preconditions: [resourceVersion, uid]",
		"  propagationPolicy: Foreground",
	)
	sc, err := Parse("race.yaml", data)
	if err != nil {
		t.Fatal(err)
	}
	a, n, d := sc.Controllers[0].Program, sc.Controllers[1].Program, sc.Controllers[3].Program
	if a.Write != controller.Create || !a.WhenAbsent || a.Target != (api.Ref{Kind: api.ConfigMap, Namespace: "default"}) ||
		a.Object.GetGenerateName() != "child-" || controller.SelectorString(a.Selector()) != "app=web" {
		t.Fatalf("create with generateName read as %+v", a)
	}
	if n.Target.Name != "c2" || n.WhenAbsent {
		t.Fatalf("named create read as %+v", n)
	}
	if d.Write != controller.Delete || d.Preconditions != (controller.Preconditions{ResourceVersion: true, UID: true}) || d.Read != controller.FromLive || d.Propagation != "Foreground" {
		t.Fatalf("delete read as %+v", d)
	}
	out, err := Marshal(sc)
	if err != nil {
		t.Fatal(err)
	}
	again, err := Parse("again.yaml", out)
	if err != nil {
		t.Fatalf("marshalled scenario does not load: %v\n%s", err, out)
	}
	out2, err := Marshal(again)
	if err != nil {
		t.Fatal(err)
	}
	if string(out) != string(out2) {
		t.Fatalf("marshal is not stable:\n%s\n---\n%s", out, out2)
	}
	if p := again.Controllers[3].Program; p.Preconditions != d.Preconditions || p.Propagation != "Foreground" || again.Controllers[0].Program.Object.GetGenerateName() != "child-" {
		t.Fatalf("round trip lost fields:\n%s", out)
	}
}
