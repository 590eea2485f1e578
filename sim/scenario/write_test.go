package scenario

import (
	"reflect"
	"strings"
	"testing"

	"github.com/conflictlab/conflictlab/sim/controller"
)

// widgetHeader is six lines declaring Widget w1; controllers follow from
// line 7.
var widgetHeader = []string{
	"name: t", // 1
	"objects:",
	"- apiVersion: oracle.example.com/v1",
	"  kind: Widget",
	"  metadata: {name: w1}",
	"controllers:", // 6
}

func widgetCtrl(lines ...string) []byte {
	return doc(append(append([]string{}, widgetHeader...), lines...)...)
}

func TestParseSubresourceBodyNoop(t *testing.T) {
	for _, tc := range []struct {
		name  string
		lines []string
		check func(controller.Program) bool
	}{
		{"merge patch to /status", []string{"  mutations: [{set: {path: status.phase, value: Ready}}]", "  write: merge-patch", "  subresource: status"},
			func(p controller.Program) bool {
				return p.Write == controller.MergePatch && p.Subresource == "status" && p.WriteSubresource() == "status"
			}},
		{"apply to /status with force", []string{"  mutations: [{set: {path: status.phase, value: Ready}}]", "  write: apply", "  subresource: status", "  force: true"},
			func(p controller.Program) bool {
				return p.Write == controller.ServerSideApply && p.Force && p.WriteSubresource() == "status"
			}},
		{"update-status is update to /status", []string{"  mutations: [{set: {path: status.phase, value: Ready}}]", "  write: update-status"},
			func(p controller.Program) bool {
				return p.Write == controller.UpdateStatus && p.WriteSubresource() == "status"
			}},
		{"update-status may say its subresource", []string{"  mutations: [{set: {path: status.phase, value: Ready}}]", "  write: update-status", "  subresource: status"},
			func(p controller.Program) bool { return p.WriteSubresource() == "status" }},
		{"noop send", []string{"  mutations: [{set: {path: spec.size, value: 1}}]", "  write: update", "  noop: send"},
			func(p controller.Program) bool { return p.SendNoop }},
		{"noop skip is the default", []string{"  mutations: [{set: {path: spec.size, value: 1}}]", "  write: update", "  noop: skip"},
			func(p controller.Program) bool { return !p.SendNoop }},
		{"merge patch body with null", []string{"  write: merge-patch", "  body: {spec: {size: null, color: red}, metadata: {name: w1, resourceVersion: '101'}}"},
			func(p controller.Program) bool {
				return reflect.DeepEqual(p.Body, map[string]any{
					"spec":     map[string]any{"size": nil, "color": "red"},
					"metadata": map[string]any{"name": "w1", "resourceVersion": "101"},
				}) && len(p.Mutations) == 0
			}},
		{"json patch op list", []string{"  write: json-patch", "  subresource: status", "  body:",
			"  - {op: test, path: /metadata/uid, value: x}",
			"  - {op: add, path: /status/items, value: []}",
			"  - {op: copy, from: /metadata/name, path: /status/message}",
			"  - {op: remove, path: /spec/size}"},
			func(p controller.Program) bool { l, _ := p.Body.([]any); return len(l) == 4 }},
		{"a body with withRV false and test none", []string{"  write: json-patch", "  withRV: false", "  test: none", "  body: []"},
			func(p controller.Program) bool {
				l, ok := p.Body.([]any)
				return ok && len(l) == 0 && !p.WithRV
			}},
		{"apply body", []string{"  write: apply", "  fieldManager: ctl", "  body: {apiVersion: oracle.example.com/v1, kind: Widget, metadata: {name: w1}, spec: {size: 2}}"},
			func(p controller.Program) bool { return p.Body != nil && p.Manager() == "ctl" }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := mustParse(t, widgetCtrl(append([]string{"- name: a", "  target: Widget/w1"}, tc.lines...)...))
			roundTrip(t, s)
			if !tc.check(s.Controllers[0].Program) {
				t.Errorf("%+v", s.Controllers[0].Program)
			}
		})
	}
}

