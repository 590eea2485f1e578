package scenario

import (
	"errors"
	"os"
	"reflect"
	"testing"
	"unicode/utf8"

	"github.com/conflictlab/conflictlab/sim/controller"
)

// FuzzParse: no input makes Parse panic; every failure is an ErrorList of
// placed errors; every success marshals, parses back to the same scenario,
// and marshals to the same bytes again.
//
//	go test ./sim/scenario -run '^$' -fuzz FuzzParse -fuzztime 60s
func FuzzParse(f *testing.F) {
	for _, file := range exampleFiles(f) {
		data, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add(ctrl("- name: a", "  target: ConfigMap/cm1", "  mutations:",
		"  - {set: {path: spec.replicas, value: 3}, when: {path: status.phase, equals: Ready}}",
		"  - addLabel: {app.kubernetes.io/name: web}", "  - removeAnnotation: note",
		"  - increment: {path: data.count, by: 2}", "  - removeFromList: {path: spec.items, value: x}",
		"  write: json-patch", "  test: values", "  withRV: true",
		"  retry: {unbounded: true, on: any, reread: lister, backoff: 1ms}", "  requeue: {max: 3, baseDelay: 5ms}",
		"  reconciles: 2", "  lag: manual"))
	for _, m := range []string{
		"set: {path: 'metadata.labels[\"a.b/c\"]', value: {k: [1, 2.5, true, null]}}",
		"remove: spec.template.spec.containers[name=app].image",
		"append: {path: data.log, value: a}",
		"addToSet: {path: spec.items, value: 1}",
		"removeLabel: example.com/tier",
		"annotate: {note: 2026-01-01}",
		"removeFinalizer: x.io/a",
		"{addFinalizer: x.io/a, when: {path: metadata.deletionTimestamp, equals: null}}",
	} {
		f.Add(ctrl("- name: a", "  target: {kind: ConfigMap, name: cm1}", "  mutations:", "  - "+m, "  write: apply", "  force: true", "  retry: default"))
	}
	f.Add(doc("name: t", "objects:", "- &o {apiVersion: v1, kind: ConfigMap, metadata: {name: c}, data: *o}"))
	f.Add(doc("name: t", "a: &a [x, x]", "b: &b [*a, *a]"))
	f.Add([]byte("name: [unclosed\n"))
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := Parse("fuzz.yaml", data)
		if err != nil {
			var list ErrorList
			if !errors.As(err, &list) || len(list) == 0 {
				t.Fatalf("error %T is not a non-empty ErrorList: %v", err, err)
			}
			for _, e := range list {
				if e.File != "fuzz.yaml" || e.Line < 0 || e.Msg == "" {
					t.Fatalf("badly placed error %#v", e)
				}
			}
			return
		}
		out, err := Marshal(s)
		if err != nil {
			t.Fatalf("Marshal of a parsed scenario: %v\ninput:\n%s", err, data)
		}
		back, err := Parse("fuzz.yaml", out)
		if err != nil {
			t.Fatalf("Parse(Marshal(s)): %v\n%s", err, out)
		}
		if !reflect.DeepEqual(back, s) {
			t.Fatalf("round trip changed the scenario:\ninput:\n%s\noutput:\n%s\nbefore %#v\nafter  %#v", data, out, s, back)
		}
		again, err := Marshal(back)
		if err != nil || string(again) != string(out) {
			t.Fatalf("Marshal not stable (%v):\n%s\n---\n%s", err, out, again)
		}
	})
}

// FuzzMarshalStrings: any text, wherever a scenario holds a string, comes
// back from Marshal and Parse as it was, or Marshal refuses it.
//
//	go test ./sim/scenario -run '^$' -fuzz FuzzMarshalStrings -fuzztime 30s
func FuzzMarshalStrings(f *testing.F) {
	for _, s := range []string{"", "1", "true", "null", "~", "a: b", "- x", "#c", "*a", "&a", "!t", "%x", "@x", "`x",
		"line\nline", "trailing\n", "\n", " lead", "tab\tx", "\"", "'", "{", "[", "2026-01-01", "0x10", "1e3", ".inf",
		"yes", "<<", "---", "...", "\u00a0", "\u2028", "\ufeff", "\x01", "ß☃"} {
		f.Add(s, "k")
	}
	f.Add("v", "app.kubernetes.io/name")
	f.Add("v", "a\"b")
	f.Fuzz(func(t *testing.T, v, key string) {
		s, err := Parse("f.yaml", ctrl("- name: a", "  target: ConfigMap/cm1", "  mutations: [{remove: data.x}]", "  write: update"))
		if err != nil {
			t.Fatal(err)
		}
		s.Description = v
		s.Objects[0].Object["data"] = map[string]any{key: v, "list": []any{v}}
		s.Controllers[0].Mutations = append(s.Controllers[0].Mutations,
			controller.Mutation{Op: controller.Set, Path: controller.MustPath("data.y"), Value: v},
			controller.Mutation{Op: controller.AddToSet, Path: controller.MustPath("metadata.finalizers"), Value: v,
				When: &controller.Condition{Path: controller.MustPath("data.z"), Equals: v}},
		)
		if path, ok := mapEntryPath(labelsPath, key); ok {
			s.Controllers[0].Mutations = append(s.Controllers[0].Mutations,
				controller.Mutation{Op: controller.Set, Path: controller.MustPath(path), Value: v},
				controller.Mutation{Op: controller.Remove, Path: controller.MustPath(path)})
		}
		out, err := Marshal(s)
		if err != nil {
			if !utf8.ValidString(v) || !utf8.ValidString(key) {
				return
			}
			t.Fatalf("Marshal refused %q / %q: %v", v, key, err)
		}
		back, err := Parse("f.yaml", out)
		if err != nil {
			t.Fatalf("%v\n%s", err, out)
		}
		if !reflect.DeepEqual(back, s) {
			t.Fatalf("value %q key %q changed:\n%s", v, key, out)
		}
	})
}
