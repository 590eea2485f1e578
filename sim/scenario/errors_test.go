package scenario

import (
	"errors"
	"strings"
	"testing"
)

// doc joins lines, so that a test reads with its line numbers: line 1 is
// the first argument.
func doc(lines ...string) []byte { return []byte(strings.Join(lines, "\n") + "\n") }

// header is the six lines every case below starts with: a valid object.
var header = []string{
	"name: t",                 // 1
	"objects:",                // 2
	"- apiVersion: v1",        // 3
	"  kind: ConfigMap",       // 4
	"  metadata: {name: cm1}", // 5
	"controllers:",            // 6
}

// tail completes a scenario whose first lines are given.
var tail = []string{
	"objects: [{apiVersion: v1, kind: ConfigMap, metadata: {name: cm1}}]",
	"controllers: [{name: a, target: ConfigMap/cm1, mutations: [remove: data.x], write: update}]",
}

func top(lines ...string) []byte { return doc(append(lines, tail...)...) }

// objs completes a scenario whose objects are given.
func objs(lines ...string) []byte { return doc(append(lines, tail[1])...) }

// ctrl is header plus a controller whose lines follow (line 7 on); the
// controller's name is a and its target cm1 unless overridden.
func ctrl(lines ...string) []byte {
	return doc(append(append([]string{}, header...), lines...)...)
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name  string
		data  []byte
		line  int
		field string
		msg   string
	}{
		// The file as a whole.
		{"empty file", doc(""), 0, "", "no scenario in the file (want a mapping with name, objects and controllers)"},
		{"comment only", doc("# nothing"), 0, "", "no scenario in the file (want a mapping with name, objects and controllers)"},
		{"syntax", doc("name: t", "objects: [", "controllers: x: y"), 2, "", "YAML: did not find expected ',' or ']'"},
		{"tab indent", doc("name: t", "objects:", "\t- a"), 3, "", "YAML: found character that cannot start any token"},
		{"two documents", doc("name: t", "---", "name: u"), 0, "", "more than one YAML document: a scenario file holds one"},
		{"not a mapping", doc("- name: t"), 1, "", "want a mapping, got a list"},
		{"unknown top field", doc("name: t", "objets: []", tail[1]), 2, "", `unknown field "objets" (did you mean "objects"?)`},
		{"unknown top field no suggestion", top("name: t", "frobnicate: 1"), 2, "", `unknown field "frobnicate"`},
		{"no controllers", doc("name: t", tail[0], "controllers: []"), 3, "controllers", "empty: a race needs at least one controller"},
		{"missing name", doc(tail...), 1, "", `missing required field "name"`},
		{"empty name", top("name:"), 1, "name", "empty value"},
		{"repeated field", top("name: t", "name: u"), 2, "", `field "name" given twice`},
		{"merge key", top("name: t", "<<: {lag: 1s}"), 2, "", "merge keys (<<) are not supported"},
		{"missing objects", doc("name: t", tail[1]), 1, "", `missing required field "objects" (the objects that exist before the race)`},
		{"missing controllers", doc("name: t", tail[0]), 1, "", `missing required field "controllers"`},
		{"controllers not a list", doc("name: t", tail[0], "controllers: {a: 1}"), 3, "controllers", "want a list, got a mapping"},

		// Top-level scalars.
		{"lag without unit", top("name: t", "lag: 5"), 2, "lag", `want a duration like 0, 5ms or 2s, or manual, got "5"`},
		{"lag negative", top("name: t", "lag: -1s"), 2, "lag", `want a duration like 0, 5ms or 2s, or manual, got "-1s"`},
		{"startRV negative", top("name: t", "startRV: -1"), 2, "startRV", "must be at least 1, not -1"},
		{"startRV text", top("name: t", "startRV: high"), 2, "startRV", `want an integer, got "high"`},
		{"maxSteps zero", top("name: t", "maxSteps: 0"), 2, "maxSteps", "must be at least 1, not 0"},
		{"seed negative", top("name: t", "seed: -3"), 2, "seed", "want a non-negative integer, got -3"},
		{"seed float", top("name: t", "seed: 1.5"), 2, "seed", `want a non-negative integer, got "1.5"`},

		// Objects.
		{"object not a mapping", objs("name: t", "objects: [cm1]"), 2, "objects[0]", `want a Kubernetes object (a mapping), got "cm1"`},
		{"object unknown kind", objs("name: t", "objects:", "- apiVersion: v1", "  kind: Pod", "  metadata: {name: p}"), 4, "objects[0].kind", `unknown kind "Pod" (want ConfigMap, Deployment or Widget)`},
		{"object wrong apiVersion", objs("name: t", "objects:", "- apiVersion: apps/v1", "  kind: ConfigMap", "  metadata: {name: c}"), 3, "objects[0].apiVersion", `ConfigMap is v1, not "apps/v1"`},
		{"object no apiVersion", objs("name: t", "objects:", "- kind: ConfigMap", "  metadata: {name: c}"), 3, "objects[0]", "missing apiVersion"},
		{"object no metadata", objs("name: t", "objects:", "- apiVersion: v1", "  kind: ConfigMap"), 3, "objects[0]", "missing metadata (with a name)"},
		{"object no name", objs("name: t", "objects:", "- apiVersion: v1", "  kind: ConfigMap", "  metadata:", "    labels: {a: b}"), 6, "objects[0].metadata", "missing name"},
		{"object name not a string", objs("name: t", "objects:", "- apiVersion: v1", "  kind: ConfigMap", "  metadata: {name: 7}"), 5, "objects[0].metadata.name", "want a non-empty string, got 7"},
		{"object namespace empty", objs("name: t", "objects:", "- apiVersion: v1", "  kind: ConfigMap", "  metadata: {name: c, namespace: ''}"), 5, "objects[0].metadata.namespace", "want a non-empty string, got "},
		{"object defined twice", objs("name: t", "objects:", "- {apiVersion: v1, kind: ConfigMap, metadata: {name: c}}", "- {apiVersion: v1, kind: ConfigMap, metadata: {name: c, namespace: default}}"), 4, "objects[1]", "ConfigMap/default/c is already defined by objects[0]"},
		{"object infinity", objs("name: t", "objects:", "- apiVersion: v1", "  kind: ConfigMap", "  metadata: {name: c}", "  data: {x: .inf}"), 6, `objects[0].data.x`, ".inf has no JSON form"},
		{"object huge int", objs("name: t", "objects:", "- apiVersion: v1", "  kind: ConfigMap", "  metadata:", "    name: c", "    labels:", "      app.kubernetes.io/n: !!int 99999999999999999999"), 8, `objects[0].metadata.labels["app.kubernetes.io/n"]`, `integer 99999999999999999999 does not fit in 64 bits`},
		{"object repeated key", objs("name: t", "objects:", "- apiVersion: v1", "  kind: ConfigMap", "  metadata: {name: c}", "  data: {x: a, x: b}"), 6, "objects[0].data", `key "x" given twice`},
		{"object custom tag", objs("name: t", "objects:", "- apiVersion: v1", "  kind: ConfigMap", "  metadata: {name: c}", "  data: {x: !thing a}"), 6, "objects[0].data.x", "unsupported tag !thing"},

		// Controllers.
		{"controller unknown field", ctrl("- name: a", "  target: ConfigMap/cm1", "  mutations: [{set: {path: data.x, value: a}}]", "  wirte: update"), 10, "controllers[0]", `unknown field "wirte" (did you mean "write"?)`},
		{"controller unknown write", ctrl("- name: a", "  target: ConfigMap/cm1", "  mutations: [{set: {path: data.x, value: a}}]", "  write: upsert"), 10, "controllers[0].write", `unknown write method "upsert" (want one of update, update-clear-rv, update-status, merge-patch, strategic-patch, json-patch, apply, create, delete, code)`},
		{"controller write typo", ctrl("- name: a", "  target: ConfigMap/cm1", "  mutations: [{set: {path: data.x, value: a}}]", "  write: merge-ptach"), 10, "controllers[0].write", `unknown write method "merge-ptach" (want one of update, update-clear-rv, update-status, merge-patch, strategic-patch, json-patch, apply, create, delete, code) (did you mean "merge-patch"?)`},
		{"controller missing write", ctrl("- name: a", "  target: ConfigMap/cm1", "  mutations: [{set: {path: data.x, value: a}}]"), 7, "controllers[0]", `missing required field "write" (one of update, update-clear-rv, update-status, merge-patch, strategic-patch, json-patch, apply, create, delete, code)`},
		{"controller missing target", ctrl("- name: a", "  mutations: [{set: {path: data.x, value: a}}]", "  write: update"), 7, "controllers[0]", `missing required field "target" (the object it reconciles, as KIND/NAME or {kind, name, namespace})`},
		{"controller missing mutations", ctrl("- name: a", "  target: ConfigMap/cm1", "  write: update"), 7, "controllers[0]", `missing required field "mutations"`},
		{"controller no mutations", ctrl("- name: a", "  target: ConfigMap/cm1", "  mutations: []", "  write: update"), 9, "controllers[0].mutations", "empty: a controller needs at least one mutation"},
		{"controller not a mapping", ctrl("- a"), 7, "controllers[0]", `want a mapping, got "a"`},
		{"controller bad name", ctrl("- name: a.b", "  target: ConfigMap/cm1", "  mutations: [{remove: data.x}]", "  write: update"), 7, "controllers[0].name", `"a.b": use letters, digits and dashes`},
		{"duplicate controller", ctrl("- {name: a, target: ConfigMap/cm1, mutations: [remove: data.x], write: update}", "- name: a", "  target: ConfigMap/cm1", "  mutations: [{remove: data.x}]", "  write: update"), 8, "controllers[1].name", `duplicate controller name "a" (also controllers[0])`},
		{"target not among objects", ctrl("- name: a", "  target: ConfigMap/cm9", "  mutations: [{remove: data.x}]", "  write: update"), 8, "controllers[0].target", "target ConfigMap/default/cm9 is not among objects"},
		{"target other namespace", ctrl("- name: a", "  target: {kind: ConfigMap, name: cm1, namespace: prod}", "  mutations: [{remove: data.x}]", "  write: update"), 8, "controllers[0].target", "target ConfigMap/prod/cm1 is not among objects"},
		{"target unknown kind", ctrl("- name: a", "  target: Configmap/cm1", "  mutations: [{remove: data.x}]", "  write: update"), 8, "controllers[0].target", `unknown kind "Configmap" (want ConfigMap, Deployment or Widget) (did you mean "ConfigMap"?)`},
		{"target unknown kind map", ctrl("- name: a", "  target:", "    kind: Pod", "    name: cm1", "  mutations: [{remove: data.x}]", "  write: update"), 9, "controllers[0].target.kind", `unknown kind "Pod" (want ConfigMap, Deployment or Widget)`},
		{"target bad short form", ctrl("- name: a", "  target: cm1", "  mutations: [{remove: data.x}]", "  write: update"), 8, "controllers[0].target", `"cm1": want KIND/NAME or KIND/NAMESPACE/NAME, as ConfigMap/cm1`},
		{"target missing name", ctrl("- name: a", "  target: {kind: ConfigMap}", "  mutations: [{remove: data.x}]", "  write: update"), 8, "controllers[0].target", `missing required field "name"`},
		{"read unknown", ctrl("- name: a", "  target: ConfigMap/cm1", "  read: cache", "  mutations: [{remove: data.x}]", "  write: update"), 9, "controllers[0].read", `unknown read source "cache" (want lister or live)`},
		{"test without json-patch", ctrl("- name: a", "  target: ConfigMap/cm1", "  mutations: [{remove: data.x}]", "  write: merge-patch", "  test: values"), 11, "controllers[0].test", "test preconditions are for json-patch, not merge-patch"},
		{"test unknown", ctrl("- name: a", "  target: ConfigMap/cm1", "  mutations: [{remove: data.x}]", "  write: json-patch", "  test: rv"), 11, "controllers[0].test", `unknown test mode "rv" (want none, resourceVersion or values)`},
		{"withRV on update", ctrl("- name: a", "  target: ConfigMap/cm1", "  mutations: [{remove: data.x}]", "  write: update", "  withRV: true"), 11, "controllers[0].withRV", "only patches (merge-patch, strategic-patch, json-patch) can carry a resourceVersion; update already sends the resourceVersion it read"},
		{"withRV not bool", ctrl("- name: a", "  target: ConfigMap/cm1", "  mutations: [{remove: data.x}]", "  write: merge-patch", "  withRV: yes"), 11, "controllers[0].withRV", `want true or false, got "yes"`},
		{"force without apply", ctrl("- name: a", "  target: ConfigMap/cm1", "  mutations: [{remove: data.x}]", "  write: merge-patch", "  force: true"), 11, "controllers[0].force", "force is for apply, not merge-patch"},
		{"retry unknown word", ctrl("- name: a", "  target: ConfigMap/cm1", "  mutations: [{remove: data.x}]", "  write: update", "  retry: forever"), 11, "controllers[0].retry", `"forever": want none, default or {attempts, on, reread, backoff, unbounded}`},
		{"retry unknown field", ctrl("- name: a", "  target: ConfigMap/cm1", "  mutations: [{remove: data.x}]", "  write: update", "  retry: {attempt: 3}"), 11, "controllers[0].retry", `unknown field "attempt" (did you mean "attempts"?)`},
		{"retry attempts zero", ctrl("- name: a", "  target: ConfigMap/cm1", "  mutations: [{remove: data.x}]", "  write: update", "  retry: {attempts: 0}"), 11, "controllers[0].retry.attempts", "must be at least 1, not 0"},
		{"retry on unknown", ctrl("- name: a", "  target: ConfigMap/cm1", "  mutations: [{remove: data.x}]", "  write: update", "  retry:", "    on: 409"), 12, "controllers[0].retry.on", `"409": want conflict, any or test-failed`},
		{"retry reread unknown", ctrl("- name: a", "  target: ConfigMap/cm1", "  mutations: [{remove: data.x}]", "  write: update", "  retry: {reread: cache}"), 11, "controllers[0].retry.reread", `"cache": want live, lister or none`},
		{"retry backoff", ctrl("- name: a", "  target: ConfigMap/cm1", "  mutations: [{remove: data.x}]", "  write: update", "  retry: {backoff: 10}"), 11, "controllers[0].retry.backoff", `want a duration like 0, 5ms or 2s, got "10"`},
		{"retry unbounded with attempts", ctrl("- name: a", "  target: ConfigMap/cm1", "  mutations: [{remove: data.x}]", "  write: update", "  retry:", "    unbounded: true", "    attempts: 3"), 13, "controllers[0].retry.attempts", "an unbounded retry has no attempt limit: leave attempts out"},
		{"requeue negative", ctrl("- name: a", "  target: ConfigMap/cm1", "  mutations: [{remove: data.x}]", "  write: update", "  requeue: {max: -1}"), 11, "controllers[0].requeue.max", "must be at least 0, not -1"},
		{"requeue not a mapping", ctrl("- name: a", "  target: ConfigMap/cm1", "  mutations: [{remove: data.x}]", "  write: update", "  requeue: 3"), 11, "controllers[0].requeue", `want a mapping, got "3"`},
		{"reconciles zero", ctrl("- name: a", "  target: ConfigMap/cm1", "  mutations: [{remove: data.x}]", "  write: update", "  reconciles: 0"), 11, "controllers[0].reconciles", "must be at least 1, not 0"},
		{"controller lag", ctrl("- name: a", "  target: ConfigMap/cm1", "  mutations: [{remove: data.x}]", "  write: update", "  lag: soon"), 11, "controllers[0].lag", `want a duration like 0, 5ms or 2s, or manual, got "soon"`},
		{"field manager empty", ctrl("- name: a", "  target: ConfigMap/cm1", "  mutations: [{remove: data.x}]", "  write: apply", "  fieldManager: ''"), 11, "controllers[0].fieldManager", `empty: an apply needs a field manager (a real server answers 422 "PatchOptions.meta.k8s.io \"\" is invalid: fieldManager: Required value: is required for apply patch"); leave fieldManager out to use the controller's name`},

		// Mutations.
		{"two operations", ctrl("- name: a", "  target: ConfigMap/cm1", "  mutations:", "  - remove: data.y", "    set: {path: data.x, value: a}", "  write: update"), 11, "controllers[0].mutations[0]", "two operations, remove and set: give each its own list item"},
		{"no operation", ctrl("- name: a", "  target: ConfigMap/cm1", "  mutations:", "  - when: {path: data.x, equals: a}", "  write: update"), 10, "controllers[0].mutations[0]", "no operation (want one of set, remove, increment, append, addToSet, removeFromList, addLabel, removeLabel, annotate, removeAnnotation, addFinalizer, removeFinalizer, copy)"},
		{"unknown operation", ctrl("- name: a", "  target: ConfigMap/cm1", "  mutations:", "  - sett: {path: data.x, value: a}", "  write: update"), 10, "controllers[0].mutations[0]", `unknown field "sett" (did you mean "set"?)`},
		{"mutation not a mapping", ctrl("- name: a", "  target: ConfigMap/cm1", "  mutations: [set]", "  write: update"), 9, "controllers[0].mutations[0]", `want a mapping, got "set"`},
		{"set missing value", ctrl("- name: a", "  target: ConfigMap/cm1", "  mutations:", "  - set: {path: data.x}", "  write: update"), 10, "controllers[0].mutations[0].set", `missing required field "value"`},
		{"set null value", ctrl("- name: a", "  target: ConfigMap/cm1", "  mutations:", "  - set: {path: data.x, value: null}", "  write: update"), 10, "controllers[0].mutations[0].set.value", "empty value (to delete a field use remove)"},
		{"set missing path", ctrl("- name: a", "  target: ConfigMap/cm1", "  mutations:", "  - set: {value: a}", "  write: update"), 10, "controllers[0].mutations[0].set", `missing required field "path"`},
		{"set unknown field", ctrl("- name: a", "  target: ConfigMap/cm1", "  mutations:", "  - set: {path: data.x, vale: a}", "  write: update"), 10, "controllers[0].mutations[0].set", `unknown field "vale" (did you mean "value"?)`},
		{"bad path", ctrl("- name: a", "  target: ConfigMap/cm1", "  mutations:", "  - remove: data..x", "  write: update"), 10, "controllers[0].mutations[0].remove", `path "data..x": empty segment at offset 5`},
		{"bad path selector", ctrl("- name: a", "  target: ConfigMap/cm1", "  mutations:", "  - append:", "      path: spec.items[x]", "      value: 1", "  write: update"), 11, "controllers[0].mutations[0].append.path", `path "spec.items[x]": [x] is neither an index, a "quoted key" nor a field=value selector`},
		{"increment by zero", ctrl("- name: a", "  target: ConfigMap/cm1", "  mutations:", "  - increment: {path: data.n, by: 0}", "  write: update"), 10, "controllers[0].mutations[0].increment.by", "must not be 0"},
		{"increment by text", ctrl("- name: a", "  target: ConfigMap/cm1", "  mutations:", "  - increment: {path: data.n, by: one}", "  write: update"), 10, "controllers[0].mutations[0].increment.by", `want an integer, got "one"`},
		{"addLabel two keys", ctrl("- name: a", "  target: ConfigMap/cm1", "  mutations:", "  - addLabel: {a: b, c: d}", "  write: update"), 10, "controllers[0].mutations[0].addLabel", "want one key: value, as {team: a}; give each its own list item"},
		{"addLabel not a mapping", ctrl("- name: a", "  target: ConfigMap/cm1", "  mutations:", "  - addLabel: team", "  write: update"), 10, "controllers[0].mutations[0].addLabel", "want one key: value, as {team: a}; give each its own list item"},
		{"addLabel bracket key", ctrl("- name: a", "  target: ConfigMap/cm1", "  mutations:", "  - addLabel: {'a]b': c}", "  write: update"), 10, "controllers[0].mutations[0].addLabel", `key "a]b" cannot be written as a path (it contains ])`},
		{"addLabel null value", ctrl("- name: a", "  target: ConfigMap/cm1", "  mutations:", "  - addLabel: {team: }", "  write: update"), 10, "controllers[0].mutations[0].addLabel.team", "empty value"},
		{"annotate list value", ctrl("- name: a", "  target: ConfigMap/cm1", "  mutations:", "  - annotate: {note: [a]}", "  write: update"), 10, `controllers[0].mutations[0].annotate.note`, "want a single value, got a list"},
		{"removeLabel empty", ctrl("- name: a", "  target: ConfigMap/cm1", "  mutations:", "  - removeLabel: ''", "  write: update"), 10, "controllers[0].mutations[0].removeLabel", "empty key"},
		{"addFinalizer empty", ctrl("- name: a", "  target: ConfigMap/cm1", "  mutations:", "  - addFinalizer:", "  write: update"), 10, "controllers[0].mutations[0].addFinalizer", "empty value"},
		{"when missing equals", ctrl("- name: a", "  target: ConfigMap/cm1", "  mutations:", "  - set: {path: data.x, value: a}", "    when: {path: data.y}", "  write: update"), 11, "controllers[0].mutations[0].when", `missing required field "equals" (use equals: null for "the field is absent")`},
		{"when bad path", ctrl("- name: a", "  target: ConfigMap/cm1", "  mutations:", "  - set: {path: data.x, value: a}", "    when: {path: '', equals: 1}", "  write: update"), 11, "controllers[0].mutations[0].when.path", "empty value"},

		// Schedule.
		{"schedule unknown controller", doc(append(append([]string{}, header...), "- {name: a, target: ConfigMap/cm1, mutations: [remove: data.x], write: update}", "schedule: [a, b]")...), 8, "schedule[1]", `unknown controller "b" (controllers are a)`},
		{"schedule unknown cache", doc(append(append([]string{}, header...), "- {name: ab, target: ConfigMap/cm1, mutations: [remove: data.x], write: update}", "- {name: cd, target: ConfigMap/cm1, mutations: [remove: data.x], write: update}", "schedule:", "- ab", "- ax.cache")...), 11, "schedule[1]", `unknown controller "ax" (controllers are ab or cd) (did you mean "ab"?)`},
		{"schedule bad suffix", doc(append(append([]string{}, header...), "- {name: a, target: ConfigMap/cm1, mutations: [remove: data.x], write: update}", "schedule: [a.cach]")...), 8, "schedule[0]", `"a.cach": want a controller name, or NAME.cache to deliver the next watch event to NAME's informer`},
		{"schedule not a list", doc(append(append([]string{}, header...), "- {name: a, target: ConfigMap/cm1, mutations: [remove: data.x], write: update}", "schedule: a b")...), 8, "schedule", `want a list, got "a b"`},
		{"schedule empty step", doc(append(append([]string{}, header...), "- {name: a, target: ConfigMap/cm1, mutations: [remove: data.x], write: update}", "schedule: [a, '']")...), 8, "schedule[1]", "empty value"},

		// Hostile input.
		{"alias in unknown field", top(
			"name: t",
			"a: &a [x, x, x, x, x, x, x, x, x, x]",
		), 2, "", `unknown field "a"`},
		{"alias bomb in objects", objs(
			"name: t",
			"objects:",
			"- apiVersion: v1",
			"  kind: ConfigMap",
			"  metadata: {name: c}",
			"  a: &a [x, x, x, x, x, x, x, x, x, x]",
			"  b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]",
			"  c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]",
			"  d: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]",
			"  e: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d, *d]",
			"  f: &f [*e, *e, *e, *e, *e, *e, *e, *e, *e, *e]",
		), 6, "objects[0].f[0][5][2][5][1][7]", "too many nodes (more than 200000, counting what aliases expand to)"},
		{"self-referencing alias", objs(
			"name: t",
			"objects:",
			"- &o {apiVersion: v1, kind: ConfigMap, metadata: {name: c}, data: *o}",
		), 3, "objects[0]" + strings.Repeat(".data", 32) + ".apiVersion", "nested more than 64 levels deep"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse("race.yaml", tc.data)
			if err == nil {
				t.Fatalf("no error for\n%s", tc.data)
			}
			var list ErrorList
			if !errors.As(err, &list) || len(list) == 0 {
				t.Fatalf("error %T %v is not an ErrorList", err, err)
			}
			want := &Error{File: "race.yaml", Line: tc.line, Field: tc.field, Msg: tc.msg}
			if len(list) != 1 || *list[0] != *want {
				t.Errorf("\n got: %v\nwant: %s", err, want)
			}
		})
	}
}