func TestParseStrategicDirectives(t *testing.T) {
	s := mustParse(t, ctrl(
		"- name: a",
		"  target: ConfigMap/cm1",
		"  write: strategic-patch",
		"  body:",
		"    metadata:",
		"      $deleteFromPrimitiveList/finalizers: [x.io/a]",
		"      $setElementOrder/finalizers: [x.io/b]",
		"      finalizers: [x.io/b]",
		"    data: {$patch: replace, x: '1'}",
	))
	roundTrip(t, s)
	md := s.Controllers[0].Body.(map[string]any)["metadata"].(map[string]any)
	if _, ok := md["$setElementOrder/finalizers"]; !ok {
		t.Fatalf("body %v", s.Controllers[0].Body)
	}
}

func TestWriteOptionErrors(t *testing.T) {
	c := func(lines ...string) []byte {
		return widgetCtrl(append([]string{"- name: a", "  target: Widget/w1"}, lines...)...)
	}
	set := "  mutations: [{set: {path: status.phase, value: Ready}}]"
	tests := []struct {
		name  string
		data  []byte
		line  int
		field string
		msg   string
	}{
		{"apply with an empty field manager", c(set, "  write: apply", "  fieldManager: ''"), 11, "controllers[0].fieldManager",
			`empty: an apply needs a field manager (a real server answers 422 "PatchOptions.meta.k8s.io \"\" is invalid: fieldManager: Required value: is required for apply patch"); leave fieldManager out to use the controller's name`},
		{"update with an empty field manager", c(set, "  write: update", "  fieldManager: ' '"), 11, "controllers[0].fieldManager",
			"empty value: leave fieldManager out to use the controller's name"},
		{"field manager too long", c(set, "  write: update", "  fieldManager: "+strings.Repeat("m", 129)), 11, "controllers[0].fieldManager",
			`"` + strings.Repeat("m", 129) + `" is 129 bytes: a real server refuses a field manager longer than 128 (422)`},
		{"controller name too long for a manager", widgetCtrl("- name: "+strings.Repeat("n", 130), "  target: Widget/w1", set, "  write: apply"), 7, "controllers[0].name (its field manager)",
			`"` + strings.Repeat("n", 130) + `" is 130 bytes: a real server refuses a field manager longer than 128 (422)`},
		{"unknown subresource", c(set, "  write: merge-patch", "  subresource: scale"), 11, "controllers[0].subresource",
			`unknown subresource "scale" (want status: the served kinds have no other; leave it out for the object itself)`},
		{"noop typo", c(set, "  write: update", "  noop: always"), 11, "controllers[0].noop",
			`"always": want skip (the default: a write that changes nothing is not sent) or send`},
		{"noop with a body", c("  write: merge-patch", "  body: {spec: {size: 2}}", "  noop: send"), 11, "controllers[0].noop",
			"a hand-written body is always sent: leave noop out"},
		{"body on an update", c("  write: update", "  body: {spec: {size: 2}}"), 10, "controllers[0].body",
			"a hand-written body is for merge-patch, strategic-patch, json-patch and apply, not update (an update sends the whole object it read, changed by its mutations)"},
		{"body and mutations", c(set, "  write: merge-patch", "  body: {spec: {size: 2}}"), 9, "controllers[0].mutations",
			"a hand-written body replaces mutations: give one or the other"},
		{"body and withRV", c("  write: merge-patch", "  withRV: true", "  body: {spec: {size: 2}}"), 10, "controllers[0].withRV",
			"withRV does not go with a hand-written body: write metadata.resourceVersion into the body"},
		{"body and test", c("  write: json-patch", "  test: values", "  body: []"), 10, "controllers[0].test",
			"test does not go with a hand-written body: write the test operations into the body"},
		{"no mutations and no body", c("  write: merge-patch"), 7, "controllers[0]", `missing required field "mutations"`},
		{"merge body naming another object", c("  write: merge-patch", "  body:", "    metadata: {name: w2}"), 11, "controllers[0].body.metadata.name",
			`the target's name is "w1", not "w2": a body names only its own object`},
		{"merge body in another namespace", c("  write: merge-patch", "  body: {metadata: {namespace: kube-system}}"), 10, "controllers[0].body.metadata.namespace",
			`the target's namespace is "default", not "kube-system": a body names only its own object`},
		{"merge body deleting metadata", c("  write: merge-patch", "  body: {metadata: null}"), 10, "controllers[0].body.metadata",
			"want a mapping (it says which object this is), got null"},
		{"merge body of another kind", c("  write: merge-patch", "  body: {kind: ConfigMap}"), 10, "controllers[0].body.kind",
			`the target Widget/default/w1 is kind Widget, not "ConfigMap"`},
		{"null body", c("  write: merge-patch", "  body: null"), 10, "controllers[0].body",
			"empty: want a mapping (for json-patch, a list of operations)"},
		{"merge body that is a list", c("  write: merge-patch", "  body: [a]"), 10, "controllers[0].body",
			"a merge-patch body is a mapping, not a list"},
		{"apply body without kind", c("  write: apply", "  body: {apiVersion: oracle.example.com/v1, spec: {size: 2}}"), 10, "controllers[0].body",
			"an apply configuration needs kind: Widget"},
		{"json patch that is a mapping", c("  write: json-patch", "  body: {op: add}"), 10, "controllers[0].body",
			"a JSON patch is a list of operations ({op, path, value}), not a mapping"},
		{"json patch renaming", c("  write: json-patch", "  body:", "  - op: replace", "    path: /metadata/name", "    value: w2"), 12, "controllers[0].body[0].path",
			`replace "/metadata/name" would change which object this is: a race writes only its own objects`},
		{"json patch moving the namespace", c("  write: json-patch", "  body: [{op: move, from: /metadata/namespace, path: /spec/owner}]"), 10, "controllers[0].body[0].from",
			`move from "/metadata/namespace" would change which object this is: a race writes only its own objects`},
		{"json patch unknown op", c("  write: json-patch", "  body:", "  - {op: upsert, path: /spec/size, value: 1}"), 11, "controllers[0].body[0].op",
			"unknown op upsert (want one of add, remove, replace, move, copy, test)"},
		{"json patch missing value", c("  write: json-patch", "  body:", "  - {op: add, path: /spec/size}"), 11, "controllers[0].body[0]",
			"add needs a value (null is a value)"},
		{"json patch relative path", c("  write: json-patch", "  body:", "  - {op: remove, path: spec/size}"), 11, "controllers[0].body[0].path",
			`want a JSON pointer ("" or starting with /), got spec/size`},
		{"json patch unknown field", c("  write: json-patch", "  body:", "  - {op: remove, path: /spec/size, form: /x}"), 11, "controllers[0].body[0].form",
			`unknown field "form" of a JSON patch operation (want op, path, from, value)`},
		{"json patch move without from", c("  write: json-patch", "  body:", "  - {op: move, path: /spec/size}"), 11, "controllers[0].body[0]",
			"move needs a from (a JSON pointer such as /data/x)"},
		{"strategic $patch value", c("  write: strategic-patch", "  body:", "    spec: {$patch: remove}"), 11, "controllers[0].body.spec.$patch",
			`want replace, merge or delete, got "remove"`},
		{"strategic $setElementOrder not a list", c("  write: strategic-patch", "  body:", "    spec:", "      $setElementOrder/items: a"), 12, `controllers[0].body.spec["$setElementOrder/items"]`,
			"want a list (the directive names its field after the /)"},
		{"strategic unknown directive", c("  write: strategic-patch", "  body:", "    spec: {$retainkeys: [size]}"), 11, "controllers[0].body.spec.$retainkeys",
			"unknown strategic merge patch directive (want $patch, $retainKeys, $setElementOrder/FIELD or $deleteFromPrimitiveList/FIELD)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			wantOneError(t, tc.data, tc.line, tc.field, tc.msg)
		})
	}
}

// A program built in code with a body it may not carry is refused when
// it is saved, like any scenario that would not load.
func TestMarshalRefusesABodyThatWouldNotLoad(t *testing.T) {
	s := mustParse(t, widgetCtrl("- name: a", "  target: Widget/w1", "  write: merge-patch", "  body: {spec: {size: 2}}"))
	s.Controllers[0].Body = map[string]any{"metadata": map[string]any{"name": "w2"}}
	if _, err := Marshal(s); err == nil || !strings.Contains(err.Error(), `the target's name is "w1", not "w2"`) {
		t.Fatalf("Marshal: %v", err)
	}
}