// The message's shape, as the brief and the docs show it.
func TestErrorFormat(t *testing.T) {
	data := ctrl(
		"- name: a", // 7
		"  target: ConfigMap/cm1",
		"  mutations: [{remove: data.x}]",
		"  write: update",
		"- name: b", // 11
		"  target: ConfigMap/cm1",
		"  mutations: [{remove: data.x}]",
		"  write: upsert", // 14
	)
	_, err := Parse("race.yaml", data)
	want := `race.yaml:14: controllers[1].write: unknown write method "upsert" (want one of update, update-clear-rv, update-status, merge-patch, strategic-patch, json-patch, apply, create, delete, code)`
	if err == nil || err.Error() != want {
		t.Errorf("got  %v\nwant %s", err, want)
	}
}

// Every problem is reported, in file order, not just the first.
func TestParseReportsEveryError(t *testing.T) {
	data := ctrl(
		"- name: a",
		"  target: ConfigMap/cm1",
		"  mutations: [{remove: data.x}]",
		"  write: upsert", // 10
		"- name: b",
		"  target: ConfigMap/cm1",
		"  wirte: update", // 13
		"  mutations: [{remove: data.x}]",
		"  read: stale", // 15
	)
	_, err := Parse("race.yaml", data)
	var list ErrorList
	if !errors.As(err, &list) {
		t.Fatalf("got %v", err)
	}
	var lines []int
	for _, e := range list {
		lines = append(lines, e.Line)
	}
	if len(lines) != 3 || lines[0] != 10 || lines[1] != 13 || lines[2] != 15 {
		t.Errorf("error lines %v, want [10 13 15]:\n%v", lines, err)
	}
	// A misspelt required field is not reported missing as well.
	if strings.Contains(err.Error(), "missing") {
		t.Errorf("reported a misspelt field as missing:\n%v", err)
	}
}

func TestLoadNamesThePath(t *testing.T) {
	_, err := Load("testdata/does-not-exist.yaml")
	if err == nil {
		t.Fatal("no error")
	}
	dir := t.TempDir()
	path := dir + "/race.yaml"
	if err := writeFile(path, top("name: t", "bogus: 1")); err != nil {
		t.Fatal(err)
	}
	_, err = Load(path)
	if err == nil || !strings.HasPrefix(err.Error(), path+":2: ") {
		t.Errorf("got %v, want an error at %s:2", err, path)
	}
}
